import { describe, expect, it } from 'vitest'
import * as E from 'fp-ts/lib/Either.js'
import * as t from 'io-ts'
import {
  codecToJsonSchema,
  DateFromISOString,
  formatIssues,
  validatorOf,
  withSchema,
  type Issue,
  type SchemaSpec,
} from '../../src/index.js'

const draft07 = 'http://json-schema.org/draft-07/schema#'
const draft2019 = 'https://json-schema.org/draft/2019-09/schema'

/** A schema the draft-07 based literal type does not describe (2020-12 keywords, wrong on purpose). */
const loose = (schema: object): SchemaSpec => schema as unknown as SchemaSpec

/** The issues of a failed check, failing the test when the check passed. */
const issues = (r: E.Either<ReadonlyArray<Issue>, unknown>): ReadonlyArray<Issue> => {
  if (E.isRight(r)) throw new Error(`expected issues, got ${JSON.stringify(r.right)}`)
  return r.left
}

describe('schema: validation of JSON Schema literals', () => {
  it('passes a conforming value through unchanged', () => {
    const v = validatorOf({ type: 'object', properties: { a: { type: 'number' } }, required: ['a'] })
    const value = { a: 1, b: 'kept' }
    const r = v.decode(value)
    expect(E.isRight(r) && r.right).toBe(value)
    expect(v.encode(value)).toEqual(E.right(value))
  })

  it('validates with JSON Schema 2020-12 by default (prefixItems is honoured)', () => {
    const v = validatorOf(loose({ type: 'array', prefixItems: [{ type: 'string' }] }))
    expect(issues(v.decode([1]))).toEqual([{ path: '/0', message: 'must be string' }])
    expect(E.isRight(v.decode(['x', 2]))).toBe(true)
  })

  it('validates with draft-07 when $schema says so (array-form items, prefixItems unknown)', () => {
    const tuple = validatorOf({ $schema: draft07, type: 'array', items: [{ type: 'number' }], additionalItems: false })
    expect(issues(tuple.decode(['x']))).toEqual([{ path: '/0', message: 'must be number' }])
    expect(E.isLeft(tuple.decode([1, 2]))).toBe(true)
    expect(E.isRight(tuple.decode([1]))).toBe(true)
    const ignored = validatorOf(loose({ $schema: draft07, type: 'array', prefixItems: [{ type: 'string' }] }))
    expect(E.isRight(ignored.decode([1]))).toBe(true)
  })

  it('validates with 2019-09 when $schema says so', () => {
    const v = validatorOf({ $schema: draft2019, type: 'array', items: [{ type: 'number' }] })
    expect(issues(v.decode(['x']))).toEqual([{ path: '/0', message: 'must be number' }])
  })

  it('checks formats (date-time)', () => {
    const v = validatorOf({ type: 'string', format: 'date-time' })
    expect(E.isRight(v.decode('2025-11-25T10:00:00Z'))).toBe(true)
    expect(issues(v.decode('yesterday'))[0]?.path).toBe('')
  })

  it('reports a nested failure at its JSON pointer', () => {
    const v = validatorOf({
      type: 'object',
      properties: { a: { type: 'object', properties: { b: { type: 'array', items: { type: 'number' } } } } },
    })
    expect(issues(v.decode({ a: { b: [1, 'x'] } }))).toEqual([{ path: '/a/b/1', message: 'must be number' }])
  })

  it('reports a missing required key at the path of the missing key', () => {
    const v = validatorOf({
      type: 'object',
      properties: { outer: { type: 'object', properties: { inner: { type: 'string' } }, required: ['inner'] } },
      required: ['outer'],
    })
    expect(issues(v.decode({}))).toEqual([{ path: '/outer', message: 'is required' }])
    expect(issues(v.decode({ outer: {} }))).toEqual([{ path: '/outer/inner', message: 'is required' }])
  })

  it('reports an extra key forbidden by additionalProperties at its own path', () => {
    const v = validatorOf({ type: 'object', properties: { a: { type: 'number' } }, additionalProperties: false })
    expect(issues(v.decode({ a: 1, extra: true }))).toEqual([{ path: '/extra', message: 'is not allowed' }])
  })

  it('escapes ~ and / in keys as JSON pointers do (RFC 6901)', () => {
    const v = validatorOf({ type: 'object', required: ['a/b', 'c~d'] })
    expect(issues(v.decode({}))).toEqual([
      { path: '/a~1b', message: 'is required' },
      { path: '/c~0d', message: 'is required' },
    ])
  })

  it('reports every failure, not just the first', () => {
    const v = validatorOf({
      type: 'object',
      properties: { a: { type: 'number' }, b: { type: 'string' } },
      required: ['a', 'b', 'c'],
    })
    const found = issues(v.decode({ a: 'x', b: 1 }))
    expect(found).toEqual(
      expect.arrayContaining([
        { path: '/a', message: 'must be number' },
        { path: '/b', message: 'must be string' },
        { path: '/c', message: 'is required' },
      ]),
    )
    expect(found).toHaveLength(3)
  })

  it('names the allowed values of enum and const', () => {
    expect(issues(validatorOf({ enum: ['x', 'y'] }).decode('z'))).toEqual([{ path: '', message: 'must be one of ["x","y"]' }])
    expect(issues(validatorOf({ const: 3 }).decode(4))).toEqual([{ path: '', message: 'must be 3' }])
  })

  it('compiles lazily: an invalid schema only fails at first use', () => {
    const v = validatorOf(loose({ type: 'object', properties: { a: { type: 'no-such-type' } } }))
    expect(v.schema).toEqual({ type: 'object', properties: { a: { type: 'no-such-type' } } })
    expect(() => v.decode({})).toThrow()
  })

  it('reuses a schema registered under an $id instead of failing on the second compile', () => {
    const schema = { $id: 'urn:emcp:test:same-id', type: 'object', required: ['x'] } as const
    const a = validatorOf(schema)
    const b = validatorOf({ ...schema })
    expect(E.isRight(a.decode({ x: 1 }))).toBe(true)
    expect(issues(b.decode({}))).toEqual([{ path: '/x', message: 'is required' }])
  })
})

