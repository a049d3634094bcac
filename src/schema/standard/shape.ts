/**
 * Raw shapes of Standard Schemas, as the official SDK's `registerTool` takes them:
 * `{ title: z.string(), n: z.number().int().optional() }`. A shape is made into one Standard
 * Schema of an object, validated property by property through each `~standard.validate`
 * (issues at `/title`), with a JSON Schema assembled from each property's Standard JSON Schema.
 * arktype spells an optional or defaulted property as a tuple around the schema
 * (`type('string').optional()` is `[schema, '?']`, `.default(5)` is `[schema, '=', 5]`), as its
 * own `type({ ... })` reads them: a shape reads them the same way.
 *
 * The rule that tells a shape from a JSON Schema literal: a shape is a plain object with at
 * least one key, every value of which is a Standard Schema; a literal's values are keyword
 * values (`type` is a string), never schemas. An object mixing the two is neither, and is refused.
 *
 * Unknown keys are refused (as an object schema with `additionalProperties: false` would, which
 * is what the published schema says), where the SDK's zod objects strip them: a misspelt
 * argument name is then an error the model can correct, rather than an argument silently lost.
 *
 * @example
 * import { z } from 'zod'
 * import { shapeSchema } from './shape.js'
 * const s = shapeSchema({ title: z.string(), n: z.number().optional() })
 * s['~standard'].validate({ title: 1 }) // { issues: [{ path: ['title'], message: 'Invalid input: expected string, received number' }] }
 */
import { clip } from '../../util/clip.js'
import { isObject } from '../../util/json-object.js'
import { all, isThenable, map, type Eventually } from '../../util/eventually.js'
import { isStandardSchema } from './detect.js'
import { quickCheckOf, remember } from './quick.js'
import type { StandardIssue, StandardJsonOptions, StandardResult, StandardSchemaV1, StandardTypedV1 } from './spec.js'

// ---------------------------------------------------------------------------------------
// model

/**
 * A raw shape: property name -> Standard Schema (zod, valibot, arktype, effect). The symbol
 * index signature keeps out TypeBox's schemas (JSON Schema literals with a `[Kind]` symbol),
 * whose index signature of `any` would otherwise pass for one.
 */
export interface StandardShape {
  readonly [key: string]: ShapeValue | OptionalEntry | DefaultedEntry
  readonly [key: symbol]: never
}

/**
 * arktype's optional property, `type('string').optional()` (`[schema, '?']`): the key may be
 * left out. Written as an array with a `1` rather than as a tuple: a tuple type (one with a
 * `0`) in the shape's index signature made every array in a JSON Schema literal (`required`)
 * a tuple in the compiler's eyes, about 12 instantiations per tool more.
 */
export type OptionalEntry = ReadonlyArray<ShapeValue | '?'> & { readonly 1: '?' }

/** arktype's defaulted property, `type('number').default(5)` (`[schema, '=', value]`): an absent key takes the (input) value. */
export type DefaultedEntry = ReadonlyArray<unknown> & { readonly 1: '=' }

/** What a raw shape holds at run time for one property: a Standard Schema, or one in arktype's optional or defaulted tuple. */
export type ShapeEntry = StandardSchemaV1 | readonly [StandardSchemaV1, '?'] | readonly [StandardSchemaV1, '=', unknown]

/**
 * What the compiler asks of a shape's value: a `~standard` of any type. Relating to anything
 * more (a version, `validate`, types) makes the compiler build zod's input and output types
 * for every property (`~standard` is an alias of both), about 150 instantiations per tool at
 * 300 tools; relating to `unknown` reads nothing. A value that is not a Standard Schema v1 is
 * refused when the contract is made, and its type is `never`.
 */
export interface ShapeValue {
  readonly '~standard': unknown
}

/** zod's own types, read directly: the same as its `~standard` types, without building both directions. */
interface ZodTyped {
  readonly _zod: { readonly input: unknown; readonly output: unknown }
}

/** A shape of zod schemas only: each value's types read from `_zod`, with no test per property (`FastFromSchema` tests it first). */
export interface ZodShape {
  readonly [key: string]: ZodTyped
  readonly [key: symbol]: never // TypeBox's schemas (an index signature of `any`, a `[Kind]` symbol) are not shapes
}

/**
 * Each property's type in direction `D` (required, `| undefined` where its schema takes it).
 * A shape of zod schemas (one relation test for the whole shape) is mapped by indexed access
 * alone: a conditional per property cost about 25 instantiations per tool more on the bench's
 * 300 tools. Other libraries' shapes are read through `~standard` property by property.
 */
