/**
 * The deadline and cancellation of an asynchronous request: it is settled by the first of its
 * own answer; `callTimeoutMs` (its signal aborted, and an answer that says so instead of its
 * own: a tool result with `isError`, any other method error -32001); its cancellation (no
 * answer is sent, and the transport need not wait for a handler that ignores its signal).
 *
 * @example
 * import { deadline } from './deadline.js'
 * const settle = deadline(300_000)
 * // settle(running, request, session): the first of the answer, the timeout, the cancellation
 */
import * as E from 'fp-ts/lib/Either.js'
import { alarms } from '../util/alarms.js'
import { clip } from '../util/clip.js'
import { errorMessage } from '../contract/content.js'
import { rpcError, type Request, type RpcError } from '../protocol/jsonrpc.js'
import type { Session } from './session.js'

/** Five minutes: long enough for slow tools and a user answering an elicitation, short enough that a hung handler is let go. */
export const defaultCallTimeoutMs = 300_000

/** Races a running request against its deadline and its cancellation; 0 ms: no deadline. */
export const deadline = (callTimeoutMs: number) => {
  // one timer for all the server's deadlines, not one per call (alarms.ts says why)
  const after = callTimeoutMs > 0 ? alarms(callTimeoutMs) : undefined
  return (running: Promise<E.Either<RpcError, unknown>>, req: Request, session: Session): Promise<E.Either<RpcError, unknown>> =>
    new Promise((resolve, reject) => {
      const abort = session.inFlight.get(req.id)
      if (abort !== undefined)
        session.inFlight.set(req.id, (reason) => {
          abort(reason)
          resolve(E.left(rpcError('InternalError', 'cancelled')))
        })
      const alarm = after?.(() => resolve(timedOut(req, session, abort, callTimeoutMs)))
      running.then(
        (v) => (alarm?.cancel(), resolve(v)),
        (e: unknown) => (alarm?.cancel(), reject(e)),
      )
    })
}

/** Aborts the request's work, and says why in the shape its method answers in. */
const timedOut = (req: Request, session: Session, abort: ((reason?: unknown) => void) | undefined, ms: number): E.Either<RpcError, unknown> => {
  const why = `${req.method} timed out after ${ms} ms (callTimeoutMs)`
  session.inFlight.delete(req.id)
  abort?.(new DOMException(why, 'TimeoutError'))
  return req.method === 'tools/call'
    ? E.right(errorMessage(`Tool ${clip(String(req.params?.name))} ${why.slice(req.method.length + 1)}`))
    : E.left(rpcError('RequestTimeout', `Request timed out: ${why}`))
}
