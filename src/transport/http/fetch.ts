/**
 * The Web-standard adapter: `(Request) => Promise<Response>`, for any runtime with fetch
 * types (Deno, Bun, workers, a Node framework's fetch handler). It serves every path it is
 * given (mount it where it belongs); its body is read through the stream, up to the limit and at the pace the options set.
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

/** A Web-standard handler: `(Request) => Promise<Response>`. */
export const toFetchHandler = <U extends AnyTool>(server: Server<U>, options: HttpOptions = {}) => {
  const chain = httpChain(server, options)
  return async (request: Request): Promise<Response> => {
    const reply = await chain.handle(new FetchRequest(request))
    return new Response(webBody(reply.body), { status: reply.status, headers: reply.headers })
  }
}

// ---------------------------------------------------------------------------------------
// internals

/** A Web Request as the chain sees it. */
class FetchRequest implements HttpRequest {
  readonly method: string
  readonly signal: AbortSignal
  identity: Identity | undefined = undefined
  message: unknown = undefined
  constructor(private readonly request: Request) {
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
