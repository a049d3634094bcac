/**
 * The in-memory store against the shared conformance suite (the Redis and PostgreSQL backends
 * run the same one), plus what only the memory store promises: its record bound.
 */
import { describe, expect, it } from 'vitest'
import { memoryStore } from '../../src/index.js'
import { storeConformance } from './conformance.js'

storeConformance('memory', (limits) => memoryStore({ events: limits }))

describe('memory store: bounds', () => {
  it('refuses a record past maxRecords, with an error that names the bound, and takes it once room is made', async () => {
    const s = memoryStore({ maxRecords: 2 })
    const task = (taskId: string) => ({ taskId, status: 'working' as const, createdAt: 'c', lastUpdatedAt: 'u', ttlMs: null })
    await s.tasks.put(task('a'), null)
    await s.tasks.put(task('b'), null)
    await expect(s.tasks.put(task('c'), null)).rejects.toThrow(/holds 2 task records already \(maxRecords\)/)
    await s.tasks.put(task('b'), null)
    await s.tasks.delete('a')
    await s.tasks.put(task('c'), null)
    expect(await s.tasks.get('c')).toMatchObject({ taskId: 'c' })
  })

  it('refuses a TTL that is not a positive number', async () => {
    const s = memoryStore()
    await expect(s.tasks.put({ taskId: 'a', status: 'working', createdAt: 'c', lastUpdatedAt: 'u', ttlMs: null }, 0)).rejects.toThrow(/TTL must be a positive number/)
  })
})

describe('memory store: expired records do not pile up', () => {
  it('a put drops the records whose TTL passed once a minute of its clock has gone by, even when the store is far from full', async () => {
    let t = 1_000_000
    const s = memoryStore({ now: () => t })
    const task = (taskId: string) => ({ taskId, status: 'working' as const, createdAt: 'c', lastUpdatedAt: 'u', ttlMs: 1000 })
    await s.tasks.put(task('a'), 1000)
    await s.tasks.put(task('b'), 1000)
    t += 30_000
    await s.tasks.put(task('c'), 1000)
    // expired, but within the minute: still held (a get would not return them)
    expect(s.held().tasks).toBe(3)
    expect(await s.tasks.get('a')).toBeUndefined()
    t += 31_000
    await s.tasks.put(task('d'), 1000)
    expect(s.held()).toEqual({ sessions: 0, tasks: 1 })
  })
})
