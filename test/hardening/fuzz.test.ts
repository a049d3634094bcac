/**
 * Fuzzing beyond test/property (which covers the dispatcher, stateless HTTP and stdio
 * framing one by one): the same framing properties run against every transport through one
 * interface (stdio, stateless and stateful HTTP), at both the current revision and
 * 2025-03-26 (where batches are answered member by member); the dispatcher's bookkeeping
 * under random interleavings of calls, cancellations and timeouts; and the drain refusal.
 */
import fc from 'fast-check'
import * as O from 'fp-ts/lib/Option.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { calculator } from '../../examples/calculator.js'
import { emcp, encode, mcpServer, newSession } from '../../src/index.js'
import { refusalOf } from '../../src/transport/drain.js'
import {
  anyMessage,
  check,
  expectAnswer,
  expectedOf,
  expectedOfText,
  expectResponse,
  invalidUtf8,
  isObject,
  isValidId,
  type WireResponse,
} from '../property/wire.js'
import { httpWire, stdioWire, type Exchange, type Version, type Wire } from './wires.js'

// ---------------------------------------------------------------------------------------
// framing, on every transport

/** The oracle for a batch at 2025-03-26: one answer per member that needs one, in order; initialize members refused. */
const expectBatch = (members: ReadonlyArray<unknown>, x: Exchange): void => {
  const wanted = members.filter((m) => isInitialize(m) || expectedOf(m).answer)
  if (wanted.length === 0) {
    check(x.messages.length === 0, 'a batch with nothing to answer was answered', x.messages)
    return
  }
  check(x.messages.length === 1 && Array.isArray(x.messages[0]), 'a batch gets one array', x.messages)
  const answers = x.messages[0] as unknown[]
  check(answers.length === wanted.length, `${wanted.length} answers expected`, { members, answers })
  wanted.forEach((m, i) => {
    const a = expectResponse(answers[i])
    if (isInitialize(m)) {
      const id = (m as { id?: unknown }).id
      check(a.error?.code === -32600 && a.id === (isValidId(id) ? id : null), 'initialize in a batch gets -32600', { m, a })
    } else expectAnswer(m, a)
  })
}

const isInitialize = (m: unknown): boolean => isObject(m) && m.method === 'initialize' && 'id' in m

/** The HTTP status that goes with the answer (or its absence). */
const expectStatus = (wire: Wire, x: Exchange): void => {
  if (wire.name === 'stdio') return
  const m = x.messages[0] as WireResponse | unknown[] | undefined
  const want = m === undefined ? 202 : !Array.isArray(m) && m.error !== undefined && m.id === null ? 400 : 200
  check(x.status === want, `HTTP ${want} expected`, { status: x.status, messages: x.messages })
}

const one = (x: Exchange): WireResponse | undefined => {
  check(x.messages.length <= 1, 'more than one answer', x.messages)
  return x.messages.length === 0 ? undefined : expectResponse(x.messages[0])
}

/** Bytes of a message, sometimes cut short or with invalid UTF-8 spliced in (never a newline: stdio would see two lines). */
const mutated: fc.Arbitrary<Buffer> = fc
  .tuple(anyMessage, fc.nat(), invalidUtf8, fc.constantFrom('as is', 'as is', 'truncated', 'spliced'))
  .map(([m, at, junk, how]) => {
    const b = Buffer.from(JSON.stringify(m))
    const cut = b.length === 0 ? 0 : at % b.length
    if (how === 'truncated') return b.subarray(0, cut)
    if (how === 'spliced') return Buffer.concat([b.subarray(0, cut), Buffer.from(junk), b.subarray(cut)])
    return b
  })
  // JSON whitespace alone is no message on stdio (a blank line) but an empty body on HTTP
  .filter((b) => b.toString('utf8').trim() !== '')

const wires: ReadonlyArray<readonly [string, () => Promise<Wire>]> = [
  ['stdio', async () => stdioWire(calculator)],
  ['stateless HTTP', () => httpWire(calculator, false)],
  ['stateful HTTP', () => httpWire(calculator, true)],
]

describe.each(wires)('fuzz: framing over %s', (_name, make) => {
  let wire: Wire
  beforeAll(async () => {
    wire = await make()
  })
  afterAll(async () => {
    await wire?.close()
  })

  it('answers any message, notification, response or batch as the oracle says at 2025-11-25 and 2025-03-26, and still adds after', async () => {
    await fc.assert(
      fc.asyncProperty(anyMessage, fc.constantFrom<Version>('2025-11-25', '2025-03-26'), fc.integer({ min: -1e6, max: 1e6 }), async (m, version, n) => {
        const x = await wire.exchange(Buffer.from(JSON.stringify(m)), version)
        if (version === '2025-03-26' && Array.isArray(m) && m.length > 0) expectBatch(m, x)
        else expectAnswer(m, one(x))
        expectStatus(wire, x)
        await wire.probe(version, n)
      }),
      { numRuns: 80 },
    )
  })

  it('answers bytes cut short or spliced with invalid UTF-8 as their decoded text says, and still adds after', async () => {
    await fc.assert(
      fc.asyncProperty(mutated, async (bytes) => {
        const x = await wire.exchange(bytes, '2025-11-25')
        const text = new TextDecoder().decode(bytes)
        const expected = expectedOfText(text)
        let parsed: unknown
        if (expected.parseError !== true) parsed = JSON.parse(text)
        expectAnswer(parsed, one(x), expected.parseError === true)
        expectStatus(wire, x)
        await wire.probe('2025-11-25', 7)
      }),
      { numRuns: 80 },
    )
  })
})

