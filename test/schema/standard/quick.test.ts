import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { emcp, inMemoryClient, mcpServer, newSession } from '../../../src/index.js'
import { shapeSchema } from '../../../src/schema/standard/shape.js'
import { passesSchema, quickCheckFor } from '../../../src/schema/standard/quick.js'
import type { StandardSchemaV1 } from '../../../src/schema/standard/spec.js'

/** The same schema without zod's internals in sight: its shape has no quick check, so every value goes to zod. */
const opaque = <I, O>(s: StandardSchemaV1<I, O>): StandardSchemaV1<I, O> => ({ '~standard': s['~standard'] })

/** A shape's answer for `value`, as plain data (issues with their paths and messages). */
const answer = (shape: StandardSchemaV1, value: unknown): unknown => shape['~standard'].validate(value)

const plainEntries = { a: z.number().describe('First addend'), s: z.string(), ok: z.boolean(), o: z.string().optional() }
const quick = shapeSchema(plainEntries)
const slow = shapeSchema({ a: opaque(plainEntries.a), s: opaque(plainEntries.s), ok: opaque(plainEntries.ok), o: opaque(plainEntries.o) })

// arguments a client may send (1e400 is what JSON.parse makes of a number too large: Infinity)
const values: ReadonlyArray<unknown> = [
  { a: 1, s: 'x', ok: true },
  { a: 1, s: 'x', ok: true, o: 'y' },
  { a: 1, s: 'x', ok: true, o: undefined },
  { a: 1, s: 'x', ok: true, o: 1 },
  { a: 1, s: 'x', ok: true, o: null },
  { a: 1, o: 'y' },
  Object.assign(Object.create({ o: 'inherited' }), { a: 1, s: 'x', ok: true }),
  { ok: false, s: '', a: -0 },
  { a: 2 ** 60, s: '𝄞\uD800', ok: true },
  { a: NaN, s: 'x', ok: true },
  { a: Infinity, s: 'x', ok: true },
  JSON.parse('{"a":1e400,"s":"x","ok":true}'),
  { a: '1', s: 'x', ok: true },
  { a: 1, s: 1, ok: 'true' },
  { a: 1, s: 'x' },
  { a: 1, s: 'x', ok: true, extra: 1 },
  { a: 1, s: 'x', ok: true, ['__proto__']: 1 },
  JSON.parse('{"a":1,"s":"x","ok":true,"__proto__":{"b":1}}'),
  { a: undefined, s: 'x', ok: true },
  Object.assign(Object.create({ a: 1 }), { s: 'x', ok: true }),
  Object.assign(Object.create({ extra: 1 }), { a: 1, s: 'x', ok: true }),
  null, [], 'x', 1,
]

