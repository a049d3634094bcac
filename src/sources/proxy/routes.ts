/**
 * What the upstream asks or says in the middle of a request (elicitation, sampling, roots,
 * logging), relayed to the downstream client whose request it serves. The SDK client hands
 * these to one handler per method, without saying which of our requests they belong to; the
 * request's own context is found instead through `AsyncLocalStorage`: an HTTP upstream's
 * answer stream (and a 2026-07-28 `input_required` round) is read inside the call that sent
 * the request, so the store still holds that call's context. A stdio upstream reads its pipe
 * outside any call; there the request goes to the latest call still running, which is the
 * right one whenever calls do not overlap.
 *
 * @example
 * import { routes } from './routes.js'
 * const r = routes()
 * // await r.within(ctx, () => client.callTool(...)); r.current() is ctx meanwhile
 */
import { AsyncLocalStorage } from 'node:async_hooks'
import type { Client } from '@modelcontextprotocol/client'
import type { ElicitSchema, SamplingRequest, ToolContext } from '../../server/context.js'
import { logLevels, type LogLevel } from '../../server/session.js'
import type { Hub } from '../../server/hub.js'
import { isObject } from '../../util/json-object.js'

// ---------------------------------------------------------------------------------------
// model

/** The contexts of the requests being relayed now. */
export interface Routes {
  /** Runs `f` as part of the request whose context is `ctx`. */
  readonly within: <A>(ctx: ToolContext, f: () => Promise<A>) => Promise<A>
  /** The context of the request an upstream message belongs to, if any is running. */
  readonly current: () => ToolContext | undefined
}

// ---------------------------------------------------------------------------------------
// constructors

/** An empty set of routes. */
export const routes = (): Routes => {
  const store = new AsyncLocalStorage<ToolContext>()
  const running: ToolContext[] = []
  return {
    within: async (ctx, f) => {
      running.push(ctx)
      try {
        return await store.run(ctx, f)
      } finally {
        running.splice(running.lastIndexOf(ctx), 1)
      }
    },
    current: () => store.getStore() ?? running[running.length - 1],
  }
}

// ---------------------------------------------------------------------------------------
// functions

/**
 * Answers the upstream's requests to the client (elicitation, sampling, roots) by asking the
 * downstream client of the running request, and passes its log messages on (to that client,
 * else to every connected one). An upstream request outside any relayed request is refused.
 */
export const relayToClient = (client: Client, r: Routes, hub: Hub): void => {
  const caller = (what: string): ToolContext => {
    const ctx = r.current()
    if (ctx === undefined) throw new Error(`${what}: no request of a client is being relayed now, so nobody can be asked`)
    return ctx
  }
  client.setRequestHandler('elicitation/create', async (req) => {
    const ctx = caller('elicitation/create')
    const p = req.params as { readonly mode?: string; readonly message: string; readonly url?: string; readonly elicitationId?: string; readonly requestedSchema?: unknown }
    if (p.mode === 'url') return ctx.elicitUrl({ message: p.message, url: String(p.url), elicitationId: String(p.elicitationId) })
    // the downstream client checks the schema; emcp passes it as the upstream wrote it
    return (await ctx.elicit({ message: p.message, requestedSchema: p.requestedSchema as ElicitSchema })) as { action: 'accept' | 'decline' | 'cancel' }
  })
  client.setRequestHandler('sampling/createMessage', async (req) => {
    const result = await caller('sampling/createMessage').sample(req.params as unknown as SamplingRequest)
    return result as never
  })
  client.setRequestHandler('roots/list', async () => ({ roots: [...(await caller('roots/list').roots())] }) as never)
  client.setNotificationHandler('notifications/message', (n) => {
    const { level, data, logger } = n.params
    const ctx = r.current()
    if (ctx !== undefined) ctx.log(level as LogLevel, data, logger)
    // outside any request: to every session whose log level lets it through
    else hub.broadcast('notifications/message', isObject(n.params) ? n.params : {}, (s) => logLevels.indexOf(level as LogLevel) >= logLevels.indexOf(s.logLevel ?? 'debug'))
  })
}
