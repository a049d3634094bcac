/**
 * Properties of the pure dispatcher of the calculator: whatever it is fed, it never throws
 * or rejects, answers exactly when JSON-RPC says it must, with the request's own id, in a
 * valid JSON-RPC 2.0 shape, with the MCP semantics of the method; and it still adds after.
 */
import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import * as O from 'fp-ts/lib/Option.js'
import { calculator } from '../../examples/calculator.js'
import { encode, type Reply } from '../../src/protocol/jsonrpc.js'
import { newSession, type Session } from '../../src/server/session.js'
import {
  anyMessage,
  batch,
  expectAnswer,
  expectedOfText,
  expectProbeAnswer,
  expectResponse,
  invalidUtf8,
  mangled,
  nastyString,
  parseResponse,
  probe,
  request,
  toolCall,
  type WireResponse,
} from './wire.js'

const runs = { numRuns: 300 }

/** The wire form of a dispatch answer (encoded, as every transport sends it, then parsed). */
const wire = (out: O.Option<Reply>): WireResponse | undefined =>
  O.isSome(out) ? parseResponse(encode(out.value)) : undefined

const probeStillAdds = async (session: Session = newSession()): Promise<void> => {
  const p = probe()
  expectProbeAnswer(wire(await calculator.dispatch(p.message, session)()), p.id)
  const text = await calculator.dispatchText(p.text, session)()
  expectProbeAnswer(O.isSome(text) ? parseResponse(text.value) : undefined, p.id)
}

describe('property: dispatch(json, session)', () => {
  it('answers any JSON value exactly as JSON-RPC and MCP say, and still adds after', async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue(), async (u) => {
        const out = await calculator.dispatch(u, newSession())()
        expectAnswer(u, wire(out))
        await probeStillAdds()
      }),
      runs,
    )
  })

  it('answers messages with members of every wrong type, batches, notifications and responses', async () => {
    await fc.assert(
      fc.asyncProperty(anyMessage, async (u) => {
        const out = await calculator.dispatch(u, newSession())()
        expectAnswer(u, wire(out))
        await probeStillAdds()
      }),
      runs,
    )
  })

  it('refuses every batch with one -32600 and id null, never touching its members', async () => {
    await fc.assert(
      fc.asyncProperty(batch, async (b) => {
        const a = wire(await calculator.dispatch(b, newSession())())
        expect(a?.id).toBeNull()
        expect(a?.error?.code).toBe(-32600)
      }),
      { numRuns: 100 },
    )
  })

  it('answers a request with a valid id with that same id (and the value, not a copy of it)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(request, toolCall), async (m) => {
        const out = await calculator.dispatch(m, newSession())()
        expect(O.isSome(out)).toBe(true)
        if (O.isSome(out)) expect(Object.is((out.value as { id: unknown }).id, (m as { id: unknown }).id)).toBe(true)
        expectAnswer(m, wire(out))
      }),
      runs,
    )
  })

  it('runs tools/call with arbitrary arguments: results follow the contracts, failures are isError', async () => {
    await fc.assert(
      fc.asyncProperty(toolCall, async (m) => {
        expectAnswer(m, wire(await calculator.dispatch(m, newSession())()))
      }),
      { numRuns: 500 },
    )
  })

  it('never rejects, whatever JavaScript value it is given', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.anything({ withBigInt: true, withDate: true, withMap: true, withSet: true, withTypedArray: true, withNullPrototype: true, withBoxedValues: true, withSparseArray: true }), mangled), async (u) => {
        const out = await calculator.dispatch(u, newSession())()
        if (O.isSome(out)) expectResponse(JSON.parse(encode(out.value)))
      }),
      { numRuns: 200 },
    )
    await probeStillAdds()
  })
})

/**
 * One long-lived session, initialized at 2025-11-25 first: a later initialize is refused (one
 * per session) and cannot move it to a revision with batches, so the oracle's rules hold.
 */
const sharedSession = async (): Promise<Session> => {
  const session = newSession()
  await calculator.dispatch(
    { jsonrpc: '2.0', id: 'init', method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'p', version: '1' } } },
    session,
  )()
  return session
}

describe('property: dispatchText(text, session)', () => {
  it('answers any string: -32700 for non-JSON, the JSON-RPC rules otherwise', async () => {
    const session = await sharedSession()
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.string({ unit: 'binary' }), nastyString, fc.json()), async (text) => {
        const out = await calculator.dispatchText(text, session)()
        const expected = expectedOfText(text)
        expectAnswer(expected.parseError === true ? text : JSON.parse(text), O.isSome(out) ? parseResponse(out.value) : undefined, expected.parseError === true)
        await probeStillAdds(session)
      }),
      runs,
    )
  })

  it('answers serialised messages, truncated messages and messages with invalid UTF-8 spliced in', async () => {
    const session = await sharedSession()
    const cut = fc.tuple(anyMessage, fc.nat(), fc.option(invalidUtf8, { nil: undefined })).map(([m, at, bad]) => {
      const text = JSON.stringify(m)
      if (bad === undefined) return text.slice(0, at % (text.length + 1))
      // what a transport gets when a peer sends broken bytes: U+FFFD where they were
      const i = at % (text.length + 1)
      return text.slice(0, i) + Buffer.from(bad).toString('utf8') + text.slice(i)
    })
    await fc.assert(
      fc.asyncProperty(fc.oneof(anyMessage.map((m) => JSON.stringify(m)), cut), async (text) => {
        const out = await calculator.dispatchText(text, session)()
        const expected = expectedOfText(text)
        expectAnswer(expected.parseError === true ? text : JSON.parse(text), O.isSome(out) ? parseResponse(out.value) : undefined, expected.parseError === true)
      }),
      runs,
    )
    await probeStillAdds(session)
  })
})
