/**
 * The quick check of a schema that is served as it is: one walk, no allocation, that answers
 * true when neither `unknownKeywords` (keywords.ts) nor `locatedSchemaProblems`
 * (schema-check.ts) would find anything, and false when either might. Why: a contract's
 * schemas are checked when it is made, and a server defines thousands; the two walks that
 * explain a problem (each with its pointer, in its order) cost about a tenth of building a
 * 2000-tool server, where nearly no schema has a problem. They now run only after this walk
 * says "look closer": every message, path and order stays theirs.
 *
 * What sends a schema to the full walks besides a problem: a `$ref` or `$dynamicRef`
 * (resolved there), an `x-mcp-header` (its mirrors are read there), a node out of bounds.
 *
 * @example
 * import { plainlyServable } from './servable.js'
 * plainlyServable({ type: 'object', properties: { a: { type: 'string' } } }, true) // true
 * plainlyServable({ type: 'object', requird: ['a'] }, true) // false: unknownKeywords says why
 */
import { isObject } from '../util/json-object.js'
import { isAnnotation, keywordRoles, Role } from './keywords.js'
import { knownDialect, noteUnmirrored, schemaBounds } from './schema-check.js'
import type { JsonSchema } from './schema.js'

/**
 * True when `schema` is servable as it is with no closer look: within bounds, no reference,
 * no header mirror, a dialect emcp validates, and (with `keywords`) every key at a schema
 * position a keyword or an annotation. False only says: ask the full checks.
 */
export const plainlyServable = (schema: JsonSchema, keywords: boolean): boolean => {
  const $schema = schema.$schema
  if ($schema !== undefined && !knownDialect($schema)) return false
  count = 0
  const clean = walk(schema, 0, keywords)
  // the full walk would have found no header mirror either: protocol/headers.ts skips its own
  if (clean) noteUnmirrored(schema)
  // a literal's slot check remembers its pass for the root check that follows it at once
  proved = clean && keywords ? schema : undefined
  return clean
}

/**
 * True when the last `plainlyServable`, asked with `keywords`, answered true for this very
 * schema, with nothing asked since (a one-shot memory: a literal's slot check and the root
 * check that follows it share one walk).
 */
export const provedServable = (schema: object): boolean => {
  const same = proved === schema
  proved = undefined
  return same
}

// ---------------------------------------------------------------------------------------
// internals

let proved: object | undefined
/** The subschemas counted so far in the current walk (one walk at a time: it never calls out). */
let count = 0

/**
 * One node, as `locatedSchemaProblems` visits it (arrays flattened, data keywords and scalars
 * skipped, name maps read name by name), with `keys` true where `unknownKeywords` visits it
 * too (a schema position).
 */
const walk = (node: unknown, depth: number, keys: boolean): boolean => {
  if (Array.isArray(node)) {
    for (let i = 0; i < node.length; i++) if (!walk(node[i], depth, false)) return false
    return true
  }
  if (!isObject(node)) return true
  if (++count > schemaBounds.maxSubschemas || depth > schemaBounds.maxDepth) return false
  if (typeof node.$ref === 'string' || typeof node.$dynamicRef === 'string' || 'x-mcp-header' in node) return false
  for (const key in node) {
    const role = keywordRoles.get(key)
    if (keys && role === undefined && !isAnnotation(key)) return false
    const value = node[key]
    if (typeof value !== 'object' || value === null || role === Role.data) continue
    if (!child(value, depth + 1, role, keys)) return false
  }
  return true
}

/** The value of a keyword of role `role` (undefined: not a keyword), one level down; `keys` as for its node. */
const child = (value: object, depth: number, role: number | undefined, keys: boolean): boolean => {
  if (role === undefined || role === Role.plain) return walk(value, depth, false)
  if ((role & Role.map) !== 0 && isObject(value)) {
    if ('x-mcp-header' in value) return false
    for (const name in value) if (!walk(value[name], depth, keys)) return false
    return true
  }
  if ((role & Role.one) !== 0 && isObject(value)) return walk(value, depth, keys)
  if ((role & Role.list) !== 0 && Array.isArray(value)) {
    // the list as unknownKeywords reads it (its items are schemas), as locatedSchemaProblems counts it (flattened, at this depth)
    for (let i = 0; i < value.length; i++) if (!walk(value[i], depth, keys)) return false
    return true
  }
  return walk(value, depth, false)
}
