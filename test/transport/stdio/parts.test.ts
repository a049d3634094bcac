/**
 * The parts of the stdio transport on their own: the line framer (src/transport/stdio/framer.ts)
 * and the output queue with backpressure (src/transport/stdio/output-queue.ts). The transport
 * as a whole is tested in stdio.test.ts and test/hardening.
 */
import { Writable } from 'node:stream'
import { describe, expect, it } from 'vitest'
import * as fc from 'fast-check'
import type { RequestId } from '../../../src/protocol/jsonrpc.js'
import { lineFramer } from '../../../src/transport/stdio/framer.js'
import { outputQueue } from '../../../src/transport/stdio/output-queue.js'

/** A framer whose lines and oversized reports are collected in order. */
const collecting = (maxLineBytes: number) => {
  const seen: Array<{ line: string } | { oversized: RequestId | null }> = []
  const framer = lineFramer(maxLineBytes, { line: (line) => seen.push({ line }), oversized: (id) => seen.push({ oversized: id }) })
  const push = (...chunks: string[]): void => chunks.forEach((c) => framer.push(Buffer.from(c)))
  return { seen, push, end: framer.end }
}

describe('lineFramer', () => {
  it('splits lines across chunks in any cut, strips CRLF, and ends a last line without a newline', () => {
    const text = '{"a":1}\r\n{"b":"é"}\n\n{"c":3}'
    const whole = collecting(1024)
    whole.push(text)
    whole.end()
    expect(whole.seen).toEqual([{ line: '{"a":1}' }, { line: '{"b":"é"}' }, { line: '' }, { line: '{"c":3}' }])
    // byte by byte, the two-byte é split between chunks included
    const bytes = Buffer.from(text)
    const split = collecting(1024)
    const f = lineFramer(1024, { line: (line) => split.seen.push({ line }), oversized: () => expect.unreachable() })
    for (const b of bytes) f.push(Buffer.from([b]))
    f.end()
    expect(split.seen).toEqual(whole.seen)
  })

  it('skips a line over the limit without keeping it, reports it with its id, and goes on', () => {
    const f = collecting(64)
    const long = `{"jsonrpc":"2.0","id":7,"method":"x","params":{"pad":"${'x'.repeat(500)}"}}`
    f.push(long.slice(0, 30), long.slice(30, 200), long.slice(200), '\n{"id":8}\n')
    expect(f.seen).toEqual([{ oversized: 7 }, { line: '{"id":8}' }])
  })

  it('finds the id of an oversized line at its end, or gives null when it cannot be read safely', () => {
    const tail = collecting(32)
    tail.push(`{"method":"x","params":{"pad":"${'y'.repeat(10_000)}"},"id":"last"}\n`)
    const nested = collecting(32)
    nested.push(`{"params":{"id":5,"pad":"${'z'.repeat(100)}"},"method":"x"}\n`)
    const atEnd = collecting(32)
    atEnd.push(`{"id":9,"pad":"${'w'.repeat(100)}`)
    atEnd.end()
    expect([tail.seen, nested.seen, atEnd.seen]).toEqual([[{ oversized: 'last' }], [{ oversized: null }], [{ oversized: 9 }]])
  })

  it('gives the same lines and reports however the input is cut, whatever its bytes (invalid UTF-8, CR, empty lines)', () => {
    // lines wholly inside one chunk are decoded together; those across chunks, or in a chunk
    // whose lines may pass the limit, one by one: every cut must give what one chunk gives
    const byte = fc.constantFrom(0x0a, 0x0a, 0x0d, 0x61, 0x7b, 0x22, 0xe2, 0x82, 0xac, 0xf0, 0x9f, 0x98, 0x80, 0xc3, 0xa9, 0xff, 0xed, 0xa0)
    const run = (limit: number, chunks: ReadonlyArray<Buffer>) => {
      const seen: Array<{ line: string } | { oversized: RequestId | null }> = []
      const f = lineFramer(limit, { line: (line) => seen.push({ line }), oversized: (id) => seen.push({ oversized: id }) })
      for (const c of chunks) f.push(c)
      f.end()
      return seen
    }
    fc.assert(
      fc.property(fc.array(byte, { maxLength: 300 }), fc.constantFrom(3, 8, 40, 1024), fc.array(fc.nat(300), { maxLength: 6 }), (bytes, limit, at) => {
        const input = Buffer.from(bytes)
        const cuts = [...new Set(at.map((n) => n % (input.length + 1)))].sort((a, b) => a - b)
        const pieces = [0, ...cuts].map((from, i) => input.subarray(from, [...cuts, input.length][i]))
        const whole = run(limit, [input])
        expect(run(limit, pieces)).toEqual(whole)
        expect(run(limit, [...input].map((b) => Buffer.from([b])))).toEqual(whole)
        // within the limit, each line is the bytes between newlines decoded alone
        if (limit === 1024) {
          const raw = input.toString('latin1').split('\n')
          if (raw.at(-1) === '') raw.pop()
          expect(whole).toEqual(raw.map((l) => ({ line: Buffer.from(l, 'latin1').toString('utf8').replace(/\r$/, '') })))
        }
      }),
      { numRuns: 2000, seed: 20261205 },
    )
  })

  it('accepts a line of exactly the limit, in one chunk or several', () => {
    const exact = `"${'a'.repeat(62)}"`
    const one = collecting(64)
    one.push(`${exact}\n`)
    const parts = collecting(64)
    parts.push(exact.slice(0, 10), exact.slice(10), '\n')
    const over = collecting(64)
    over.push(`${exact} \n`)
    expect([one.seen, parts.seen, over.seen]).toEqual([[{ line: exact }], [{ line: exact }], [{ oversized: null }]])
  })
})

