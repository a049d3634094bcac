import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import * as v from 'valibot'
import { type } from 'arktype'
import { toStandardJsonSchema } from '@valibot/to-json-schema'
import { emcp, inMemoryClient, mcpServer } from '../../../src/index.js'
import { toManifest } from '../../../src/sources/manifest/index.js'

// raw shapes, as the official SDK's registerTool takes them
const note = emcp({
  name: 'note',
  description: 'Save a note.',
  input: { title: z.string().min(1, 'a title, please'), n: z.number().int().optional(), tag: z.string().default('misc'), len: z.string().transform((s) => s.length) },
  output: { id: z.string(), words: z.number() },
})

const server = () =>
  mcpServer([note], { name: 's', version: '1' }).implement({
    note: ({ title, n, tag, len }) => ({ id: `${tag}:${title}:${n ?? 0}:${len}`, words: title.split(' ').length }),
  })

describe('raw shapes of Standard Schemas', () => {
  it('publishes one object schema assembled from each property (input and output directions, 2020-12)', async () => {
    for (const era of ['2025-11-25', '2026-07-28'] as const) {
      const [listed] = await inMemoryClient(server(), { protocolVersion: era }).list()
      expect(listed?.inputSchema).toMatchObject({
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object',
        properties: { title: { type: 'string', minLength: 1 }, n: { type: 'integer' }, tag: { type: 'string', default: 'misc' }, len: { type: 'string' } },
        required: ['title', 'len'],
        additionalProperties: false,
      })
      expect(listed?.outputSchema).toMatchObject({ type: 'object', properties: { id: { type: 'string' }, words: { type: 'number' } }, required: ['id', 'words'], additionalProperties: false })
    }
  })

  it('validates property by property: defaults and transforms applied, issues at their path, unknown keys refused', async () => {
    for (const era of ['2025-11-25', '2026-07-28'] as const) {
      const c = inMemoryClient(server(), { protocolVersion: era })
      await expect(c.call('note', { title: 'a b', len: 'xyz' })).resolves.toEqual({ id: 'misc:a b:0:3', words: 2 })
      await expect(c.call('note', { title: 'x', n: 2, tag: 't', len: '' })).resolves.toEqual({ id: 't:x:2:0', words: 1 })
      const bad = await c.callResult('note', { title: '', n: 1.5, len: 'x' })
      expect(bad.isError).toBe(true)
      const text = JSON.stringify(bad.content)
      expect(text).toContain('/title: a title, please')
      expect(text).toContain('/n:')
      const extra = await c.callResult('note', { title: 'x', len: 'x', titel: 'y' } as never)
      expect(JSON.stringify(extra.content)).toContain('/titel: is not a known property')
      expect(JSON.stringify((await c.callResult('note', { len: 'x' } as never)).content)).toContain('/title')
    }
  })

  it('waits for a property whose schema answers later (an async refinement) beside ones that answer at once', async () => {
    const signup = emcp({
      name: 'signup',
      description: 'Sign up.',
      input: { user: z.string().refine(async (u) => u !== 'root', 'is taken'), age: z.number().int() },
      output: { ok: z.boolean() },
    })
    const s = mcpServer([signup], { name: 's', version: '1' }).implement({ signup: ({ user, age }) => ({ ok: user.length > 0 && age > 0 }) })
    for (const era of ['2025-11-25', '2026-07-28'] as const) {
      const c = inMemoryClient(s, { protocolVersion: era })
      await expect(c.call('signup', { user: 'ada', age: 36 })).resolves.toEqual({ ok: true })
      const taken = JSON.stringify((await c.callResult('signup', { user: 'root', age: 1.5 })).content)
      expect(taken).toContain('/user: is taken')
      expect(taken).toContain('/age:')
    }
  })

  it('checks a result through the output shape', async () => {
    const s = mcpServer([note], { name: 's', version: '1' }).implement({ note: () => ({ id: 1, words: 1 }) as never })
    expect(JSON.stringify((await inMemoryClient(s).callResult('note', { title: 'x', len: 'x' })).content)).toContain('/id')
  })

  it('takes valibot and arktype shapes the same way', async () => {
    const mixed = emcp({
      name: 'mixed',
      input: { a: toStandardJsonSchema(v.pipe(v.string(), v.minLength(2, 'too short'))), b: type('number > 0') },
      output: { ok: z.boolean() },
    })
    const s = mcpServer([mixed], { name: 's', version: '1' }).implement({ mixed: ({ a, b }) => ({ ok: a.length < b }) })
    const c = inMemoryClient(s)
    expect((await c.list())[0]?.inputSchema).toMatchObject({ type: 'object', properties: { a: { type: 'string', minLength: 2 }, b: { type: 'number', exclusiveMinimum: 0 } }, required: ['a', 'b'] })
    await expect(c.call('mixed', { a: 'xy', b: 5 })).resolves.toEqual({ ok: true })
    const bad = JSON.stringify((await c.callResult('mixed', { a: 'x', b: -1 })).content)
    expect(bad).toContain('/a: too short')
    expect(bad).toContain('/b:')
  })

  it("takes arktype's .optional() and .default() entries: optional for callers, the default applied afresh, listed as such", async () => {
    const tagged = emcp({
      name: 'tagged',
      input: { label: type('string'), colour: type('string').optional(), weight: type('number').default(1), tags: type('string[]').default(() => []) },
      output: { text: type('string'), note: type('string').optional() },
    })
    const s = mcpServer([tagged], { name: 's', version: '1' }).implement({
      tagged: ({ label, colour, weight, tags }) => {
        tags.push('seen') // a default shared between calls would show here
        return { text: `${label}/${colour ?? '-'}/${weight}/${tags.join(',')}` }
      },
    })
    for (const era of ['2025-11-25', '2026-07-28'] as const) {
      const c = inMemoryClient(s, { protocolVersion: era })
      const [listed] = await c.list()
      expect(listed?.inputSchema).toEqual({
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object',
        properties: { label: { type: 'string' }, colour: { type: 'string' }, weight: { type: 'number', default: 1 }, tags: { type: 'array', items: { type: 'string' }, default: [] } },
        required: ['label'],
        additionalProperties: false,
      })
      expect(listed?.outputSchema).toMatchObject({ properties: { text: { type: 'string' }, note: { type: 'string' } }, required: ['text'] })
      await expect(c.call('tagged', { label: 'a' })).resolves.toEqual({ text: 'a/-/1/seen' })
      await expect(c.call('tagged', { label: 'a' })).resolves.toEqual({ text: 'a/-/1/seen' })
      await expect(c.call('tagged', { label: 'a', colour: 'red', weight: 2, tags: ['x'] })).resolves.toEqual({ text: 'a/red/2/x,seen' })
      const bad = await c.callResult('tagged', { label: 'a', colour: 3, weight: 'heavy' } as never)
      expect(bad.isError).toBe(true)
      expect(JSON.stringify(bad.content)).toMatch(/\/colour: .*string.*\/weight: .*number/)
    }
  })

  it("takes arktype's entries in a ctx.elicit form: optional in the form, the default applied to the answer", async () => {
    const ask = emcp({ name: 'ask', input: { type: 'object' } })
    const s = mcpServer([ask], { name: 's', version: '1' }).implement({
      ask: async (_args, ctx) => {
        const r = await ctx.elicit({ message: 'Who?', requestedSchema: { name: type('string'), nick: type('string').optional(), seats: type('number').default(1) } })
        return r.action === 'accept' ? `${r.content.name}/${r.content.nick ?? '-'}/${r.content.seats.toFixed(0)}` : r.action
      },
    })
    const asked: unknown[] = []
    let content: Record<string, unknown> = { name: 'Ada' }
    const c = inMemoryClient(s, { protocolVersion: '2026-07-28', capabilities: { elicitation: { form: {} } }, answer: (request) => (asked.push(request.params), { action: 'accept', content }) })
    const said = async (): Promise<string> => JSON.stringify((await c.callResult('ask', {})).content)
    expect(await said()).toContain('"Ada/-/1"')
    expect((asked[0] as { requestedSchema: unknown }).requestedSchema).toEqual({
      type: 'object',
      properties: { name: { type: 'string' }, nick: { type: 'string' }, seats: { type: 'number', default: 1 } },
      required: ['name'],
    })
    content = { name: 'Lin', nick: 'L', seats: 3 }
    expect(await said()).toContain('"Lin/L/3"')
    content = { name: 'Lin', seats: 'many' }
    expect(await said()).toMatch(/\/seats: /)
  })

  it('refuses a tuple around a schema that is neither of arktype\'s, naming the property', () => {
    expect(() => emcp({ name: 't', input: { a: type('string'), b: [type('string'), '!'] } as never })).toThrow(/tool t: the input schema is not a JSON Schema literal: its property "b" is a tuple around a schema that is neither arktype's \.optional\(\) \(\[schema, '\?'\]\) nor its \.default\(value\)/)
  })

  it('refuses a value that is neither a shape nor a literal, and a property without a JSON Schema form, when the contract is made', () => {
    expect(() => emcp({ name: 'x', input: { type: 'object', title: z.string() } as never })).toThrow(/is not a JSON Schema literal: its property "title" is a schema of its own: a shape .* has a Standard Schema as every value/)
    expect(() => emcp({ name: 'y', input: { a: z.string().transform((s) => s.length) }, output: { b: z.string().transform((s) => s.length) } })).toThrow(/tool y: the output shape cannot be written as JSON Schema: property "b": Transforms cannot be represented/)
    expect(() => emcp({ name: 'z', input: { a: v.string() } as never })).toThrow(/tool z: the input shape cannot be written as JSON Schema: property "a" \(valibot\) has no JSON Schema form/)
  })

  it('writes the assembled schema into a manifest', () => {
    const m = toManifest(mcpServer([note], { name: 's', version: '1' }).implement({ note: () => ({ id: 'x', words: 1 }) }))
    expect(JSON.stringify(m)).toContain('"required":["title","len"]')
  })
})
