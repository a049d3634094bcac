/**
 * The conformance suite of a `SharedStore`, written once: every backend (memory today; Redis
 * and PostgreSQL next) runs it through `storeConformance(name, factory)`. The factory makes a
 * fresh, empty store with the given event-log bounds; the suite closes each store it made.
 * It checks what the server relies on: records round-trip and expire, the event log replays
 * after an id and holds its byte limits (a replay that would skip a dropped event is refused),
 * the bus delivers to every subscriber in order and stops on unsubscribe, and a closed store
 * rejects instead of hanging.
 *
 * @example
 * import { storeConformance } from './conformance.js'
 * storeConformance('memory', (limits) => memoryStore({ events: limits }))
 */
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { BusMessage, DetailedTask, SessionRecord, SharedStore } from '../../src/index.js'

/** The event-log bounds a factory must honour. */
export interface EventLimits {
  readonly maxBytes: number
  readonly maxSessionBytes: number
}

/** A fresh, empty store with these event-log bounds. */
export type StoreFactory = (limits: EventLimits) => SharedStore | Promise<SharedStore>

const record = (id: string): SessionRecord => ({
  id,
  owner: `owner-${id}`,
  protocolVersion: '2025-11-25',
  clientInfo: { name: 'client', version: '1.0.0' },
  clientCapabilities: { elicitation: {}, roots: { listChanged: true } },
  initialized: true,
  identity: { subject: 'alice', roles: ['reader'], scopes: ['mcp'] },
  logLevel: 'warning',
  subscriptions: ['app://a', 'app://b'],
})

const task = (taskId: string, status: DetailedTask['status'] = 'working'): DetailedTask => ({
  taskId,
  status,
  createdAt: '2026-01-01T00:00:00.000Z',
  lastUpdatedAt: '2026-01-01T00:00:01.000Z',
  ttlMs: 60_000,
  pollIntervalMs: 500,
  ...(status === 'completed' ? { result: { content: [{ type: 'text', text: 'done' }] } } : {}),
})

