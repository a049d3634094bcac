/**
 * The everything example on Cloudflare Workers (workerd): a module worker whose `fetch` is
 * emcp's fetch handler, stateless (an isolate keeps no session between requests, and
 * requests may land on any isolate), both eras: 2026-07-28, and 2025-11-25 without sessions.
 * A call handed off to a task keeps running after its answer through `ctx.waitUntil`, which
 * the handler takes from the worker's third argument. No `nodejs_compat` flag is needed.
 * For 2025-11-25 sessions in Durable Objects, see worker-sessions.ts beside it.
 *
 *   npx wrangler deploy examples/runtimes/worker.ts   # or bundle it and serve it with workerd
 *
 * `REQUEST_STATE_KEYS` (a secret binding, comma-separated, the first signs) lets any isolate
 * verify the `requestState` another one signed; without it each isolate has its own key.
 *
 * @example
 * import worker from './worker.js'
 * const res = await worker.fetch(new Request('http://127.0.0.1/mcp', { method: 'POST', body: '{}' }), {}, { waitUntil: () => undefined })
 */
import { requestStateKeysFrom, toFetchHandler, type FetchHandler } from 'emcp/fetch'
import { everythingServer } from '../everything-server.js'

/** The bindings this worker reads. */
interface Env {
  readonly REQUEST_STATE_KEYS?: string
}

/** The worker's handler, made on the first request (bindings arrive with requests, not at load). */
let handler: FetchHandler | undefined

export default {
  fetch: (request: Request, env: Env, ctx: { readonly waitUntil: (work: Promise<unknown>) => void }): Promise<Response> => {
    handler ??= toFetchHandler(everythingServer({ requestStateKeys: requestStateKeysFrom(env.REQUEST_STATE_KEYS) }), { path: '/mcp' })
    return handler(request, env, ctx)
  },
}
