/**
 * The malformed-input corpus (corpus.ts), run unchanged against every transport, like one
 * shared suite per adapter: stdio, stateless HTTP and stateful HTTP. Each case must get
 * exactly the answer JSON-RPC 2.0 and MCP 2025-11-25 prescribe (and the HTTP status that
 * goes with it), every answer must be a valid JSON-RPC response, stdout must carry nothing
 * else, and the server must answer a call right after.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { calculator } from '../../examples/calculator.js'
import { expectResponse } from '../property/wire.js'
import { corpus, type Answer, type Case } from './corpus.js'
import { httpWire, stdioWire, type Exchange, type Wire } from './wires.js'

const wires: ReadonlyArray<readonly [string, () => Promise<Wire>]> = [
  ['stdio', async () => stdioWire(calculator)],
  ['stateless HTTP', () => httpWire(calculator, false)],
  ['stateful HTTP', () => httpWire(calculator, true)],
]

/** Checks one answer against what the corpus says; returns whether it is an error with id null. */
const meets = (message: unknown, want: Answer): void => {
  const m = expectResponse(message)
  if ('error' in want) {
    expect(m.error?.code, JSON.stringify(m).slice(0, 300)).toBe(want.error)
    expect(m.id).toBe(want.id)
    return
  }
  expect(m.error, JSON.stringify(m.error)).toBeUndefined()
  expect(m.id).toBe(want.id)
  if (want.result !== undefined) expect(m.result).toMatchObject(want.result as object)
}

/** The HTTP status of an answer: 400 for an error nobody can be told apart from (id null), else 200. */
const statusOf = (message: unknown): number => {
  const m = message as { id?: unknown; error?: unknown }
  return !Array.isArray(message) && m.error !== undefined && m.id === null ? 400 : 200
}

const check = (wire: Wire, x: Exchange, c: Case): void => {
  const http = wire.name !== 'stdio'
  const e = c.expect
  switch (e.kind) {
    case 'none':
      expect(x.messages).toEqual([])
      if (http) expect(x.status).toBe(202)
      return
    case 'one':
      expect(x.messages).toHaveLength(1)
      expect(Array.isArray(x.messages[0])).toBe(false)
      meets(x.messages[0], e.answer)
      if (http) expect(x.status).toBe(statusOf(x.messages[0]))
      return
    case 'batch': {
      expect(x.messages).toHaveLength(1)
      const answers = x.messages[0] as unknown[]
      expect(Array.isArray(answers)).toBe(true)
      expect(answers).toHaveLength(e.answers.length)
      e.answers.forEach((want, i) => meets(answers[i], want))
      if (http) expect(x.status).toBe(200)
      return
    }
    case 'too-large':
      expect(x.messages).toHaveLength(1)
      if (http) {
        expect(x.status).toBe(413)
        meets(x.messages[0], { error: -32000, id: null })
      } else meets(x.messages[0], { error: -32600, id: e.id })
  }
}

describe.each(wires)('corpus over %s', (_name, make) => {
  let wire: Wire
  beforeAll(async () => {
    wire = await make()
  })
  afterAll(async () => {
    await wire?.close()
  })

  it.each(corpus.map((c) => [c.name, c] as const))('%s', async (_case, c) => {
    const x = await wire.exchange(c.body, c.version ?? '2025-11-25')
    check(wire, x, c)
    // and the server keeps serving
    await wire.probe(c.version ?? '2025-11-25', 41)
    expect(Object.prototype).not.toHaveProperty('polluted')
  })
})
