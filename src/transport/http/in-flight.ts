/// <reference types="node" preserve="true" />
/**
 * A budget of request-body bytes read at once, in all and per client. A request takes a
 * first share before its body is read and more as its bytes arrive (so that a body that
 * trickles in holds what it sent, not what it declared), and gives all back once its body is
 * parsed; one that does not fit waits with the rest of its body unread, so that TCP holds its
 * client back. A 4 MiB body costs several times that on the heap while it is read and parsed:
 * without a bound, a few dozen of them at once exhaust a small heap.
 *
 * A request larger than a limit still runs, alone. Waiters are served in order, those
 * growing a share they hold first; one that waits only for its own client's share does not
 * hold up the others. When every byte held belongs to a request waiting to grow, the first
 * of them grows anyway: bodies read halfway never wait for each other forever.
 *
 * @example
 * import { byteBudget } from './in-flight.js'
 * const budget = byteBudget({ total: 32 * 1024 * 1024, perClient: 8 * 1024 * 1024 })
 * const release = await budget.take('address:10.0.0.7', 4 * 1024 * 1024)
 * // ... read the body, answer ...
 * release()
 */
import { declaredLength } from './body-pace.js'
import type { HttpRequestHead } from './model.js'

// ---------------------------------------------------------------------------------------
// model

/** Shares of a byte budget. */
export interface ByteBudget {
  /**
   * Waits until `bytes` fit for `client` (undefined: counted in all only) and in all; resolves with
   * the function that gives them back. A waiter whose signal aborts (its client went away) leaves
   * the line at once, holding nothing; the signal is asked for only when the request must wait.
   * `holding`: the bytes the same request already holds (it grows its share, and goes ahead of newcomers).
   */
  readonly take: (client: string | undefined, bytes: number, signalOf?: () => AbortSignal | undefined, holding?: number) => Promise<() => void>
  /** `take` without waiting: the function that gives the bytes back when they fit now and nobody waits, else undefined (then `take`). */
  readonly takeNow: (client: string | undefined, bytes: number) => (() => void) | undefined
  /** Bytes held now, and requests waiting. */
  readonly state: () => { readonly held: number; readonly waiting: number }
  /** True while a request waits for the budget in all (not only for its own client's share): what holds the budget holds it up. */
  readonly pressed: () => boolean
}

// ---------------------------------------------------------------------------------------
// constructors

/** A budget of `total` bytes, at most `perClient` of them for one client (0: no limit). */
export const byteBudget = (limits: { readonly total: number; readonly perClient: number }): ByteBudget => {
  let held = 0
  const byClient = new Map<string, number>()
  const waiting: Waiter[] = []
  // what the requests waiting to grow hold, in all and per client: when it is all that is held, one of them must go on
  let stuck = 0
  const stuckByClient = new Map<string, number>()

  const fitsAll = (w: Waiter): boolean => limits.total <= 0 || held === 0 || held + w.bytes <= limits.total || (w.holding > 0 && held === stuck)
  const fitsClient = (w: Waiter): boolean => {
    if (w.client === undefined || limits.perClient <= 0) return true
    const mine = byClient.get(w.client) ?? 0
    return mine === 0 || mine + w.bytes <= limits.perClient || (w.holding > 0 && mine === (stuckByClient.get(w.client) ?? 0))
  }

  const grant = (client: string | undefined, bytes: number): (() => void) => {
    held += bytes
    if (client !== undefined) byClient.set(client, (byClient.get(client) ?? 0) + bytes)
    let given = false
    return () => {
      if (given) return
      given = true
      held -= bytes
      if (client !== undefined) addTo(byClient, client, -bytes)
      wakeUp()
    }
  }

  const enter = (w: Waiter): void => {
    if (w.holding <= 0) {
      waiting.push(w)
      return
    }
    // a request growing its share goes ahead of newcomers (after those growing already)
    const i = waiting.findIndex((o) => o.holding <= 0)
    waiting.splice(i === -1 ? waiting.length : i, 0, w)
    stuck += w.holding
    if (w.client !== undefined) addTo(stuckByClient, w.client, w.holding)
  }
  const leaveAt = (i: number): Waiter => {
    const w = waiting.splice(i, 1)[0] as Waiter
    if (w.holding > 0) {
      stuck -= w.holding
      if (w.client !== undefined) addTo(stuckByClient, w.client, -w.holding)
    }
    return w
  }

  /** Serves waiters in order; stops at the first that does not fit in all (so a large one is not starved). */
  const wakeUp = (): void => {
    for (let i = 0; i < waiting.length; ) {
      const w = waiting[i] as Waiter
      if (!fitsAll(w)) return
      if (!fitsClient(w)) {
        i++
        continue
      }
      leaveAt(i)
      w.resolve(grant(w.client, w.bytes))
    }
  }

  return {
    take: (client, bytes, signalOf, holding = 0) => {
      if (bytes <= 0) return Promise.resolve(noop)
      return new Promise((resolve) => {
        const w: Waiter = { client, bytes, holding, resolve }
        enter(w)
        wakeUp()
        if (!waiting.includes(w)) return
        // a waiter whose client went away leaves the line holding nothing; one the whole budget
        // held up may have been holding others up too
        const leave = (): void => {
          const i = waiting.indexOf(w)
          if (i === -1) return
          leaveAt(i)
          resolve(noop)
          wakeUp()
        }
        const signal = signalOf?.()
        if (signal?.aborted === true) leave()
        else signal?.addEventListener('abort', leave, { once: true })
      })
    },
    // no promise for a request that fits at once, the common case: nobody waits, so none is passed
    takeNow: (client, bytes) => {
      if (bytes <= 0) return noop
      const w: Waiter = { client, bytes, holding: 0, resolve: noop }
      return waiting.length === 0 && fitsAll(w) && fitsClient(w) ? grant(client, bytes) : undefined
    },
    state: () => ({ held, waiting: waiting.length }),
    pressed: () => waiting.some((w) => fitsClient(w) && !fitsAll(w)),
  }
}

// ---------------------------------------------------------------------------------------
// functions

/** The bytes a request's body may take: its declared length, else the limit (none when it is refused unread). */
export const shareOf = (req: HttpRequestHead, limit: number): number => {
  const declared = declaredLength(req.header('content-length'))
  return declared === undefined ? limit : declared > limit ? 0 : declared
}

// ---------------------------------------------------------------------------------------
// internals

interface Waiter {
  readonly client: string | undefined
  readonly bytes: number
  /** What the same request holds already (0: a newcomer). */
  readonly holding: number
  readonly resolve: (release: () => void) => void
}

const noop = (): void => {}

/** Adds `n` to `key`'s count, deleting it at zero (so that a map of counts holds only clients with some). */
export const addTo = (counts: Map<string, number>, key: string, n: number): void => {
  const left = (counts.get(key) ?? 0) + n
  if (left <= 0) counts.delete(key)
  else counts.set(key, left)
}
