/**
 * The event log an HTTP session's SSE streams write through: the shared store's asynchronous
 * `events` (so that a stream cut on one replica is resumed on another), or a synchronous
 * `eventStore` the user gave (kept as it was: a store that throws costs the event its id,
 * never its delivery). Writes of one stream are chained, so that they reach the log in the
 * order they were made, whatever the log's latency; a stream's frames go out as their ids
 * come back.
 *
 * @example
 * import { memoryStore } from 'emcp'
 * import { sharedLog, chained } from './stream-log.js'
 * const log = sharedLog(memoryStore().events)
 * const state = { tail: Promise.resolve() }
 * const id = await chained(state, () => log.append('stream-1', '{"jsonrpc":"2.0","method":"notifications/message"}'))
 */
import { hex, utf8 } from '../../util/bytes.js'
import { sha256 } from '../../util/sha256.js'
import type { EventStore } from '../../stores/event-store.js'
import { storeCall, type EventLog, type EventReplay } from '../../stores/store.js'
import { eventId, stored } from './sse.js'

// ---------------------------------------------------------------------------------------
// model

/**
 * A log as the streams see it: every call asynchronous. `prime` and `append` give the event's
 * id, or undefined when the event goes without one (a synchronous store that failed); a
 * rejection means the log lost the event, and the stream that wrote it is cut.
 */
export interface StreamLog {
  readonly prime: (streamId: string, owner: string | undefined) => Promise<string | undefined>
  readonly append: (streamId: string, data: string) => Promise<string | undefined>
  /** The replay after an event id; rejects when the log cannot be read (503). */
  readonly after: (lastEventId: string) => Promise<EventReplay | undefined>
  readonly forget: (streamId: string) => Promise<void>
}

/** What is chained: the last write of one stream. */
export interface Tail {
  tail: Promise<void>
}

// ---------------------------------------------------------------------------------------
// constructors

/** The shared store's event log, each call bounded by `storeCall`; an id with a line break counts as a failure. */
export const sharedLog = (events: EventLog): StreamLog => ({
  prime: (streamId, owner) => storeCall('events: prime a stream', () => events.prime(streamId, owner)).then(eventId),
  append: (streamId, data) => storeCall('events: keep an event', () => events.append(streamId, data)).then(eventId),
  after: (lastEventId) => storeCall('events: read a replay', () => events.after(lastEventId)),
  forget: (streamId) =>
    storeCall('events: forget a stream', () => events.forget(streamId)).catch((e: unknown) => {
      // the log's own bounds and TTLs let the stream go in time
      console.error(`emcp: ${e instanceof Error ? e.message : String(e)}`)
    }),
})

/** A synchronous `EventStore` as a log: a throw in `prime` or `append` (or an id with a line break) sends the event without an id, as before. */
export const localLog = (store: EventStore): StreamLog => ({
  prime: (streamId, owner) => Promise.resolve(stored(() => eventId(store.prime(streamId, owner)))),
  append: (streamId, data) => Promise.resolve(stored(() => eventId(store.append(streamId, data)))),
  // a lookup that throws fails the request (500), as before
  after: (lastEventId) => new Promise((resolve) => resolve(store.after(lastEventId))),
  forget: (streamId) => Promise.resolve(void stored(() => store.forget?.(streamId))),
})

// ---------------------------------------------------------------------------------------
// functions

/** Runs `f` after the stream's previous write has settled, and makes it the stream's last write. */
export const chained = <A>(state: Tail, f: () => Promise<A>): Promise<A> => {
  const p = state.tail.then(f)
  state.tail = p.then(noop, noop)
  return p
}

/**
 * The mark a session puts in front of its stream ids (a hash of its event-log owner, which
 * is random and never the session id): a replica that takes a session over accepts a
 * `Last-Event-ID` of a stream it never saw only when the stream carries the session's mark.
 */
export const markOf = (owner: string): string => hex(sha256(utf8(owner))).slice(0, 20)

const noop = (): void => {}
