/**
 * The quick check of a schema that is served as it is: one walk, one small list, that answers
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
  const clean = walk(schema, keywords)
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

/**
 * The walk: the nodes as `locatedSchemaProblems` visits them (arrays flattened, data keywords
 * and scalars skipped, name maps read name by name), with the keys checked where
 * `unknownKeywords` visits too (a schema position). One loop over a list of nodes still to
 * visit, not a function that calls itself: the optimizing compiler inlined the recursive pair
 * it was into itself, three times over, and compiling those copies cost more than a
 * 2000-tool server spends in the walk (about 60 000 instructions per tool, under callgrind).
 * Each entry is a node and its level: twice its depth, plus one at a schema position. The
 * order of the visit does not matter: the answer is true only when no node says otherwise.
 */
const walk = (root: unknown, keys: boolean): boolean => {
  const todo: unknown[] = [root, keys ? 1 : 0]
  let count = 0
  while (todo.length > 0) {
    const level = todo.pop() as number
    const node = todo.pop()
    const depth = level >> 1
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) if (typeof node[i] === 'object' && node[i] !== null) todo.push(node[i], depth << 1)
      continue
    }
    if (!isObject(node)) continue
    if (++count > schemaBounds.maxSubschemas || depth > schemaBounds.maxDepth) return false
    if (typeof node.$ref === 'string' || typeof node.$dynamicRef === 'string' || 'x-mcp-header' in node) return false
    const schema = (level & 1) === 1
    for (const key in node) {
      const role = keywordRoles.get(key)
      if (schema && role === undefined && !isAnnotation(key)) return false
      const value = node[key]
      if (typeof value !== 'object' || value === null || role === Role.data) continue
      // the value one level down: its items at a schema position when the keyword holds schemas and this node is at one
      const below = (depth + 1) << 1
      const at = schema ? below | 1 : below
      if (role === undefined || role === Role.plain) todo.push(value, below)
      else if ((role & Role.map) !== 0 && isObject(value)) {
        if ('x-mcp-header' in value) return false
        for (const name in value) todo.push(value[name], at)
      } else if ((role & Role.one) !== 0 && isObject(value)) todo.push(value, at)
      // the list as unknownKeywords reads it (its items are schemas), as locatedSchemaProblems counts it (flattened, at this depth)
      else if ((role & Role.list) !== 0 && Array.isArray(value)) for (let i = 0; i < value.length; i++) todo.push(value[i], at)
      else todo.push(value, below)
    }
    // a list this long is no schema written by hand: the full walks answer (and bound) it
    if (todo.length > maxPending) return false
  }
  return true
}

/** The most entries the walk keeps waiting: twice the subschemas the bounds allow, and room for their lists. */
const maxPending = 4 * schemaBounds.maxSubschemas
