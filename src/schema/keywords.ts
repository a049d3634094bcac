/**
 * The keywords a JSON Schema literal may use: those of JSON Schema 2020-12 (and of the older
 * dialects emcp validates, for schemas whose `$schema` names one), annotations `x-*` and
 * `$comment`. Anything else is a typo or another library's object (`requird`, `minLenght`,
 * valibot's `kind`), which a validator ignores and so validates nothing: it is refused, as a
 * validator's strict mode does, with the nearest keyword.
 *
 * @example
 * import { unknownKeywords } from './keywords.js'
 * unknownKeywords({ type: 'object', requird: ['a'] })
 * // [{ path: '/requird', message: 'unknown JSON Schema keyword "requird" (did you mean "required"?)' }]
 */
import { clip } from '../util/clip.js'
import { isObject } from '../util/json-object.js'
import { escapeToken } from '../util/json-pointer.js'
import type { SchemaProblem } from './schema-check.js'
import { dataKeywords, schemaBounds } from './schema-check.js'
import type { JsonSchema } from './schema.js'
import { isStandardSchema } from './standard/detect.js'

/**
 * Every keyword a literal may use (2020-12 core, applicator, validation, unevaluated, format,
 * content, meta-data; older dialects' own; OpenAPI's `nullable`, which the validator reads), in
 * the order the nearest one is looked for. A tuple, so that the compile-time check
 * (keyword-check.ts) reads the same list.
 */
export const keywordList = [
  '$schema', '$id', '$ref', '$anchor', '$dynamicRef', '$dynamicAnchor', '$vocabulary', '$comment', '$defs',
  'allOf', 'anyOf', 'oneOf', 'not', 'if', 'then', 'else', 'dependentSchemas', 'prefixItems', 'items', 'contains',
  'properties', 'patternProperties', 'additionalProperties', 'propertyNames', 'unevaluatedItems', 'unevaluatedProperties',
  'type', 'const', 'enum', 'multipleOf', 'maximum', 'exclusiveMaximum', 'minimum', 'exclusiveMinimum',
  'maxLength', 'minLength', 'pattern', 'maxItems', 'minItems', 'uniqueItems', 'maxContains', 'minContains',
  'maxProperties', 'minProperties', 'required', 'dependentRequired',
  'format', 'contentEncoding', 'contentMediaType', 'contentSchema',
  'title', 'description', 'default', 'deprecated', 'readOnly', 'writeOnly', 'examples',
  // 2019-09, draft-07/06/04 (emcp validates them when `$schema` names them)
  '$recursiveRef', '$recursiveAnchor', 'definitions', 'dependencies', 'additionalItems', 'id',
  'nullable',
] as const

/** `keywordList` as a set. */
export const knownKeywords: ReadonlySet<string> = new Set(keywordList)

/** The keywords whose value is one subschema. */
const oneSchema = new Set(['not', 'if', 'then', 'else', 'contains', 'additionalProperties', 'propertyNames', 'unevaluatedItems', 'unevaluatedProperties', 'additionalItems', 'contentSchema', 'items'])
/** The keywords whose value is a list of subschemas (`items` too, in the older tuple form). */
const schemaLists = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems', 'items'])
/** The keywords whose value maps names to subschemas (`dependencies` values may also be name lists). */
const schemaMaps = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas', 'dependencies'])

/** The most unknown keywords reported for one schema (a hostile one may hold thousands). */
const maxReported = 20

/** What a keyword's value is to the walks: data, or one, a list or a map of subschemas (bits; `items` is one or a list). */
export const Role = { plain: 0, data: 1, one: 2, list: 4, map: 8 } as const

/** Every known keyword's role, in one lookup (the quick check reads it once per key of every schema a server defines). */
export const keywordRoles: ReadonlyMap<string, number> = new Map(
  keywordList.map((k) => [
    k,
    (dataKeywords.has(k) ? Role.data : 0) | (oneSchema.has(k) ? Role.one : 0) | (schemaLists.has(k) ? Role.list : 0) | (schemaMaps.has(k) ? Role.map : 0),
  ]),
)

/** True for the keys any schema may carry besides keywords: annotations `x-…` and `$comment`. */
export const isAnnotation = (k: string): boolean => k.startsWith('x-') || k === '$comment'

