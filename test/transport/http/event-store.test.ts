import { describe, expect, it } from 'vitest'
import { memoryEventStore } from '../../../src/stores/event-store.js'

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

describe('memoryEventStore: bytes', () => {
  const sized = (n: number, size: number): string => JSON.stringify({ n, pad: 'x'.repeat(size) })
  const replayed = (store: ReturnType<typeof memoryEventStore>, from: string): string[] => (store.after(from)?.events ?? []).map((e) => e.data)

  it('keeps at most maxBytes in all, dropping the oldest events of any session first', () => {
    const store = memoryEventStore({ maxBytes: 3_000, maxSessionBytes: 10_000 })
    const pa = store.prime('a', 'one')
    const pb = store.prime('b', 'two')
    const events = [0, 1, 2, 3, 4].map((n) => sized(n, 900))
    store.append('a', events[0] as string)
    const b1 = store.append('b', events[1] as string)
    store.append('a', events[2] as string)
    store.append('b', events[3] as string)
    const a4 = store.append('a', events[4] as string)
    // about 1060 bytes each: the newest two (b3, a4) fit in 3000
    expect(store.after(pa)).toBeUndefined()
    expect(store.after(pb)).toBeUndefined()
    expect(replayed(store, b1)).toEqual([events[3]])
    expect(store.after(a4)).toEqual({ streamId: 'a', events: [] })
  })

  it("drops a session's own oldest events past maxSessionBytes, leaving other sessions' events alone", () => {
    const store = memoryEventStore({ maxBytes: 100_000, maxSessionBytes: 2_500 })
    const quiet = store.prime('q', 'quiet')
    const kept = store.append('q', sized(0, 100))
    const loud = store.prime('l', 'loud')
    const ids = [1, 2, 3, 4, 5].map((n) => store.append('l', sized(n, 900)))
    // the quiet session keeps its event; the loud one keeps only its newest two
    expect(store.after(quiet)?.events.map((e) => e.id)).toEqual([kept])
    expect(store.after(loud)).toBeUndefined()
    expect(store.after(ids[2] as string)?.events.map((e) => e.id)).toEqual([ids[3], ids[4]])
  })

  it('sends but never keeps an event larger than a session may hold, and refuses a replay that would skip it', () => {
    const store = memoryEventStore({ maxSessionBytes: 1_000 })
    const prime = store.prime('s', 'owner')
    const small = store.append('s', sized(1, 10))
    const huge = store.append('s', sized(2, 5_000))
    const after = store.append('s', sized(3, 10))
    expect(new Set([prime, small, huge, after]).size).toBe(4)
    expect(store.after(prime)).toBeUndefined()
    expect(store.after(small)).toBeUndefined()
    expect(replayed(store, huge)).toEqual([sized(3, 10)])
  })

  it('counts streams without an owner each on their own', () => {
    const store = memoryEventStore({ maxSessionBytes: 1_500 })
    const pa = store.prime('a')
    const pb = store.prime('b')
    store.append('a', sized(1, 1_000))
    store.append('b', sized(2, 1_000))
    expect(replayed(store, pa)).toEqual([sized(1, 1_000)])
    expect(replayed(store, pb)).toEqual([sized(2, 1_000)])
  })
})

describe('memoryEventStore: forget', () => {
  it('drops a stream at once: its events, its ids, and nothing else', () => {
    const store = memoryEventStore()
    const pa = store.prime('a', 'session')
    const pb = store.prime('b', 'session')
    store.append('a', message(1))
    store.append('b', message(2))
    store.append('a', message(3))
    store.forget?.('a')
    expect(store.after(pa)).toBeUndefined()
    expect(store.after(pb)?.events.map((e) => e.data)).toEqual([message(2)])
  })

  it('gives the room of forgotten events back to the session and to the whole store', () => {
    const store = memoryEventStore({ maxBytes: 5_000, maxSessionBytes: 2_500 })
    for (let round = 0; round < 20; round++) {
      const p = store.prime(`s${round}`, 'session')
      const ids = [1, 2].map((n) => store.append(`s${round}`, JSON.stringify({ n, pad: 'x'.repeat(1_000) })))
      // both events of this stream fit: nothing earlier squeezed them out
      expect(store.after(p)?.events.map((e) => e.id)).toEqual(ids)
      store.forget?.(`s${round}`)
    }
  })

  it('ignores a stream it does not know', () => {
    const store = memoryEventStore()
    const p = store.prime('a')
    store.forget?.('nope')
    expect(store.after(p)).toEqual({ streamId: 'a', events: [] })
  })
})
