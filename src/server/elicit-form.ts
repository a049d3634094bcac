/**
 * An elicitation form given as a Standard Schema (zod, valibot, arktype, effect), or a raw
 * shape of them (`{ name: z.string() }`, each property checked by its own library): the flat
 * `requestedSchema` MCP sends, written by the library (input direction) and checked to be an
 * object of primitive properties once per schema object, and the check of the user's
 * answer through the library's own `~standard.validate` (its defaults and transforms apply).
 *
 * @example
 * import { z } from 'zod'
 * import { elicitForm } from './elicit-form.js'
 * elicitForm('Your name?', z.object({ name: z.string(), age: z.number().optional() })).requestedSchema
 * // { type: 'object', properties: { name: { type: 'string' }, age: { type: 'number' } }, required: ['name'] }
 */
import * as E from 'fp-ts/lib/Either.js'
import { clip } from '../util/clip.js'
import type { Eventually } from '../util/eventually.js'
import type { Issue, JsonSchema } from '../schema/schema.js'
import { flatForm, primitiveProperty } from '../schema/standard/flat-form.js'
import { isShape, mixedShape, shapeSchema } from '../schema/standard/shape.js'
import type { StandardSchemaV1 } from '../schema/standard/spec.js'
import { standardValidator } from '../schema/standard/validator.js'

/** A form to send and the check of its answer. */
export interface ElicitForm {
  /** The flat object schema sent as `requestedSchema`. */
  readonly requestedSchema: JsonSchema
  /** Checks the user's content and gives the library's output. */
  readonly decode: (content: unknown) => Eventually<E.Either<ReadonlyArray<Issue>, unknown>>
}

/**
 * The form of `given` (a Standard Schema, or a raw shape of them), asked with `message`; a
 * TypeError naming the property MCP cannot ask for, or the value of a mixed shape that is no schema.
 */
export const elicitForm = (message: string, given: StandardSchemaV1 | object): ElicitForm => {
  const known = forms.get(given)
  if (known !== undefined) return known
  const owner = `form ${JSON.stringify(clip(String(message), 64))}`
  const mixed = mixedShape(given)
  if (mixed !== undefined) throw new TypeError(`emcp: ctx.elicit ${owner}: the shape's ${mixed}; or pass a JSON Schema form { type: 'object', properties }`)
  const spec = isShape(given) ? shapeSchema(given) : (given as StandardSchemaV1)
  const form = flatForm('ctx.elicit', owner, spec, primitiveProperty)
  const properties = Object.fromEntries(Object.entries(form.properties).map(([k, p]) => [k, fieldOf(p)]))
  const requestedSchema: JsonSchema = form.required.length === 0 ? { type: 'object', properties } : { type: 'object', properties, required: form.required }
  const made: ElicitForm = { requestedSchema, decode: standardValidator(spec, requestedSchema).decode }
  forms.set(given, made)
  return made
}

// ---------------------------------------------------------------------------------------
// internals

/** A schema is converted once, however many calls ask with it. */
const forms = new WeakMap<object, ElicitForm>()

/** The string formats MCP's form fields may carry. */
const formats = new Set(['date', 'date-time', 'email', 'uri'])

/**
 * A property as MCP's restricted form schema spells it: every field has its `type` (a
 * library may write a string enum without one: valibot's `picklist`), an `anyOf` of string
 * constants (arktype's `'a' | 'b'`) is an `enum`, and a `format` MCP does not know (zod's
 * `uuid`) is left out: the library still checks the answer.
 */
const fieldOf = (p: JsonSchema): JsonSchema => {
  const consts = Array.isArray(p.anyOf) && p.anyOf.every((b) => typeof b === 'object' && b !== null && typeof (b as JsonSchema).const === 'string')
  const { anyOf, format, ...rest } = p
  // an anyOf the rule let through is of strings only: constants become an enum, anything else a plain string field
  const base: JsonSchema = consts
    ? { ...rest, type: 'string', enum: (anyOf as ReadonlyArray<JsonSchema>).map((b) => b.const) }
    : anyOf !== undefined && p.type === undefined
      ? { ...rest, type: 'string' }
      : { ...rest, ...(anyOf === undefined ? {} : { anyOf }) }
  const typed: JsonSchema = base.type === undefined && Array.isArray(base.enum) ? { type: 'string', ...base } : base
  return typeof format === 'string' && formats.has(format) ? { ...typed, format } : typed
}
