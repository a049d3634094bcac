/**
 * The end of the chain without sessions (2025-11-25 era): each POST is dispatched in a
 * session of its own, made for it and gone with it. Such a request has no channel back: its
 * `initialize` does not offer what needs one (list_changed notifications, resource
 * subscriptions), and `resources/subscribe` is refused rather than acknowledged for updates
 * that could never arrive. A tool call's own progress and log notifications still reach a
 * client that accepts SSE: the first of them turns the answer into an SSE stream (2025-11-25
 * allows a POST's answer to carry notifications about its request), which then carries the
 * result; a call that sends none is answered as JSON. Closing that stream cancels the call.
 *
 * @example
 * import { stateless } from './stateless.js'
 * const end = stateless(server) // an HttpHandler; end.releaseAll() aborts the calls in flight
 */
import * as O from 'fp-ts/lib/Option.js'
import { isObject } from '../../util/json-object.js'
import { encode, failure, isRequestId, rpcError, type Outgoing, type RequestId } from '../../protocol/jsonrpc.js'
import { assumedHttpVersion, isSupportedVersion } from '../../protocol/versions.js'
import type { Server } from '../../server/server.js'
import { newSession, type Session, type SessionOrigin } from '../../server/session.js'
import type { HttpHandler, HttpReply, HttpRequest } from './model.js'
import { accepted, json, refuse, replyOf, sseHeaders } from './reply.js'
import { sseStream, type SseStream } from './sse.js'
import type { Outbound, ServerMessage } from '../../server/outbound.js'
import { clip } from '../../util/clip.js'
import { links, type Links } from '../../util/links.js'
import type { InFlight } from '../drain.js'
import { acceptsEventStream } from './negotiate.js'

// ---------------------------------------------------------------------------------------
// constructors

/** Where a stateless request's session comes from: HTTP, with no MCP session id. */
const http: SessionOrigin = { transport: 'http' }

/**
 * The stateless end of `server`'s chain; `releaseAll` aborts the calls still running (a drain past
 * its deadline). `streaming`, when given, counts a call whose answer became an SSE stream until its
 * result is out: its request left the chain (and the drain's count) when the stream's headers did.
 */
export const stateless = (server: Server, streaming?: InFlight): HttpHandler & { readonly releaseAll: () => void } => {
  // the sessions with a call running (a list, not a Set: links.ts says why)
  const running = links<Session>()
  const handle: HttpHandler = async (req) => {
    const m = req.message
    if (isObject(m) && isRequestId(m.id) && m.method === 'tools/call' && acceptsEventStream(req.header('accept'))) return relayed(server, req, m.id, running, streaming)
    const session = fresh(req)
    if (isObject(m) && isRequestId(m.id) && (m.method === 'initialize' || m.method === 'resources/subscribe')) return withoutChannel(server, req, session)
    const link = running.add(session)
    try {
      return replyOf(await server.dispatch(m, session)())
    } finally {
      running.remove(link)
    }
  }
  const releaseAll = (): void => {
    for (const s of running.values()) server.release(s)
  }
  return Object.assign(handle, { releaseAll })
}

// ---------------------------------------------------------------------------------------
// internals

/** A stateless request's own session, at the revision its header names (a function, not a closure per request). */
const fresh = (req: HttpRequest, channel?: Outbound): Session => {
  const version = req.header('mcp-protocol-version')
  const s = newSession(version !== undefined && isSupportedVersion(version) ? version : assumedHttpVersion, channel, req.waitUntil === undefined ? http : { ...http, waitUntil: req.waitUntil })
  s.identity = req.identity
  return s
}


/**
 * A tool call whose notifications about itself go on its own answer, an SSE stream opened by
 * the first of them; anything else the server would send (a question to the client, a
 * notification of no request) has no way back and is not sent.
 */
const relayed = (server: Server, req: HttpRequest, id: RequestId, running: Links<Session>, streaming: InFlight | undefined): Promise<HttpReply> =>
  new Promise((resolve) => {
    let stream: SseStream | undefined
    let left = false
    let leave: (() => void) | undefined
    const send = (message: ServerMessage, related?: RequestId): void => {
      if (left || related !== id || 'id' in message) return
      if (stream === undefined) {
        stream = sseStream(crypto.randomUUID(), { ids: false, onEnd: (complete) => complete || gone() })
        // the request's abort signal is asked for only now: made for every call, it costs memory under load
        const signal = req.signal
        if (signal?.aborted === true) gone()
        else signal?.addEventListener('abort', gone, { once: true })
        // entered before the reply leaves the chain, so that a drain never sees the call as done
        leave = streaming?.enter()
        resolve({ status: 200, headers: sseHeaders, body: stream.body })
      }
      stream.send(JSON.stringify(message))
    }
    // a channel for notifications only, with nothing per call to set up (most calls send none)
    const channel: Outbound = {
      notify: (method, params, related) => send(params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params }, related),
      request: (method) => Promise.reject(new Error(`${method} cannot be sent: a stateless endpoint has no way back from the client`)),
      settle: () => false,
      close: () => undefined,
      pending: () => 0,
      asks: false,
    }
    const session = fresh(req, channel)
    // the reader gone: the call is cancelled, as on a session's stream
    const gone = (): void => {
      if (left) return
      left = true
      stream?.close()
      void server.dispatch({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason: 'the client closed the stream' } }, session)()
    }
    const link = running.add(session)
    server
      .dispatch(req.message, session)()
      .then(
        (out) => {
          if (stream === undefined) return resolve(replyOf(out))
          if (O.isSome(out)) stream.send(encode(out.value))
          stream.close()
        },
        (e: unknown) => {
          if (stream === undefined) return resolve(refuse(500, `Internal Server Error: ${clip(e instanceof Error ? e.message : String(e))}`))
          stream.close()
        },
      )
      .finally(() => {
        left = true
        if (stream !== undefined) req.signal?.removeEventListener('abort', gone)
        running.remove(link)
        leave?.()
      })
  })

/** `initialize` without the capabilities that need a channel; `resources/subscribe` refused. */
const withoutChannel = async (server: Server, req: HttpRequest, session: Session): Promise<HttpReply> => {
  const message = req.message as { readonly id: RequestId; readonly method: string }
  if (message.method === 'resources/subscribe')
    return json(200, failure(message.id, rpcError('MethodNotFound', 'Method not found: resources/subscribe needs a session to send updates on; this endpoint is stateless')))
  const out = await server.dispatch(message, session)()
  if (O.isNone(out)) return accepted
  const reply = out.value as Outgoing
  if (!('result' in reply)) return json(200, reply)
  const result = reply.result as { readonly capabilities?: { readonly [name: string]: unknown } }
  return json(200, { ...reply, result: { ...result, capabilities: channelFree(result.capabilities ?? {}) } })
}

const stripped = new WeakMap<object, { readonly [name: string]: unknown }>()

/**
 * Capabilities without the ones that promise notifications: `listChanged` flags and resource
 * `subscribe`. A server's capabilities are one object for its lifetime: each is stripped once.
 */
const channelFree = (capabilities: { readonly [name: string]: unknown }): { readonly [name: string]: unknown } => {
  const known = stripped.get(capabilities)
  if (known !== undefined) return known
  const out: Record<string, unknown> = {}
  for (const [name, value] of Object.entries(capabilities)) {
    if (!isObject(value) || !('listChanged' in value || 'subscribe' in value)) {
      out[name] = value
      continue
    }
    const { listChanged: _l, subscribe: _s, ...rest } = value
    out[name] = rest
  }
  stripped.set(capabilities, out)
  return out
}
