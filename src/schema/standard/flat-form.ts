/**
 * The flat object a Standard Schema must be where MCP takes named primitives rather than a
 * schema: prompt arguments (named strings) and elicitation forms (named primitives). The
 * library writes the JSON Schema (input direction) once, when the prompt is made or the
 * form asked; a schema that is not an object of such properties is refused, naming its
 * owner and the property, rather than served as something a client cannot fill.
 *
 * @example
 * import { z } from 'zod'
 * import { flatForm, stringProperty } from './flat-form.js'
 * flatForm('prompt', 'review', z.object({ code: z.string(), n: z.number() }), stringProperty)
 * // throws: emcp: prompt review: property "n" must be a string (prompt arguments are strings in MCP) ...
 */
import { isObject } from '../../util/json-object.js'
import { clip } from '../../util/clip.js'
import { unknownKeywords } from '../keywords.js'
import type { JsonSchema } from '../schema.js'
import { standardJsonSchema } from './json-schema.js'
import { shapeVendor } from './shape.js'
import type { StandardSchemaV1 } from './spec.js'

/** A flat form: its properties' JSON Schemas, by name, in order, and the names it requires. */
export interface FlatForm {
  readonly properties: { readonly [name: string]: JsonSchema }
  readonly required: ReadonlyArray<string>
}

/** Why a property's JSON Schema cannot be one of the form's fields, or undefined when it can. */
export type PropertyRule = (property: JsonSchema) => string | undefined

/** Prompt arguments: strings (`type: "string"`, an `enum`/`const` of strings, or an `anyOf` of those, as arktype writes `'a' | 'b'`). */
export const stringProperty: PropertyRule = (p) =>
  isString(p) || (p.type === undefined && stringConsts(p.anyOf))
    ? undefined
    : 'must be a string (prompt arguments are strings in MCP): use a string schema, or an enum of strings'

/** Elicitation fields: a string, number, integer or boolean, or a multi-select array of enumerated strings. */
export const primitiveProperty: PropertyRule = (p) => {
  if (p.type === 'string' || p.type === 'number' || p.type === 'integer' || p.type === 'boolean') return undefined
  if (p.type === undefined && (stringsOnly(p.enum) || stringConsts(p.anyOf))) return undefined
  if (p.type === 'array' && isObject(p.items) && (stringsOnly(p.items.enum) || Array.isArray(p.items.anyOf))) return undefined
  return 'must be a string, number, integer or boolean, or an array of enumerated strings (an elicitation form is a flat object of primitives in MCP)'
}

/**
 * The flat form of `spec`, owned by `noun` `name` (prompt review): throws a TypeError naming
 * them and the property when the schema is not an object of properties `rule` accepts.
 */
export const flatForm = (noun: string, name: string, spec: StandardSchemaV1, rule: PropertyRule): FlatForm => {
  const vendor = String(spec['~standard'].vendor)
  return formOf(`emcp: ${noun} ${name}: ${vendor === shapeVendor ? 'the shape' : `the schema (${vendor})`}`, standardJsonSchema(name, 'input', spec, noun), rule)
}

/**
 * The flat form of a JSON Schema literal (TypeBox's `Type.Object`, or one written by hand),
 * owned by `noun` `name`: refused as a library's is, and also for a key that is not a JSON
 * Schema keyword (which a validator would ignore).
 */
export const literalForm = (noun: string, name: string, schema: JsonSchema, rule: PropertyRule): FlatForm => {
  const where = `emcp: ${noun} ${name}: the schema`
  const unknown = unknownKeywords(schema)
  if (unknown.length > 0) throw new TypeError(`${where}: ${unknown.map((p) => `${p.message} (at ${p.path})`).join('; ')}`)
  return formOf(where, schema, rule)
}

// ---------------------------------------------------------------------------------------
// internals

/** The flat form of JSON Schema `schema`, or a TypeError that starts with `where`. */
const formOf = (where: string, schema: JsonSchema, rule: PropertyRule): FlatForm => {
  if (schema.type !== 'object') throw new TypeError(`${where} must be an object schema (z.object, v.object, type({...}), ...), not ${clip(JSON.stringify(schema.type ?? 'untyped'))}`)
  const properties = schema.properties ?? {}
  if (!isObject(properties)) throw new TypeError(`${where} has no properties object`)
  const listed = new Set(Array.isArray(schema.required) ? schema.required : [])
  const out: Record<string, JsonSchema> = {}
  for (const [name, given] of Object.entries(properties)) {
    const p = listed.has(name) ? given : withoutNull(given)
    const why = isObject(p) ? rule(p) : 'must be a schema object'
    if (why !== undefined) throw new TypeError(`${where}: property ${JSON.stringify(clip(name, 64))} ${why}`)
    out[name] = p as JsonSchema
  }
  const required = [...listed].filter((r): r is string => typeof r === 'string' && Object.hasOwn(out, r))
  return { properties: out, required }
}

/**
 * An optional property written as "this or null" (`anyOf: [X, { type: 'null' }]`, as effect's
 * `Schema.optional` and others write it) as `X`: a form has no null, leaving the field out is
 * how it says "none", and the library still checks the answer.
 */
const withoutNull = (p: unknown): unknown => {
  if (!isObject(p) || !Array.isArray(p.anyOf) || p.anyOf.length !== 2) return p
  const { anyOf, ...notes } = p
  if (!Object.keys(notes).every((k) => k === 'title' || k === 'description')) return p
  const isNull = (u: unknown): boolean => isObject(u) && u.type === 'null' && Object.keys(u).length === 1
  const kept = isNull(anyOf[1]) ? anyOf[0] : isNull(anyOf[0]) ? anyOf[1] : undefined
  return isObject(kept) ? { ...kept, ...notes } : p
}

/** A JSON Schema of strings only: `type: "string"`, or an `enum`/`const` of strings. */
const isString = (p: JsonSchema): boolean => p.type === 'string' || stringsOnly(p.enum) || (typeof p.const === 'string' && p.type === undefined)

/** An `anyOf` of string schemas only (arktype writes `'a' | 'b'` as `anyOf: [{ const: 'a' }, { const: 'b' }]`). */
const stringConsts = (u: unknown): boolean => Array.isArray(u) && u.length > 0 && u.every((b) => isObject(b) && isString(b))

const stringsOnly = (u: unknown): boolean => Array.isArray(u) && u.length > 0 && u.every((x) => typeof x === 'string')
