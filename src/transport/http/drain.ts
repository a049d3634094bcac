/**
 * Graceful shutdown of the HTTP chain, in two steps and one switch. `track` counts every
 * request in flight (a GET is refused at once while draining: it would only open a stream);
 * `refuse`, placed after the body is parsed, answers each request in a message with 503 and
 * a JSON-RPC error under its own id, while notifications and responses still pass (a call in
 * flight may wait for the client's answer, or be cancelled). `start` throws the switch.
 *
 * @example
 * import { drainGate } from './drain.js'
 * const gate = drainGate()
 * // compose([gate.track, ..., body, gate.refuse, ...], end, onError)
 * gate.start()
 * await gate.running.drained(10_000)
 */
import { encode } from '../../protocol/jsonrpc.js'
import { inFlight, refusalOf, shuttingDown, type InFlight } from '../drain.js'
import type { HttpMiddleware } from './model.js'
import { jsonHeaders, refuse } from './reply.js'

// ---------------------------------------------------------------------------------------
// model

/** The drain steps of one chain, and its switch. */
export interface DrainGate {
  /** Counts requests in flight; refuses a GET while draining. */
  readonly track: HttpMiddleware
  /** After the body step: refuses the requests in a message while draining. */
  readonly refuse: HttpMiddleware
  /** What is in flight (a stateful call answered on its SSE stream counts until its answer is out). */
  readonly running: InFlight
  /** Starts draining: new requests are refused from now on. */
  readonly start: () => void
  /** True once `start` was called. */
  readonly draining: () => boolean
}

// ---------------------------------------------------------------------------------------
// constructors

/** A new gate, open. */
export const drainGate = (): DrainGate => {
  const running = inFlight()
  let draining = false
  const track: HttpMiddleware = async (req, next) => {
    if (draining && req.method === 'GET') return refuse(503, shuttingDown, { connection: 'close' })
    const leave = running.enter()
    try {
      return await next(req)
    } finally {
      leave()
    }
  }
  const refuseNew: HttpMiddleware = (req, next) => {
    const refusal = draining ? refusalOf(req.message) : undefined
    if (refusal === undefined) return next(req)
    return Promise.resolve({ status: 503, headers: { ...jsonHeaders, connection: 'close' }, body: encode(refusal) })
  }
  return { track, refuse: refuseNew, running, start: () => void (draining = true), draining: () => draining }
}
