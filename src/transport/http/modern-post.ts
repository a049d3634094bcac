/**
 * Streamable HTTP under 2026-07-28: each POST stands alone (no session, whatever
 * `MCP-Session-Id` says), its headers must match its body (`MCP-Protocol-Version`,
 * `Mcp-Method`, `Mcp-Name`, and `Mcp-Param-*` for tool parameters annotated with
 * `x-mcp-header`: otherwise 400 with -32020), and `subscriptions/listen` is answered with
 * the one long-lived SSE stream of change notifications. A call whose `_meta` asks for
 * progress or log messages is answered as an SSE stream when the client accepts one;
 * closing that stream cancels the call. The HTTP transport hands such requests here.
 *
 * @example
 * import { emcp, mcpServer } from 'emcp'
 * import { serveHttp } from 'emcp/http'
 * const echo = emcp({ name: 'echo', description: 'Echo.', input: { type: 'object', properties: { text: { type: 'string', 'x-mcp-header': 'Text' } } } })
 * await serveHttp(mcpServer([echo], { name: 'e', version: '1' }).implement({ echo: ({ text }) => text ?? '' }), { port: 3000 })
 * // POST with MCP-Protocol-Version: 2026-07-28, Mcp-Method: tools/call, Mcp-Name: echo, Mcp-Param-Text: hi
 */
import * as O from 'fp-ts/lib/Option.js'
import { clip } from '../../util/clip.js'
import { isObject } from '../../util/json-object.js'
import { encode, errorCodes, failure, isRequestId, rpcError, scopesRefused, type Outgoing, type RpcError } from '../../protocol/jsonrpc.js'
import { outbound, type Outbound } from '../../server/outbound.js'
import { metaKeys } from '../../protocol/2026-07-28/modern.js'
import { isModernVersion, isSupportedVersion } from '../../protocol/versions.js'
import type { Server } from '../../server/server.js'
import { logLevels, newSession, type Identity, type Session, type SessionOrigin } from '../../server/session.js'
import { sseStream } from './sse.js'
import { headerCheck } from './modern-headers.js'
import type { HttpReply, HttpRequestHead } from './model.js'
import { forbidden, json, sseHeaders } from './reply.js'
import { slotRefusal, type StreamLimits } from './stream-slots.js'
import { acceptsEventStream } from './negotiate.js'

// ---------------------------------------------------------------------------------------
// functions

/** True when a parsed body is 2026-07-28 traffic: its `_meta` names a revision outside the 2025 family (or any, when only 2026 is served). */
export const claimsModern = (message: unknown, serves2025: boolean): boolean => {
  if (!isObject(message) || !isObject(message.params) || !isObject(message.params._meta)) return false
  const v = message.params._meta[metaKeys.protocolVersion]
  return typeof v === 'string' && !(serves2025 && isSupportedVersion(v))
}

/** Where a 2026-07-28 request's session comes from: HTTP, with no MCP session id (that era has none). */
const http: SessionOrigin = { transport: 'http' }

