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
