import { createRequire } from 'node:module'
import { describe, expect, it } from 'vitest'
import * as fc from 'fast-check'
import * as E from 'fp-ts/lib/Either.js'
import type { Ajv as AjvInstance, ErrorObject } from 'ajv'
import { plainValidator } from '../../src/schema/plain-validator.js'
import { plainPredicate } from '../../src/schema/plain-predicate.js'
import { validatorOf, type JsonSchema } from '../../src/index.js'

// The judge: ajv itself, with the options schema.ts gives it, its errors turned into issues
// the way schema.ts turns them. The plain validator must agree on every verdict, message,
// path and order, and fill in the same defaults.
const require = createRequire(import.meta.url)
type AjvClass = new (options: object) => AjvInstance
const Ajv2020 = (require('ajv/dist/2020') as { default: AjvClass }).default
const addFormats = (require('ajv-formats') as { default: (a: AjvInstance) => AjvInstance }).default
const judges = {
  input: addFormats(new Ajv2020({ allErrors: true, strict: false, validateFormats: true, strictNumbers: true, useDefaults: true })),
  output: addFormats(new Ajv2020({ allErrors: true, strict: false, validateFormats: true, strictNumbers: true, useDefaults: false })),
}
const escape = (k: string): string => k.replace(/~/g, '~0').replace(/\//g, '~1')
const issuesOf = (errors: ReadonlyArray<ErrorObject>) =>
  errors.map((e) => {
    const p = e.params as Record<string, unknown>
    if (e.keyword === 'required') return { path: `${e.instancePath}/${escape(String(p.missingProperty))}`, message: 'is required' }
    if (e.keyword === 'additionalProperties') return { path: `${e.instancePath}/${escape(String(p.additionalProperty))}`, message: 'is not allowed' }
    if (e.keyword === 'enum') return { path: e.instancePath, message: `must be one of ${JSON.stringify(p.allowedValues)}` }
    if (e.keyword === 'const') return { path: e.instancePath, message: `must be ${JSON.stringify(p.allowedValue)}` }
    return { path: e.instancePath, message: e.message }
  })

/** What ajv says of a value (on a copy, which it may fill with defaults), and the copy after. */
const judge = (schema: JsonSchema, mode: 'input' | 'output', value: unknown) => {
  const copy = structuredClone(value)
  const validate = judges[mode].compile(schema)
  const ok = validate(copy)
  return { issues: ok ? undefined : issuesOf(validate.errors ?? []), after: copy }
}
const ours = (schema: JsonSchema, mode: 'input' | 'output', value: unknown) => {
  const check = plainValidator(schema, mode)
  if (check === undefined) throw new Error(`not plain: ${JSON.stringify(schema)}`)
  const copy = structuredClone(value)
  return { issues: check(copy), after: copy }
}

// ---------------------------------------------------------------------------------------
// generators: plain schemas, and values near them (made from the schema's own literals)

const keys = fc.constantFrom('a', 'b', 'c', 'x/y', 'm~n', 'ünï', '')
const scalar = fc.oneof(
  fc.constantFrom(0, -1, 1, 2.5, 3, 10, 1e21, -0, 'a', 'ab', '😀😀', 'abc', '', true, false, null),
  fc.integer({ min: -20, max: 20 }),
  fc.string({ maxLength: 6 }),
)
const json: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, scalar, fc.array(tie('value'), { maxLength: 3 }), fc.dictionary(keys, tie('value'), { maxKeys: 3 })),
})).value
const typeName = fc.constantFrom('string', 'number', 'integer', 'boolean', 'null', 'object', 'array')
const count = fc.integer({ min: 0, max: 4 })
const bound = fc.oneof(fc.integer({ min: -5, max: 12 }), fc.constantFrom(0.5, 2.5))