// ---------------------------------------------------------------------------------------
// the dispatcher's bookkeeping

describe('fuzz: calls, cancellations and timeouts interleaved in one session', () => {
  const wait = emcp({
    name: 'wait',
    description: 'Waits ms (forever when ms is -1), honouring its signal unless told to ignore it.',
    input: { type: 'object', properties: { ms: { type: 'integer' }, ignore: { type: 'boolean' } }, required: ['ms', 'ignore'] },
  })
  const timeoutMs = 40
  const server = mcpServer([wait], { name: 'w', version: '1' }, { callTimeoutMs: timeoutMs }).implement({
    wait: ({ ms, ignore }, { signal }) =>
      new Promise<string>((resolve) => {
        const timer = ms >= 0 ? setTimeout(() => resolve('done'), ms) : undefined
        if (!ignore)
          signal.addEventListener('abort', () => {
            clearTimeout(timer)
            resolve('aborted')
          })
      }),
  })

  type Step =
    | { readonly kind: 'call'; readonly ms: number; readonly ignore: boolean; readonly cancelled: boolean }
    | { readonly kind: 'stray-cancel'; readonly requestId: unknown }
    | { readonly kind: 'sync'; readonly id: number }

  const step: fc.Arbitrary<Step> = fc.oneof(
    { weight: 4, arbitrary: fc.record({ kind: fc.constant('call' as const), ms: fc.constantFrom(-1, 0, 3), ignore: fc.boolean(), cancelled: fc.boolean() }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('stray-cancel' as const), requestId: fc.oneof(fc.integer({ min: 10_000 }), fc.string(), fc.constant(null), fc.object()) }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('sync' as const), id: fc.integer({ min: 20_000, max: 30_000 }) }) },
  )

  it('answers each call exactly once (its result, or the timeout) unless cancelled, and leaves nothing behind', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 12 }), async (steps) => {
        const session = newSession()
        const pending: Array<Promise<readonly [Step, number, unknown]>> = []
        steps.forEach((s, id) => {
          if (s.kind === 'stray-cancel') {
            void server.dispatch({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: s.requestId } }, session)()
            return
          }
          if (s.kind === 'sync') {
            pending.push(server.dispatch({ jsonrpc: '2.0', id: s.id + id * 100_000, method: 'ping' }, session)().then((o) => [s, id, o] as const))
            return
          }
          const out = server.dispatch({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'wait', arguments: { ms: s.ms, ignore: s.ignore } } }, session)()
          if (s.cancelled) void server.dispatch({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason: 'fuzz' } }, session)()
          pending.push(out.then((o) => [s, id, o] as const))
        })
        for (const [s, id, o] of await Promise.all(pending)) {
          const a = O.isSome(o as O.Option<never>) ? JSON.parse(encode((o as O.Some<never>).value)) : undefined
          if (s.kind === 'sync') {
            check(a?.result !== undefined, 'ping answered', a)
            continue
          }
          if (s.kind !== 'call') continue
          if (s.cancelled) {
            check(a === undefined, 'a cancelled call was answered', { s, a })
            continue
          }
          check(a?.id === id, 'the call was not answered with its id', { s, a })
          const text = a.result?.content?.[0]?.text
          if (s.ms === -1) check(a.result?.isError === true && /timed out after 40 ms/.test(text), 'a call that never ends times out', { s, a })
          else check(text === 'done', 'a short call answers its result', { s, a })
        }
        check(session.inFlight.size === 0, 'calls left in flight', [...session.inFlight.keys()])
        check(session.cancelled.size === 0, 'cancelled ids left behind', [...session.cancelled])
      }),
      { numRuns: 60 },
    )
  })
})

// ---------------------------------------------------------------------------------------
// the drain refusal

describe('fuzz: refusal while draining', () => {
  it('refuses exactly the requests (valid id, string method), under their ids; lets everything else through', () => {
    fc.assert(
      fc.property(anyMessage, (m) => {
        const isRequest = (u: unknown): boolean => isObject(u) && typeof u.method === 'string' && isValidId(u.id)
        const r = refusalOf(m)
        const requests = Array.isArray(m) ? m.filter(isRequest) : isRequest(m) ? [m] : []
        if (requests.length === 0) {
          check(r === undefined, 'something that is not a request was refused', { m, r })
          return
        }
        const answers = Array.isArray(m) ? (r as unknown[]) : [r]
        check(Array.isArray(m) === Array.isArray(r), 'a batch is refused with an array', { m, r })
        expect(answers.map((a) => expectResponse(a).id)).toEqual(requests.map((q) => (q as { id: unknown }).id))
        check(answers.every((a) => expectResponse(a).error?.code === -32000 && /shutting down/.test(expectResponse(a).error?.message ?? '')), 'refused with -32000', answers)
      }),
      { numRuns: 500 },
    )
  })
})