/** The 2026-07-28 POST handler of a server; with `limits`, listen streams are capped per client and in all (429). */
export const modernPost = (server: Server, keepAliveMs = 15_000, limits?: StreamLimits) => {
  const mismatch = headerCheck(server)

  // the channels of the SSE answers still open, closed when the server shuts down
  const open = new Set<Outbound>()

  const post = async (req: HttpRequestHead, message: unknown, identity?: Identity): Promise<HttpReply> => {
    // each request is a session of its own, carrying the caller the transport verified
    const fresh = (channel?: Outbound): Session => {
      const s = newSession('2026-07-28', channel, req.waitUntil === undefined ? http : { ...http, waitUntil: req.waitUntil })
      s.identity = identity
      return s
    }
    const id = isObject(message) && isRequestId(message.id) ? message.id : null
    if (!isObject(message) || typeof message.method !== 'string' || !isObject(message.params))
      return json(400, failure(id, rpcError('InvalidRequest', 'Invalid Request: the body must be one JSON-RPC request or notification')))
    const m = message as { readonly method: string; readonly params: { readonly [key: string]: unknown }; readonly id?: unknown }
    if (id === null) {
      // a notification (notifications/cancelled is stdio's): accepted and dispatched
      await server.dispatch(message, fresh())()
      return { status: 202, headers: {}, body: '' }
    }
    const wrong = mismatch(req, m)
    if (wrong !== undefined) return json(400, failure(id, rpcError('HeaderMismatch', `Header mismatch: ${wrong}`)))
    const meta = m.params._meta as { readonly [key: string]: unknown }
    const malformed = !isObject(meta[metaKeys.clientCapabilities]) || (meta[metaKeys.logLevel] !== undefined && !(logLevels as ReadonlyArray<unknown>).includes(meta[metaKeys.logLevel]))
    const streams =
      m.method === 'subscriptions/listen' ||
      (acceptsEventStream(req.header('accept')) && (meta.progressToken !== undefined || meta[metaKeys.logLevel] !== undefined))
    if (!streams || malformed || !isModernVersion(meta[metaKeys.protocolVersion])) {
      const out = await server.dispatch(message, fresh())()
      if (O.isNone(out)) return { status: 202, headers: {}, body: '' }
      const reply = out.value as Outgoing
      const needed = scopesRefused(reply)
      if (needed !== undefined) return forbidden(reply, needed)
      return json('error' in reply ? statusOf(reply.error.code, malformed) : 200, reply)
    }
    // a subscription holds its stream for as long as the client likes: it takes a slot, or is refused at the cap
    const slot = m.method === 'subscriptions/listen' ? limits?.slots.take(limits.clientOf(req, identity)) : undefined
    if (typeof slot === 'string') return json(429, failure(id, rpcError('Refused', slotRefusal((limits as StreamLimits).slots, slot))))
    // an SSE answer: the request's notifications, then its response; closing it cancels the request
    // the reader gone, however the server learns it (the request's signal, or the body cancelled or cut): the request ends too
    let gone = (): void => {}
    const stream = sseStream(crypto.randomUUID(), { ids: false, onClose: slot, onEnd: (complete) => complete || gone() })
    const channel = outbound((msg) => stream.send(JSON.stringify(msg)))
    open.add(channel)
    const session = fresh(channel)
    // a subscription may be quiet for long: comment lines keep intermediaries from closing it
    const keepAlive = m.method === 'subscriptions/listen' && keepAliveMs > 0 ? setInterval(() => stream.comment(), keepAliveMs) : undefined
    // a keep-alive must not hold a process open; runtimes whose timers are numbers have nothing to unref
    ;(keepAlive as { unref?: () => void } | undefined)?.unref?.()
    let left = false
    gone = (): void => {
      if (left) return
      left = true
      clearInterval(keepAlive)
      stream.close()
      void server.dispatch({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason: 'the client closed the stream' } }, session)()
      channel.close('the client closed the stream')
    }
    req.signal?.addEventListener('abort', gone, { once: true })
    const done = (): void => {
      clearInterval(keepAlive)
      open.delete(channel)
      stream.close()
    }
    server.dispatch(message, session)().then((out) => {
      if (O.isSome(out)) stream.send(encode(out.value))
      done()
    }, done)
    return { status: 200, headers: sseHeaders, body: stream.body }
  }

  /** Ends every open SSE answer: a subscription ends gracefully, with its result, then its stream closes. */
  const close = (): void => {
    for (const channel of [...open]) channel.close('the server is shutting down')
  }

  return Object.assign(post, { close })
}

/** The answer to a modern request whose `_meta` names a revision the body does not bear out, e.g. a 2026 header on a body without `_meta`. */
export const envelopeMissing = (message: unknown, header: string, supported: ReadonlyArray<string>): HttpReply => {
  const id = isObject(message) && isRequestId(message.id) ? message.id : null
  const e: RpcError = isModernVersion(header)
    ? rpcError('InvalidParams', `Invalid params: the MCP-Protocol-Version header says ${clip(header)}, but _meta["${metaKeys.protocolVersion}"] is missing`)
    : rpcError('UnsupportedProtocolVersion', `Unsupported protocol version: ${clip(header)} (supported: ${supported.join(', ')})`, { supported, requested: clip(header) })
  return json(400, failure(id, e))
}

// ---------------------------------------------------------------------------------------
// internals

/** 400 for the errors of the request envelope and headers, 404 for an unknown method, else 200. */
const statusOf = (code: number, malformedEnvelope: boolean): number =>
  code === errorCodes.HeaderMismatch || code === errorCodes.MissingRequiredClientCapability || code === errorCodes.UnsupportedProtocolVersion
    ? 400
    : code === errorCodes.MethodNotFound
      ? 404
      : code === errorCodes.InvalidParams && malformedEnvelope
        ? 400
        : code === errorCodes.InvalidRequest || code === errorCodes.ParseError
          ? 400
          : code === errorCodes.StoreUnavailable
            ? 503
            : 200