describe('the quick check of a raw shape of plain zod types', () => {
  it('is made only when every property only tests a type', () => {
    expect(quickCheckFor(quick)).toBeDefined()
    expect(quickCheckFor(slow)).toBeUndefined()
    expect(quickCheckFor(shapeSchema({ a: z.number(), n: z.number().int() }))).toBeUndefined()
    expect(quickCheckFor(shapeSchema({ a: z.number(), o: z.number().optional() }))).toBeDefined()
    expect(quickCheckFor(shapeSchema({ a: z.number(), o: z.number().int().optional() }))).toBeUndefined()
    expect(quickCheckFor(shapeSchema({ a: z.string(), t: z.string().transform((s) => s.length) }))).toBeUndefined()
  })

  it('gives exactly what zod gives for every value, valid or not: the same output, the same issues at the same paths', () => {
    for (const v of values) expect([v, answer(quick, v)]).toStrictEqual([v, answer(slow, v)])
    // a valid value comes out as a new object, keys in the shape's order, as the libraries' answers are merged
    const given = { o: 'y', ok: true, s: 'x', a: 1 }
    const out = (answer(quick, given) as { value: object }).value
    expect(out).not.toBe(given)
    expect(Object.keys(out)).toEqual(['a', 's', 'ok', 'o'])
    expect(Object.keys((answer(quick, { ...given, o: undefined }) as { value: object }).value)).toEqual(['a', 's', 'ok'])
  })

  it('leaves a shape with any check to zod whole: integers, refinements, string lengths as zod counts them (characters, not UTF-16 units)', () => {
    const mixed = shapeSchema({ a: z.number(), n: z.number().int(), s: z.string().max(2, 'two at most'), r: z.number().refine((x) => x !== 13, 'unlucky') })
    expect(quickCheckFor(mixed)).toBeUndefined()
    expect(answer(mixed, { a: 1, n: 2, s: '𝄞𝄞', r: 1 })).toEqual({ value: { a: 1, n: 2, s: '𝄞𝄞', r: 1 } })
    const bad = answer(mixed, { a: 1, n: 1.5, s: '𝄞ab', r: 13 }) as { issues: ReadonlyArray<{ path: unknown; message: string }> }
    expect(bad.issues.map((i) => [i.path, i.message])).toEqual([
      [['n'], 'Invalid input: expected int, received number'],
      [['s'], 'two at most'],
      [['r'], 'unlucky'],
    ])
  })

  it('reads each property once, in the shape\'s order, as the libraries would be asked', () => {
    const reads: string[] = []
    const watched = (o: Record<string, unknown>) => new Proxy(o, { get: (t, k) => (reads.push(String(k)), t[k as string]) })
    expect(answer(quick, watched({ ok: true, s: 'x', a: 1 }))).toEqual({ value: { a: 1, s: 'x', ok: true } })
    expect(reads).toEqual(['a', 's', 'ok'])
    reads.length = 0
    answer(slow, watched({ ok: true, s: 'x', a: 1 }))
    expect(reads).toEqual(['a', 's', 'ok'])
  })

  it('takes a "__proto__" property as data, as the libraries\' answers are merged (the copy made by a loop, optional properties too)', () => {
    const odd = shapeSchema({ ['__proto__']: z.string(), b: z.number(), o: z.string().optional() })
    const judged = shapeSchema({ ['__proto__']: opaque(z.string()), b: opaque(z.number()), o: opaque(z.string().optional()) })
    expect(quickCheckFor(odd)).toBeDefined()
    const texts = ['{"__proto__":"x","b":1}', '{"__proto__":"x","b":1,"o":"y"}', '{"__proto__":"x","b":1,"o":2}', '{"__proto__":1,"b":1}', '{"b":1}', '{"__proto__":"x","b":1,"c":1}']
    for (const t of texts) expect([t, answer(odd, JSON.parse(t))]).toStrictEqual([t, answer(judged, JSON.parse(t))])
    expect(answer(odd, { b: 1, o: undefined, ...JSON.parse('{"__proto__":"x"}') })).toStrictEqual(answer(judged, { b: 1, o: undefined, ...JSON.parse('{"__proto__":"x"}') }))
    expect(answer(odd, JSON.parse('{"__proto__":1,"b":1}'))).toMatchObject({ issues: [{ path: ['__proto__'] }] })
  })

  it('takes any property name as data: quotes, line breaks, code', () => {
    const names = ['a"b', "c\\'\n\u2028", '}); throw new Error("x"); ({', '0', '']
    const schemaOf = (i: number): StandardSchemaV1 => (i % 2 === 0 ? z.number() : z.string())
    for (const optional of [z.string().optional(), undefined]) {
      const all = { ...Object.fromEntries(names.map((n, i) => [n, schemaOf(i)])), ...(optional ? { opt: optional } : {}) }
      const fast = shapeSchema(all)
      const judged = shapeSchema(Object.fromEntries(Object.entries(all).map(([k, s]) => [k, opaque(s)])))
      const value = Object.fromEntries(names.map((n, i) => [n, i % 2 === 0 ? i : `v${i}`]))
      for (const v of [value, { ...value, opt: 'o' }, { ...value, opt: 1 }, { ...value, '0': 'x' }]) expect(answer(fast, v)).toStrictEqual(answer(judged, v))
    }
    const odd = shapeSchema(Object.fromEntries(names.map((n, i) => [n, schemaOf(i)])))
    const plain = shapeSchema(Object.fromEntries(names.map((n, i) => [n, opaque(schemaOf(i))])))
    expect(quickCheckFor(odd)).toBeDefined()
    const value = Object.fromEntries(names.map((n, i) => [n, i % 2 === 0 ? i : `v${i}`]))
    expect(answer(odd, value)).toEqual({ value })
    for (const v of [value, { ...value, '0': 'x' }, { ...value, extra: 1 }]) expect(answer(odd, v)).toStrictEqual(answer(plain, v))
  })

  it('knows when a listed schema takes every object it passes: types and annotations only', () => {
    const q = quickCheckFor(shapeSchema({ a: z.number(), s: z.string(), o: z.boolean().optional() }))!
    const base = { type: 'object', properties: { a: { type: 'number', description: 'n' }, s: { type: 'string' }, o: { type: 'boolean' } }, required: ['a', 's'], additionalProperties: false }
    expect(passesSchema(q, base)).toBe(true)
    expect(passesSchema(q, { ...base, properties: { ...base.properties, a: { type: 'number', maximum: 3 } } })).toBe(false)
    expect(passesSchema(q, { ...base, properties: { ...base.properties, a: { type: 'integer' } } })).toBe(false)
    expect(passesSchema(q, { ...base, properties: { a: { type: 'number' }, s: { type: 'string' } } })).toBe(false)
    expect(passesSchema(q, { ...base, required: ['a', 's', 'x'] })).toBe(false)
    expect(passesSchema(q, { ...base, required: ['a', 's', 'o'] })).toBe(false)
    expect(passesSchema(q, { ...base, minProperties: 3 })).toBe(false)
    expect(passesSchema(q, { ...base, additionalProperties: { type: 'string' } })).toBe(false)
  })
})

