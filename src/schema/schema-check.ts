/**
 * The checks a tool's JSON Schema passes before it is served (MCP 2026-07-28, SEP-2106):
 * a dialect emcp validates (2020-12 by default; 2019-09 and draft-07/06/04 when `$schema`
 * names them), every `$ref` resolvable within the schema itself (emcp never fetches a
 * schema from anywhere), and bounds on size and depth so that composition keywords cannot
 * make validation a denial of service. Any 2020-12 keyword is allowed.
 *
 * @example
 * import { schemaProblems } from './schema-check.js'
 * schemaProblems({ $ref: 'https://example.com/s.json' }) // ['$ref "https://example.com/s.json" ...']
 * schemaProblems({ $defs: { a: { type: 'string' } }, properties: { a: { $ref: '#/$defs/a' } } }) // []
 */
import { isObject } from '../util/json-object.js'
import { escapeToken, resolvePointer } from '../util/json-pointer.js'
import type { JsonSchema } from './schema.js'

/** The bounds every served schema stays within. */
export const schemaBounds = {
  /** The deepest nesting of subschemas. */
  maxDepth: 64,
  /** The most subschemas in one schema, all nesting levels counted. */
  maxSubschemas: 5_000,
  /** The most lists and objects inside the values of `const`, `enum`, `default` and `examples`, all together. */
  maxDataNodes: 100_000,
} as const

/** The dialects emcp validates, by the `$schema` that names them. */
const dialects = /^https?:\/\/json-schema\.org\/(draft\/2020-12\/schema|draft\/2019-09\/schema|draft-07\/schema|draft-06\/schema|draft-04\/schema)#?$/

/** Keywords whose values are data, not subschemas. */
export const dataKeywords: ReadonlySet<string> = new Set(['const', 'enum', 'default', 'examples'])

/** True for a `$schema` naming a dialect emcp validates. */
export const knownDialect = (u: unknown): boolean => typeof u === 'string' && dialects.test(u)

/** The keywords that name a place in a schema, and those that point at one (constants: this runs for every subschema of every tool). */
const anchorKeys = ['$anchor', '$dynamicAnchor'] as const
const refKeys = ['$ref', '$dynamicRef'] as const

/** The annotation that mirrors a parameter into an HTTP header (2026-07-28). */
const mirrorKey = 'x-mcp-header'

/** Keywords whose values map names to subschemas. */
const nameMaps = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas', 'dependencies'])

/** A reason a schema cannot be served, and where: a JSON pointer into the schema (`''` for the whole). */
export interface SchemaProblem {
  readonly path: string
  readonly message: string
}

/** Every reason a schema cannot be served as it is; empty when it can. */
export const schemaProblems = (schema: JsonSchema): ReadonlyArray<string> =>
  locatedSchemaProblems(schema).map((p) => (p.path === '' ? p.message : `${p.message} (at ${p.path})`))

/**
 * True when `schema` was checked here whole and no object in it (subschema or map of them,
 * outside data keywords) has an `x-mcp-header` key: its header mirrors need no walk of their
 * own (protocol/headers.ts). Why here: a schema the quick walk could not pass comes here, and a
 * second walk for an annotation nearly no schema carries would cost as much again (a contract
 * whose quick walk passed records the same fact itself, see slot-schema.ts's `madeUnmirrored`).
 * Like every check made when a contract is made, it holds for the schema as it was then.
 */
export const checkedWithoutHeaderMirrors = (schema: object): boolean => unmirrored.has(schema)

const unmirrored = new WeakSet<object>()

