/**
 * The JSON Schema a Standard Schema publishes, from the library itself (Standard JSON Schema
 * v1, `~standard.jsonSchema`): the input direction for a tool's `inputSchema`, the output
 * direction for its `outputSchema`, draft 2020-12. Called once per slot, when the contract
 * is made, never per request. A schema without a JSON Schema form is refused here, naming
 * the tool, the slot and (where the library says) the path.
 *
 * @example
 * import { z } from 'zod'
 * import { standardJsonSchema } from './json-schema.js'
 * standardJsonSchema('add', 'input', z.object({ a: z.number() }))
 * // { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', properties: { a: { type: 'number' } }, required: ['a'] }
 */
import { escapeToken } from '../../util/json-pointer.js'
import { isObject } from '../../util/json-object.js'
import type { JsonSchema } from '../schema.js'
import { shapeVendor } from './shape.js'
import type { StandardJsonConverter, StandardSchemaV1 } from './spec.js'

/** The target every Standard JSON Schema conversion asks for. */
export const standardTarget = 'draft-2020-12'

/**
 * The JSON Schema of slot `slot` of tool `name`, converted by the schema's own library.
 * Throws a TypeError (naming the `owner`, a tool unless told) saying what to pass when the
 * library offers no conversion or the schema has no JSON Schema form.
 */
export const standardJsonSchema = (name: unknown, slot: 'input' | 'output', schema: StandardSchemaV1, owner = 'tool'): JsonSchema => {
  const props = schema['~standard']
  const where = `emcp: ${owner} ${String(name)}: the ${slot} ${props.vendor === shapeVendor ? 'shape' : `schema (${String(props.vendor)})`}`
  const converter = (props as { readonly jsonSchema?: unknown }).jsonSchema
  if (!isConverter(converter)) throw new TypeError(`${where} has no JSON Schema form (Standard JSON Schema, "~standard.jsonSchema"): ${howTo(props.vendor)}`)
  const direction = slot === 'input' ? converter.input : converter.output
  let out: unknown
  try {
    out = direction({ target: standardTarget })
  } catch (e) {
    // a shape's message names its property already
    throw new TypeError(`${where} cannot be written as JSON Schema${props.vendor === shapeVendor ? '' : locate(direction)}: ${e instanceof Error ? e.message : String(e)}`)
  }
  if (!isObject(out)) throw new TypeError(`${where}: its library gave ${typeof out} rather than a JSON Schema object`)
  return out
}

// ---------------------------------------------------------------------------------------
// internals

const isConverter = (u: unknown): u is StandardJsonConverter =>
  typeof u === 'object' && u !== null && typeof (u as StandardJsonConverter).input === 'function' && typeof (u as StandardJsonConverter).output === 'function'

/** What a user of each library passes instead. */
const howTo = (vendor: string): string =>
  vendor === 'valibot'
    ? 'wrap it with toStandardJsonSchema() from @valibot/to-json-schema'
    : vendor === 'zod'
      ? 'use zod 4.2 or later'
      : 'use a library version that implements Standard JSON Schema, or pass a JSON Schema literal'

/**
 * Where the conversion failed, when the library can say: a second run asks zod (whose
 * `unrepresentable` option takes a function given the path) for the first place; other
 * libraries ignore the option, and nothing is added.
 */
const locate = (direction: StandardJsonConverter['input']): string => {
  let at: ReadonlyArray<unknown> | undefined
  try {
    direction({
      target: standardTarget,
      libraryOptions: {
        unrepresentable: (ctx: { readonly path?: ReadonlyArray<unknown> }) => {
          at ??= Array.isArray(ctx.path) ? ctx.path : undefined
          return 'throw'
        },
      },
    })
  } catch {
    // the failure is already known; only the path was wanted
  }
  return at === undefined ? '' : ` at ${at.length === 0 ? '(root)' : at.map((k) => `/${escapeToken(String(k))}`).join('')}`
}
