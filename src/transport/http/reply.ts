/**
 * Replies the chain's steps build: refusals (a JSON-RPC error with id null, as the SDKs
 * send), and the answer to a dispatched message, whose status is read from the reply's
 * structure (an error with no id to answer to is the client's fault: 400), never from text.
 *
 * @example
 * import { refuse, replyOf } from './reply.js'
 * refuse(405, 'Method Not Allowed', { allow: 'POST' }) // { status: 405, headers: {...}, body: '{"jsonrpc":"2.0","id":null,"error":...}' }
 */
import * as O from 'fp-ts/lib/Option.js'
import { encode, errorCodes, failure, rpcError, scopesRefused, type Outgoing, type Reply } from '../../protocol/jsonrpc.js'
import type { HttpReply } from './model.js'

// ---------------------------------------------------------------------------------------
// constructors

/** The headers of a JSON answer. */
export const jsonHeaders: { readonly [name: string]: string } = { 'content-type': 'application/json' }

/** The headers of an SSE answer (`x-accel-buffering: no` keeps proxies such as nginx from holding events back). */
export const sseHeaders: { readonly [name: string]: string } = { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive', 'x-accel-buffering': 'no' }

/** The answer to a notification or a response: accepted, no body. */
export const accepted: HttpReply = { status: 202, headers: {}, body: '' }

/** A refusal before any message was read: a JSON-RPC error with id null. */
export const refuse = (status: number, message: string, extra?: { readonly [name: string]: string }): HttpReply => ({
  status,
  headers: extra === undefined ? jsonHeaders : { ...jsonHeaders, ...extra },
  body: encode(failure(null, rpcError('Refused', message))),
})

/** The 503 of a request the shared store failed (a `StoreUnavailable` says what failed and why), or of a session this replica has no room to take over. */
export const storeRefusal = (e: unknown): HttpReply => ({
  status: 503,
  headers: { ...jsonHeaders, 'retry-after': '1' },
  body: encode(
    failure(
      null,
      e instanceof Error && e.name === 'SessionsFull'
        ? rpcError('Refused', e.message)
        : rpcError('StoreUnavailable', e instanceof Error ? e.message : `Service Unavailable: the shared store failed: ${String(e)}`),
    ),
  ),
})

/** A JSON answer with this status. */
export const json = (status: number, reply: Reply, extra?: { readonly [name: string]: string }): HttpReply => ({
  status,
  headers: extra === undefined ? jsonHeaders : { ...jsonHeaders, ...extra },
  body: encodeSafely(reply),
})

/**
 * The answer to a dispatched message: 202 for none, else JSON, 400 when it is an error with no
 * id (parse errors, invalid requests), 403 for a scope the token lacks, 503 when the shared
 * store failed (the client or the load balancer may try again).
 */
export const replyOf = (out: O.Option<Reply>): HttpReply => {
  if (O.isNone(out)) return accepted
  const needed = scopesRefused(out.value)
  return needed !== undefined ? forbidden(out.value, needed) : json(isUnaddressed(out.value) ? 400 : storeFailed(out.value) ? 503 : 200, out.value)
}

/** A 403 answer for a call whose tool needs `scopes` (RFC 6750 insufficient_scope; the auth step adds the challenge). */
export const forbidden = (reply: Reply, scopes: ReadonlyArray<string>): HttpReply => ({ ...json(403, reply), insufficientScope: scopes })

// ---------------------------------------------------------------------------------------
// internals

const storeFailed = (r: Reply): boolean => !Array.isArray(r) && 'error' in r && (r as { error: { code: number } }).error.code === errorCodes.StoreUnavailable

const isUnaddressed = (r: Reply): boolean => !Array.isArray(r) && (r as Outgoing).id === null && 'error' in r

/** A result that JSON cannot carry (a BigInt, a cycle) must still get an answer, under its id. */
const encodeSafely = (r: Reply): string => {
  try {
    return encode(r)
  } catch (e) {
    const error = rpcError('InternalError', `Internal error: the response cannot be serialised: ${e instanceof Error ? e.message : String(e)}`)
    return encode(failure(Array.isArray(r) ? null : (r as Outgoing).id, error))
  }
}
