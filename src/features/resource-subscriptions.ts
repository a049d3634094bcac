/**
 * Who subscribed to which resource (`resources/subscribe`, `resources/unsubscribe`): per
 * session, the URIs it asked about, kept on the session itself (`resourceSubscriptions`), so
 * that sessions nobody releases still go away and a stateful transport can share them with
 * other replicas. A session keeps at most `maxSubscriptions` URIs. The resources feature answers the two methods with it and asks it whom to tell of
 * an update.
 *
 * @example
 * import { subscriptionsOf } from './resource-subscriptions.js'
 * const subs = subscriptionsOf(() => undefined) // every URI may be subscribed to
 * // subs.method(true)(request, session) // E.right({}) once the session subscribed
 * // subs.has(session, 'docs://readme')  // true
 */
import * as E from 'fp-ts/lib/Either.js'
import { rpcError, type Request, type RpcError } from '../protocol/jsonrpc.js'
import type { Session } from '../server/session.js'

// ---------------------------------------------------------------------------------------
// model

/** The subscriptions of every session to resource URIs. */
export interface Subscriptions {
  /** `resources/subscribe` (on) or `resources/unsubscribe` (off). */
  readonly method: (on: boolean) => (req: Request, session: Session) => E.Either<RpcError, unknown>
  /** Whether `session` subscribed to `uri`. */
  readonly has: (session: Session, uri: string) => boolean
  /** Forgets a session that went away. */
  readonly release: (session: Session) => void
}

// ---------------------------------------------------------------------------------------
// constructors

/** The subscriptions; `check` refuses a subscription to a URI (the error it gives), or accepts it (undefined). */
export const subscriptionsOf = (check: (uri: string, session: Session) => RpcError | undefined): Subscriptions => {
  const method = (on: boolean) => (req: Request, session: Session): E.Either<RpcError, unknown> => {
    const uri = req.params?.uri
    const name = on ? 'resources/subscribe' : 'resources/unsubscribe'
    if (typeof uri !== 'string') return E.left(rpcError('InvalidParams', `${name}: params.uri must be a string`))
    let uris = session.resourceSubscriptions
    if (on) {
      const refused = check(uri, session)
      if (refused !== undefined) return E.left(refused)
      if (uris === undefined) session.resourceSubscriptions = uris = new Set()
      // each subscription is kept, and written into the shared session record: bounded
      if (!uris.has(uri) && uris.size >= maxSubscriptions) return E.left(rpcError('InvalidParams', `${name}: this session already has ${maxSubscriptions} subscriptions; unsubscribe from one first`))
      uris.add(uri)
    } else uris?.delete(uri)
    return E.right({})
  }
  return {
    method,
    has: (session, uri) => session.resourceSubscriptions?.has(uri) === true,
    release: (session) => {
      session.resourceSubscriptions = undefined
    },
  }
}

/** The most resource URIs one session may subscribe to at once. */
export const maxSubscriptions = 1000
