/**
 * Telling a Standard Schema (or another library's schema object) from a JSON Schema literal
 * at run time (and from effect's, which are functions). A valibot `v.object(...)` has `type: 'object'` and would otherwise pass for a
 * literal: validated by nothing, its internals listed as its schema. So an object carrying
 * `~standard`, zod's `_def`/`_zod`, valibot's `kind`/`expects` or effect's `ast` is never a literal.
 *
 * @example
 * import { isStandardSchema, notALiteral } from './detect.js'
 * isStandardSchema({ '~standard': { version: 1, vendor: 'x', validate: () => ({ value: 1 }) } }) // true
 * notALiteral({ _def: {} }) // 'it is a zod schema without "~standard": use zod 3.24 or later ...'
 */
import { clip } from '../../util/clip.js'
import type { StandardSchemaV1 } from './spec.js'

/** True when `u` is a Standard Schema v1 (a `~standard` object with version 1 and a `validate` function). */
export const isStandardSchema = (u: unknown): u is StandardSchemaV1 => {
  if ((typeof u !== 'object' && typeof u !== 'function') || u === null) return false
  const props = (u as { readonly '~standard'?: unknown })['~standard']
  return typeof props === 'object' && props !== null && (props as { version?: unknown }).version === 1 && typeof (props as { validate?: unknown }).validate === 'function'
}

/**
 * Why a slot value that is not a Standard Schema is not a JSON Schema literal either, or
 * undefined when nothing says it is another library's schema. (`in` tests run no getter.)
 */
export const notALiteral = (u: object): string | undefined => foreignMark(u) ?? foreignProperty(u)

/** The marks of another library's schema on `u` itself (`in` tests: inherited and hidden keys count), or undefined. */
export const foreignMark = (u: object): string | undefined => {
  if ('~standard' in u) return 'it carries "~standard" but is not a Standard Schema v1 (version 1 with a validate function): pass the schema itself, as the library made it'
  if ('_zod' in u || '_def' in u) return 'it is a zod schema without "~standard": use zod 3.24 or later (zod 4.2 or later for its JSON Schema), or write the JSON Schema literal'
  if ('kind' in u && 'expects' in u) return 'it is a valibot schema without "~standard": use valibot 1 and wrap it with toStandardJsonSchema() from @valibot/to-json-schema'
  if (typeof u === 'function' && 'ast' in u) return 'it is an effect schema without "~standard": wrap it with Schema.toStandardJSONSchemaV1(Schema.toStandardSchemaV1(schema))'
  return undefined
}

/**
 * True for a value that is a schema of another library (or arktype's tuple around one that is
 * no entry of its): at the root of a literal, it says the whole is not one (see notALiteral).
 */
export const foreignValue = (v: unknown): boolean => ((typeof v === 'object' && v !== null) || typeof v === 'function') && (oddTuple(v) || isStandardSchema(v))

/** Why a property of `u` says it is not a literal: a tuple around a schema, or a schema of its own; undefined when none does. */
const foreignProperty = (u: object): string | undefined => {
  // one pass over the keys for both questions (this runs for every slot of every contract); the tuple is named first
  let tupled: string | undefined
  let shaped: string | undefined
  for (const k in u) {
    if (!Object.hasOwn(u, k)) continue
    const v = (u as Record<string, unknown>)[k]
    // a scalar is neither (most keys of a literal: type, description), and asks nothing more
    if ((typeof v !== 'object' && typeof v !== 'function') || v === null) continue
    if (tupled === undefined && oddTuple(v)) tupled = k
    if (shaped === undefined && isStandardSchema(v)) shaped = k
  }
  if (tupled !== undefined) return `its property ${JSON.stringify(clip(tupled, 64))} is a tuple around a schema that is neither arktype's .optional() ([schema, '?']) nor its .default(value) ([schema, '=', value])`
  if (shaped !== undefined) return `its property ${JSON.stringify(clip(shaped, 64))} is a schema of its own: a shape (as the official SDK takes) has a Standard Schema as every value, and a JSON Schema literal none: make every property a schema, or write the whole literal`
  return undefined
}

/** True for an array around a schema that is not one of arktype's entries (`[schema, '?']`, `[schema, '=', value]`). */
const oddTuple = (v: unknown): boolean => Array.isArray(v) && isStandardSchema(v[0]) && !((v.length === 2 && v[1] === '?') || (v.length === 3 && v[1] === '='))