const flat = {
  type: fc.oneof(typeName, fc.uniqueArray(typeName, { minLength: 1, maxLength: 3 })),
  enum: fc.array(json, { minLength: 1, maxLength: 3 }),
  const: json,
  required: fc.uniqueArray(keys, { maxLength: 3 }),
  minItems: count,
  maxItems: count,
  minLength: count,
  maxLength: count,
  minProperties: count,
  maxProperties: count,
  pattern: fc.constantFrom('^a', 'b$', '^\\p{L}+$', '[0-9]', '^.{2}$'),
  minimum: bound,
  maximum: bound,
  exclusiveMinimum: bound,
  exclusiveMaximum: bound,
  default: json,
  description: fc.constantFrom('d', 'described'),
  'x-mcp-header': fc.constantFrom('Region', 'X-Tenant'),
}
/** A few keywords at a time (a schema with all of them fails everything), nested at most 3 deep. */
const pick = (record: { readonly [key: string]: fc.Arbitrary<unknown> }): fc.Arbitrary<JsonSchema> =>
  fc.record(record, { requiredKeys: [] }).chain((full) =>
    fc.subarray(Object.keys(full), { maxLength: 4 }).map((chosen) => Object.fromEntries(chosen.map((k) => [k, (full as Record<string, unknown>)[k]])) as JsonSchema),
  )
const schema: fc.Arbitrary<JsonSchema> = fc.letrec<{ node: JsonSchema }>((tie) => ({
  node: fc.oneof(
    { maxDepth: 3, depthIdentifier: 'schema' },
    pick(flat),
    pick({
      ...flat,
      properties: fc.dictionary(keys, tie('node'), { maxKeys: 3 }),
      additionalProperties: fc.oneof(fc.boolean(), tie('node')),
      items: tie('node'),
    }),
  ),
})).node

/** A value shaped like the schema often enough that the deep keywords get exercised. */
const near = (s: JsonSchema, depth = 0): fc.Arbitrary<unknown> => {
  const options: fc.Arbitrary<unknown>[] = [json]
  if (s.const !== undefined) options.push(fc.constant(s.const))
  if (Array.isArray(s.enum)) options.push(fc.constantFrom(...(s.enum as unknown[])))
  if (depth < 4 && (s.properties !== undefined || s.required !== undefined)) {
    const props = (s.properties ?? {}) as Record<string, JsonSchema>
    const entries: Record<string, fc.Arbitrary<unknown>> = {}
    for (const k of Object.keys(props)) entries[k] = near(props[k] as JsonSchema, depth + 1)
    for (const k of (s.required ?? []) as string[]) entries[k] ??= json
    options.push(fc.tuple(fc.record(entries, { requiredKeys: [] }), fc.dictionary(keys, json, { maxKeys: 2 })).map(([a, b]) => ({ ...b, ...a })))
  }
  if (depth < 4 && s.items !== undefined) options.push(fc.array(near(s.items as JsonSchema, depth + 1), { maxLength: 4 }))
  return fc.oneof(...options)
}
const case_ = schema.chain((s) => fc.tuple(fc.constant(s), near(s), fc.constantFrom('input' as const, 'output' as const)))

// ---------------------------------------------------------------------------------------

