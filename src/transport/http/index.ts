/**
 * `emcp/http`: the HTTP transport. Each request runs down a chain of small steps (see
 * core.ts for the order): the Host/Origin guards, CORS, your own `use` steps, the endpoint's
 * path, the drain, auth, the stateful GET/DELETE, the POST's head checks, the body (read and
 * parsed once), the 2026-07-28 era, and the stateless or stateful end. Two adapters drive
 * it: a Node `http` listener (and `serveHttp`) and a Web-standard fetch handler.
 *
 * @example
 * import { emcp, mcpServer } from 'emcp'
 * import { serveHttp } from 'emcp/http'
 * const echo = emcp({ name: 'echo', input: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } })
 * const server = mcpServer([echo], { name: 'e', version: '1' }).implement({ echo: ({ text }) => text })
 * const running = await serveHttp(server, { port: 3000 }) // http://127.0.0.1:3000/mcp
 * await running.close()
 */
import type { AnyTool } from '../../contract/emcp.js'
import type { Server } from '../../server/server.js'
import type { Identity } from '../../server/session.js'
import { httpChain } from './core.js'
import type { BodyPace, BodyRead, HttpOptions, HttpReply, HttpRequest, HttpRequestHead } from './model.js'
import type { HttpSessions } from './sessions.js'

export type { BearerAuth, BodyPace, BodyRead, HttpHandler, HttpMiddleware, HttpOptions, HttpReply, HttpRequest, HttpRequestHead, RunningHttp, ServeHttpOptions } from './model.js'
export { compose } from './compose.js'
export { readWebBody } from './body-pace.js'
export { httpChain, type HttpChain } from './core.js'
export { toFetchHandler, type FetchHandler, type FetchOptions } from './fetch.js'
export { toNodeListener } from './node.js'
export { serveHttp } from './serve.js'
export { playgroundAnswer, playgroundRoutes, type PlaygroundOptions, type PlaygroundSetup } from './playground.js'
export { serverCardPath, serverCardRoute, type ServerCardOptions } from './server-card.js'
export { httpSessions, type HttpSession, type HttpSessions, type SessionOptions } from './sessions.js'
export { memoryEventStore, type EventStore, type Replay } from '../../stores/event-store.js'
export { sseStream, type SseOptions, type SseStream } from './sse.js'

// ---------------------------------------------------------------------------------------
// constructors

/**
 * The transport as one function of a request's head and a body reader: the chain without an
 * adapter, for hosts that bring their own (the body is read at most once, through `readBody`;
 * a reader that honours its `pace` gives slow bodies their 408 and reserves a body's bytes in
 * the budget as they come, as `readWebBody` does for a Web stream).
 */
export const httpCore = <U extends AnyTool>(server: Server<U>, options: HttpOptions = {}) => {
  const chain = httpChain(server, options)
  const handle = (head: HttpRequestHead, readBody: (limit: number, pace?: BodyPace) => Promise<BodyRead>): Promise<HttpReply> => chain.handle(new HeadRequest(head, readBody))
  return Object.assign(handle, { sessions: chain.sessions, drain: chain.drain, endStreams: chain.endStreams }) as typeof handle & {
    readonly sessions: HttpSessions | undefined
    /** Refuses new requests from now on; resolves (true) once none is in flight, or false at the deadline. */
    readonly drain: (timeoutMs: number) => Promise<boolean>
    readonly endStreams: () => void
  }
}

// ---------------------------------------------------------------------------------------
// internals

/** A head given by a host, as the chain sees it (its signal read when asked: a host may make it lazily). */
class HeadRequest implements HttpRequest {
  identity: Identity | undefined = undefined
  message: unknown = undefined
  constructor(
    private readonly head: HttpRequestHead,
    readonly readBody: (limit: number, pace?: BodyPace) => Promise<BodyRead>,
  ) {}
  get method(): string {
    return this.head.method
  }
  get path(): string | undefined {
    return this.head.path
  }
  get signal(): AbortSignal | undefined {
    return this.head.signal
  }
  get remoteAddress(): string | undefined {
    return this.head.remoteAddress
  }
  header(name: string): string | undefined {
    return this.head.header(name)
  }
}