/** A writable that holds every write until `release`, accepting up to `highWaterMark` bytes before it reports backpressure. */
const slowOutput = (highWaterMark: number) => {
  const written: string[] = []
  const held: Array<() => void> = []
  const stream = new Writable({
    highWaterMark,
    write: (chunk: Buffer, _enc, callback) => {
      written.push(chunk.toString())
      held.push(callback)
    },
  })
  const release = (): void => {
    for (const cb of held.splice(0)) cb()
  }
  return { stream, written, release }
}

/** Resolves on the next turn of the event loop, after the queue's nextTick flush. */
const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve))

describe('outputQueue', () => {
  it('writes the lines of one turn in one write, and is idle once the write is handed on', async () => {
    const out = slowOutput(1 << 20)
    const q = outputQueue(out.stream, 1024, { blocked: () => {}, settled: () => {} })
    q.send('a')
    q.send('b')
    expect(out.written).toEqual([])
    await turn()
    expect(out.written).toEqual(['a\nb\n'])
    expect(q.isIdle()).toBe(false)
    out.release()
    await turn()
    expect(q.isIdle()).toBe(true)
  })

  it('stops writing while the output is blocked, bounds droppable lines, keeps the others, and sends them in one write on drain', async () => {
    const out = slowOutput(4)
    const events: string[] = []
    const q = outputQueue(out.stream, 10, { blocked: () => events.push(q.isBlocked() ? 'blocked' : 'flowing'), settled: () => {} })
    q.send('first answer')
    await turn()
    expect(q.isBlocked()).toBe(true)
    q.send('progress 1', true) // 11 bytes: over the bound of 10, dropped
    q.send('answer 2') // 9 bytes: never dropped
    q.send('p', true) // 2 bytes: 9 + 2 > 10, dropped
    q.send('answer 3')
    await turn()
    expect(out.written).toEqual(['first answer\n'])
    out.release()
    await turn()
    // the held lines go out in one write, which blocks again until it is handed on
    expect(events).toEqual(['blocked', 'flowing', 'blocked'])
    out.release()
    await turn()
    expect(events).toEqual(['blocked', 'flowing', 'blocked', 'flowing'])
    expect(out.written).toEqual(['first answer\n', 'answer 2\nanswer 3\n'])
    expect(q.isIdle()).toBe(true)
  })

  it('drops everything once the output failed, and is idle at once', async () => {
    const out = slowOutput(4)
    const q = outputQueue(out.stream, 1024, { blocked: () => {}, settled: () => {} })
    q.send('one')
    await turn()
    q.send('two')
    q.fail()
    q.send('three')
    expect(q.isIdle()).toBe(true)
    await turn()
    expect(out.written).toEqual(['one\n'])
    // the write held when it failed is handed on (or errs) later: still nothing to wait for
    out.release()
    await turn()
    expect(q.isIdle()).toBe(true)
  })
})
