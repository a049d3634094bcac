import { describe, expect, it } from 'vitest'
import { memoryEventStore } from '../../src/transport/event-store.js'

const message = (n: number): string => JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: n } })

describe('memoryEventStore: ids', () => {
  it('gives every event of a stream its own id, priming ids included', () => {
    const store = memoryEventStore()
    const ids = [store.prime('s1'), store.append('s1', message(1)), store.append('s1', message(2)), store.prime('s1'), store.append('s1', message(3))]
    expect(new Set(ids).size).toBe(ids.length)
  })

  it('never gives two streams the same id', () => {
    const store = memoryEventStore()
    const a = [store.prime('a'), store.append('a', message(1)), store.append('a', message(2))]
    const b = [store.prime('b'), store.append('b', message(1)), store.append('b', message(2))]
    expect(new Set([...a, ...b]).size).toBe(6)
  })

  it('keeps ids apart for stream ids that contain the separator', () => {
    const store = memoryEventStore()
    const ids = [store.prime('a/1'), store.append('a/1', message(1)), store.prime('a'), store.append('a', message(1)), store.append('a', message(2))]
    expect(new Set(ids).size).toBe(ids.length)
    expect(store.after(ids[0] as string)?.streamId).toBe('a/1')
    expect(store.after(ids[2] as string)?.streamId).toBe('a')
  })

  it('uses only visible ASCII in ids (they travel in the Last-Event-ID header)', () => {
    const store = memoryEventStore()
    for (const id of [store.prime('session.stream'), store.append('session.stream', message(1))]) expect(id).toMatch(/^[\x21-\x7e]+$/)
  })
})

describe('memoryEventStore: after', () => {
  it('returns the events of the stream after the priming event, in order, with their ids and data', () => {
    const store = memoryEventStore()
    const prime = store.prime('s1')
    const one = store.append('s1', message(1))
    const two = store.append('s1', message(2))
    expect(store.after(prime)).toEqual({
      streamId: 's1',
      events: [
        { id: one, data: message(1) },
        { id: two, data: message(2) },
      ],
    })
  })

  it('returns only the events after the given one', () => {
    const store = memoryEventStore()
    store.prime('s1')
    const ids = [1, 2, 3, 4].map((n) => store.append('s1', message(n)))
    expect(store.after(ids[1] as string)?.events.map((e) => e.data)).toEqual([message(3), message(4)])
    expect(store.after(ids[3] as string)).toEqual({ streamId: 's1', events: [] })
  })

  it("never returns another stream's events, however they interleave", () => {
    const store = memoryEventStore()
    const pa = store.prime('a')
    const pb = store.prime('b')
    store.append('a', message(1))
    store.append('b', message(2))
    store.append('a', message(3))
    store.append('b', message(4))
    expect(store.after(pa)?.events.map((e) => e.data)).toEqual([message(1), message(3)])
    expect(store.after(pb)?.events.map((e) => e.data)).toEqual([message(2), message(4)])
    expect(store.after(pb)?.streamId).toBe('b')
  })

  it('sees events appended after a stream was resumed (a second priming event on the same stream)', () => {
    const store = memoryEventStore()
    const first = store.prime('s1')
    const one = store.append('s1', message(1))
    const again = store.prime('s1')
    const two = store.append('s1', message(2))
    expect(store.after(first)?.events.map((e) => e.id)).toEqual([one, two])
    expect(store.after(again)?.events.map((e) => e.id)).toEqual([two])
  })

  it.each(['', 'no-separator', '/3', 's1/', 's1/x', 's1/1.5', 'other/0'])('answers undefined for the malformed or unknown id %j', (id) => {
    const store = memoryEventStore()
    store.prime('s1')
    store.append('s1', message(1))
    expect(store.after(id)).toBeUndefined()
  })

  it('answers undefined for an id of a known stream that it never gave out', () => {
    const store = memoryEventStore()
    store.prime('s1')
    store.append('s1', message(1))
    // s1/0 and s1/1 exist; s1/99 was never issued
    expect(store.after('s1/99')).toBeUndefined()
  })
})

describe('memoryEventStore: bounds', () => {
  it('keeps at most maxEvents events in all, dropping the oldest first', () => {
    const store = memoryEventStore({ maxEvents: 3 })
    const pa = store.prime('a')
    const pb = store.prime('b')
    store.append('a', message(1))
    const b2 = store.append('b', message(2))
    const a3 = store.append('a', message(3))
    store.append('b', message(4))
    const a5 = store.append('a', message(5))
    // the three newest (a3, b4, a5) are kept
    expect(store.after(a3)?.events).toEqual([{ id: a5, data: message(5) }])
    expect(store.after(b2)?.events.map((e) => e.data) ?? [message(4)]).toEqual([message(4)])
    // the two oldest (a1, b2) are not replayed any more, whatever else a store says about them
    const replayed = [...(store.after(pa)?.events ?? []), ...(store.after(pb)?.events ?? [])].map((e) => e.data)
    expect(replayed).not.toContain(message(1))
    expect(replayed).not.toContain(message(2))
    expect(replayed.length).toBeLessThanOrEqual(3)
  })

  it('still replays the newest events of a stream once older ones of other streams were dropped', () => {
    const store = memoryEventStore({ maxEvents: 2 })
    for (let i = 0; i < 5; i++) {
      store.prime(`old${i}`)
      store.append(`old${i}`, message(i))
    }
    const p = store.prime('new')
    const n1 = store.append('new', message(10))
    const n2 = store.append('new', message(11))
    expect(store.after(p)?.events.map((e) => e.id)).toEqual([n1, n2])
  })

  it('replays after an evicted event when nothing after it was dropped (the replay is complete)', () => {
    const store = memoryEventStore({ maxEvents: 2 })
    store.prime('s1')
    const first = store.append('s1', message(1))
    const second = store.append('s1', message(2))
    const third = store.append('s1', message(3))
    // `first` itself fell out of the store, but every event after it is still there
    expect(store.after(first)).toEqual({ streamId: 's1', events: [{ id: second, data: message(2) }, { id: third, data: message(3) }] })
  })

  it('refuses a replay that would silently skip evicted events', () => {
    const store = memoryEventStore({ maxEvents: 2 })
    const prime = store.prime('s1')
    store.append('s1', message(1))
    store.append('s1', message(2))
    store.append('s1', message(3))
    // the event right after `prime` is gone: replaying [2, 3] would lose 1 without a word
    const r = store.after(prime)
    expect(r === undefined || r.events.map((e) => e.data).includes(message(1))).toBe(true)
  })

  it('keeps no data with maxEvents 0 but still issues unique ids', () => {
    const store = memoryEventStore({ maxEvents: 0 })
    const prime = store.prime('s1')
    const ids = [store.append('s1', message(1)), store.append('s1', message(2))]
    expect(new Set([prime, ...ids]).size).toBe(3)
    expect(store.after(prime)?.events ?? []).toEqual([])
  })
})
