/**
 * Shared state for replicas: the one interface through which N server processes behind a
 * load balancer share what a single process keeps in memory. Five parts, every call
 * asynchronous and allowed to fail (a network store is down, slow, or full):
 *
 * - `sessions`: the 2025-11-25 session record, what a replica needs to serve a session that
 *   another one initialized (negotiated version, client info and capabilities, the identity
 *   it is bound to, log level, resource subscriptions), with an idle TTL;
 * - `events`: the SSE event log (append, replay after `Last-Event-ID`), bounded in bytes in
 *   all and per session;
 * - `bus`: publish/subscribe between replicas (list_changed, resources/updated, task changes,
 *   answers to server-to-client requests routed to the replica whose call waits for them,
 *   sessions ended anywhere);
 * - `tasks`: the records of the tasks extension (created on one replica, polled, answered or
 *   cancelled on another; results kept for their TTL whatever happens to the replica);
 * - `requestStateKeys`: the rotating 2026-07-28 `requestState` keys (the first signs, all verify).
 *
 * `memoryStore()` (stores/memory.ts) is the default: one process, or several servers in one
 * process that share the same object. Redis and PostgreSQL backends implement the same
 * interface and pass the same suite (test/stores/conformance.ts).
 *
 * @example
 * import { memoryStore, mcpServer, type SharedStore } from 'emcp'
 * const store: SharedStore = memoryStore({ requestStateKeys: ['the key that signs now, 16+ bytes'] })
 * // give the same store to every server that serves the same clients:
 * // mcpServer(tools, info, { store }) on each replica
 * await store.bus.publish('emcp:example', { hello: 'replicas' })
 */
import type { AnyProtocolVersion } from '../protocol/versions.js'
import type { ClientInfo, Identity, LogLevel } from '../server/session.js'
import type { DetailedTask } from '../features/tasks/store.js'

// ---------------------------------------------------------------------------------------
// model

/** What a replica needs to serve a 2025-11-25 session that another replica initialized. */
export interface SessionRecord {
  /** The `MCP-Session-Id`. */
  readonly id: string
  /** What the event log groups the session's streams by (random; never the session id). */
  readonly owner: string
  readonly protocolVersion: AnyProtocolVersion
  readonly clientInfo: ClientInfo | undefined
  readonly clientCapabilities: { readonly [key: string]: unknown } | undefined
  /** True once the client sent `notifications/initialized`. */
  readonly initialized: boolean
  /** Who opened it: with authentication on, only this subject may use it. */
  readonly identity: Identity | undefined
  /** The level of `logging/setLevel`, once set. */
  readonly logLevel: LogLevel | undefined
  /** The resource URIs the session subscribed to (`resources/subscribe`). */
  readonly subscriptions: ReadonlyArray<string>
}

/** The session records, each with an idle TTL. */
export interface SessionRecords {
  /** Keeps (or replaces) a record for `ttlMs` milliseconds. */
  readonly put: (record: SessionRecord, ttlMs: number) => Promise<void>
  /**
   * Replaces a record that exists and keeps it `ttlMs` more; false, and nothing written, when
   * there is none (deleted or expired): a late write never brings a deleted session back.
   */
  readonly replace: (record: SessionRecord, ttlMs: number) => Promise<boolean>
  /** The record, unless unknown, deleted or expired. */
  readonly get: (id: string) => Promise<SessionRecord | undefined>
  /** Keeps a record `ttlMs` more milliseconds from now; false when there is none. */
  readonly touch: (id: string, ttlMs: number) => Promise<boolean>
  /** Deletes a record; false when there was none. */
  readonly delete: (id: string) => Promise<boolean>
}

/** The events of one stream after a given event id. */
export interface EventReplay {
  readonly streamId: string
  readonly events: ReadonlyArray<{ readonly id: string; readonly data: string }>
}

/**
 * The SSE event log. Event ids are unique across streams, carry nothing secret, and hold no
 * line break. Bounded: a backend keeps at most so many bytes in all and per owner (a
 * session), dropping the oldest first; a replay that would skip a dropped event is refused.
 */
export interface EventLog {
  /** The id of a stream's priming event (no data kept); `owner` groups a session's streams for its byte budget. */
  readonly prime: (streamId: string, owner?: string) => Promise<string>
  /** Keeps one event of a stream and gives its id (an event larger than the budget is not kept, and a replay from before it is refused). */
  readonly append: (streamId: string, data: string) => Promise<string>
  /** The stream an event id belongs to and its events after it; undefined when unknown, or when events after it were dropped. */
  readonly after: (lastEventId: string) => Promise<EventReplay | undefined>
  /** Forgets a stream and everything kept of it. */
  readonly forget: (streamId: string) => Promise<void>
}

