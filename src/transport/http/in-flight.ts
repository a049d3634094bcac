/// <reference types="node" preserve="true" />
/**
 * A budget of request-body bytes handled at once, in all and per client. A request takes
 * its share (its declared length, else the body limit) before its body is read, and gives
 * it back once its answer is out; one that does not fit waits with its body unread, so
 * that TCP holds its client back. A 4 MiB body costs several times that on the heap while
 * it is parsed, answered and framed: without a bound, a few dozen of them at once exhaust
 * a small heap, whatever the event store keeps.
 *
 * A request larger than a limit still runs, alone. Waiters are served in order; one that
 * waits only for its own client's share does not hold up the others.
 *
 * @example
 * import { byteBudget } from './in-flight.js'
 * const budget = byteBudget({ total: 32 * 1024 * 1024, perClient: 8 * 1024 * 1024 })
 * const release = await budget.take('address:10.0.0.7', 4 * 1024 * 1024)
 * // ... read the body, answer ...
 * release()
 */
import type { HttpReply, HttpRequestHead } from './model.js'

// ---------------------------------------------------------------------------------------
// model

/** Shares of a byte budget. */
export interface ByteBudget {
  /**
   * Waits until `bytes` fit for `client` (undefined: counted in all only) and in all; resolves with
   * the function that gives them back. A waiter whose signal aborts (its client went away) leaves
   * the line at once, holding nothing; the signal is asked for only when the request must wait.
   */
  readonly take: (client: string | undefined, bytes: number, signalOf?: () => AbortSignal | undefined) => Promise<() => void>
  /** Bytes held now, and requests waiting. */
  readonly state: () => { readonly held: number; readonly waiting: number }
}

// ---------------------------------------------------------------------------------------
// constructors

/** A budget of `total` bytes, at most `perClient` of them for one client (0: no limit). */
export const byteBudget = (limits: { readonly total: number; readonly perClient: number }): ByteBudget => {
  let held = 0
  const byClient = new Map<string, number>()
  const waiting: Waiter[] = []

  const fitsAll = (bytes: number): boolean => limits.total <= 0 || held === 0 || held + bytes <= limits.total
  const fitsClient = (client: string | undefined, bytes: number): boolean => {
    if (client === undefined || limits.perClient <= 0) return true
    const mine = byClient.get(client) ?? 0
    return mine === 0 || mine + bytes <= limits.perClient
  }

  const grant = (client: string | undefined, bytes: number): (() => void) => {
    held += bytes
    if (client !== undefined) byClient.set(client, (byClient.get(client) ?? 0) + bytes)
    let given = false
    return () => {
      if (given) return
      given = true
      held -= bytes
      if (client !== undefined) {
        const left = (byClient.get(client) ?? 0) - bytes
        if (left <= 0) byClient.delete(client)
        else byClient.set(client, left)
      }
      wakeUp()
    }
  }

  /** Serves waiters in order; stops at the first that does not fit in all (so a large one is not starved). */
  const wakeUp = (): void => {
    for (let i = 0; i < waiting.length; ) {
      const w = waiting[i] as Waiter
      if (!fitsAll(w.bytes)) return
      if (!fitsClient(w.client, w.bytes)) {
        i++
        continue
      }
      waiting.splice(i, 1)
      w.resolve(grant(w.client, w.bytes))
    }
  }

  return {
    take: (client, bytes, signalOf) => {
      if (bytes <= 0) return Promise.resolve(noop)
      return new Promise((resolve) => {
        // in line behind any waiter the whole budget holds up, ahead of those waiting for their own client
        const w: Waiter = { client, bytes, resolve }
        waiting.push(w)
        wakeUp()
        if (!waiting.includes(w)) return
        // a waiter whose client went away leaves the line holding nothing; one the whole budget
        // held up may have been holding others up too
        const leave = (): void => {
          const i = waiting.indexOf(w)
          if (i === -1) return
          waiting.splice(i, 1)
          resolve(noop)
          wakeUp()
        }
        const signal = signalOf?.()
        if (signal?.aborted === true) leave()
        else signal?.addEventListener('abort', leave, { once: true })
      })
    },
    state: () => ({ held, waiting: waiting.length }),
  }
}

// ---------------------------------------------------------------------------------------
// functions

/** The bytes a request's body may take: its declared length, else the limit (none when it is refused unread). */
export const shareOf = (req: HttpRequestHead, limit: number): number => {
  const declared = Number(req.header('content-length') ?? Number.NaN)
  return Number.isFinite(declared) && declared >= 0 ? (declared > limit ? 0 : declared) : limit
}

/** The reply, with `release` called once its body is out: now for text, at the end of a stream (read to its end or given up). */
export const releasedAtEnd = (r: HttpReply, release: () => void): HttpReply => {
  const body = r.body
  if (typeof body === 'string') {
    release()
    return r
  }
  return {
    ...r,
    body: {
      [Symbol.asyncIterator]: () => {
        const chunks = body[Symbol.asyncIterator]()
        return {
          next: async (): Promise<IteratorResult<string>> => {
            const next = await chunks.next()
            if (next.done === true) release()
            return next
          },
          return: async (): Promise<IteratorResult<string>> => {
            release()
            return (await chunks.return?.()) ?? { done: true, value: undefined }
          },
        }
      },
    },
  }
}

// ---------------------------------------------------------------------------------------
// internals

interface Waiter {
  readonly client: string | undefined
  readonly bytes: number
  readonly resolve: (release: () => void) => void
}

const noop = (): void => {}
