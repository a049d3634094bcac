/**
 * Where SSE events are kept so that a client that lost its connection can resume with
 * `Last-Event-ID`. The interface is small so that a store can live elsewhere (a database, a
 * shared cache); the default keeps the latest events in memory, bounded in count and in
 * bytes, in all and per owner (a session), and forgets a stream as soon as it is told to.
 *
 * @example
 * import { memoryEventStore } from 'emcp/http'
 * const store = memoryEventStore({ maxBytes: 32 * 1024 * 1024, maxSessionBytes: 4 * 1024 * 1024 })
 * const first = store.prime('s1', 'session-a')
 * const id = store.append('s1', '{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"hi"}}')
 * store.after(first) // { streamId: 's1', events: [{ id, data: '...' }] }
 * store.forget?.('s1') // the stream was read to its end: nothing of it is kept
 */

// ---------------------------------------------------------------------------------------
// model

/** The events of one stream after a given event id. */
export interface Replay {
  readonly streamId: string
  readonly events: ReadonlyArray<{ readonly id: string; readonly data: string }>
}

/**
 * A place for SSE events. Event ids must be unique across streams; they travel in headers
 * and logs, so they should carry nothing secret (the HTTP transport's stream ids are random
 * and say nothing of the session).
 */
export interface EventStore {
  /**
   * The id of a stream's priming event (no data is kept for it). `owner` groups the streams
   * of one session, for a per-session budget; a stream without one is its own group.
   */
  readonly prime: (streamId: string, owner?: string) => string
  /** Keeps one event of a stream and returns its id. */
  readonly append: (streamId: string, data: string) => string
  /** The stream an event id belongs to and its events after it; undefined when unknown, or when events after it were dropped. */
  readonly after: (lastEventId: string) => Replay | undefined
  /**
   * Forgets a stream, its events and all the store knows of it: the stream was read to its
   * end, or its session ended. A store without it must expire streams on its own.
   */
  readonly forget?: (streamId: string) => void
}

/** Limits of the in-memory store; the oldest events go first when one is reached. */
export interface MemoryEventStoreOptions {
  /** The most events kept in all (default 10 000). */
  readonly maxEvents?: number
  /** The most bytes kept in all (default 64 MiB): each event counts its length plus 128 for its bookkeeping. */
  readonly maxBytes?: number
  /** The most bytes kept for one owner, a session (default 8 MiB); an event larger than this is sent but never kept. */
  readonly maxSessionBytes?: number
}

/** The defaults of `memoryEventStore`. */
export const eventStoreDefaults = { maxEvents: 10_000, maxBytes: 64 * 1024 * 1024, maxSessionBytes: 8 * 1024 * 1024 } as const

// ---------------------------------------------------------------------------------------
// constructors

/**
 * An in-memory store bounded by `maxEvents`, `maxBytes` and `maxSessionBytes`, oldest
 * events dropped first (a session over its budget loses its own oldest). A replay that
 * would skip a dropped event is refused. Every operation costs O(1), except `after` and
 * `forget`, which walk the events of the stream's owner.
 */