/** Every reason a schema cannot be served as it is, each with the pointer of the keyword at fault. */
export const locatedSchemaProblems = (schema: JsonSchema): ReadonlyArray<SchemaProblem> => {
  const problems: SchemaProblem[] = []
  let mirrors = false
  const ids = new Set<string>()
  const anchors = new Set<string>()
  // the node holding each $ref: its pointer is only worked out for one that fails
  const refs: Array<{ readonly ref: string; readonly scoped: boolean; readonly node: object; readonly key: string }> = []
  let count = 0
  let lists = 0
  let deepest = 0
  const data: DataSeen = { nodes: 0, deepest: 0 }
  const visit = (node: unknown, depth: number, scoped: boolean): void => {
    if (Array.isArray(node)) {
      // a list's items at the list's depth; a list inside a list flattened with a stack of its
      // own, not by calling itself, one level deeper for the depth bound (past it, not opened),
      // and every list counted: lists nested past what JSON.stringify can write, or holding
      // themselves (only code builds that), end at the bounds
      const pending: Array<readonly [ReadonlyArray<unknown>, number]> = [[node, depth]]
      for (let next = pending.pop(); next !== undefined && ++lists <= schemaBounds.maxSubschemas; next = pending.pop()) {
        const [list, at] = next
        deepest = Math.max(deepest, at)
        for (const n of list)
          if (!Array.isArray(n)) visit(n, depth, scoped)
          else if (at < schemaBounds.maxDepth) pending.push([n, at + 1])
          else deepest = at + 1
      }
      return
    }
    if (!isObject(node)) return
    count++
    deepest = Math.max(deepest, depth)
    if (count > schemaBounds.maxSubschemas || depth > schemaBounds.maxDepth) return
    const id = node.$id
    const inner = scoped || (depth > 0 && typeof id === 'string' && !id.startsWith('#'))
    if (typeof id === 'string') ids.add(id.replace(/#$/, ''))
    for (const k of anchorKeys) if (typeof node[k] === 'string') anchors.add(node[k] as string)
    for (const k of refKeys) if (typeof node[k] === 'string') refs.push({ ref: node[k] as string, scoped: inner, node, key: k })
    if (mirrorKey in node) mirrors = true
    // for-in and no visit of scalars: this runs for every tool a server defines
    for (const key in node) {
      const value = node[key]
      if (typeof value !== 'object' || value === null) continue
      if (dataKeywords.has(key)) {
        dataWithin(value, data)
        continue
      }
      if (nameMaps.has(key) && isObject(value)) {
        if (mirrorKey in value) mirrors = true
        for (const name in value) visit(value[name], depth + 1, inner)
      } else visit(value, depth + 1, inner)
    }
  }
  visit(schema, 0, false)
  if (!mirrors && count <= schemaBounds.maxSubschemas && lists <= schemaBounds.maxSubschemas && deepest <= schemaBounds.maxDepth && dataFits(data)) unmirrored.add(schema)
  if (count > schemaBounds.maxSubschemas) problems.push({ path: '', message: `it has more than ${schemaBounds.maxSubschemas} subschemas` })
  if (lists > schemaBounds.maxSubschemas) problems.push({ path: '', message: `it holds more than ${schemaBounds.maxSubschemas} lists where schemas or annotations go` })
  if (deepest > schemaBounds.maxDepth) problems.push({ path: '', message: `it nests deeper than ${schemaBounds.maxDepth} levels` })
  if (data.deepest > schemaBounds.maxDepth) problems.push({ path: '', message: `a value under const, enum, default or examples nests deeper than ${schemaBounds.maxDepth} levels (or holds itself)` })
  if (data.nodes > schemaBounds.maxDataNodes) problems.push({ path: '', message: `the values under const, enum, default and examples hold more than ${schemaBounds.maxDataNodes} lists and objects` })
  if (schema.$schema !== undefined && !knownDialect(schema.$schema))
    problems.push({
      path: '/$schema',
      message: `$schema ${JSON.stringify(schema.$schema)} names a dialect emcp does not validate (2020-12, 2019-09, draft-07, draft-06, draft-04)`,
    })
  for (const { ref, scoped, node, key } of refs) {
    const at = (message: string): void => {
      problems.push({ path: `${pathTo(schema, node) ?? ''}/${key}`, message })
    }
    if (ref.startsWith('#/') || ref === '#') {
      if (!scoped && resolvePointer(schema, ref.slice(1)) === undefined) at(`$ref ${JSON.stringify(ref)} points at nothing in the schema`)
    } else if (ref.startsWith('#')) {
      if (!anchors.has(ref.slice(1))) at(`$ref ${JSON.stringify(ref)} names an anchor the schema does not define`)
    } else if (!ids.has(ref.split('#')[0] ?? '')) {
      at(`$ref ${JSON.stringify(ref)} is outside the schema: emcp resolves references within a schema only and never fetches one`)
    }
  }
  return problems
}

/** The JSON pointer of `target` within `root` (found by identity, depth first), or undefined. */
const pathTo = (root: unknown, target: object, depth = 0): string | undefined => {
  if (root === target) return ''
  if (typeof root !== 'object' || root === null || depth > schemaBounds.maxDepth) return undefined
  for (const [k, v] of Object.entries(root)) {
    const rest = pathTo(v, target, depth + 1)
    if (rest !== undefined) return `/${escapeToken(k)}${rest}`
  }
  return undefined
}

/** The lists and objects counted so far inside data values, and the deepest of them: a record each walk keeps and `dataWithin` updates in place. */
export interface DataSeen {
  nodes: number
  deepest: number
}

/** Whether the data values counted are within the bounds, so that a tools/list can write them. */
export const dataFits = (d: DataSeen): boolean => d.nodes <= schemaBounds.maxDataNodes && d.deepest <= schemaBounds.maxDepth

/**
 * Adds one data value's lists and objects to `seen` (in place) and says whether they still fit
 * the bounds: with a stack of its own, not by calling itself, and ending at the bounds, since
 * code can hand a value nested past what JSON.stringify writes, or holding itself (which would
 * loop, or double at every level). A list of scalars (`required`, most `enum`s), the commonest
 * data value, is one node with no stack: this runs for nearly every tool a server defines.
 */
export const dataWithin = (value: object, seen: DataSeen): boolean => {
  if (Array.isArray(value) && !value.some(isNode)) {
    seen.nodes++
    if (seen.deepest < 1) seen.deepest = 1
    return dataFits(seen)
  }
  const pending: Array<readonly [object, number]> = [[value, 1]]
  for (let next = pending.pop(); next !== undefined && dataFits(seen); next = pending.pop()) {
    const [node, at] = next
    seen.nodes++
    if (seen.deepest < at) seen.deepest = at
    if (at > schemaBounds.maxDepth) continue
    for (const v of Array.isArray(node) ? node : Object.values(node)) if (isNode(v)) pending.push([v, at + 1])
  }
  return dataFits(seen)
}

/** A list or an object (what a data value nests), not a scalar. */
const isNode = (v: unknown): v is object => typeof v === 'object' && v !== null