type Each<S extends StandardShape, D extends 'input' | 'output'> = S extends ZodShape
  ? D extends 'output' ? ZodOutputs<S> : ZodInputs<S>
  : { -readonly [K in keyof S]: S[K] extends StandardTypedV1 ? NonNullable<S[K]['~standard']['types']>[D] : EntryType<S[K], D> }

/**
 * The type of arktype's tuple entry in direction `D`: an optional property takes `undefined`
 * both ways (so it is optional for callers and `| undefined` in the handler); a defaulted one
 * only in the input direction (the handler always gets a value).
 */
type EntryType<E, D extends 'input' | 'output'> = E extends readonly [infer T extends StandardTypedV1, infer M, ...unknown[]]
  ? NonNullable<T['~standard']['types']>[D] | (M extends '?' ? undefined : D extends 'input' ? undefined : never)
  : never

/** The output type of each property of a zod shape (one mapping per direction: a direction parameter costs a substitution per property). */
export type ZodOutputs<S extends ZodShape> = { -readonly [K in keyof S]: S[K]['_zod']['output'] }

/** The input type of each property of a zod shape. */
export type ZodInputs<S extends ZodShape> = { -readonly [K in keyof S]: S[K]['_zod']['input'] }

/**
 * `T` with the properties whose type takes `undefined` made optional: the required ones (one
 * key-remapped mapping) over every one optional (homomorphic, cheap); no flattening. Measured
 * cheapest of those tried (two key-remapped halves: +10 per tool; flattened: +60). A shape
 * none of whose properties takes `undefined` (one test of the union of their types) is
 * itself: -40 per tool on the bench's 300 tools.
 */
export type Optionalized<T> = undefined extends T[keyof T] ? { [K in keyof T as undefined extends T[K] ? never : K]: T[K] } & { [K in keyof T]?: T[K] } : T

/**
 * The static type of shape `S` in direction `D`. The input direction (what callers send, what
 * a handler returns) has its optional properties optional; the output direction (what the
 * handler reads, what clients get) keeps every key, `| undefined` where the schema takes it,
 * which reads the same and costs the compiler about a third less (docs/type-performance.md).
 */
export type ShapeType<S extends StandardShape, D extends 'input' | 'output'> = D extends 'output' ? Each<S, D> : Optionalized<Each<S, D>>

// ---------------------------------------------------------------------------------------
// functions

/** True when `u` is a raw shape: a plain object (not itself a schema) with at least one key, every value a Standard Schema (or one in arktype's optional or defaulted tuple). */
export const isShape = (u: unknown): u is Record<string, ShapeEntry> => {
  if (!isObject(u) || isStandardSchema(u)) return false
  // a loop over own keys, not Object.keys(u).every: this runs for every slot of every contract
  let some = false
  for (const k in u) {
    if (!Object.hasOwn(u, k)) continue
    if (!isEntry(u[k])) return false
    some = true
  }
  return some
}

/** True for a Standard Schema, or for arktype's `[schema, '?']` and `[schema, '=', value]`. */
const isEntry = (v: unknown): v is ShapeEntry =>
  isStandardSchema(v) || (Array.isArray(v) && isStandardSchema(v[0]) && ((v.length === 2 && v[1] === '?') || (v.length === 3 && v[1] === '=')))

/**
 * Why `u`, an object some of whose values carry `~standard`, is not a raw shape (naming the
 * first property that is no Standard Schema v1), or undefined when it is one or has no such
 * value: an object mixing schemas with anything else is neither a shape nor a declaration.
 */
export const mixedShape = (u: unknown): string | undefined => {
  if (!isObject(u) || isStandardSchema(u)) return undefined
  const keys = Object.keys(u)
  if (!keys.some((k) => carries(u[k]) || isEntry(u[k]))) return undefined
  const odd = keys.find((k) => !isEntry(u[k]))
  if (odd === undefined) return undefined
  const v = u[odd]
  const what = carries(v)
    ? 'carries "~standard" but is not a Standard Schema v1 (version 1 with a validate function)'
    : Array.isArray(v) && isStandardSchema(v[0])
      ? "is a tuple around a schema that is neither arktype's .optional() ([schema, '?']) nor its .default(value) ([schema, '=', value])"
      : 'is not a schema'
  return `property ${JSON.stringify(clip(odd, 64))} ${what}: a raw shape has a Standard Schema as every value ({ name: z.string(), count: z.number().optional() })`
}

