import { describe, expect, it, vi } from 'vitest'
import { parseSse } from '../../support/sse.js'
import { memoryEventStore } from '../../../src/stores/event-store.js'
import { sseStream, type SseStream } from '../../../src/transport/http/sse.js'

// ---------------------------------------------------------------------------------------
// helpers

/** The whole body of a stream that will close. */
const drain = async (s: SseStream): Promise<string> => {
  let text = ''
  for await (const chunk of s.body) text += chunk
  return text
}

const note = (n: number): string => JSON.stringify({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 't', progress: n } })

const within = <A>(p: Promise<A>, ms: number, what: string): Promise<A> =>
  Promise.race([p, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`timed out after ${ms} ms: ${what}`)), ms))])

// ---------------------------------------------------------------------------------------
// tests

describe('sseStream: framing', () => {
  it('opens with a priming event: an id, a retry hint and empty data', async () => {
    const s = sseStream('s1')
    s.close()
    const text = await drain(s)
    expect(text.endsWith('\n\n')).toBe(true)
    const [prime, ...rest] = parseSse(text)
    expect(rest).toEqual([])
    expect(prime?.id).toMatch(/^[\x21-\x7e]+$/)
    expect(prime?.retry).toBe('1000')
    expect(prime?.data).toBe('')
  })

  it('uses retryMs as the retry hint', async () => {
    const s = sseStream('s1', { retryMs: 250 })
    s.close()
    expect(parseSse(await drain(s))[0]?.retry).toBe('250')
  })

  it('writes each message as one `message` event with an id and its data, in order', async () => {
    const s = sseStream('s1')
    s.send(note(1))
    s.send(note(2))
    s.close()
    const [prime, one, two, ...rest] = parseSse(await drain(s))
    expect(rest).toEqual([])
    expect(one).toMatchObject({ event: 'message', data: note(1) })
    expect(two).toMatchObject({ event: 'message', data: note(2) })
    expect(JSON.parse(one?.data ?? '')).toEqual(JSON.parse(note(1)))
    const ids = [prime?.id, one?.id, two?.id]
    for (const id of ids) expect(id).toMatch(/^[\x21-\x7e]+$/)
    expect(new Set(ids).size).toBe(3)
  })

  it('keeps SSE valid for data with newlines: one data line per line', async () => {
    const s = sseStream('s1')
    s.send('{"a":\n1}')
    s.close()
    const text = await drain(s)
    expect(text).toContain('data: {"a":\ndata: 1}\n\n')
    expect(parseSse(text)[1]?.data).toBe('{"a":\n1}')
  })

  it('splits data on CRLF, CR and LF alike: no line break reaches the body inside a data line', async () => {
    const s = sseStream('s1')
    s.send('a\r\nb\rc\nd')
    s.close()
    const text = await drain(s)
    expect(text).toContain('event: message\ndata: a\ndata: b\ndata: c\ndata: d\n\n')
    // every line of the body is a field or a blank line: a lone CR would have ended a line of its own
    expect(text.includes('\r')).toBe(false)
    expect(parseSse(text)[1]).toEqual({ id: expect.any(String), event: 'message', retry: undefined, data: 'a\nb\nc\nd' })
  })

  it('refuses an event id with a line break from the store: the event goes out without an id, and no field is injected', async () => {
    const base = memoryEventStore()
    const hostile = { ...base, prime: () => 'p\nevent: evil', append: () => 'x\r\ndata: injected' }
    const errors: string[] = []
    const spy = vi.spyOn(console, 'error').mockImplementation((m: string) => void errors.push(m))
    try {
      const s = sseStream('s1', { store: hostile })
      s.send(note(1))
      s.close()
      const events = parseSse(await drain(s))
      expect(events).toEqual([
        { id: undefined, event: undefined, retry: '1000', data: '' },
        { id: undefined, event: 'message', retry: undefined, data: note(1) },
      ])
    } finally {
      spy.mockRestore()
    }
    expect(errors).toHaveLength(2)
    expect(errors[0]).toMatch(/event store failed.*holds a line break/)
  })

  it('refuses a replayed event id with a line break, and sends its data all the same', async () => {
    const spy = vi.spyOn(console, 'error').mockImplementation(() => undefined)
    try {
      const s = sseStream('s1', { replay: [{ id: 'r1\rid: forged', data: note(1) }, { id: 'r2', data: note(2) }] })
      s.close()
      const [first, second] = parseSse(await drain(s))
      expect(first).toEqual({ id: undefined, event: 'message', retry: undefined, data: note(1) })
      expect(second?.id).toBe('r2')
      expect(spy).toHaveBeenCalledTimes(1)
    } finally {
      spy.mockRestore()
    }
  })

  it('names its event ids after the stream, through the store', async () => {
    const store = memoryEventStore()
    const s = sseStream('abc', { store })
    s.send(note(1))
    s.close()
    const [prime, one] = parseSse(await drain(s))
    // the store knows both ids and that they belong to stream abc
    expect(store.after(prime?.id ?? '')).toEqual({ streamId: 'abc', events: [{ id: one?.id, data: note(1) }] })
    expect(store.after(one?.id ?? '')).toEqual({ streamId: 'abc', events: [] })
  })
})