describe('plain validator: the same verdicts as the general engine', () => {
  it('agrees with ajv on verdict, issues (message, path, order) and filled-in defaults, for generated schemas and values', () => {
    fc.assert(
      fc.property(case_, ([s, value, mode]) => {
        const expected = judge(s, mode, value)
        const actual = ours(s, mode, value)
        expect(actual.issues).toEqual(expected.issues)
        expect(actual.after).toEqual(expected.after)
      }),
      { numRuns: 3000, seed: 20261130 },
    )
  })

  it('agrees on the edge cases written out', () => {
    const cases: ReadonlyArray<readonly [JsonSchema, unknown]> = [
      [{ type: 'number' }, Number.NaN],
      [{ type: 'number' }, Number.POSITIVE_INFINITY],
      [{ type: 'integer' }, 1.5],
      [{ type: 'integer', minimum: 2 }, 1],
      [{ type: 'object', properties: {} }, 3],
      [{ type: 'object', additionalProperties: true, const: 1 }, 'x'],
      [{ type: 'object', properties: { a: { type: 'string' } }, const: 1 }, 'x'],
      [{ type: ['string', 'null'], minLength: 2 }, 'a'],
      [{ type: ['string', 'null'], minLength: 2 }, 3],
      [{ type: 'string', maxLength: 1 }, '😀'],
      [{ type: 'string', pattern: '^"q"\\d$' }, 'x'],
      [{ enum: [{ a: [1, 2] }, 'x'] }, { a: [1, 2] }],
      [{ enum: [{ a: [1, 2] }, 'x'] }, { a: [2, 1] }],
      [{ const: { a: 1, b: 2 } }, { b: 2, a: 1 }],
      [{ type: 'object', properties: { a: { default: { n: [1] } } }, required: ['a'] }, {}],
      [{ type: 'object', additionalProperties: { type: 'number' } }, { 'a/b': 'x', c: 1 }],
      [{ type: 'object', required: ['x~y'] }, {}],
      [{ type: 'object', properties: { region: { type: 'string', 'x-mcp-header': 'Region', minLength: 2 } } }, { region: 'a' }],
      [{ type: 'array', items: { type: 'object', properties: { a: { type: 'integer', default: 1 } } } }, [{}, { a: 2 }, 'no']],
      // a const above a default, refused further on: the const is judged before the default is filled
      [{ type: 'object', properties: { n: { type: 'object', const: {}, properties: { x: { default: 1 } } }, m: { type: 'string' } } }, { n: {}, m: 5 }],
      [{ type: 'object', properties: { n: { enum: [{}], properties: { x: { default: 1 } } } }, required: ['m'] }, { n: {} }],
    ]
    for (const [s, value] of cases)
      for (const mode of ['input', 'output'] as const) {
        const expected = judge(s, mode, value)
        expect(ours(s, mode, value), JSON.stringify([s, value, mode])).toEqual(expected)
      }
  })

  it('fills a fresh copy of a default into each value (no value shares the schema’s object)', () => {
    const s = { type: 'object', properties: { tags: { type: 'array', default: ['a'] } } }
    const check = plainValidator(s, 'input')
    const one: Record<string, unknown> = {}
    const two: Record<string, unknown> = {}
    check?.(one)
    check?.(two)
    expect(one.tags).toEqual(['a'])
    expect(one.tags).not.toBe(two.tags)
    expect(one.tags).not.toBe(s.properties.tags.default)
  })

  it('takes the dialects the general engine knows, with or without the trailing #', () => {
    for (const d of ['https://json-schema.org/draft/2020-12/schema', 'https://json-schema.org/draft/2019-09/schema#', 'http://json-schema.org/draft-07/schema#'])
      expect(plainValidator({ $schema: d, type: 'string', minLength: 2 }, 'input')?.('a')).toEqual([{ path: '', message: 'must NOT have fewer than 2 characters' }])
  })

  it('leaves results alone: output mode fills in nothing', () => {
    const value = {}
    expect(plainValidator({ type: 'object', properties: { a: { default: 1 } } }, 'output')?.(value)).toBeUndefined()
    expect(value).toEqual({})
  })
})

