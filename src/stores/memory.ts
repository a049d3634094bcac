/**
 * The in-memory `SharedStore`, the default: one process's state, shared by every server in
 * the process that is given the same object (two servers built with one `memoryStore()`
 * serve each other's sessions, tasks and subscriptions, which is how the replica tests run).
 * Records are copied through JSON on the way in and out, as a network store would, so that
 * nothing held by reference leaks between replicas. Bounded: the event log by bytes in all
 * and per session (`memoryEventStore`), the session and task records by count.
 *
 * @example
 * import { memoryStore } from 'emcp'
 * const store = memoryStore({ events: { maxBytes: 32 * 1024 * 1024 }, maxRecords: 10_000 })
 * await store.tasks.put({ taskId: 't1', status: 'working', createdAt: '2026-01-01T00:00:00.000Z', lastUpdatedAt: '2026-01-01T00:00:00.000Z', ttlMs: 60_000 }, 60_000)
 * await store.tasks.get('t1') // the record, for 60 seconds
 */
import { localHandlers } from './bus.js'
import { memoryEventStore, type MemoryEventStoreOptions } from './event-store.js'
import type { BusMessage, EventLog, SessionRecord, SharedStore, StoredTask } from './store.js'

// ---------------------------------------------------------------------------------------
// model

/** Bounds of the in-memory store. */
export interface MemoryStoreOptions {
  /** The event log's bounds (default: those of `memoryEventStore`, 64 MiB in all, 8 MiB a session). */
  readonly events?: MemoryEventStoreOptions
  /** The most session records, and separately the most task records, kept (default 100 000); past it a put is refused. */
  readonly maxRecords?: number
  /** The `requestState` keys the servers sharing this store use (the first signs, all verify). */
  readonly requestStateKeys?: ReadonlyArray<string | Uint8Array>
  /** The clock (ms since the epoch); for tests. */
  readonly now?: () => number
}

// ---------------------------------------------------------------------------------------
// constructors

/** The in-memory store, which also tells how many records it holds. */
export interface MemoryStore extends SharedStore {
  /** How many session and task records are held now (expired ones included until swept). */
  readonly held: () => { readonly sessions: number; readonly tasks: number }
}

/** A shared store in this process's memory. */
export const memoryStore = (options: MemoryStoreOptions = {}): MemoryStore => {
  const now = options.now ?? Date.now
  const maxRecords = options.maxRecords ?? 100_000
  const sessions = expiring<SessionRecord>('session', maxRecords, now)
  const tasks = expiring<StoredTask>('task', maxRecords, now)
  const bus = memoryBus()
  let closed = false
  const open = <A>(f: () => A): Promise<A> => {
    if (closed) return Promise.reject(new Error('the memory store is closed'))
    try {
      return Promise.resolve(f())
    } catch (e) {
      return Promise.reject(e)
    }
  }
  // made on the first event: only resumable HTTP streams log any, and every server built
  // without a store of its own makes one of these, a stdio server too
  let made: ReturnType<typeof memoryEventStore> | undefined
  const events = (): ReturnType<typeof memoryEventStore> => (made ??= memoryEventStore(options.events))
  const log: EventLog = {
    prime: (streamId, owner) => open(() => events().prime(streamId, owner)),
    append: (streamId, data) => open(() => events().append(streamId, data)),
    after: (lastEventId) => open(() => events().after(lastEventId)),
    forget: (streamId) => open(() => made?.forget?.(streamId)),
  }
  return {
    kind: 'memory',
    sessions: {
      put: (record, ttlMs) => open(() => sessions.put(record.id, record, ttlMs)),
      replace: (record, ttlMs) => open(() => sessions.replace(record.id, record, ttlMs)),
      get: (id) => open(() => sessions.get(id)),
      touch: (id, ttlMs) => open(() => sessions.touch(id, ttlMs)),
      delete: (id) => open(() => sessions.delete(id)),
    },
    events: log,
    bus: {
      publish: (channel, message) => open(() => bus.publish(channel, message)),
      subscribe: (channel, handler) => open(() => bus.subscribe(channel, handler)),
    },
    tasks: {
      put: (task, ttlMs) => open(() => tasks.put(task.taskId, task, ttlMs)),
      get: (taskId) => open(() => tasks.get(taskId)),
      delete: (taskId) => open(() => tasks.delete(taskId)),
    },
    ...(options.requestStateKeys === undefined ? {} : { requestStateKeys: options.requestStateKeys }),
    held: () => ({ sessions: sessions.size(), tasks: tasks.size() }),
    close: () => {
      closed = true
      sessions.clear()
      tasks.clear()
      bus.clear()
      return Promise.resolve()
    },
  }
}

// ---------------------------------------------------------------------------------------
// internals

/** How often a put may walk the records to drop the expired ones, in milliseconds. */
const sweepEveryMs = 60_000

/** Records by key, each until its expiry, copied through JSON both ways; at most `max` of them. */
const expiring = <A>(what: string, max: number, now: () => number) => {
  const records = new Map<string, { readonly text: string; expires: number }>()
  const live = (key: string): { readonly text: string; expires: number } | undefined => {
    const r = records.get(key)
    if (r !== undefined && r.expires <= now()) {
      records.delete(key)
      return undefined
    }
    return r
  }
  let swept = now()
  /** Drops the expired records (walks them all: when the store is full, and at most once a minute otherwise, so that records nobody reads again do not pile up). */
  const sweep = (): void => {
    const t = (swept = now())
    for (const [key, r] of records) if (r.expires <= t) records.delete(key)
  }
  const expiry = (ttlMs: number | null): number => {
    if (ttlMs === null) return Number.POSITIVE_INFINITY
    if (!(Number.isFinite(ttlMs) && ttlMs > 0)) throw new RangeError(`the ${what} TTL must be a positive number of milliseconds or null, got ${ttlMs}`)
    return now() + ttlMs
  }
  return {
    put: (key: string, value: A, ttlMs: number | null): void => {
      const expires = expiry(ttlMs)
      if ((!records.has(key) && records.size >= max) || now() - swept > sweepEveryMs) sweep()
      if (!records.has(key) && records.size >= max) throw new Error(`the memory store holds ${max} ${what} records already (maxRecords); try again later`)
      records.set(key, { text: JSON.stringify(value), expires })
    },
    replace: (key: string, value: A, ttlMs: number): boolean => {
      if (live(key) === undefined) return false
      records.set(key, { text: JSON.stringify(value), expires: expiry(ttlMs) })
      return true
    },
    get: (key: string): A | undefined => {
      const r = live(key)
      return r === undefined ? undefined : (JSON.parse(r.text) as A)
    },
    touch: (key: string, ttlMs: number): boolean => {
      const r = live(key)
      if (r === undefined) return false
      r.expires = expiry(ttlMs)
      return true
    },
    delete: (key: string): boolean => live(key) !== undefined && records.delete(key),
    clear: (): void => records.clear(),
    size: (): number => records.size,
  }
}

/**
 * Publish/subscribe within the process: each message goes to the subscribers of its channel
 * at the time of publishing, in order, as a JSON copy (bus.ts).
 */
const memoryBus = () => {
  const local = localHandlers()
  const publish = (channel: string, message: BusMessage): void => local.deliver(channel, JSON.stringify(message))
  const subscribe = (channel: string, handler: (message: BusMessage) => void): (() => Promise<void>) => {
    const added = local.add(channel, handler)
    return () => {
      added.stop()
      return Promise.resolve()
    }
  }
  return { publish, subscribe, clear: local.clear }
}