describe('sseStream: life cycle', () => {
  it('delivers events sent while the reader waits, and ends the iterator on close', async () => {
    const s = sseStream('s1')
    const it = s.body[Symbol.asyncIterator]()
    const first = await it.next()
    expect(first.done).toBe(false)
    expect(parseSse(first.value as string)[0]?.data).toBe('')
    const waiting = it.next()
    setTimeout(() => s.send(note(1)), 5)
    const second = await within(waiting, 2_000, 'an event sent while waiting')
    expect(parseSse(second.value as string)[0]?.data).toBe(note(1))
    const end = it.next()
    setTimeout(() => s.close(), 5)
    expect(await within(end, 2_000, 'the end of the stream')).toEqual({ done: true, value: undefined })
    expect(s.closed()).toBe(true)
  })

  it('writes what was queued before close, then ends', async () => {
    const s = sseStream('s1')
    s.send(note(1))
    s.send(note(2))
    s.close()
    expect(parseSse(await drain(s)).map((e) => e.data)).toEqual(['', note(1), note(2)])
  })

  it('ignores send after close: nothing is written and nothing is stored', async () => {
    const store = memoryEventStore()
    const s = sseStream('s1', { store })
    s.send(note(1))
    s.close()
    s.send(note(2))
    const events = parseSse(await drain(s))
    expect(events.map((e) => e.data)).toEqual(['', note(1)])
    expect(store.after(events[0]?.id ?? '')?.events.map((e) => e.data)).toEqual([note(1)])
  })

  it('calls onClose once, however often it is closed, once what was queued is written', async () => {
    let calls = 0
    const s = sseStream('s1', { onClose: () => calls++ })
    expect(s.closed()).toBe(false)
    s.send(note(1))
    s.close()
    s.close()
    // closing at once: it takes no more events
    expect(s.closed()).toBe(true)
    expect(await drain(s)).toContain(note(1))
    expect(calls).toBe(1)
  })

  it('writes events in order when the log answers out of order, and cuts the stream when the log fails', async () => {
    // a log whose appends settle in reverse order: the frames must still go out in send order, each with its own id
    const gates: Array<() => void> = []
    let n = 0
    const writer = {
      prime: () => Promise.resolve('p/0'),
      append: () => {
        const id = `p/${++n}`
        return new Promise<string>((resolve) => gates.push(() => resolve(id)))
      },
    }
    const s = sseStream('p', { writer })
    for (let i = 1; i <= 3; i++) s.send(note(i))
    s.close()
    for (const open of [...gates].reverse()) open()
    const text = await drain(s)
    expect([...text.matchAll(/id: (p\/\d+)/g)].map((m) => m[1])).toEqual(['p/0', 'p/1', 'p/2', 'p/3'])
    expect(text.indexOf(note(1))).toBeLessThan(text.indexOf(note(2)))
    expect(text.indexOf(note(2))).toBeLessThan(text.indexOf(note(3)))

    const failed: string[] = []
    const spy = vi.spyOn(console, 'error').mockImplementation(() => {})
    try {
      const broken = sseStream('q', { writer: { prime: () => Promise.resolve('q/0'), append: () => Promise.reject(new Error('store down')) }, onFail: (r) => failed.push(r) })
      broken.send(note(1))
      broken.send(note(2))
      const out = await drain(broken)
      expect(out).not.toContain(note(1))
      expect(failed).toHaveLength(1)
      expect(failed[0]).toMatch(/event log failed \(store down\)/)
    } finally {
      spy.mockRestore()
    }
  })

  it('cuts a stream whose log lags beyond its bound instead of buffering', async () => {
    const failed: string[] = []
    const spy = vi.spyOn(console, 'error').mockImplementation(() => {})
    try {
      // a log that never answers: the third event is one too many
      const s = sseStream('r', { writer: { prime: () => Promise.resolve('r/0'), append: () => new Promise<string>(() => {}) }, maxPendingEvents: 2, onFail: (r) => failed.push(r) })
      for (let i = 1; i <= 3; i++) s.send(note(i))
      expect(s.closed()).toBe(true)
      expect(failed).toEqual([expect.stringMatching(/event log lags behind \(2 events/)])
      s.send(note(4))
      expect(failed).toHaveLength(1)
      // one event larger than the byte bound goes when nothing else waits for the log
      const big = sseStream('b', { writer: { prime: () => Promise.resolve('b/0'), append: () => Promise.resolve('b/1') }, maxPendingBytes: 10, onFail: (r) => failed.push(r) })
      big.send(note(1))
      big.close()
      expect(await drain(big)).toContain(note(1))
      expect(failed).toHaveLength(1)
    } finally {
      spy.mockRestore()
    }
  })

  it('closes when the reader stops reading (the client went away)', async () => {
    let calls = 0
    const s = sseStream('s1', { onClose: () => calls++ })
    for await (const chunk of s.body) {
      expect(chunk).toContain('retry:')
      break
    }
    expect(s.closed()).toBe(true)
    expect(calls).toBe(1)
  })
})

describe('sseStream: replay', () => {
  it('sends the replayed events first, then the priming event (whose id is then the latest), then new ones', async () => {
    const store = memoryEventStore()
    const old = sseStream('s1', { store })
    old.send(note(1))
    old.send(note(2))
    old.close()
    const before = parseSse(await drain(old))
    const replay = store.after(before[0]?.id ?? '')
    expect(replay?.events).toHaveLength(2)

    const resumed = sseStream('s1', { store, replay: replay?.events })
    resumed.send(note(3))
    resumed.close()
    const after = parseSse(await drain(resumed))
    expect(after.map((e) => e.data)).toEqual([note(1), note(2), '', note(3)])
    // replayed events keep their ids; the new priming event and event get fresh ones
    expect(after[0]?.id).toBe(before[1]?.id)
    expect(after[1]?.id).toBe(before[2]?.id)
    const ids = [...before, ...after].map((e) => e.id)
    expect(new Set(ids).size).toBe(5)
    // the resumed stream's new event is replayable after the last replayed one
    expect(store.after(before[2]?.id ?? '')?.events.map((e) => e.data)).toEqual([note(3)])
  })
})
