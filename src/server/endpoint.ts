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
import { decode, encode, failure, isRequestId, parse, rpcError, success, type Outgoing, type Params, type Reply, type Request, type RpcError } from '../protocol/jsonrpc.js'
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
}

/** The endpoint over a router. */
export const endpoint = ({ route, maxDepth, notified }: EndpointConfig): Endpoint => {
  /** The dispatcher proper; synchronous unless a handler is asynchronous. */
  const respond = (message: unknown, session: Session): Eventually<O.Option<Outgoing>> => {
    const decoded = decode(message)
    if (E.isLeft(decoded)) return decoded.left.answer ? O.some(failure(decoded.left.id, decoded.left.error)) : O.none
    const m = decoded.right
    if (m.kind === 'notification') {
      if (m.method === 'notifications/initialized') session.initialized = true
      else if (m.method === 'notifications/cancelled') cancel(m.params, session)
      notified?.(m.method, m.params, session)
      return O.none
    }
    if (m.kind === 'response') {
      // the answer to one of our own requests (sampling, elicitation, roots)
      session.outbound?.settle(m)
      return O.none
    }
    if (deeperThan(m.params, maxDepth))
      return O.some(failure(m.id, rpcError('InvalidParams', `Invalid params: nested deeper than ${maxDepth} levels (maxDepth)`)))
    // the answer keeps the request's id, not the request: a subscription runs for hours, and its params may be megabytes
    const id = m.id
    const reply = (out: E.Either<RpcError, unknown>): O.Option<Outgoing> =>
      session.cancelled.delete(id) ? O.none : O.some(E.isRight(out) ? success(id, out.right) : failure(id, out.left))
    // the one place where anything thrown below the dispatcher becomes an error shape
    const crashed = (e: unknown): O.Option<Outgoing> => reply(E.left(rpcError('InternalError', `Internal error: ${describe(e)}`)))
    try {
      const out = route(m, session)
      return isThenable(out) ? (out as Promise<E.Either<RpcError, unknown>>).then(reply, crashed) : reply(out)
    } catch (e) {
      return crashed(e)
    }
  }

  /** A batch (2025-03-26 and earlier): every member answered, the answers in one array. */
  const respondBatch = (batch: ReadonlyArray<unknown>, session: Session): Eventually<O.Option<Reply>> => {
    const answers = batch.map((m) =>
      isObject(m) && m.method === 'initialize' && 'id' in m
        ? O.some(failure(isRequestId(m.id) ? m.id : null, rpcError('InvalidRequest', 'Invalid Request: initialize must not be part of a batch')))
        : respond(m, session),
    )
    const collect = (settled: ReadonlyArray<O.Option<Outgoing>>): O.Option<Reply> => {
      const replies = settled.filter(O.isSome).map((o) => o.value)
      return replies.length === 0 ? O.none : O.some(replies)
    }
    return answers.some(isThenable) ? Promise.all(answers).then(collect) : collect(answers as ReadonlyArray<O.Option<Outgoing>>)
  }

  const respondAny = (message: unknown, session: Session): Eventually<O.Option<Reply>> =>
    Array.isArray(message) && message.length > 0 && batchesAllowed(session.protocolVersion) ? respondBatch(message, session) : respond(message, session)

  // a promise only when a handler on the way is asynchronous: no allocation or microtask hop otherwise
  const answerText = (text: string, session: Session): Eventually<O.Option<string>> => {
    const parsed = parse(text)
    if (E.isLeft(parsed)) return O.some(encode(failure(null, parsed.left)))
    return map(respondAny(parsed.right, session), encodeOption)
  }

  return {
    dispatch: (message, session) => () => toPromise(respondAny(message, session)),
    dispatchText: (text, session) => () => toPromise(answerText(text, session)),
    answerText,
  }
}

/** `notifications/cancelled`: abort the call's signal; its answer will not be sent. */
const cancel = (params: Params | undefined, session: Session): void => {
  const id = params?.requestId
  if (isRequestId(id)) abortCall(session, id, typeof params?.reason === 'string' ? params.reason : 'cancelled by the client')
}

const encodeOption = (out: O.Option<Reply>): O.Option<string> => {
  if (O.isNone(out)) return O.none
  try {
    return O.some(encode(out.value))
  } catch (e) {
    // a result that JSON cannot carry (a BigInt, a cycle) must still get an answer
    const error = rpcError('InternalError', `Internal error: the response cannot be serialised: ${describe(e)}`)
    const lone = out.value
    return O.some(encode(failure(!Array.isArray(lone) && 'id' in lone ? (lone as Outgoing).id : null, error)))
  }
}