describe('plain predicate: the yes-or-no check asked first', () => {
  it('says valid exactly when ajv does, and fills in the same defaults when it says so', () => {
    fc.assert(
      fc.property(case_, ([s, value, mode]) => {
        const valid = plainPredicate(s, mode === 'input')
        if (valid === undefined) return
        const expected = judge(s, mode, value)
        const copy = structuredClone(value)
        expect(valid(copy)).toBe(expected.issues === undefined)
        if (expected.issues === undefined) expect(copy).toEqual(expected.after)
      }),
      { numRuns: 3000, seed: 20261205 },
    )
  })

  it('stands aside where a refused value walked again would differ: defaults filled below a const or an enum', () => {
    const s = { type: 'object', properties: { n: { type: 'object', const: {}, properties: { x: { default: 1 } } } } }
    expect(plainPredicate(s, true)).toBeUndefined()
    // results are never filled: the predicate stands for them
    expect(plainPredicate(s, false)?.({ n: {} })).toBe(true)
    expect(plainPredicate({ type: 'object', properties: { x: { default: 1 } }, required: ['x'] }, true)).toBeDefined()
  })

  it('is asked first: a valid value is not walked for issues, and an invalid one still gets every issue', () => {
    const s = { type: 'object', properties: { a: { type: 'number' }, b: { type: 'string', minLength: 2 } }, required: ['a'], additionalProperties: false }
    const check = plainValidator(s, 'input')
    const reads: string[] = []
    // a value that records what is read: the predicate reads each key once, the reporting walk again
    const watched = (o: Record<string, unknown>) => new Proxy(o, { get: (t, k) => (reads.push(String(k)), t[k as string]) })
    expect(check?.(watched({ a: 1, b: 'xy' }))).toBeUndefined()
    expect(reads).toEqual(['a', 'a', 'b'])
    expect(check?.({ b: 'x', c: true })).toEqual([
      { path: '/a', message: 'is required' },
      { path: '/c', message: 'is not allowed' },
      { path: '/b', message: 'must NOT have fewer than 2 characters' },
    ])
  })
})

describe('plain validator: what it leaves to the general engine', () => {
  it.each([
    ['a keyword outside the plain set', { type: 'string', format: 'email' }],
    ['a combinator', { anyOf: [{ type: 'string' }] }],
    ['a reference', { $ref: '#/$defs/a', $defs: { a: {} } }],
    ['an $id', { $id: 'urn:x', type: 'string' }],
    ['multipleOf (its float rules)', { type: 'number', multipleOf: 0.1 }],
    ['an unknown type name', { type: 'text' }],
    ['a repeated type', { type: ['string', 'string'] }],
    ['an empty type list', { type: [] }],
    ['a repeated required name', { required: ['a', 'a'] }],
    ['a negative count', { type: 'string', minLength: -1 }],
    ['a fractional count', { type: 'array', maxItems: 1.5 }],
    ['a boolean exclusiveMinimum (draft-04)', { type: 'number', minimum: 1, exclusiveMinimum: true }],
    ['a pattern that is no Unicode regular expression', { type: 'string', pattern: '\\c' }],
    ['a property named like an Object.prototype member', { type: 'object', properties: { constructor: { type: 'string' } } }],
    ['a required name like an Object.prototype member', { type: 'object', required: ['toString'] }],
    ['a boolean subschema', { type: 'object', properties: { a: true } }],
    ['an empty enum', { enum: [] }],
    ['a dialect it does not know (draft-04)', { $schema: 'http://json-schema.org/draft-04/schema#', type: 'string' }],
  ])('%s', (_, s) => {
    expect(plainValidator(s as JsonSchema, 'input')).toBeUndefined()
    expect(plainValidator(s as JsonSchema, 'output')).toBeUndefined()
  })

  it('validatorOf gives the same answers either way: plain schemas here, the rest through the general engine', () => {
    const plain = validatorOf({ type: 'object', properties: { a: { type: 'number', minimum: 1 } }, required: ['a', 'b'] } as JsonSchema)
    expect(plain.decode({ a: 0 })).toEqual(E.left([{ path: '/b', message: 'is required' }, { path: '/a', message: 'must be >= 1' }]))
    const general = validatorOf({ type: 'object', properties: { a: { type: 'number', multipleOf: 2 } }, required: ['a', 'b'] } as JsonSchema)
    expect(general.decode({ a: 3 })).toEqual(E.left([{ path: '/b', message: 'is required' }, { path: '/a', message: 'must be multiple of 2' }]))
  })
})