describe('schema: formatIssues', () => {
  it('renders issues as one line, the root as (root)', () => {
    expect(
      formatIssues([
        { path: '', message: 'must be object' },
        { path: '/a', message: 'must be number' },
        { path: '/b', message: 'is required' },
      ]),
    ).toBe('(root): must be object; /a: must be number; /b: is required')
  })

  it('renders no issues as the empty string', () => {
    expect(formatIssues([])).toBe('')
  })
})

describe('schema: codecToJsonSchema', () => {
  it.each([
    ['string', t.string, { type: 'string' }],
    ['number', t.number, { type: 'number' }],
    ['boolean', t.boolean, { type: 'boolean' }],
    ['null', t.null, { type: 'null' }],
    ['bigint', t.bigint, { type: 'integer' }],
    ['unknown', t.unknown, {}],
    ['UnknownRecord', t.UnknownRecord, { type: 'object' }],
    ['UnknownArray', t.UnknownArray, { type: 'array' }],
    ['Int', t.Int, { type: 'integer' }],
  ])('derives the primitive %s', (_label, codec, schema) => {
    expect(codecToJsonSchema(codec)).toEqual(schema)
  })

  it('derives t.type as an object with every key required', () => {
    expect(codecToJsonSchema(t.type({ a: t.string, b: t.number }))).toEqual({
      type: 'object',
      properties: { a: { type: 'string' }, b: { type: 'number' } },
      required: ['a', 'b'],
    })
  })

  it('derives t.partial as an object with no key required', () => {
    expect(codecToJsonSchema(t.partial({ a: t.string }))).toEqual({ type: 'object', properties: { a: { type: 'string' } } })
  })

  it('merges an intersection of plain objects into one object', () => {
    expect(codecToJsonSchema(t.intersection([t.type({ a: t.string }), t.partial({ b: t.number })]))).toEqual({
      type: 'object',
      properties: { a: { type: 'string' }, b: { type: 'number' } },
      required: ['a'],
    })
  })

  it('keeps an intersection with a non-plain part as allOf', () => {
    const described = withSchema(t.type({ a: t.string }), { type: 'object', description: 'A.', properties: { a: { type: 'string' } }, required: ['a'] })
    expect(codecToJsonSchema(t.intersection([described, t.type({ b: t.number })]))).toEqual({
      allOf: [
        { type: 'object', description: 'A.', properties: { a: { type: 'string' } }, required: ['a'] },
        { type: 'object', properties: { b: { type: 'number' } }, required: ['b'] },
      ],
    })
  })

  it('merges an exact member into its intersection: io-ts accepts the other members\' keys, so must the schema', () => {
    const both = t.intersection([t.exact(t.type({ a: t.string })), t.type({ b: t.number })])
    expect(codecToJsonSchema(both)).toEqual({ type: 'object', properties: { a: { type: 'string' }, b: { type: 'number' } }, required: ['a', 'b'] })
    expect(E.isRight(validatorOf(both).decode({ a: 'x', b: 1 }))).toBe(true)
    expect(E.isRight(both.decode({ a: 'x', b: 1 }))).toBe(true)
  })

  it('derives a union as anyOf', () => {
    expect(codecToJsonSchema(t.union([t.string, t.number]))).toEqual({ anyOf: [{ type: 'string' }, { type: 'number' }] })
  })

  it('derives a union of literals as enum', () => {
    expect(codecToJsonSchema(t.union([t.literal('a'), t.literal('b'), t.literal(1)]))).toEqual({ enum: ['a', 'b', 1] })
  })

  it.each([
    ['a string', 'x', { type: 'string', const: 'x' }],
    ['a number', 2, { type: 'number', const: 2 }],
    ['a boolean', true, { type: 'boolean', const: true }],
    ['null', null, { type: 'null', const: null }],
  ])('derives a literal of %s as const with its type', (_label, value, schema) => {
    expect(codecToJsonSchema(t.literal(value as string))).toEqual(schema)
  })

  it('derives keyof as a string enum of the keys', () => {
    expect(codecToJsonSchema(t.keyof({ red: null, green: null }))).toEqual({ type: 'string', enum: ['red', 'green'] })
  })

  it('derives arrays and readonly arrays with items', () => {
    expect(codecToJsonSchema(t.array(t.number))).toEqual({ type: 'array', items: { type: 'number' } })
    expect(codecToJsonSchema(t.readonlyArray(t.string))).toEqual({ type: 'array', items: { type: 'string' } })
  })

  it('derives a record with string keys as additionalProperties', () => {
    expect(codecToJsonSchema(t.record(t.string, t.number))).toEqual({ type: 'object', additionalProperties: { type: 'number' } })
  })

  it('derives a record with enumerated keys with propertyNames', () => {
    expect(codecToJsonSchema(t.record(t.keyof({ a: null, b: null }), t.boolean))).toEqual({
      type: 'object',
      propertyNames: { type: 'string', enum: ['a', 'b'] },
      additionalProperties: { type: 'boolean' },
    })
  })

  it('derives a tuple as a closed prefixItems array (2020-12)', () => {
    expect(codecToJsonSchema(t.tuple([t.string, t.number]))).toEqual({
      type: 'array',
      prefixItems: [{ type: 'string' }, { type: 'number' }],
      items: false,
      minItems: 2,
      maxItems: 2,
    })
  })

  it('derives a nullable (union with t.null) as anyOf with null', () => {
    expect(codecToJsonSchema(t.union([t.string, t.null]))).toEqual({ anyOf: [{ type: 'string' }, { type: 'null' }] })
  })

  it('derives an optional property (union with t.undefined) as not required', () => {
    expect(codecToJsonSchema(t.type({ a: t.union([t.string, t.undefined]), b: t.number }))).toEqual({
      type: 'object',
      properties: { a: { type: 'string' }, b: { type: 'number' } },
      required: ['b'],
    })
  })

  it('derives exact and strict as additionalProperties: false', () => {
    const closed = { type: 'object', properties: { a: { type: 'string' } }, required: ['a'], additionalProperties: false }
    expect(codecToJsonSchema(t.exact(t.type({ a: t.string })))).toEqual(closed)
    expect(codecToJsonSchema(t.strict({ a: t.string }))).toEqual(closed)
  })

  it('closes exact and strict codecs through readonly, refinements, intersections and exact members', () => {
    const closed = { type: 'object', properties: { a: { type: 'string' }, b: { type: 'number' } }, required: ['a'], additionalProperties: false }
    expect(codecToJsonSchema(t.exact(t.intersection([t.type({ a: t.string }), t.partial({ b: t.number })])))).toEqual(closed)
    // an exact member of an intersection does not close the whole (io-ts keeps the other members' keys)
    expect(codecToJsonSchema(t.intersection([t.strict({ a: t.string }), t.partial({ b: t.number })]))).toEqual({ ...closed, additionalProperties: undefined })
    expect(codecToJsonSchema(t.readonly(t.strict({ a: t.string })))).toMatchObject({ additionalProperties: false })
    expect(codecToJsonSchema(t.exact(t.readonly(t.type({ a: t.string }))))).toMatchObject({ additionalProperties: false })
    expect(codecToJsonSchema(t.exact(t.refinement(t.type({ a: t.string }), (x) => x.a !== '')))).toMatchObject({ additionalProperties: false })
  })

  it('closes an exact intersection that stays allOf by naming its members\' properties beside additionalProperties', () => {
    const Named = withSchema(t.type({ a: t.string }), { type: 'object', description: 'named', properties: { a: { type: 'string' } }, required: ['a'] })
    const schema = codecToJsonSchema(t.exact(t.intersection([Named, t.type({ b: t.number })])))
    expect(schema).toEqual({
      allOf: [{ type: 'object', description: 'named', properties: { a: { type: 'string' } }, required: ['a'] }, { type: 'object', properties: { b: { type: 'number' } }, required: ['b'] }],
      properties: { a: {}, b: {} },
      additionalProperties: false,
    })
    // a closed allOf still accepts its own properties and refuses any other
    const v = validatorOf(t.exact(t.intersection([Named, t.type({ b: t.number })])))
    expect(E.isRight(v.decode({ a: 'x', b: 1 }))).toBe(true)
    expect(issues(v.decode({ a: 'x', b: 1, c: true }))).toEqual([{ path: '/c', message: 'is not allowed' }])
  })

  it('derives readonly as the schema of the inner codec', () => {
    expect(codecToJsonSchema(t.readonly(t.type({ a: t.string })))).toEqual(codecToJsonSchema(t.type({ a: t.string })))
  })

  it('derives a refinement other than Int as its base type', () => {
    const positive = t.brand(t.number, (n): n is t.Branded<number, { readonly Positive: unique symbol }> => n > 0, 'Positive')
    expect(codecToJsonSchema(positive)).toEqual({ type: 'number' })
  })

  it('uses the schema attached with withSchema, also inside other codecs', () => {
    const Hex = withSchema(
      new t.Type<string, string, unknown>('Hex', (u): u is string => typeof u === 'string', (u, c) => (typeof u === 'string' && /^[0-9a-f]+$/.test(u) ? t.success(u) : t.failure(u, c)), (a) => a),
      { type: 'string', pattern: '^[0-9a-f]+$' },
    )
    expect(codecToJsonSchema(Hex)).toEqual({ type: 'string', pattern: '^[0-9a-f]+$' })
    expect(codecToJsonSchema(t.type({ h: Hex }))).toEqual({
      type: 'object',
      properties: { h: { type: 'string', pattern: '^[0-9a-f]+$' } },
      required: ['h'],
    })
  })

  it('derives an unknown custom codec as the accept-all schema', () => {
    const custom = new t.Type<number, number, unknown>('Even', (u): u is number => typeof u === 'number' && u % 2 === 0, (u, c) => (typeof u === 'number' && u % 2 === 0 ? t.success(u) : t.failure(u, c)), (a) => a)
    expect(codecToJsonSchema(custom)).toEqual({})
  })

  it('derives DateFromISOString as a date-time string', () => {
    expect(codecToJsonSchema(DateFromISOString)).toEqual({ type: 'string', format: 'date-time' })
  })
})

