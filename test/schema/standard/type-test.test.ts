import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import * as zm from 'zod/mini'
import * as v from 'valibot'
import { type } from 'arktype'
import { toStandardJsonSchema } from '@valibot/to-json-schema'
import { typeTestOf } from '../../../src/schema/standard/type-test.js'
import type { StandardSchemaV1 } from '../../../src/schema/standard/spec.js'

// values a client or a handler may give: JSON's and those only JavaScript has
const values: ReadonlyArray<unknown> = [
  0, -0, 1, 1.5, -2, 2 ** 60, Number.MAX_VALUE, Number.MIN_VALUE, NaN, Infinity, -Infinity,
  '', 'a', 'é', '𝄞', '\uD800', 'x'.repeat(10_000), '1', 'true',
  true, false, null, undefined, {}, [], [1], { a: 1 }, 1n, Symbol('s'), () => 1,
  new Number(1), new String('x'), new Boolean(true), new Date(0),
]

/** What zod itself makes of `x`: passed unchanged, or not. */
const zodPasses = (s: StandardSchemaV1, x: unknown): boolean => {
  const r = s['~standard'].validate(x) as { value?: unknown; issues?: unknown }
  return r.issues === undefined && Object.is(r.value, x)
}

describe('emcp\'s own type test of a library schema', () => {
  it('knows plain zod 4 strings, numbers and booleans (described or not, optional or not, zod/mini too), passing exactly what zod passes unchanged', () => {
    const plain: ReadonlyArray<readonly [StandardSchemaV1, string, boolean?]> = [
      [z.string(), 'string'],
      [z.number(), 'number'],
      [z.boolean(), 'boolean'],
      [z.number().describe('First addend'), 'number'],
      [z.string().meta({ title: 'T' }), 'string'],
      [z.number().brand('Cents'), 'number'],
      [z.number().finite(), 'number'], // zod 4's numbers are always finite: .finite() adds no check
      [zm.string(), 'string'],
      [zm.number(), 'number'],
      [z.string().optional(), 'string', true],
      [z.number().describe('n').optional(), 'number', true],
      [z.boolean().optional().describe('b'), 'boolean', true],
      [zm.optional(zm.string()), 'string', true],
    ]
    for (const [s, t, optional = false] of plain) {
      const known = typeTestOf(s)
      expect(known?.type).toBe(t)
      expect(known?.optional).toBe(optional)
      for (const x of values) expect([t, x, known?.test(x)]).toEqual([t, x, zodPasses(s, x)])
    }
  })

  it('has no test for a schema that does more than test a type: checks, refinements, formats, coercion, defaults, transforms, wrappers', () => {
    const more: ReadonlyArray<StandardSchemaV1> = [
      z.number().int(), z.int(), z.number().positive(), z.number().min(0),
      z.number().refine((n) => n !== 13, 'unlucky'), z.number().superRefine(() => undefined), z.number().check(() => undefined),
      z.string().min(1), z.string().max(3), z.string().length(2), z.string().regex(/a/), z.string().trim(), z.string().toLowerCase(),
      z.email(), z.uuid(), z.iso.datetime(), z.string().email(),
      z.coerce.number(), z.coerce.string(), z.coerce.boolean(), z.stringbool(),
      z.number().default(1), z.number().nullable(), z.number().int().optional(), z.number().optional().optional(),
      z.number().default(1).optional(), z.number().exactOptional(), z.number().optional().refine(() => true), z.coerce.number().optional(), z.number().catch(0), z.number().readonly(),
      z.string().transform((s) => s.length), z.string().pipe(z.string()), z.literal(3), z.enum(['a']), z.nan(), z.bigint(), z.any(), z.unknown(),
      z.number().overwrite((n) => n + 1), zm.number().check(zm.minimum(0)),
    ]
    for (const s of more) expect(typeTestOf(s)).toBeUndefined()
  })

  it('has none for other libraries, nor for a zod schema whose validate was replaced by one that answers otherwise', () => {
    expect(typeTestOf(toStandardJsonSchema(v.string()))).toBeUndefined()
    expect(typeTestOf(type('string'))).toBeUndefined()
    const replaced = z.number()
    Object.defineProperty(replaced, '~standard', { value: { version: 1, vendor: 'zod', validate: (x: unknown) => ({ value: typeof x === 'number' ? x * 2 : x }) } })
    expect(typeTestOf(replaced)).toBeUndefined()
    const lenient = z.number()
    Object.defineProperty(lenient, '~standard', { value: { version: 1, vendor: 'zod', validate: (x: unknown) => ({ value: x }) } })
    expect(typeTestOf(lenient)).toBeUndefined()
  })
})