/** Runs the suite against the stores `factory` makes. */
export const storeConformance = (name: string, factory: StoreFactory): void => {
  const made: SharedStore[] = []
  const fresh = async (limits: EventLimits = { maxBytes: 1024 * 1024, maxSessionBytes: 64 * 1024 }): Promise<SharedStore> => {
    const s = await factory(limits)
    made.push(s)
    return s
  }
  afterEach(async () => {
    for (const s of made.splice(0)) await s.close()
  })

  describe(`${name} store: session records`, () => {
    it('round-trips a record, whole, and tells unknown from known', async () => {
      const s = await fresh()
      expect(await s.sessions.get('nope')).toBeUndefined()
      await s.sessions.put(record('s1'), 60_000)
      expect(await s.sessions.get('s1')).toEqual(record('s1'))
      await s.sessions.put({ ...record('s1'), logLevel: 'debug', subscriptions: [] }, 60_000)
      expect(await s.sessions.get('s1')).toMatchObject({ logLevel: 'debug', subscriptions: [] })
    })

    it('deletes (true once, then false) and touches only what exists', async () => {
      const s = await fresh()
      await s.sessions.put(record('s2'), 60_000)
      expect(await s.sessions.touch('s2', 60_000)).toBe(true)
      expect(await s.sessions.delete('s2')).toBe(true)
      expect(await s.sessions.delete('s2')).toBe(false)
      expect(await s.sessions.get('s2')).toBeUndefined()
      expect(await s.sessions.touch('s2', 60_000)).toBe(false)
    })

    it('replaces only a record that exists: one deleted is not made again', async () => {
      const s = await fresh()
      await s.sessions.put(record('s5'), 60_000)
      expect(await s.sessions.replace({ ...record('s5'), logLevel: 'error' }, 60_000)).toBe(true)
      expect(await s.sessions.get('s5')).toMatchObject({ id: 's5', logLevel: 'error' })
      expect(await s.sessions.delete('s5')).toBe(true)
      expect(await s.sessions.replace({ ...record('s5'), logLevel: 'debug' }, 60_000)).toBe(false)
      expect(await s.sessions.get('s5')).toBeUndefined()
      expect(await s.sessions.replace(record('never'), 60_000)).toBe(false)
      expect(await s.sessions.get('never')).toBeUndefined()
    })

    it('forgets a record once its TTL has passed', async () => {
      const s = await fresh()
      await s.sessions.put(record('s3'), 30)
      await vi.waitFor(async () => expect(await s.sessions.get('s3')).toBeUndefined(), { timeout: 10_000, interval: 20 })
    })

    it('gives a copy: changing what was put or got changes nothing kept', async () => {
      const s = await fresh()
      const r = { ...record('s4'), subscriptions: ['app://x'] }
      await s.sessions.put(r, 60_000)
      ;(r.subscriptions as string[]).push('app://y')
      const got = (await s.sessions.get('s4')) as SessionRecord
      expect(got.subscriptions).toEqual(['app://x'])
      ;(got.subscriptions as string[]).push('app://z')
      expect((await s.sessions.get('s4'))?.subscriptions).toEqual(['app://x'])
    })
  })

  describe(`${name} store: the event log`, () => {
    it('replays the events after an id, of that stream only, in order; ids are unique and single-line', async () => {
      const s = await fresh()
      const primed = await s.events.prime('stream-a', 'owner-1')
      const a1 = await s.events.append('stream-a', '{"n":1}')
      await s.events.prime('stream-b', 'owner-1')
      const b1 = await s.events.append('stream-b', '{"n":"b"}')
      const a2 = await s.events.append('stream-a', '{"n":2}')
      const ids = [primed, a1, b1, a2]
      expect(new Set(ids).size).toBe(4)
      for (const id of ids) expect(id).not.toMatch(/[\r\n\0]/)
      expect(await s.events.after(primed)).toEqual({ streamId: 'stream-a', events: [{ id: a1, data: '{"n":1}' }, { id: a2, data: '{"n":2}' }] })
      expect(await s.events.after(a1)).toEqual({ streamId: 'stream-a', events: [{ id: a2, data: '{"n":2}' }] })
      expect(await s.events.after(a2)).toEqual({ streamId: 'stream-a', events: [] })
    })

    it('refuses ids it never gave out', async () => {
      const s = await fresh()
      await s.events.prime('stream-c', 'owner-1')
      for (const id of ['', 'stream-c', 'stream-c/99', 'stream-c/-1', 'nope/0', 'stream-c/1e3', `${'x'.repeat(10_000)}/0`]) expect(await s.events.after(id)).toBeUndefined()
    })

    it('holds the per-session byte budget: the oldest go first, and a replay that would skip one is refused', async () => {
      const s = await fresh({ maxBytes: 1024 * 1024, maxSessionBytes: 4096 })
      const primed = await s.events.prime('stream-d', 'owner-d')
      const big = 'x'.repeat(1500)
      const e1 = await s.events.append('stream-d', big)
      const e2 = await s.events.append('stream-d', big)
      const e3 = await s.events.append('stream-d', big)
      expect(await s.events.after(primed)).toBeUndefined()
      expect(await s.events.after(e1)).toEqual({ streamId: 'stream-d', events: [{ id: e2, data: big }, { id: e3, data: big }] })
      // another session's budget is its own
      const other = await s.events.prime('stream-e', 'owner-e')
      await s.events.append('stream-e', big)
      expect((await s.events.after(other))?.events).toHaveLength(1)
      expect((await s.events.after(e1))?.events).toHaveLength(2)
    })

    it('keeps no event larger than the budget (it is sent, never kept): a replay from before it is refused', async () => {
      const s = await fresh({ maxBytes: 1024 * 1024, maxSessionBytes: 4096 })
      const primed = await s.events.prime('stream-f', 'owner-f')
      const huge = await s.events.append('stream-f', 'y'.repeat(64 * 1024))
      const small = await s.events.append('stream-f', '{}')
      expect(await s.events.after(primed)).toBeUndefined()
      expect(await s.events.after(huge)).toEqual({ streamId: 'stream-f', events: [{ id: small, data: '{}' }] })
    })

    it('holds the byte budget in all, across sessions', async () => {
      const s = await fresh({ maxBytes: 8192, maxSessionBytes: 8192 })
      const firsts: string[] = []
      for (let i = 0; i < 8; i++) {
        firsts.push(await s.events.prime(`stream-g${i}`, `owner-g${i}`))
        await s.events.append(`stream-g${i}`, 'z'.repeat(1500))
      }
      // 8 x 1500 bytes cannot all be kept in 8 KiB: the oldest streams lost theirs
      expect(await s.events.after(firsts[0] as string)).toBeUndefined()
      expect((await s.events.after(firsts[7] as string))?.events).toHaveLength(1)
    })

    it('forgets a stream: its ids are unknown after', async () => {
      const s = await fresh()
      const primed = await s.events.prime('stream-h', 'owner-h')
      await s.events.append('stream-h', '{}')
      await s.events.forget('stream-h')
      expect(await s.events.after(primed)).toBeUndefined()
      await s.events.forget('never-seen')
    })
  })

  describe(`${name} store: the bus`, () => {
    it('delivers to every subscriber of the channel, in order, and to no other channel', async () => {
      const s = await fresh()
      const a: BusMessage[] = []
      const b: BusMessage[] = []
      const other: BusMessage[] = []
      await s.bus.subscribe('emcp:test', (m) => a.push(m))
      await s.bus.subscribe('emcp:test', (m) => b.push(m))
      await s.bus.subscribe('emcp:other', (m) => other.push(m))
      const sent: BusMessage[] = [{ n: 1, nested: { list: [1, 'two', null, true] } }, 'text', 3]
      for (const m of sent) await s.bus.publish('emcp:test', m)
      await vi.waitFor(() => expect(b).toHaveLength(3), { timeout: 10_000, interval: 10 })
      await vi.waitFor(() => expect(a).toHaveLength(3), { timeout: 10_000, interval: 10 })
      expect(a).toEqual(sent)
      expect(b).toEqual(sent)
      expect(other).toEqual([])
    })

    it('stops delivering once unsubscribed; a failing subscriber does not stop the others', async () => {
      const s = await fresh()
      const got: BusMessage[] = []
      const stop = await s.bus.subscribe('emcp:test2', (m) => got.push(m))
      await s.bus.subscribe('emcp:test2', () => {
        throw new Error('a subscriber that fails')
      })
      const spy = vi.spyOn(console, 'error').mockImplementation(() => undefined)
      await s.bus.publish('emcp:test2', 1)
      await vi.waitFor(() => expect(got).toEqual([1]), { timeout: 10_000, interval: 10 })
      await stop()
      await s.bus.publish('emcp:test2', 2)
      // a marker published after: once it arrives, 2 would have too
      const marker: BusMessage[] = []
      await s.bus.subscribe('emcp:test2', (m) => marker.push(m))
      await s.bus.publish('emcp:test2', 3)
      await vi.waitFor(() => expect(marker).toEqual([3]), { timeout: 10_000, interval: 10 })
      expect(got).toEqual([1])
      spy.mockRestore()
    })
  })

  describe(`${name} store: task records`, () => {
    it('round-trips a task record, replaces it, deletes it', async () => {
      const s = await fresh()
      expect(await s.tasks.get('t1')).toBeUndefined()
      await s.tasks.put(task('t1'), 60_000)
      expect(await s.tasks.get('t1')).toEqual(task('t1'))
      await s.tasks.put(task('t1', 'completed'), 60_000)
      expect(await s.tasks.get('t1')).toEqual(task('t1', 'completed'))
      expect(await s.tasks.delete('t1')).toBe(true)
      expect(await s.tasks.delete('t1')).toBe(false)
      expect(await s.tasks.get('t1')).toBeUndefined()
    })

    it("keeps a task's owner with its record, through every replacement", async () => {
      const s = await fresh()
      await s.tasks.put({ ...task('t4'), owner: 'u:the-owner-key' }, 60_000)
      expect(await s.tasks.get('t4')).toEqual({ ...task('t4'), owner: 'u:the-owner-key' })
      await s.tasks.put({ ...task('t4', 'completed'), owner: 'u:the-owner-key' }, 60_000)
      expect((await s.tasks.get('t4'))?.owner).toBe('u:the-owner-key')
    })

    it('keeps a record without TTL until deleted, and forgets one whose TTL passed', async () => {
      const s = await fresh()
      await s.tasks.put(task('t2'), null)
      await s.tasks.put(task('t3'), 30)
      await vi.waitFor(async () => expect(await s.tasks.get('t3')).toBeUndefined(), { timeout: 10_000, interval: 20 })
      expect(await s.tasks.get('t2')).toEqual(task('t2'))
    })
  })

  describe(`${name} store: failure`, () => {
    it('a closed store rejects every call, and does not hang', async () => {
      const s = await factory({ maxBytes: 1024 * 1024, maxSessionBytes: 64 * 1024 })
      await s.close()
      const calls: ReadonlyArray<() => Promise<unknown>> = [
        () => s.sessions.get('x'),
        () => s.sessions.put(record('x'), 1000),
        () => s.events.prime('x'),
        () => s.events.after('x/0'),
        () => s.bus.publish('emcp:x', 1),
        () => s.tasks.get('x'),
      ]
      for (const c of calls) await expect(c()).rejects.toThrow()
    })
  })
}
