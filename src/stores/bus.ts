/**
 * The delivery loop every store's bus shares: this process's handlers of each channel, each
 * message handed to them in order as a fresh parse of its JSON text (so that no handler sees
 * another's changes, and nothing is shared by reference between replicas), and a handler
 * that throws reported without stopping the others. The memory, Redis and PostgreSQL buses
 * differ only in how a message travels; they all deliver through this.
 *
 * @example
 * import { localHandlers } from './bus.js'
 * const local = localHandlers()
 * const { first, stop } = local.add('emcp:notify', (m) => console.log(m)) // first: the channel had no handler before
 * local.deliver('emcp:notify', JSON.stringify({ hello: 'replicas' }))      // logs { hello: 'replicas' }
 * stop()                                                                   // true: the channel has no handler left
 */
import type { BusMessage } from './store.js'

// ---------------------------------------------------------------------------------------
// model

/** One handler added to a channel: whether it was the channel's first, and how to remove it. */
export interface Added {
  /** True when the channel had no handler before this one (a backend subscribes then). */
  readonly first: boolean
  /** Removes this handler; true when the channel has no handler left (a backend unsubscribes then). */
  readonly stop: () => boolean
}

/** The handlers of this process, by channel. */
export interface LocalHandlers {
  /** Adds a handler to a channel (the same function added twice is called twice). */
  readonly add: (channel: string, handler: (message: BusMessage) => void) => Added
  /** Hands a message, as JSON text, to every handler the channel has now, in order. */
  readonly deliver: (channel: string, text: string) => void
  /** True when the channel has a handler. */
  readonly has: (channel: string) => boolean
  /** Removes every handler. */
  readonly clear: () => void
}

// ---------------------------------------------------------------------------------------
// constructors

/** An empty set of handlers; `label` turns a channel into the name errors show (a backend's prefix dropped). */
export const localHandlers = (label: (channel: string) => string = (c) => c): LocalHandlers => {
  const handlers = new Map<string, Set<(message: BusMessage) => void>>()
  return {
    add: (channel, handler) => {
      // each addition is its own entry, so that stopping one leaves the others
      const own = (m: BusMessage): void => handler(m)
      const set = handlers.get(channel)
      if (set === undefined) handlers.set(channel, new Set([own]))
      else set.add(own)
      return {
        first: set === undefined,
        stop: () => {
          const now = handlers.get(channel)
          if (now === undefined || !now.delete(own) || now.size > 0) return false
          handlers.delete(channel)
          return true
        },
      }
    },
    deliver: (channel, text) => {
      // a copy of the set: a handler may add or remove handlers while it runs
      for (const h of [...(handlers.get(channel) ?? [])])
        try {
          h(JSON.parse(text) as BusMessage)
        } catch (e) {
          console.error(`emcp: a subscriber of ${label(channel)} failed: ${e instanceof Error ? e.message : String(e)}`)
        }
    },
    has: (channel) => handlers.has(channel),
    clear: () => handlers.clear(),
  }
}
