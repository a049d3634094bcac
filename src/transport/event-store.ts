/**
 * Where SSE events are kept so that a client that lost its connection can resume with
 * `Last-Event-ID`. The interface is small so that a store can live elsewhere (a database, a
 * shared cache); the default keeps the latest events in memory, bounded.
 *
 * @example
 * import { memoryEventStore } from 'emcp/http'
 * const store = memoryEventStore({ maxEvents: 1000 })
 * const first = store.prime('s1')
 * const id = store.append('s1', '{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"hi"}}')
 * store.after(first) // { streamId: 's1', events: [{ id, data: '...' }] }
 */

// ---------------------------------------------------------------------------------------
// model

/** The events of one stream after a given event id. */
export interface Replay {
  readonly streamId: string
  readonly events: ReadonlyArray<{ readonly id: string; readonly data: string }>
}

/** A place for SSE events. Event ids must be unique across streams. */
export interface EventStore {
  /** The id of a stream's priming event (no data is kept for it). */
  readonly prime: (streamId: string) => string
  /** Keeps one event of a stream and returns its id. */
  readonly append: (streamId: string, data: string) => string
  /** The stream an event id belongs to and its events after it; undefined when unknown, or when events after it were dropped. */
  readonly after: (lastEventId: string) => Replay | undefined
}

// ---------------------------------------------------------------------------------------
// constructors

/** An in-memory store keeping at most `maxEvents` events in all (default 10 000), oldest dropped first. */
export const memoryEventStore = (options: { readonly maxEvents?: number } = {}): EventStore => {
  const maxEvents = options.maxEvents ?? 10_000
  const events = new Map<string, { readonly streamId: string; readonly seq: number; readonly data: string }>()
  const next = new Map<string, number>()
  // per stream, the highest sequence number dropped: a replay from before it would skip events
  const dropped = new Map<string, number>()

  const idOf = (streamId: string): { id: string; seq: number } => {
    const seq = next.get(streamId) ?? 0
    next.set(streamId, seq + 1)
    return { id: `${streamId}/${seq}`, seq }
  }

  const drop = (id: string): void => {
    const e = events.get(id)
    if (e === undefined) return
    events.delete(id)
    dropped.set(e.streamId, Math.max(dropped.get(e.streamId) ?? -1, e.seq))
  }

  return {
    prime: (streamId) => idOf(streamId).id,
    append: (streamId, data) => {
      const { id, seq } = idOf(streamId)
      if (maxEvents <= 0) {
        dropped.set(streamId, seq)
        return id
      }
      events.set(id, { streamId, seq, data })
      // a Map iterates in insertion order: the first key is the oldest event
      while (events.size > maxEvents) drop(events.keys().next().value as string)
      return id
    },
    after: (lastEventId) => {
      const slash = lastEventId.lastIndexOf('/')
      if (slash <= 0) return undefined
      const streamId = lastEventId.slice(0, slash)
      const digits = lastEventId.slice(slash + 1)
      if (!/^(0|[1-9][0-9]*)$/.test(digits)) return undefined
      const seq = Number(digits)
      // only ids this store gave out, and only while nothing after them was dropped
      if (seq >= (next.get(streamId) ?? 0)) return undefined
      if ((dropped.get(streamId) ?? -1) > seq) return undefined
      const later: Array<{ id: string; data: string }> = []
      for (const [id, e] of events) if (e.streamId === streamId && e.seq > seq) later.push({ id, data: e.data })
      return { streamId, events: later }
    },
  }
}
