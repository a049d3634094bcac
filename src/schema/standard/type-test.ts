/**
 * emcp's own test for a library schema that does nothing but test a value's type: zod 4's
 * plain `z.string()`, `z.number()` and `z.boolean()` (described or not), and their plain
 * `.optional()`, with no check, refinement, transform, default, coercion or format. What such a schema accepts it gives
 * back unchanged, so a value the test passes is one the library's `~standard.validate` would
 * pass as it is, and a raw shape of them (shape.ts) can skip the library's payloads, issue
 * arrays and result objects on the common, valid call. The test never refuses in the
 * library's stead: a value it does not pass goes to the library, for the library's verdict,
 * output and messages. Any other schema (another library, zod 3, a refined or coerced zod
 * schema) gets no test, and is always asked of its library.
 *
 * @example
 * import { z } from 'zod'
 * import { typeTestOf } from './type-test.js'
 * typeTestOf(z.number())?.test(1.5)        // true: z.number() gives 1.5 back
 * typeTestOf(z.number())?.test(Infinity)   // false: z.number() refuses it (asked of zod, for its message)
 * typeTestOf(z.number().int())         // undefined: a check, so zod decides every value
 */
import type { StandardSchemaV1 } from './spec.js'

// ---------------------------------------------------------------------------------------
// model

/** A schema's type test: the JSON type it tests, whether it takes `undefined` too, and the test. */
export interface TypeTest {
  /** The JSON Schema `type` of the values the test passes (all of them but `undefined`). */
  readonly type: 'string' | 'number' | 'boolean'
  /** True for `.optional()`: `undefined` passes (given back as it is), and a property may be left out. */
  readonly optional: boolean
  /** True only for a value the schema's own validate gives back unchanged, without issues. */
  readonly test: (v: unknown) => boolean
}

// ---------------------------------------------------------------------------------------
// functions

/**
 * The type test of `s`, or undefined when `s` may do more than test a type (or is not a
 * schema this module knows). Known: zod 4 (also zod/mini) `string`, `number` and `boolean`
 * schemas whose parse runs alone (zod installs a check runner for any check or refinement),
 * not coerced, not a format (`z.int()`, `z.email()` are checks too), and `.optional()` around
 * one. The library is then asked once about a value the test passes, one it refuses, and
 * `undefined`: a schema whose validate was replaced and answers otherwise gets no test.
 */
export const typeTestOf = (s: StandardSchemaV1): TypeTest | undefined => {
  const known = s['~standard'].vendor === 'zod' ? zodTypeOf((s as { readonly _zod?: unknown })._zod) : undefined
  if (known === undefined) return undefined
  const [type, optional] = known
  const [base, sample] = tests[type]
  const test = optional ? (v: unknown) => v === undefined || base(v) : base
  const consistent = agrees(s, sample, true) && agrees(s, null, false) && agrees(s, undefined, optional)
  return consistent ? { type, optional, test } : undefined
}

// ---------------------------------------------------------------------------------------
// internals

type Known = TypeTest['type']

/**
 * Each known type's test and a value it passes. zod's number refuses NaN and ±Infinity (as
 * JSON has no such numbers); its string takes any string, lone surrogates too; its boolean
 * only `true` and `false`.
 */
const tests: { readonly [K in Known]: readonly [TypeTest['test'], unknown] } = {
  string: [(v) => typeof v === 'string', ''],
  number: [(v) => typeof v === 'number' && Number.isFinite(v), 0],
  boolean: [(v) => typeof v === 'boolean', false],
}

/** zod 4's internals a schema carries under `_zod` (read, never relied on beyond this module). */
interface ZodInternals {
  readonly def?: { readonly type?: unknown; readonly checks?: ReadonlyArray<unknown>; readonly coerce?: unknown; readonly format?: unknown; readonly innerType?: unknown }
  readonly traits?: unknown
  readonly version?: { readonly major?: unknown }
  readonly run?: unknown
  readonly parse?: unknown
}

/**
 * The type a plain zod 4 schema (its `_zod`) tests, and whether it is that type's plain
 * `.optional()` (zod's parse then gives `undefined` back and hands anything else to the inner
 * schema; not `.exactOptional()`, which refuses `undefined`), or undefined for anything else.
 */
const zodTypeOf = (z: unknown): readonly [Known, boolean] | undefined => {
  const own = plainZod(z)
  if (own === undefined) return undefined
  const { def, traits } = own
  if (def.type === 'optional' && traits.has('$ZodOptional') && !traits.has('$ZodExactOptional')) {
    const inner = plainType((def.innerType as { readonly _zod?: unknown } | undefined)?._zod)
    return inner === undefined ? undefined : [inner, true]
  }
  const type = plainType(z)
  return type === undefined ? undefined : [type, false]
}

/** The type a plain zod 4 string, number or boolean schema tests (its `_zod`), or undefined. */
const plainType = (z: unknown): Known | undefined => {
  const own = plainZod(z)
  if (own === undefined) return undefined
  const { def, traits } = own
  if (def.coerce || def.format !== undefined) return undefined
  if (def.type === 'string' && traits.has('$ZodString')) return 'string'
  if (def.type === 'number' && traits.has('$ZodNumber')) return 'number'
  if (def.type === 'boolean' && traits.has('$ZodBoolean')) return 'boolean'
  return undefined
}

/** zod 4's `_zod` of a schema whose parse runs alone: a check or refinement makes `run` a runner around `parse`; a format is itself a check. */
const plainZod = (z: unknown): { readonly def: NonNullable<ZodInternals['def']>; readonly traits: ReadonlySet<unknown> } | undefined => {
  if (typeof z !== 'object' || z === null) return undefined
  const { def, traits, version, run, parse } = z as ZodInternals
  if (version?.major !== 4 || !(traits instanceof Set) || def === undefined) return undefined
  if (typeof parse !== 'function' || run !== parse || traits.has('$ZodCheck')) return undefined
  return def.checks !== undefined && def.checks.length > 0 ? undefined : { def, traits }
}

/** True when `s` validates `v` at once, and gives it back unchanged when `passes`, else refuses it. */
const agrees = (s: StandardSchemaV1, v: unknown, passes: boolean): boolean => {
  try {
    const r = s['~standard'].validate(v) as { readonly value?: unknown; readonly issues?: unknown; readonly then?: unknown }
    if (typeof r !== 'object' || r === null || typeof r.then === 'function') return false
    return passes ? r.issues === undefined && Object.is(r.value, v) : Array.isArray(r.issues) && r.issues.length > 0
  } catch {
    return false
  }
}