/** The vendor a shape's own Standard Schema names, so that messages can say "the shape". */
export const shapeVendor = 'emcp-shape'

/** `u` itself, or the Standard Schema of its object when it is a raw shape: what a contract keeps as its slot. */
export const slotOf = (u: unknown): unknown => (isShape(u) ? shapeSchema(u) : u)

/**
 * The Standard Schema of the object shape `entries` describes (see the header). Which properties
 * are optional is asked of each schema once, here: one whose `validate(undefined)` answers at
 * once without issues may be left out (on the wire its output, a default, may still be present);
 * so may arktype's optional and defaulted entries. A default given as a function (arktype's
 * form for objects and arrays) is called for each call that leaves the key out.
 */
export const shapeSchema = (entries: Record<string, ShapeEntry>): StandardSchemaV1 => {
  const keys = Object.keys(entries)
  const shape: Record<string, StandardSchemaV1> = Object.fromEntries(keys.map((k) => [k, schemaOf(entries[k]!)]))
  const missing = new Map(keys.map((k) => [k, absentOf(entries[k]!)] as const))
  const known = new Set(keys)
  // arrays in key order, read by index on every call (no map lookups, no closure per call)
  const schemas = keys.map((k) => shape[k]!)
  const absents = keys.map((k) => whenAbsent(entries[k]!, missing.get(k)))
  const quick = quickCheckOf(keys, entries, known)
  const validate = (value: unknown): Eventually<StandardResult<unknown>> => {
    if (!isObject(value)) return { issues: [{ message: `expected an object, received ${value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value}`, path: [] }] }
    // every property a plain type (z.number(), ...) and the value passes emcp's own tests: the libraries would give it back as it is
    const passed = quick?.copy(value)
    if (passed !== undefined) return { value: passed }
    let extra: StandardIssue[] | undefined
    for (const k in value) if (Object.hasOwn(value, k) && !known.has(k)) (extra ??= []).push({ message: 'is not a known property', path: [k] })
    if (extra !== undefined) return { issues: extra }
    const results: Array<Eventually<StandardResult<unknown>>> = new Array(keys.length)
    let waiting = false
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i]!
      const r = Object.hasOwn(value, k) ? runOne(schemas[i]!, value[k]) : absents[i]!()
      if (isThenable(r)) waiting = true
      results[i] = r
    }
    // every schema answered at once (zod, valibot, arktype without async refinements): no promise
    return waiting ? map(all(results), (rs) => merged(keys, rs)) : merged(keys, results as ReadonlyArray<StandardResult<unknown>>)
  }
  const defaults = new Map(keys.flatMap((k) => { const e = entries[k]!; return isDefaulted(e) ? [[k, defaultOf(e)] as const] : [] }))
  const json = (direction: 'input' | 'output') => (options: StandardJsonOptions) => shapeJson(shape, keys, missing, direction, options, defaults)
  return remember(quick, {
    '~standard': {
      version: 1,
      vendor: shapeVendor,
      validate: validate as StandardSchemaV1['~standard']['validate'],
      jsonSchema: { input: json('input'), output: json('output') },
    } as StandardSchemaV1['~standard'],
  })
}

// ---------------------------------------------------------------------------------------
// internals

/** True for an object or function with a `~standard` key (an `in` test: no getter runs). */
const carries = (v: unknown): boolean => (typeof v === 'object' || typeof v === 'function') && v !== null && '~standard' in v

/** The schema of an entry. */
const schemaOf = (e: ShapeEntry): StandardSchemaV1 => (isStandardSchema(e) ? e : e[0])

/** True for arktype's `[schema, '=', value]`. */
const isDefaulted = (e: ShapeEntry): e is readonly [StandardSchemaV1, '=', unknown] => !isStandardSchema(e) && e[1] === '='

/** The (input) value of a defaulted entry: arktype takes a function for an object or array default, called for a fresh value each time. */
const defaultOf = (e: readonly [StandardSchemaV1, '=', unknown]): unknown => (typeof e[2] === 'function' ? (e[2] as () => unknown)() : e[2])

/**
 * What an absent key is known to give when the contract is made, which says whether it may be
 * left out: nothing for arktype's optional entry; the default for a defaulted one; otherwise
 * what the schema makes of `undefined`.
 */
