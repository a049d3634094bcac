import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { emcp, inMemoryClient, mcpServer } from '../../../src/index.js'
import { toManifest } from '../../../src/sources/manifest/index.js'

const shout = emcp({
  name: 'shout',
  description: 'Shout a word, n times.',
  input: z.object({ word: z.string().min(1, 'say something'), times: z.number().int().positive().default(2) }),
  output: z.object({ text: z.string(), length: z.number() }),
})
const lengthOf = emcp({
  name: 'length_of',
  description: 'The length of a string, after a transform.',
  input: z.object({ s: z.string().transform((s) => s.length) }),
  output: z.object({ n: z.number() }),
})

const server = () =>
  mcpServer([shout, lengthOf], { name: 'z', version: '1' }).implement({
    shout: ({ word, times }) => {
      const text = Array.from({ length: times }, () => word.toUpperCase()).join(' ')
      return { text, length: text.length }
    },
    length_of: ({ s }) => ({ n: s }),
  })

describe('zod 4 schemas in a contract', () => {
  it('publishes the JSON Schema zod writes: input direction, root object', async () => {
    for (const era of ['2025-11-25', '2026-07-28'] as const) {
      const tools = await inMemoryClient(server(), { protocolVersion: era }).list()
      const listed = tools.find((t) => t.name === 'shout')
      expect(listed?.inputSchema).toMatchObject({ type: 'object', properties: { word: { type: 'string', minLength: 1 }, times: { type: 'integer', default: 2 } }, required: ['word'] })
      expect(listed?.outputSchema).toMatchObject({ type: 'object', properties: { text: { type: 'string' } }, required: ['text', 'length'] })
      expect(JSON.stringify(tools)).not.toContain('_zod')
    }
  })

  it('validates through zod: defaults and transforms reach the handler', async () => {
    const c = inMemoryClient(server())
    await expect(c.call('shout', { word: 'hi' })).resolves.toEqual({ text: 'HI HI', length: 5 })
    await expect(c.call('length_of', { s: 'abcd' })).resolves.toEqual({ n: 4 })
  })

  it('answers zod issues as invalid arguments, path and message, in both eras', async () => {
    for (const era of ['2025-11-25', '2026-07-28'] as const) {
      const c = inMemoryClient(server(), { protocolVersion: era })
      const r = await c.callResult('shout', { word: '', times: -1 } as never)
      expect(r.isError).toBe(true)
      expect(r.content).toEqual([{ type: 'text', text: 'Invalid arguments for tool shout: /word: say something; /times: Too small: expected number to be >0' }])
    }
  })

  it('never sends a result zod refuses', async () => {
    const bad = emcp({ name: 'bad', description: 'Wrong result.', input: z.object({}), output: z.object({ n: z.number() }) })
    const s = mcpServer([bad], { name: 'z', version: '1' }).implement({ bad: () => ({ n: 'x' }) as never })
    const r = await inMemoryClient(s).callResult('bad', {})
    expect(r.isError).toBe(true)
    expect(r.structuredContent).toBeUndefined()
    expect(JSON.stringify(r.content)).toContain('does not match its output schema: /n: Invalid input: expected number, received string')
  })

  it('runs an async refinement', async () => {
    const taken = emcp({ name: 'taken', description: 'Async check.', input: z.object({ user: z.string().refine(async (u) => u !== 'root', 'is taken') }) })
    const s = mcpServer([taken], { name: 'z', version: '1' }).implement({ taken: ({ user }) => `hello ${user}` })
    const c = inMemoryClient(s)
    expect((await c.callResult('taken', { user: 'root' })).content).toEqual([{ type: 'text', text: 'Invalid arguments for tool taken: /user: is taken' }])
    expect((await c.callResult('taken', { user: 'ann' })).content).toEqual([{ type: 'text', text: 'hello ann' }])
  })

  it('refuses at definition a schema with no JSON Schema form, naming tool and path', () => {
    expect(() => emcp({ name: 'when', description: 'A date.', input: z.object({ at: z.date() }) })).toThrow(
      /emcp: tool when: the input schema \(zod\) cannot be written as JSON Schema at \/properties\/at: Date cannot be represented in JSON Schema/,
    )
    expect(() => emcp({ name: 'out', description: 'A transform out.', input: z.object({}), output: z.object({ n: z.string().transform((s) => s.length) }) })).toThrow(
      /emcp: tool out: the output schema \(zod\) cannot be written as JSON Schema/,
    )
  })

  it('computes the JSON Schema once, when the contract is made', async () => {
    let conversions = 0
    const schema = z.object({ a: z.string() })
    const convert = schema['~standard'].jsonSchema.input
    Object.defineProperty(schema['~standard'].jsonSchema, 'input', { value: (o: never) => (conversions++, convert(o)) })
    const t = emcp({ name: 'once', description: 'Once.', input: schema })
    const c = inMemoryClient(mcpServer([t], { name: 'z', version: '1' }).implement({ once: ({ a }) => a }))
    for (let i = 0; i < 3; i++) {
      await c.list()
      await c.call('once', { a: 'x' })
    }
    expect(conversions).toBe(1)
  })

  it('writes the JSON Schema zod derives into a manifest, with no dispatch codecs', () => {
    const m = toManifest(server())
    const entry = m.tools.find((t) => t.name === 'shout')
    expect(entry?.inputSchema).toMatchObject({ type: 'object', properties: { word: { type: 'string', minLength: 1 }, times: { type: 'integer', default: 2 } } })
    expect(entry?.outputSchema).toMatchObject({ type: 'object', required: ['text', 'length'] })
    expect(JSON.stringify(m)).not.toMatch(/_zod|~standard|emcp\/dispatch/)
  })

  it('serves a result that is not an object: as it is since 2026-07-28, wrapped for 2025-11-25 clients', async () => {
    const evens = emcp({ name: 'evens', description: 'Evens below n.', input: z.object({ n: z.number().int() }), output: z.array(z.number().int()) })
    const s = mcpServer([evens], { name: 'z', version: '1' }).implement({ evens: ({ n }) => Array.from({ length: n }, (_, i) => 2 * i) })
    const modern = inMemoryClient(s, { protocolVersion: '2026-07-28' })
    expect((await modern.list())[0]?.outputSchema).toMatchObject({ type: 'array', items: { type: 'integer' } })
    expect((await modern.callResult('evens', { n: 3 })).structuredContent).toEqual([0, 2, 4])
    const legacy = inMemoryClient(s, { protocolVersion: '2025-11-25' })
    expect((await legacy.list())[0]?.outputSchema).toMatchObject({ type: 'object', properties: { result: { type: 'array' } }, required: ['result'] })
    expect((await legacy.callResult('evens', { n: 3 })).structuredContent).toEqual({ result: [0, 2, 4] })
    await expect(legacy.call('evens', { n: 2 })).resolves.toEqual([0, 2])
  })

  it('checks a result through an async refinement: a passing one is sent, a failing one never is', async () => {
    const t = emcp({ name: 'score', description: 'Score.', input: z.object({ n: z.number() }), output: z.object({ score: z.number().refine(async (x) => x >= 0, 'must not be negative') }) })
    const s = mcpServer([t], { name: 'z', version: '1' }).implement({ score: async ({ n }) => ({ score: n }) })
    const c = inMemoryClient(s)
    await expect(c.call('score', { n: 2 })).resolves.toEqual({ score: 2 })
    const bad = await c.callResult('score', { n: -1 })
    expect(bad.isError).toBe(true)
    expect(bad.structuredContent).toBeUndefined()
    expect(bad.content).toEqual([{ type: 'text', text: 'Tool score returned a result that does not match its output schema: /score: must not be negative' }])
  })
})
