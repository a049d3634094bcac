/**
 * A `SharedStore` for the server a Durable Object runs (emcp/workers): the session records
 * in the object's own storage, so that a session outlives the object's eviction (the next
 * request wakes a new instance, which finds the record and serves the session under the
 * same id: its client info, capabilities, log level and subscriptions). The event log, the
 * bus and the tasks stay in the object's memory: an SSE stream does not outlive its object
 * anyway. The object holds one session, so the storage holds one record.
 *
 * @example
 * import { durableObjectStore } from './durable-object.js'
 * declare const state: { readonly storage: import('./durable-object.js').DurableStorage }
 * const store = durableObjectStore(state.storage) // mcpServer(tools, info, { store })
 */
import { memoryStore } from './memory.js'
import type { SessionRecord, SharedStore } from './store.js'

// ---------------------------------------------------------------------------------------
// model

/** The part of a Durable Object's `state.storage` used here. */
export interface DurableStorage {
  readonly get: <T>(key: string) => Promise<T | undefined>
  readonly put: <T>(key: string, value: T) => Promise<void>
  readonly delete: (key: string) => Promise<boolean>
}

// ---------------------------------------------------------------------------------------
// constructors

/** A store whose session records live in `storage` (each with its idle expiry), the rest in memory. */
export const durableObjectStore = (storage: DurableStorage, now: () => number = Date.now): SharedStore => {
  const key = (id: string): string => `emcp:session:${id}`
  const live = async (id: string): Promise<Kept | undefined> => {
    const kept = await storage.get<Kept>(key(id))
    if (kept === undefined) return undefined
    if (kept.expiresAt > now()) return kept
    await storage.delete(key(id))
    return undefined
  }
  const put = (record: SessionRecord, ttlMs: number): Promise<void> => storage.put<Kept>(key(record.id), { record, expiresAt: now() + ttlMs })
  return {
    ...memoryStore(),
    kind: 'durable-object',
    sessions: {
      put,
      replace: async (record, ttlMs) => ((await live(record.id)) === undefined ? false : (await put(record, ttlMs), true)),
      get: async (id) => (await live(id))?.record,
      touch: async (id, ttlMs) => {
        const kept = await live(id)
        if (kept === undefined) return false
        await put(kept.record, ttlMs)
        return true
      },
      delete: async (id) => ((await live(id)) === undefined ? false : storage.delete(key(id))),
    },
  }
}

// ---------------------------------------------------------------------------------------
// internals

/** A record as kept, with the time it expires (ms since the epoch). */
interface Kept {
  readonly record: SessionRecord
  readonly expiresAt: number
}