const absentOf = (e: ShapeEntry): StandardResult<unknown> | undefined => {
  if (isStandardSchema(e)) return absentValue(e, undefined)
  return e[1] === '?' ? { value: undefined } : { value: defaultOf(e as readonly [StandardSchemaV1, '=', unknown]) }
}

/**
 * What an absent key gives at each call: a defaulted entry's default validated afresh (its
 * morphs apply, as in arktype's own object, and no call shares another's object); otherwise
 * what is known from when the contract was made, or (an async schema) asked again.
 */
const whenAbsent = (e: ShapeEntry, known: StandardResult<unknown> | undefined): (() => Eventually<StandardResult<unknown>>) => {
  if (isDefaulted(e)) return () => runOne(e[0], defaultOf(e))
  return known !== undefined ? () => known : () => runOne(schemaOf(e), undefined)
}

/** What validating `v` gives, when it answers at once (an async schema: undefined, asked per call). */
const absentValue = (s: StandardSchemaV1, v: unknown): StandardResult<unknown> | undefined => {
  try {
    const r = s['~standard'].validate(v)
    return isThenable(r) ? (Promise.resolve(r).catch(() => undefined), undefined) : r
  } catch {
    return undefined
  }
}

/** One property's result, a throw made an issue. */
const runOne = (s: StandardSchemaV1, v: unknown): Eventually<StandardResult<unknown>> => {
  try {
    return s['~standard'].validate(v)
  } catch (e) {
    return { issues: [{ message: `the schema failed: ${e instanceof Error ? e.message : String(e)}` }] }
  }
}

/** The properties' results as the object's: every issue under its property, or the values (an absent output left out). */
const merged = (keys: ReadonlyArray<string>, rs: ReadonlyArray<StandardResult<unknown>>): StandardResult<unknown> => {
  let issues: StandardIssue[] | undefined
  const out: Record<string, unknown> = {}
  for (let i = 0; i < rs.length; i++) {
    const r = rs[i]
    const k = keys[i]!
    if (typeof r !== 'object' || r === null) (issues ??= []).push({ message: 'the schema library gave no result', path: [k] })
    else if (r.issues) for (const issue of r.issues) (issues ??= []).push({ message: issue.message, path: [k, ...(Array.isArray(issue.path) ? issue.path : [])] })
    else if (r.value !== undefined) out[k] = r.value
  }
  return issues !== undefined ? { issues } : { value: out }
}

/** `v` as JSON would carry it, or undefined when it has no JSON form (a function, a bigint, a cycle). */
const jsonValue = (v: unknown): unknown => {
  try {
    const text = JSON.stringify(v)
    return text === undefined ? undefined : JSON.parse(text)
  } catch {
    return undefined
  }
}

/** The object's JSON Schema: each property's own in `direction`; required the properties that are always there in that direction. */
const shapeJson = (
  shape: Record<string, StandardSchemaV1>,
  keys: ReadonlyArray<string>,
  missing: ReadonlyMap<string, StandardResult<unknown> | undefined>,
  direction: 'input' | 'output',
  options: StandardJsonOptions,
  defaults: ReadonlyMap<string, unknown>,
): Record<string, unknown> => {
  const properties: Record<string, unknown> = {}
  const required: string[] = []
  for (const k of keys) {
    const converter = (shape[k]!['~standard'] as { readonly jsonSchema?: { readonly input?: unknown; readonly output?: unknown } }).jsonSchema
    const convert = converter?.[direction]
    if (typeof convert !== 'function') throw new TypeError(`property ${JSON.stringify(k)} (${String(shape[k]!['~standard'].vendor)}) has no JSON Schema form (Standard JSON Schema, "~standard.jsonSchema")`)
    let own: unknown
    try {
      own = (convert as (o: StandardJsonOptions) => unknown)(options)
    } catch (e) {
      throw new TypeError(`property ${JSON.stringify(k)}: ${e instanceof Error ? e.message : String(e)}`)
    }
    const { $schema: _, ...rest } = isObject(own) ? own : {}
    // arktype's default lives in the entry, not in the schema: the input direction says it, as zod's `.default()` does
    const given = direction === 'input' && defaults.has(k) && !('default' in rest) ? jsonValue(defaults.get(k)) : undefined
    properties[k] = given === undefined ? rest : { ...rest, default: given }
    const absent = missing.get(k)
    const optional = absent !== undefined && !absent.issues && (direction === 'input' || absent.value === undefined)
    if (!optional) required.push(k)
  }
  return { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', properties, ...(required.length > 0 ? { required } : {}), additionalProperties: false }
}
