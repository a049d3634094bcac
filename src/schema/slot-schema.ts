/**
 * The JSON Schema of a contract's slot, whichever kind it holds: a Standard Schema (converted
 * by its own library, in the slot's direction), an io-ts codec (derived), or a JSON Schema
 * literal, which must be one: another library's schema object, or an unknown keyword, is
 * refused rather than served as a schema that validates nothing.
 *
 * @example
 * import { slotSchema } from './slot-schema.js'
 * slotSchema('add', 'input', { type: 'object', requird: ['a'] }, 'error')
 * // throws: emcp: tool add: the input schema: unknown JSON Schema keyword "requird" (did you mean "required"?) (at /requird)
 */
import { isObject } from '../util/json-object.js'
import { unknownKeywords } from './keywords.js'
import { codecToJsonSchema } from './codec-schema.js'
import { isCodec, type JsonSchema } from './schema.js'
import { plainlyServable } from './servable.js'
import { foreignMark, isStandardSchema, notALiteral } from './standard/detect.js'
import { standardJsonSchema } from './standard/json-schema.js'

/**
 * Contracts made by `emcp` or `runtimeTool`: the rule their literals were checked by, and
 * whether the walk of their input schema found no header mirror, in one entry (bits): this is
 * set for every tool a server defines, and a weak map's entry is its dearest part.
 */
const made = new WeakMap<object, number>()

/** The bits of an entry of `made`. */
const Made = { error: 1, allow: 2, unmirrored: 4 } as const

/** Records that `contract` was made with its literals checked by `rule` (manifests: `'allow'`, warned about by their reader), and whether its input schema is known to carry no header mirror. */
export const markMade = <T extends object>(contract: T, rule: KeywordRule, unmirrored = false): T => {
  made.set(contract, Made[rule] | (unmirrored ? Made.unmirrored : 0))
  return contract
}

/** The rule a contract's literals were checked by when it was made; undefined for one built by hand. */
export const madeWith = (contract: object): KeywordRule | undefined => {
  const bits = made.get(contract)
  return bits === undefined ? undefined : (bits & Made.error) !== 0 ? 'error' : 'allow'
}

/** True when the contract was made with an input schema its walk found without a header mirror (protocol/headers.ts). */
export const madeUnmirrored = (contract: object): boolean => ((made.get(contract) ?? 0) & Made.unmirrored) !== 0

/** What an unknown keyword (or another library's key) in a literal does: refuse the contract (code), or let it through for the caller to warn about (manifests). */
export type KeywordRule = 'error' | 'allow'

/** The JSON Schema slot `slot` of tool `name` publishes; throws a TypeError naming the tool for anything that is not a schema. */
export const slotSchema = (name: unknown, slot: 'input' | 'output', spec: unknown, keywords: KeywordRule): JsonSchema => {
  if (isStandardSchema(spec)) return standardJsonSchema(name, slot, spec)
  if (isCodec(spec)) return codecToJsonSchema(spec)
  // a literal with no mark of another library that the quick walk passes (its root's values
  // included) is served as it is: the checks below would find nothing, and only spell it out
  if (keywords === 'error' && isObject(spec) && foreignMark(spec) === undefined && plainlyServable(spec, true)) return spec
  // a manifest's schema is JSON: keys such as `kind` or `~standard` there are unknown keywords, which its reader warns about
  const foreign = keywords === 'error' && (typeof spec === 'object' || typeof spec === 'function') && spec !== null ? notALiteral(spec) : undefined
  if (foreign !== undefined) throw new TypeError(`${where(name, slot)} is not a JSON Schema literal: ${foreign}`)
  if (!isObject(spec)) throw new TypeError(`${where(name, slot)} must be a JSON Schema object, a Standard Schema (zod, valibot, arktype, ...) or an io-ts codec, not ${spec === null ? 'null' : Array.isArray(spec) ? 'an array' : typeof spec}`)
  // the quick walk did not pass it (above): the full one spells out what it may have found
  if (keywords === 'error') {
    const unknown = unknownKeywords(spec)
    if (unknown.length > 0) throw new TypeError(`${where(name, slot)}: ${unknown.map((p) => `${p.message} (at ${p.path})`).join('; ')}`)
  }
  return spec
}

/** The start of a slot's message, spelled out only for a message (a function, not a closure: this runs for every slot of every contract). */
const where = (name: unknown, slot: string): string => `emcp: tool ${String(name)}: the ${slot} schema`
