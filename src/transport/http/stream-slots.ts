/**
 * Slots for the long-lived streams a client may hold open (a 2026-07-28
 * `subscriptions/listen`, a stateful GET stream), per client and in all. A stream costs
 * memory and a socket for as long as it is open, and a keep-alive comment keeps it open for
 * ever: without a cap, a few thousand of them cost a hundred megabytes, and only file
 * descriptors stopped them. The client is its verified identity, else its address (IPv6 by
 * /64); one the transport cannot name counts in all only. A slot is given back when its
 * stream ends, however it ends.
 *
 * @example
 * import { streamSlots } from './stream-slots.js'
 * const slots = streamSlots({ total: 1000, perClient: 20 })
 * const slot = slots.take('address:10.0.0.7') // a release function, or 'client' / 'total' at a limit
 * if (typeof slot === 'function') slot()
 */
import type { Identity } from '../../server/session.js'
import { addTo } from './in-flight.js'
import type { HttpReply, HttpRequestHead } from './model.js'

// ---------------------------------------------------------------------------------------
// model

/** Open streams, counted per client and in all. */
export interface StreamSlots {
  /** A slot for `client` (undefined: counted in all only): its release, or the limit that refuses it. */
  readonly take: (client: string | undefined) => (() => void) | 'client' | 'total'
  /** The limits, for the errors that name them. */
  readonly limits: { readonly total: number; readonly perClient: number }
  /** Streams open now. */
  readonly open: () => number
}

/** The slots a step's streams take, and which client a request is. */
export interface StreamLimits {
  readonly slots: StreamSlots
  readonly clientOf: (req: HttpRequestHead, identity: Identity | undefined) => string | undefined
}

// ---------------------------------------------------------------------------------------
// constructors

/** At most `total` streams open, `perClient` of them for one client (0: no limit). */
export const streamSlots = (limits: { readonly total: number; readonly perClient: number }): StreamSlots => {
  let open = 0
  const byClient = new Map<string, number>()
  return {
    take: (client) => {
      const mine = client === undefined ? 0 : (byClient.get(client) ?? 0)
      if (limits.perClient > 0 && mine >= limits.perClient) return 'client'
      if (limits.total > 0 && open >= limits.total) return 'total'
      open++
      if (client !== undefined) byClient.set(client, mine + 1)
      let given = false
      return () => {
        if (given) return
        given = true
        open--
        if (client !== undefined) addTo(byClient, client, -1)
      }
    },
    limits,
    open: () => open,
  }
}

// ---------------------------------------------------------------------------------------
// functions

/** The words of a refusal at `limit`, naming the option that sets it. */
export const slotRefusal = (slots: StreamSlots, limit: 'client' | 'total'): string =>
  limit === 'client'
    ? `Too Many Requests: this client already has ${slots.limits.perClient} streams open (maxStreamsPerClient); close one first`
    : `Too Many Requests: the server already has ${slots.limits.total} streams open (maxStreams); try again later`

/** The reply, with `release` called once its stream is over (read to its end or given up); text: at once. */
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
