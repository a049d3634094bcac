/**
 * The JSON-RPC endpoint of a server: decodes a message, keeps the session's bookkeeping for
 * notifications (initialized, cancelled) and responses (to our own requests), bounds the
 * depth of params, routes a request to its era, and turns the answer into a response (none
 * for a cancelled call). Batches (2025-03-26 and earlier) and JSON text are handled here.
 * Anything thrown below becomes -32603 here, in one place.
 *
 * @example
 * import * as E from 'fp-ts/lib/Either.js'
 * import { newSession } from './session.js'
 * import { endpoint } from './endpoint.js'
 * const { dispatchText } = endpoint({ route: () => E.right({}), maxDepth: 64 })
 * await dispatchText('{"jsonrpc":"2.0","id":1,"method":"ping"}', newSession())() // Some('{"jsonrpc":"2.0","id":1,"result":{}}')
 */
import * as E from 'fp-ts/lib/Either.js'
import * as O from 'fp-ts/lib/Option.js'
import type { Task } from 'fp-ts/lib/Task.js'
import { describe } from './call.js'
import { isThenable, map, toPromise, type Eventually } from '../util/eventually.js'
import type { Answer } from './feature.js'
import { deeperThan } from '../util/json-depth.js'
import { isObject } from '../util/json-object.js'
import { decodeMessage, encode, failure, isRequestId, isUndecodable, parseError, rpcError, success, type Outgoing, type Params, type Reply, type Request, type RequestId, type RpcError } from '../protocol/jsonrpc.js'
import { batchesAllowed } from '../protocol/versions.js'
import { abortCall, type Session } from './session.js'

/** What the endpoint needs: where requests go, how deep params may nest, and who sees notifications. */
export interface EndpointConfig {
  readonly route: (req: Request, session: Session) => Answer
  readonly maxDepth: number
  /** Called with each notification after the endpoint's own bookkeeping (the `notification` middleware). */
  readonly notified?: (method: string, params: Params | undefined, session: Session) => void
}

/** A server's entry points. */
export interface Endpoint {
  readonly dispatch: (message: unknown, session: Session) => Task<O.Option<Reply>>
  readonly dispatchText: (text: string, session: Session) => Task<O.Option<string>>
  readonly answerText: (text: string, session: Session) => Eventually<O.Option<string>>
  /** `answerText` with the answer as text or undefined: no Option per message (stdio's path, through `innerOf`). */
  readonly answerLine: (text: string, session: Session) => Eventually<string | undefined>
}