describe('schema: DateFromISOString', () => {
  it('decodes an RFC 3339 string into a Date and encodes it back', () => {
    const d = DateFromISOString.decode('2025-11-25T12:30:00Z')
    expect(E.isRight(d) && d.right instanceof Date && d.right.getTime()).toBe(Date.UTC(2025, 10, 25, 12, 30))
    expect(DateFromISOString.encode(new Date(Date.UTC(2025, 10, 25, 12, 30)))).toBe('2025-11-25T12:30:00.000Z')
  })

  it('refuses non-strings and invalid dates', () => {
    expect(E.isLeft(DateFromISOString.decode(17))).toBe(true)
    expect(E.isLeft(DateFromISOString.decode('not a date'))).toBe(true)
    expect(DateFromISOString.is(new Date(Number.NaN))).toBe(false)
  })
})

describe('schema: validators of io-ts codecs', () => {
  const Event = t.type({ at: DateFromISOString, n: t.Int })
  const v = validatorOf(Event)

  it('exposes the derived JSON Schema', () => {
    expect(v.schema).toEqual({
      type: 'object',
      properties: { at: { type: 'string', format: 'date-time' }, n: { type: 'integer' } },
      required: ['at', 'n'],
    })
  })

  it('validates the wire value, then decodes a date-time string into a Date', () => {
    const r = v.decode({ at: '2024-02-29T00:00:00Z', n: 3 })
    expect(E.isRight(r)).toBe(true)
    const value = (r as E.Right<{ at: Date; n: number }>).right
    expect(value.at).toBeInstanceOf(Date)
    expect(value.at.toISOString()).toBe('2024-02-29T00:00:00.000Z')
    expect(value.n).toBe(3)
  })

  it('reports wire failures with JSON-pointer paths', () => {
    expect(issues(v.decode({ at: 'tomorrow', n: 1.5 }))).toEqual(
      expect.arrayContaining([expect.objectContaining({ path: '/at' }), { path: '/n', message: 'must be integer' }]),
    )
  })

  it('encodes a Date back into its ISO string and checks the wire value', () => {
    expect(v.encode({ at: new Date(Date.UTC(2024, 0, 1)), n: 1 })).toEqual(E.right({ at: '2024-01-01T00:00:00.000Z', n: 1 }))
  })

  it('refuses to encode a value the codec does not accept, naming the path', () => {
    const found = issues(v.encode({ at: 'not a date', n: 1 }))
    expect(found.map((i) => i.path)).toContain('/at')
  })

  it('reports a failure that only the codec sees at the data path, skipping union member keys', () => {
    const positive = t.brand(t.number, (n): n is t.Branded<number, { readonly Positive: unique symbol }> => n > 0, 'Positive')
    const w = validatorOf(t.type({ a: t.union([positive, t.string]) }))
    const found = issues(w.decode({ a: -1 }))
    expect(found.length).toBeGreaterThan(0)
    for (const i of found) expect(i.path).toBe('/a')
    expect(found.map((i) => i.message)).toContain('must be Positive')
  })

  it('reports an encoder that throws as an issue instead of throwing', () => {
    const Boom = new t.Type<string, string, unknown>('Boom', (u): u is string => typeof u === 'string', (u, c) => (typeof u === 'string' ? t.success(u) : t.failure(u, c)), () => {
      throw new Error('cannot')
    })
    const found = issues(validatorOf(t.type({ b: Boom })).encode({ b: 'x' }))
    expect(found).toEqual([{ path: '', message: 'cannot be encoded: cannot' }])
  })
})