/** A message on the bus: JSON. */
export type BusMessage = null | boolean | number | string | ReadonlyArray<BusMessage> | { readonly [key: string]: BusMessage | undefined }

/**
 * Publish/subscribe between replicas. Delivery is at-most-once per subscriber and in order
 * per publisher (Redis pub/sub, PostgreSQL NOTIFY give no more): what must not be lost lives
 * in `sessions`, `events` or `tasks`, and the bus only says that it changed.
 */
export interface Bus {
  /** Sends a message to every subscriber of `channel`, in every replica (this one included). */
  readonly publish: (channel: string, message: BusMessage) => Promise<void>
  /** Calls `handler` with each message published on `channel` from now on; resolves to the way to stop. */
  readonly subscribe: (channel: string, handler: (message: BusMessage) => void) => Promise<() => Promise<void>>
}

/**
 * A task's record: the task as `tasks/get` shows it, and whom it belongs to (an opaque key,
 * see server/principal.ts; absent: to whoever holds its id). A backend keeps it whole.
 */
export type StoredTask = DetailedTask & { readonly owner?: string }

/** The records of the tasks extension. */
export interface TaskRecords {
  /** Keeps (or replaces) a task's record for `ttlMs` more milliseconds (null: until deleted). */
  readonly put: (task: StoredTask, ttlMs: number | null) => Promise<void>
  /** The record, unless unknown, deleted or expired. */
  readonly get: (taskId: string) => Promise<StoredTask | undefined>
  /** Deletes a record; false when there was none. */
  readonly delete: (taskId: string) => Promise<boolean>
}

/** The state replicas share. */
export interface SharedStore {
  /** A short name for errors and docs (`memory`, `redis`, `postgres`). */
  readonly kind: string
  readonly sessions: SessionRecords
  readonly events: EventLog
  readonly bus: Bus
  readonly tasks: TaskRecords
  /** The `requestState` keys every replica uses (the first signs, all verify); undefined: the server's own option, else a random key per process. */
  readonly requestStateKeys?: ReadonlyArray<string | Uint8Array>
  /** Lets go of connections and timers; the store is unusable after. */
  readonly close: () => Promise<void>
}

/** The bus channels emcp uses; a backend may prefix them. */
export const channels = {
  /** Notifications for every replica's clients (list_changed, resources/updated, notifications/tasks). */
  notify: 'emcp:notify',
  /** A client's answer to a server-to-client request, for the replica whose call waits on it. */
  answers: 'emcp:answers',
  /** A session ended (DELETE, idle time): every replica drops its copy. */
  sessions: 'emcp:sessions',
  /** tasks/update and tasks/cancel, for the replica that runs the task. */
  tasks: 'emcp:tasks',
} as const

// ---------------------------------------------------------------------------------------
// functions

/** A failure of the shared store, told to the client as 503 / -32004 with this message. */
export class StoreUnavailable extends Error {
  constructor(readonly what: string, cause: unknown) {
    super(`Service Unavailable: the shared store failed (${what}): ${cause instanceof Error ? cause.message : String(cause)}; try again later`)
    this.name = 'StoreUnavailable'
  }
}

/**
 * Runs one store call; a rejection, a throw, or no answer within `timeoutMs` becomes a
 * `StoreUnavailable` naming `what`, so that no request waits on a store past its deadline.
 */
export const storeCall = <A>(what: string, f: () => Promise<A>, timeoutMs: number = defaultStoreTimeoutMs): Promise<A> =>
  new Promise<A>((resolve, reject) => {
    const timer = setTimeout(() => reject(new StoreUnavailable(what, new Error(`no answer within ${timeoutMs} ms`))), timeoutMs)
    let p: Promise<A>
    try {
      p = f()
    } catch (e) {
      p = Promise.reject(e)
    }
    p.then(
      (a) => (clearTimeout(timer), resolve(a)),
      (e: unknown) => (clearTimeout(timer), reject(e instanceof StoreUnavailable ? e : new StoreUnavailable(what, e))),
    )
  })

/** How long a store call may take before it counts as failed, in milliseconds. */
export const defaultStoreTimeoutMs = 5_000
