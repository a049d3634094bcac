/**
 * The Web-standard adapter: `(Request) => Promise<Response>`, for any runtime with fetch
 * types (Deno, Bun, workers, a Node framework's fetch handler). It serves every path it is
 * given (mount it where it belongs); its body is read through the stream, up to the limit and at the pace the options set.
 * It takes the runtimes' own second and third arguments as they come, so it can be their
 * handler as it is: Deno's `ServeHandlerInfo` and Bun's server give the client's address
 * (for the per-client limits), a worker's `ctx.waitUntil` keeps a task's handler running
 * after the call's answer. Nothing here needs a Node module.
 *
 * @example
 * import { toFetchHandler } from 'emcp/http'
 * const handle = toFetchHandler(server)
 * const res = await handle(new Request('http://127.0.0.1/mcp', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"ping"}' }))
 */
import type { AnyTool } from '../../contract/emcp.js'
import type { Server } from '../../server/server.js'
import type { Identity } from '../../server/session.js'
import { httpChain } from './core.js'
import { declaredLength, readWebBody } from './body-pace.js'
import type { BodyPace, BodyRead, HttpOptions, HttpRequest } from './model.js'

// ---------------------------------------------------------------------------------------
// constructors

/** A Web-standard handler: `(Request) => Promise<Response>`; also a worker's `fetch(request, env, ctx)`, `Deno.serve`'s and `Bun.serve`'s. */
export const toFetchHandler = <U extends AnyTool>(server: Server<U>, options: FetchOptions = {}): FetchHandler => {
  const chain = httpChain(server, options)
  return async (request, host, ctx) => {
    const reply = await chain.handle(new FetchRequest(request, addressFrom(request, host), waitUntilOf(ctx)))
    return new Response(webBody(reply.body), { status: reply.status, headers: reply.headers })
  }
}

/** The transport's options, and optionally the one path served (other paths get 404; without it, every path is the endpoint). */
export interface FetchOptions extends HttpOptions {
  readonly path?: string
}

/**
 * A fetch handler. `host` is what a runtime passes second (Deno's `ServeHandlerInfo`, Bun's
 * server, a worker's `env`), `ctx` what a worker passes third (its `ExecutionContext`).
 */
export type FetchHandler = (request: Request, host?: unknown, ctx?: { readonly waitUntil?: (work: Promise<unknown>) => void } | unknown) => Promise<Response>

// ---------------------------------------------------------------------------------------
// internals

/** A Web Request as the chain sees it. */
class FetchRequest implements HttpRequest {
  readonly method: string
  readonly signal: AbortSignal
  identity: Identity | undefined = undefined
  message: unknown = undefined
  constructor(
    private readonly request: Request,
    readonly remoteAddress: string | undefined,
    readonly waitUntil: ((work: Promise<unknown>) => void) | undefined,
  ) {
    this.method = request.method
    this.signal = request.signal
  }
  get path(): string | undefined {
    return urlOf(this.request.url)?.pathname
  }
  header(name: string): string | undefined {
    // a Request built in code has no Host header: its URL says which host it is for
    return this.request.headers.get(name) ?? (name === 'host' ? urlOf(this.request.url)?.host || undefined : undefined)
  }
  readBody(limit: number, pace?: BodyPace): Promise<BodyRead> {
    return readWebBody(this.request.body, declaredLength(this.request.headers.get('content-length')), limit, pace)
  }
}

/** The client's address where the runtime says it: Deno's `info.remoteAddr`, Bun's `server.requestIP(request)`. */
const addressFrom = (request: Request, host: unknown): string | undefined => {
  if (typeof host !== 'object' || host === null) return undefined
  const deno = (host as { readonly remoteAddr?: { readonly hostname?: unknown } }).remoteAddr?.hostname
  if (typeof deno === 'string') return deno
  const bun = host as { readonly requestIP?: (r: Request) => { readonly address?: unknown } | null }
  if (typeof bun.requestIP !== 'function') return undefined
  try {
    const address = bun.requestIP(request)?.address
    return typeof address === 'string' ? address : undefined
  } catch {
    return undefined
  }
}

/** A worker's `ctx.waitUntil`, bound (the runtime checks its receiver). */
const waitUntilOf = (ctx: unknown): ((work: Promise<unknown>) => void) | undefined => {
  const waitUntil = typeof ctx === 'object' && ctx !== null ? (ctx as { readonly waitUntil?: unknown }).waitUntil : undefined
  return typeof waitUntil === 'function' ? (work) => (waitUntil as (w: Promise<unknown>) => void).call(ctx, work) : undefined
}

const urlOf = (url: string): URL | undefined => {
  try {
    return new URL(url)
  } catch {
    return undefined
  }
}

/** A Web body: text as is, an SSE stream as a ReadableStream of its chunks. */
const webBody = (body: string | AsyncIterable<string>): BodyInit | null => {
  if (typeof body === 'string') return body === '' ? null : body
  const chunks = body[Symbol.asyncIterator]()
  const encoder = new TextEncoder()
  return new ReadableStream<Uint8Array>({
    pull: async (controller) => {
      const next = await chunks.next()
      if (next.done === true) controller.close()
      else controller.enqueue(encoder.encode(next.value))
    },
    cancel: async () => {
      await chunks.return?.()
    },
  })
}