/** The endpoint over a router. */
export const endpoint = ({ route, maxDepth, notified }: EndpointConfig): Endpoint => {
  /**
   * The dispatcher proper; synchronous unless a handler is asynchronous. Internally an
   * answer is the response or `undefined` (no Option per message); Option is the edge's.
   */
  const respond = (message: unknown, session: Session, shallow: boolean): Eventually<Outgoing | undefined> => {
    const m = decodeMessage(message)
    if (isUndecodable(m)) return m.answer ? failure(m.id, m.error) : undefined
    if (m.kind === 'notification') {
      if (m.method === 'notifications/initialized') session.initialized = true
      else if (m.method === 'notifications/cancelled') cancel(m.params, session)
      notified?.(m.method, m.params, session)
      return undefined
    }
    if (m.kind === 'response') {
      // the answer to one of our own requests (sampling, elicitation, roots)
      session.outbound?.settle(m)
      return undefined
    }
    if (!shallow && deeperThan(m.params, maxDepth))
      return failure(m.id, rpcError('InvalidParams', `Invalid params: nested deeper than ${maxDepth} levels (maxDepth)`))
    // the answer keeps the request's id, not the request: a subscription runs for hours, and its params may be megabytes
    const id = m.id
    let out: Answer
    try {
      out = route(m, session)
    } catch (e) {
      return crashed(id, session, e)
    }
    // closures only for a call that outlives this turn
    return isThenable(out)
      ? (out as Promise<E.Either<RpcError, unknown>>).then(
          (o) => reply(id, session, o),
          (e) => crashed(id, session, e),
        )
      : reply(id, session, out)
  }

  /** A batch (2025-03-26 and earlier): every member answered, the answers in one array. */
  const respondBatch = (batch: ReadonlyArray<unknown>, session: Session, shallow: boolean): Eventually<Reply | undefined> => {
    const answers = batch.map((m) =>
      isObject(m) && m.method === 'initialize' && 'id' in m
        ? failure(isRequestId(m.id) ? m.id : null, rpcError('InvalidRequest', 'Invalid Request: initialize must not be part of a batch'))
        : respond(m, session, shallow),
    )
    const collect = (settled: ReadonlyArray<Outgoing | undefined>): Reply | undefined => {
      const replies = settled.filter((o): o is Outgoing => o !== undefined)
      return replies.length === 0 ? undefined : replies
    }
    return answers.some(isThenable) ? Promise.all(answers).then(collect) : collect(answers as ReadonlyArray<Outgoing | undefined>)
  }

  /** `shallow`: the message is known to nest less deeply than `maxDepth` (its text is too short to), so nothing walks it to find out. */
  const respondAny = (message: unknown, session: Session, shallow: boolean): Eventually<Reply | undefined> =>
    Array.isArray(message) && message.length > 0 && batchesAllowed(session.protocolVersion)
      ? respondBatch(message, session, shallow)
      : respond(message, session, shallow)
  // params nested deeper than maxDepth take an opening and a closing bracket per level, and
  // the message's own braces: a shorter text cannot hold them (most lines are far shorter)
  const shallowBelow = 2 * maxDepth + 4

  // a promise only when a handler on the way is asynchronous: no allocation or microtask hop otherwise
  const answerLine = (text: string, session: Session): Eventually<string | undefined> => {
    let message: unknown
    try {
      message = JSON.parse(text)
    } catch (e) {
      return encode(failure(null, parseError(e)))
    }
    const out = respondAny(message, session, text.length < shallowBelow)
    return isThenable(out) ? (out as Promise<Reply | undefined>).then(encodeReply) : encodeReply(out as Reply | undefined)
  }
  const answerText = (text: string, session: Session): Eventually<O.Option<string>> => map(answerLine(text, session), O.fromNullable)

  return {
    dispatch: (message, session) => () => toPromise(map(respondAny(message, session, false), O.fromNullable)),
    dispatchText: (text, session) => () => toPromise(answerText(text, session)),
    answerText,
    answerLine,
  }
}

/** The response to a request whose route answered: none when the client cancelled the call meanwhile. */
const reply = (id: RequestId, session: Session, out: E.Either<RpcError, unknown>): Outgoing | undefined =>
  session.cancelled.delete(id) ? undefined : E.isRight(out) ? success(id, out.right) : failure(id, out.left)

/** The one place where anything thrown below the dispatcher becomes an error shape. */
const crashed = (id: RequestId, session: Session, e: unknown): Outgoing | undefined =>
  reply(id, session, E.left(rpcError('InternalError', `Internal error: ${describe(e)}`)))

/** `notifications/cancelled`: abort the call's signal; its answer will not be sent. */
const cancel = (params: Params | undefined, session: Session): void => {
  const id = params?.requestId
  if (isRequestId(id)) abortCall(session, id, typeof params?.reason === 'string' ? params.reason : 'cancelled by the client')
}

const encodeReply = (out: Reply | undefined): string | undefined => {
  if (out === undefined) return undefined
  try {
    return encode(out)
  } catch (e) {
    // a result that JSON cannot carry (a BigInt, a cycle) must still get an answer
    const error = rpcError('InternalError', `Internal error: the response cannot be serialised: ${describe(e)}`)
    return encode(failure(!Array.isArray(out) && 'id' in out ? (out as Outgoing).id : null, error))
  }
}
