/**
 * Graceful shutdown, shared by the transports: while a server drains, the calls in flight
 * are answered, every new request is refused with a JSON-RPC error under its own id, and
 * notifications and responses still pass (a call in flight may be waiting for the client's
 * answer, or be cancelled). The drain ends when nothing is in flight, or at its deadline.
 *
 * @example
 * import { inFlight, refusalOf } from './drain.js'
 * const calls = inFlight()
 * const leave = calls.enter()
 * refusalOf({ jsonrpc: '2.0', id: 7, method: 'ping' }) // { jsonrpc: '2.0', id: 7, error: { code: -32000, ... } }
 * leave()
 * await calls.drained(10_000) // true: nothing was left in flight
 */
import { isObject } from '../util/json-object.js'
import { failure, isRequestId, rpcError, type Outgoing, type Reply } from '../protocol/jsonrpc.js'

// ---------------------------------------------------------------------------------------
// model

/** Work in flight: a count, and a way to wait for it to reach zero. */
export interface InFlight {
  /** Counts one piece of work in; the function returned counts it out (once). */
  readonly enter: () => () => void
  /** How much is in flight now. */
  readonly count: () => number
  /** Resolves true once nothing is in flight, or false when `timeoutMs` passed first. */
  readonly drained: (timeoutMs: number) => Promise<boolean>
}

// ---------------------------------------------------------------------------------------
// constructors

/** The longest a drain waits for calls in flight by default: ten seconds. */
export const defaultDrainTimeoutMs = 10_000

/** A new, empty count of work in flight. */
export const inFlight = (): InFlight => {
  let count = 0
  const waiting = new Set<() => void>()
  const enter = (): (() => void) => {
    count++
    let left = false
    return () => {
      if (left) return
      left = true
      count--
      if (count === 0) for (const w of [...waiting]) w()
    }
  }
  const drained = (timeoutMs: number): Promise<boolean> =>
    count === 0
      ? Promise.resolve(true)
      : new Promise((resolve) => {
          const done = (ok: boolean): void => {
            clearTimeout(timer)
            waiting.delete(onEmpty)
            resolve(ok)
          }
          const onEmpty = (): void => done(true)
          const timer = setTimeout(() => done(false), timeoutMs)
          waiting.add(onEmpty)
        })
  return { enter, count: () => count, drained }
}

// ---------------------------------------------------------------------------------------
// functions

/** The message every request gets while the server drains. */
export const shuttingDown = 'Service Unavailable: the server is shutting down and accepts no new requests'

/**
 * The answer to a message that arrives while the server drains: an error under the id of
 * each request in it (an array for a batch), or undefined when it holds no request and may
 * pass. A message whose id cannot be read is left to the dispatcher's usual answer.
 */
export const refusalOf = (message: unknown): Reply | undefined => {
  if (Array.isArray(message)) {
    const refused = message.map(refusalOfOne).filter((r): r is Outgoing => r !== undefined)
    return refused.length === 0 ? undefined : refused
  }
  return refusalOfOne(message)
}

const refusalOfOne = (m: unknown): Outgoing | undefined =>
  isObject(m) && typeof m.method === 'string' && isRequestId(m.id) ? failure(m.id, rpcError('Refused', shuttingDown)) : undefined

/**
 * After a shutdown asked for by a signal: the process exits with code 0 once the transport
 * has let go, at the latest `graceMs` later (a handler that ignored its aborted signal must
 * not keep it alive). The timer does not itself keep the process alive.
 */
export const exitSoon = (graceMs = 1_000): void => {
  process.exitCode ??= 0
  setTimeout(() => process.exit(), graceMs).unref()
}

/** What each running server does on SIGTERM or SIGINT. */
const onSignal = new Set<() => void>()
const signalled = (): void => {
  for (const f of [...onSignal]) f()
}

/**
 * Calls `f` on every SIGTERM and SIGINT until the returned function is called. One process
 * listener serves every server, so that many servers (in tests, say) add no more.
 */
export const onShutdownSignal = (f: () => void): (() => void) => {
  if (onSignal.size === 0) for (const s of ['SIGTERM', 'SIGINT'] as const) process.on(s, signalled)
  onSignal.add(f)
  return () => {
    if (!onSignal.delete(f) || onSignal.size > 0) return
    for (const s of ['SIGTERM', 'SIGINT'] as const) process.off(s, signalled)
  }
}