export const memoryEventStore = (options: MemoryEventStoreOptions = {}): EventStore => {
  const maxEvents = options.maxEvents ?? eventStoreDefaults.maxEvents
  const maxBytes = options.maxBytes ?? eventStoreDefaults.maxBytes
  const maxSessionBytes = options.maxSessionBytes ?? eventStoreDefaults.maxSessionBytes
  const logs = new Map<string, Log>()
  const owners = new Map<string, Owner>()
  const all = new Chain()
  let bytes = 0
  let count = 0

  const logOf = (streamId: string, ownerKey: string = streamId): Log => {
    const known = logs.get(streamId)
    if (known !== undefined) return known
    let owner = owners.get(ownerKey)
    if (owner === undefined) owners.set(ownerKey, (owner = { key: ownerKey, bytes: 0, streams: 0, events: new Chain() }))
    owner.streams++
    const log: Log = { id: streamId, owner, next: 0, dropped: -1, held: 0 }
    logs.set(streamId, log)
    return log
  }

  const remove = (kept: Kept): void => {
    all.remove(kept.all)
    kept.log.owner.events.remove(kept.own)
    kept.log.held--
    kept.log.owner.bytes -= kept.size
    bytes -= kept.size
    count--
  }

  /** Drops an event to make room: a replay from before it would now skip it. */
  const evict = (kept: Kept): void => {
    remove(kept)
    kept.log.dropped = Math.max(kept.log.dropped, kept.seq)
  }

  const append = (streamId: string, data: string): string => {
    const log = logOf(streamId)
    const seq = log.next++
    const id = `${streamId}/${seq}`
    const size = data.length + eventOverhead
    // an event no budget can hold is sent, not kept: a replay from before it is refused
    if (maxEvents <= 0 || size > maxSessionBytes || size > maxBytes) {
      log.dropped = seq
      return id
    }
    const owner = log.owner
    while (owner.bytes + size > maxSessionBytes && owner.events.first !== undefined) evict(owner.events.first.kept)
    while ((bytes + size > maxBytes || count >= maxEvents) && all.first !== undefined) evict(all.first.kept)
    const kept: Kept = { log, seq, data, size, all: undefined, own: undefined }
    kept.all = all.push(kept)
    kept.own = owner.events.push(kept)
    log.held++
    owner.bytes += size
    bytes += size
    count++
    return id
  }

  const after = (lastEventId: string): Replay | undefined => {
    const slash = lastEventId.lastIndexOf('/')
    if (slash <= 0) return undefined
    const log = logs.get(lastEventId.slice(0, slash))
    const digits = lastEventId.slice(slash + 1)
    if (log === undefined || !/^(0|[1-9][0-9]{0,15})$/.test(digits)) return undefined
    const seq = Number(digits)
    // only ids this store gave out, and only while nothing after them was dropped
    if (seq >= log.next || log.dropped > seq) return undefined
    const later: Array<{ id: string; data: string }> = []
    for (let l = log.owner.events.first; l !== undefined; l = l.next)
      if (l.kept.log === log && l.kept.seq > seq) later.push({ id: `${log.id}/${l.kept.seq}`, data: l.kept.data })
    return { streamId: log.id, events: later }
  }

  const forget = (streamId: string): void => {
    const log = logs.get(streamId)
    if (log === undefined) return
    // a stream's events are mostly the owner's latest: walk back from the newest
    for (let l = log.owner.events.last; l !== undefined && log.held > 0; ) {
      const prev = l.prev
      if (l.kept.log === log) remove(l.kept)
      l = prev
    }
    logs.delete(streamId)
    if (--log.owner.streams === 0) owners.delete(log.owner.key)
  }

  return { prime: (streamId, owner) => `${streamId}/${logOf(streamId, owner).next++}`, append, after, forget }
}

// ---------------------------------------------------------------------------------------
// internals

/** What an event costs besides its text (its record, two links, the id made on replay), roughly. */
const eventOverhead = 128

/** A stream as the store knows it. */
interface Log {
  readonly id: string
  readonly owner: Owner
  /** The next sequence number. */
  next: number
  /** The highest sequence number dropped (-1: none). */
  dropped: number
  /** How many of its events are kept. */
  held: number
}

/** The streams of one session: their bytes and their events, oldest first. */
interface Owner {
  readonly key: string
  bytes: number
  streams: number
  readonly events: Chain
}

/** One kept event, linked into the order of all events and into its owner's. */
interface Kept {
  readonly log: Log
  readonly seq: number
  readonly data: string
  readonly size: number
  all: Link | undefined
  own: Link | undefined
}

interface Link {
  readonly kept: Kept
  prev: Link | undefined
  next: Link | undefined
}

/**
 * Events in the order they came: the oldest first, removal anywhere in O(1). (A Map or Set
 * also keeps insertion order, but taking its first entry again and again walks over the
 * holes left by the ones taken before: quadratic in the number of events.)
 */
class Chain {
  first: Link | undefined = undefined
  last: Link | undefined = undefined

  push(kept: Kept): Link {
    const link: Link = { kept, prev: this.last, next: undefined }
    if (this.last === undefined) this.first = link
    else this.last.next = link
    this.last = link
    return link
  }

  remove(link: Link | undefined): void {
    if (link === undefined) return
    if (link.prev === undefined) this.first = link.next
    else link.prev.next = link.next
    if (link.next === undefined) this.last = link.prev
    else link.next.prev = link.prev
    link.prev = undefined
    link.next = undefined
  }
}