/** Every unknown keyword in `schema` (subschemas included, data keywords such as `enum` and `default` not), each at its JSON pointer. */
export const unknownKeywords = (schema: JsonSchema): ReadonlyArray<SchemaProblem> => {
  const problems: SchemaProblem[] = []
  // this runs for every tool a server defines: for-in, and a node's pointer is only spelled out for a problem
  const visit = (node: unknown, trail: Trail | undefined, depth: number): void => {
    // a function or another library's schema where a schema belongs validates nothing as a literal (JSON would drop it, or its toJSON say something else)
    if (trail !== undefined && (typeof node === 'function' || isStandardSchema(node))) {
      if (problems.length < maxReported) problems.push({ path: clip(pointerOf(trail)), message: foreignMessage })
      return
    }
    if (!isObject(node) || depth > schemaBounds.maxDepth || problems.length >= maxReported) return
    for (const key in node) {
      if (!knownKeywords.has(key)) {
        if (!isAnnotation(key) && problems.length < maxReported) problems.push({ path: clip(pointerOf({ up: trail, token: key })), message: unknownMessage(key) })
        continue
      }
      const value = node[key]
      if ((typeof value !== 'object' && typeof value !== 'function') || value === null) continue
      const at: Trail = { up: trail, token: key }
      if (oneSchema.has(key) && (isObject(value) || typeof value === 'function')) visit(value, at, depth + 1)
      else if (schemaLists.has(key) && Array.isArray(value)) for (let i = 0; i < value.length; i++) visit(value[i], { up: at, token: String(i) }, depth + 1)
      else if (schemaMaps.has(key) && isObject(value)) for (const name in value) visit(value[name], { up: at, token: name }, depth + 1)
    }
  }
  visit(schema, undefined, 0)
  return problems
}

/** What a function or another library's schema at a schema position of a literal is told. */
const foreignMessage = 'a schema of another library (or a function) where a JSON Schema belongs: a literal is JSON Schema all through; give the library\'s schema for the whole slot, or write this part as JSON Schema'

/** The way down to a node, innermost token first. */
interface Trail {
  readonly up: Trail | undefined
  readonly token: string
}

/** The JSON pointer of a trail. */
const pointerOf = (trail: Trail): string => {
  const tokens: string[] = []
  for (let t: Trail | undefined = trail; t !== undefined; t = t.up) tokens.push(escapeToken(t.token))
  return `/${tokens.reverse().join('/')}`
}

/** `unknown JSON Schema keyword "requird" (did you mean "required"?)`, the suggestion only when one is near. */
export const unknownMessage = (key: string): string => {
  const near = nearest(key)
  return `unknown JSON Schema keyword ${JSON.stringify(clip(key, 64))}${near === undefined ? ' (annotations start with "x-")' : ` (did you mean ${JSON.stringify(near)}?)`}`
}

// ---------------------------------------------------------------------------------------
// internals

/** The known keyword nearest `key` in edit distance, when it is within a third of its length (at most 3); case is ignored. */
const nearest = (key: string): string | undefined => {
  if (key.length > 40) return undefined
  const k = key.toLowerCase()
  const limit = Math.min(3, Math.max(1, Math.floor(k.length / 3)))
  let best: string | undefined
  let bestDistance = limit + 1
  for (const known of knownKeywords) {
    const d = distance(k, known.toLowerCase(), bestDistance)
    if (d < bestDistance) {
      best = known
      bestDistance = d
    }
  }
  return best
}

/** Levenshtein distance with adjacent transpositions (`minLenght`), or `cap` once it is known to reach it. */
const distance = (a: string, b: string, cap: number): number => {
  if (Math.abs(a.length - b.length) >= cap) return cap
  let prev2: number[] = []
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const row = [i]
    let low = i
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      let v = Math.min((prev[j] as number) + 1, (row[j - 1] as number) + 1, (prev[j - 1] as number) + cost)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, (prev2[j - 2] as number) + 1)
      row.push(v)
      low = Math.min(low, v)
    }
    if (low >= cap) return cap
    prev2 = prev
    prev = row
  }
  return Math.min(prev[b.length] as number, cap)
}
