/**
 * What the plain validator's two forms share (plain-validator.ts reports issues,
 * plain-predicate.ts answers yes or no): the type tests, JSON equality, string length in code
 * points, the copy of a default, and which keywords belong to which type. Internal.
 *
 * @example
 * import { equal, typeTests } from './plain-values.js'
 * typeTests.integer(2.5) // false
 * equal({ a: [1] }, { a: [1] }) // true
 */
import { isObject } from '../util/json-object.js'

// ---------------------------------------------------------------------------------------
// model

/** The groups of keywords that apply to data of one type only. */
export type Group = 'number' | 'string' | 'array' | 'object'

// ---------------------------------------------------------------------------------------
// functions

/** The general engine's type tests; numbers must be finite (NaN and ±Infinity are not JSON). */
export const typeTests: { readonly [type: string]: (u: unknown) => boolean } = {
  string: (u) => typeof u === 'string',
  number: (u) => typeof u === 'number' && Number.isFinite(u),
  integer: (u) => typeof u === 'number' && Number.isFinite(u) && u % 1 === 0,
  boolean: (u) => typeof u === 'boolean',
  null: (u) => u === null,
  object: isObject,
  array: Array.isArray,
}

/** The plain keywords of each type group: a schema that uses any of them uses the group. */
export const groupKeywords: { readonly [G in Group]: ReadonlyArray<string> } = {
  number: ['maximum', 'minimum', 'exclusiveMaximum', 'exclusiveMinimum'],
  string: ['maxLength', 'minLength', 'pattern'],
  array: ['maxItems', 'minItems', 'items'],
  object: ['maxProperties', 'minProperties', 'required', 'additionalProperties', 'properties'],
}

/** The types a schema names (none when it has no `type`). */
export const typesOf = (s: { readonly type?: unknown }): ReadonlyArray<string> =>
  s.type === undefined ? [] : Array.isArray(s.type) ? (s.type as string[]) : [s.type as string]

/** JSON equality as the general engine judges `enum` and `const`. */
export const equal = (a: unknown, b: unknown): boolean => {
  if (a === b) return true
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false
    for (let i = 0; i < a.length; i++) if (!equal(a[i], b[i])) return false
    return true
  }
  if (Array.isArray(b) || (a as object).constructor !== (b as object).constructor) return false
  const ka = Object.keys(a)
  if (ka.length !== Object.keys(b).length) return false
  for (const k of ka) if (!Object.prototype.hasOwnProperty.call(b, k) || !equal((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k])) return false
  return true
}

/** Code points, not UTF-16 units, as the general engine counts string lengths. */
export const codePoints = (s: string): number => {
  let n = 0
  for (let i = 0; i < s.length; i++) {
    n++
    const c = s.charCodeAt(i)
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) i++
  }
  return n
}

/** A fresh copy of a default for each value it fills (JSON data only: it came from a schema). */
export const copyOf = (v: unknown): unknown => (typeof v === 'object' && v !== null ? JSON.parse(JSON.stringify(v)) : v)

/** A schema's `pattern` as the general engine compiles it (Unicode mode); throws when it is none. */
export const patternOf = (pattern: string): RegExp => new RegExp(pattern, 'u')
