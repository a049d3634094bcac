/**
 * The end of the chain without sessions (2025-11-25 era): each POST is dispatched in a
 * session of its own, made for it and gone with it. Such a request has no channel back: its
 * `initialize` does not offer what needs one (list_changed notifications, resource
 * subscriptions), and `resources/subscribe` is refused rather than acknowledged for updates
 * that could never arrive.
 *
 * @example
 * import { stateless } from './stateless.js'
 * const end = stateless(server) // an HttpHandler; end.releaseAll() aborts the calls in flight
 */
import * as O from 'fp-ts/lib/Option.js'
import { isObject } from '../../util/json-object.js'
import { failure, isRequestId, rpcError, type Outgoing, type RequestId } from '../../protocol/jsonrpc.js'
import { assumedHttpVersion, isSupportedVersion } from '../../protocol/versions.js'
import type { Server } from '../../server/server.js'
import { newSession, type Session, type SessionOrigin } from '../../server/session.js'
import type { HttpHandler, HttpReply, HttpRequest } from './model.js'
import { accepted, json, replyOf } from './reply.js'

// ---------------------------------------------------------------------------------------
// constructors

/** Where a stateless request's session comes from: HTTP, with no MCP session id. */
const http: SessionOrigin = { transport: 'http' }

/** The stateless end of `server`'s chain; `releaseAll` aborts the calls still running (a drain past its deadline). */
export const stateless = (server: Server): HttpHandler & { readonly releaseAll: () => void } => {
  // the sessions with a call running
  const running = new Set<Session>()
  const handle: HttpHandler = async (req) => {
    const version = req.header('mcp-protocol-version')
    const session = newSession(version !== undefined && isSupportedVersion(version) ? version : assumedHttpVersion, undefined, req.waitUntil === undefined ? http : { ...http, waitUntil: req.waitUntil })
    session.identity = req.identity
    const m = req.message
    if (isObject(m) && isRequestId(m.id) && (m.method === 'initialize' || m.method === 'resources/subscribe')) return withoutChannel(server, req, session)
    running.add(session)
    try {
      return replyOf(await server.dispatch(m, session)())
    } finally {
      running.delete(session)
    }
  }
  const releaseAll = (): void => {
    for (const s of running) server.release(s)
  }
  return Object.assign(handle, { releaseAll })
}

// ---------------------------------------------------------------------------------------
// internals

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