describe('schema: checkInput and checkOutput (the Either-free checks of a slot without codec)', () => {
  const schema = { type: 'object', properties: { a: { type: 'number' }, n: { type: 'integer', default: 3 } }, required: ['a'] } as const

  it('agree with decode and encode, and fill defaults in place on input', () => {
    const v = validatorOf(schema)
    const input: { a: unknown; n?: number } = { a: 1 }
    expect(v.checkInput?.(input)).toBeUndefined()
    expect(input).toEqual({ a: 1, n: 3 })
    expect(v.checkInput?.({ a: 'x' })).toEqual(issues(v.decode({ a: 'x' })))
    expect(v.checkInput?.({ a: 'x' })?.[0]?.path).toBe('/a')
    const output = { a: 2 }
    expect(v.checkOutput?.(output)).toBeUndefined()
    expect(output).toEqual({ a: 2 })
    expect(v.checkOutput?.({})).toEqual(issues(v.encode({})))
  })

  it('keep no state from one check to the next, nor when a check is entered again while one runs', () => {
    const v = validatorOf(schema)
    expect(v.checkOutput?.({ a: 'x' })?.map((i) => i.path)).toEqual(['/a'])
    expect(v.checkOutput?.({ a: 1 })).toBeUndefined()
    let inner: ReadonlyArray<Issue> | undefined
    // a result whose getter checks another value with the same validator while the first check runs
    const value = {
      get a(): unknown {
        inner = v.checkOutput?.({ a: 'inner' })
        return 'outer'
      },
    }
    expect(v.checkOutput?.(value)).toEqual([{ path: '/a', message: expect.any(String) }])
    expect(inner).toEqual([{ path: '/a', message: expect.any(String) }])
    expect(v.checkOutput?.({ a: 2 })).toBeUndefined()
  })

  it('are absent for a codec, whose decoded value differs from the wire value', () => {
    const v = validatorOf(t.type({ at: DateFromISOString }))
    expect(v.checkInput).toBeUndefined()
    expect(v.checkOutput).toBeUndefined()
  })
})
