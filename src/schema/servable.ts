/**
 * The quick check of a schema that is served as it is: one walk, one small record, that answers
 * true when neither `unknownKeywords` (keywords.ts) nor `locatedSchemaProblems`
 * (schema-check.ts) would find anything, and false when either might. Why: a contract's
 * schemas are checked when it is made, and a server defines thousands; the two walks that
 * explain a problem (each with its pointer, in its order) cost about a tenth of building a
 * 2000-tool server, where nearly no schema has a problem. They now run only after this walk
 * says "look closer": every message, path and order stays theirs.
 *
 * What sends a schema to the full walks besides a problem: a `$ref` or `$dynamicRef`
 * (resolved there), an `x-mcp-header` (its mirrors are read there), a node out of bounds;
 * with the keywords checked, also another library's schema as a value at the root (which
 * `notALiteral` names: the slot check skips it for a literal this walk passes).
 *
 * @example
 * import { plainlyServable } from './servable.js'
 * plainlyServable({ type: 'object', properties: { a: { type: 'string' } } }, true) // true
 * plainlyServable({ type: 'object', requird: ['a'] }, true) // false: unknownKeywords says why
 */
import { isObject } from '../util/json-object.js'
import { isAnnotation, keywordRoles, Role } from './keywords.js'
import { dataWithin, knownDialect, schemaBounds, type DataSeen } from './schema-check.js'
import { foreignValue } from './standard/detect.js'
import type { JsonSchema } from './schema.js'

/**
 * True when `schema` is servable as it is with no closer look: within bounds, no reference,
 * no header mirror, a dialect emcp validates, and (with `keywords`) every key at a schema
 * position a keyword or an annotation. False only says: ask the full checks.
 */
export const plainlyServable = (schema: JsonSchema, keywords: boolean): boolean => {
  const $schema = schema.$schema
  if ($schema !== undefined && !knownDialect($schema)) return false
  // clean also says: no header mirror (the contract made of it records that, see objectRoot)
  const clean = walk(schema, keywords ? 1 : 0, { count: 0, lists: 0, nodes: 0, deepest: 0 })
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

// the walk's constants as bindings of this module, not properties read at each key
const { data: dataRole, plain: plainRole, map: mapRole, one: oneRole, list: listRole } = Role
const { maxSubschemas, maxDepth } = schemaBounds

/** What one walk has seen so far: the subschemas and the lists counted, as `locatedSchemaProblems` counts them (one record per walk, so that a walk inside a walk, from a getter, counts its own). */
interface Seen extends DataSeen {
  count: number
  lists: number
}

/**
 * The walk: the nodes as `locatedSchemaProblems` visits them (arrays flattened, data keywords
 * and scalars skipped, name maps read name by name), with the keys checked where
 * `unknownKeywords` visits too (a schema position). One function calling itself, its level
 * the node's depth twice plus one at a schema position: the optimizing compiler inlined the
 * pair of functions it once was into each other, three copies deep, and compiling those cost
 * more than a 2000-tool server spends walking (about 20 000 instructions per tool, under
 * callgrind). Its own calls go at most two deep per level of subschemas (an object, a list of
 * them), so the depth bound bounds them; a list directly inside a list, which no schema
 * written by hand holds, ends the walk (`items`).
 */
const walk = (given: unknown, level: number, seen: Seen): boolean => {
  const depth = level >> 1
  if (Array.isArray(given)) return items(given, depth << 1, seen)
  // tested inline, not with isObject: this runs for every node of every schema a server defines
  if (typeof given !== 'object' || given === null) return typeof given !== 'function' || (level & 1) === 0
  const node = given as { readonly [key: string]: unknown }
  if (++seen.count > maxSubschemas || depth > maxDepth) return false
  if (typeof node.$ref === 'string' || typeof node.$dynamicRef === 'string' || 'x-mcp-header' in node) return false
  const schema = (level & 1) === 1
  for (const key in node) {
    const role = keywordRoles.get(key)
    if (schema && role === undefined && !isAnnotation(key)) return false
    const value = node[key]
    // the root of a literal whose keywords are checked (level 1): another library's schema there says it is none
    if (level === 1 && foreignValue(value)) return false
    if (value === null) continue
    // data: its lists and objects counted and bounded as the full checks do (code can hand one holding itself)
    if (role === dataRole) {
      if (typeof value === 'object' && !dataWithin(value, seen)) return false
      continue
    }
    if (typeof value !== 'object') {
      // a function under a keyword that holds schemas is no schema (the full checks say so)
      if (typeof value === 'function' && schema && role !== undefined && role !== plainRole) return false
      continue
    }
    // the value one level down: its items at a schema position when the keyword holds schemas and this node is at one
    const below = (depth + 1) << 1
    const at = schema ? below | 1 : below
    if (role === undefined || role === plainRole) {
      if (!walk(value, below, seen)) return false
    } else if ((role & mapRole) !== 0 && isObject(value)) {
      if ('x-mcp-header' in value) return false
      for (const name in value) if (!walk(value[name], at, seen)) return false
    } else if ((role & oneRole) !== 0 && isObject(value)) {
      if (!walk(value, at, seen)) return false
    } else if ((role & listRole) !== 0 && Array.isArray(value)) {
      // the list as unknownKeywords reads it (its items are schemas), as locatedSchemaProblems counts it (flattened, at this depth)
      if (!items(value, at, seen)) return false
    } else if (!walk(value, below, seen)) return false
  }
  return true
}

/**
 * The items of a list, each walked at `level`. A list directly inside it sends the schema to
 * the full checks: no schema holds one where schemas or annotations go (a list of schemas holds
 * schemas), `locatedSchemaProblems` counts such nesting against the depth bound, and a list
 * holding itself (which only code can build) would otherwise never end.
 */
const items = (list: ReadonlyArray<unknown>, level: number, seen: Seen): boolean => {
  if (++seen.lists > maxSubschemas) return false
  for (let i = 0; i < list.length; i++) {
    const item = list[i]
    if (Array.isArray(item)) return false
    if (((typeof item === 'object' && item !== null) || typeof item === 'function') && !walk(item, level, seen)) return false
  }
  return true
}
