/// <reference types="node" preserve="true" />
/**
 * The Node adapter: a `node:http` request listener that runs the chain on a request object
 * made straight from the IncomingMessage (no Web Request is built, for speed), reads the
 * body only when the chain asks, and writes the reply: text whole, an SSE stream chunk by
 * chunk with backpressure. A body the answer came before is read and thrown away for a
 * bounded time (`lingerMs`, `maxLingerBytes`), so that every client reads its 413.
 *
 * @example
 * import { createServer } from 'node:http'
 * import { toNodeListener } from 'emcp/http'
 * createServer(toNodeListener(server, { path: '/mcp' })).listen(3000, '127.0.0.1')
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { AnyTool } from '../../contract/emcp.js'
import type { Server } from '../../server/server.js'
import type { Identity } from '../../server/session.js'
import { httpChain } from './core.js'
import { pathOf } from './endpoint.js'
import type { BodyPace, BodyRead, HttpOptions, HttpRequest } from './model.js'
import { linger, readNodeBody, send } from './node-io.js'

// ---------------------------------------------------------------------------------------
// constructors

/** A Node `http` request listener; with `path`, requests for other paths get 404. */
export const toNodeListener = <U extends AnyTool>(server: Server<U>, options: HttpOptions & { readonly path?: string } = {}) => {
  const chain = httpChain(server, options)
  const bounds = { ms: options.lingerMs ?? 5_000, bytes: options.maxLingerBytes ?? 64 * 1024 * 1024 }
  const listener = (req: IncomingMessage, res: ServerResponse): void => handle(req, res, false)
  const handle = (req: IncomingMessage, res: ServerResponse, awaitingContinue: boolean): void => {
    const request = new NodeRequest(req, res, awaitingContinue)
    void chain.handle(request).then((reply) => {
      // a body refused before its end (413, 408, 401, 415 ...) is read and thrown away for a while, so the client reads the answer;
      // Node would close a connection the client asked to close at once, with its bytes unread: the reset would hide the answer
      const unread = !req.complete && !req.destroyed
      if (unread && request.awaitingContinue) {
        // told no 100 Continue, the client sends no body: close after the answer rather than
        // read the next request's bytes as this one's body
        res.shouldKeepAlive = false
        send(res, reply)
        return
      }
      const closeAfter = unread && !res.shouldKeepAlive
      if (unread) res.shouldKeepAlive = true
      send(res, reply)
      linger(req, { ...bounds, closeAfter })
    })
  }
  /**
   * For the server's 'checkContinue' event: a request sent with `Expect: 100-continue` is told
   * to go on only when the chain reads its body, so a refusal (413, 401, 415 ...) reaches the
   * client before it uploads anything.
   */
  const onCheckContinue = (req: IncomingMessage, res: ServerResponse): void => handle(req, res, true)
  return Object.assign(listener, { sessions: chain.sessions, drain: chain.drain, endStreams: chain.endStreams, onCheckContinue })
}

// ---------------------------------------------------------------------------------------
// internals

/**
 * A Node request as the chain sees it. The client going away before the answer is complete
 * ends any stream it was reading; the AbortSignal that says so is made only when asked for
 * (streams ask). Both the signal and a getter on a per-request literal outlive the young
 * generation: either one made the peak memory of a stateless server under load 1.5 times
 * higher. A class keeps the getter on its prototype.
 */
class NodeRequest implements HttpRequest {
  readonly method: string
  readonly remoteAddress: string | undefined
  identity: Identity | undefined = undefined
  message: unknown = undefined
  bodyRead = false
  private gone: AbortController | undefined = undefined
  private cut = false
  constructor(
    private readonly req: IncomingMessage,
    private readonly res: ServerResponse,
    /** Sent with `Expect: 100-continue` and not yet told to go on. */
    public awaitingContinue: boolean,
  ) {
    this.method = req.method ?? 'GET'
    this.remoteAddress = req.socket.remoteAddress
    res.once('close', () => {
      if (res.writableFinished) return
      this.cut = true
      this.gone?.abort()
    })
  }
  get path(): string {
    return pathOf(this.req.url)
  }
  header(name: string): string | undefined {
    const v = this.req.headers[name]
    return Array.isArray(v) ? v.join(', ') : v
  }
  readBody(limit: number, pace?: BodyPace): Promise<BodyRead> {
    this.bodyRead = true
    // a declared length over the limit is refused unread: no Continue for it
    const declared = Number(this.req.headers['content-length'])
    if (this.awaitingContinue && !(declared > limit)) {
      this.awaitingContinue = false
      this.res.writeContinue()
    }
    return readNodeBody(this.req, limit, pace)
  }
  get signal(): AbortSignal {
    if (this.gone === undefined) {
      this.gone = new AbortController()
      if (this.cut) this.gone.abort()
    }
    return this.gone.signal
  }
}