describe('a tool whose shapes are plain zod types, beside the same tool whose schemas zod alone judges', () => {
  const limited = z.number().meta({ maximum: 100 })
  const add = emcp({ name: 'add', input: { a: z.number(), b: z.number() }, output: { sum: limited } })
  const addSlow = emcp({ name: 'add_slow', input: { a: opaque(z.number()), b: opaque(z.number()) }, output: { sum: opaque(limited) } })
  const server = (result: (a: number, b: number) => { sum: number }) =>
    mcpServer([add, addSlow], { name: 's', version: '1' }).implement({ add: ({ a, b }) => result(a, b), add_slow: ({ a, b }) => result(a, b) })

  it('answers every call as zod does, in both eras: arguments refused with zod\'s messages, results checked against the listed schema', async () => {
    const s = server((a, b) => (a === 7 ? { sum: NaN } : a === 8 ? { sum: 1, extra: 1 } : { sum: a + b }))
    for (const era of ['2025-11-25', '2026-07-28'] as const) {
      const c = inMemoryClient(s, { protocolVersion: era })
      const args: ReadonlyArray<Record<string, unknown>> = [{ a: 1, b: 2 }, { a: '1', b: 2 }, { a: 1 }, { a: 1, b: 2, c: 3 }, { a: 7, b: 0 }, { a: 8, b: 0 }, { a: 99, b: 2 }, { b: 2, a: 1 }]
      for (const a of args) {
        const [fast, slow] = await Promise.all([c.callResult('add', a as never), c.callResult('add_slow', a as never)])
        expect([a, JSON.stringify(fast).replaceAll('add_slow', 'add')]).toEqual([a, JSON.stringify(slow).replaceAll('add_slow', 'add')])
      }
      expect(await c.call('add', { a: 1, b: 2 })).toEqual({ sum: 3 })
      expect(JSON.stringify(await c.callResult('add', { a: 99, b: 2 }))).toMatch(/does not match its output schema: \/sum: must be <= 100/)
      expect(JSON.stringify(await c.callResult('add', { a: 7, b: 0 }))).toMatch(/does not match its output schema: \/sum: .*received NaN/)
    }
  })

  it('refuses a number JSON cannot hold (1e400 reads as Infinity) with zod\'s message, over the wire text', async () => {
    const s = server((a, b) => ({ sum: a + b }))
    const session = newSession('2026-07-28')
    const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 't', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': {} }
    const text = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add","arguments":{"a":1e400,"b":1},"_meta":${JSON.stringify(meta)}}}`
    const answered = await s.dispatchText(text, session)()
    expect(answered._tag).toBe('Some')
    const reply = JSON.parse((answered as { value: string }).value)
    expect(reply.result.isError).toBe(true)
    expect(JSON.stringify(reply.result.content)).toMatch(/Invalid arguments for tool add: \/a: Invalid input: expected number, received Infinity/)
  })
})
