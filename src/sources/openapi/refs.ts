/**
 * Schemas of an OpenAPI document made self-contained for MCP clients, which do not resolve
 * `$ref`s: each internal reference (`#/components/schemas/Pet`) is replaced by a copy of what
 * it points to, recursively. A schema that refers to itself (a tree, a linked list) cannot be
 * inlined whole: the reference that closes the cycle becomes `{}` (any value) with a
 * description naming the schema, and the cycle is reported, so the document is read in time
 * and space bounded by its size. OpenAPI 3.0's dialect is written as JSON Schema 2020-12 on
 * the way: `nullable: true` becomes a `"null"` type, boolean `exclusiveMinimum`/`Maximum`
 * become numbers.
 *
 * @example
 * import { inlined } from './refs.js'
 * const doc = { components: { schemas: { Id: { type: 'integer' } } } }
 * inlined(doc, { $ref: '#/components/schemas/Id' }, []) // { type: 'integer' }
 */
import { isObject } from '../../util/json-object.js'

// ---------------------------------------------------------------------------------------
// model

/** A schema, or any JSON value inside one. */
type Json = unknown

/** The most references one schema may expand into: a guard against documents that explode when inlined. */
export const maxExpansions = 10_000

/** The most values (objects, arrays, scalars) one inlined schema may hold: a tool's schema is sent whole in every tools/list. */
export const maxSchemaValues = 100_000

/** How deeply a document may nest, counting each `$ref` followed as one level more. */
export const maxNesting = 1000

// ---------------------------------------------------------------------------------------
// functions

/**
 * `schema` with every internal `$ref` into `doc` inlined; `cycles` receives the pointer of
 * each reference that closed a cycle (left as `{}`). Throws a TypeError naming a reference
 * that points nowhere or outside the document, or a schema that expands past `maxExpansions`.
 */
export const inlined = (doc: Json, schema: Json, cycles: string[]): Json => {
  let expansions = 0
  let values = 0
  // the references being expanded, innermost last: one set, so that a long chain stays linear
  const ancestors = new Set<string>()
  const walk = (node: Json, depth: number): Json => {
    if (++values > maxSchemaValues) throw new TypeError(`the schema holds more than ${maxSchemaValues} values when its references are inlined`)
    if (depth > maxNesting) throw new TypeError(`the schema nests deeper than ${maxNesting} levels (each $ref followed counts as one)`)
    if (Array.isArray(node)) return node.map((n) => walk(n, depth + 1))
    if (!isObject(node)) return node
    const ref = node.$ref
    if (typeof ref === 'string') {
      if (ancestors.has(ref)) {
        cycles.push(ref)
        return { description: `${nameOf(ref)} (recursive: not expanded further)` }
      }
      if (++expansions > maxExpansions) throw new TypeError(`the schema expands past ${maxExpansions} references when inlined`)
      const { $ref: _, ...siblings } = node
      ancestors.add(ref)
      const target = walk(resolve(doc, ref), depth + 1)
      ancestors.delete(ref)
      // 3.1 allows keywords beside a $ref (a description, mostly): they apply as well
      return Object.keys(siblings).length === 0 ? target : { ...(isObject(target) ? target : {}), ...(walk(siblings, depth) as object) }
    }
    const out: { [key: string]: Json } = {}
    for (const [k, v] of Object.entries(node)) out[k] = walk(v, depth + 1)
    return dialect2020(out)
  }
  return walk(schema, 0)
}

/**
 * How many values `doc` would hold with every internal `$ref` inlined (a cycle counted once),
 * counted only up to `cap`, in time linear in the document: each reference's size is found
 * once and remembered. A document of shared references (A uses B twice, B uses C twice, …)
 * is small as written and exponential when expanded, and so is any walk that expands it (a
 * validator's): this is checked first. Throws a TypeError past `maxNesting` levels.
 */
export const expandedSize = (doc: Json, cap: number): number => {
  const sizes = new Map<string, number>()
  const open = new Set<string>()
  const size = (node: Json, depth: number): number => {
    if (depth > maxNesting) throw new TypeError(`the document nests deeper than ${maxNesting} levels (each $ref followed counts as one)`)
    if (typeof node !== 'object' || node === null) return 1
    const ref = (node as { $ref?: unknown }).$ref
    let n = 1
    if (typeof ref === 'string' && ref.startsWith('#') && !open.has(ref)) {
      const known = sizes.get(ref)
      if (known !== undefined) n += known
      else {
        open.add(ref)
        const target = resolveOrUndefined(doc, ref)
        const found = target === undefined ? 1 : size(target, depth + 1)
        open.delete(ref)
        sizes.set(ref, found)
        n += found
      }
    }
    for (const v of Array.isArray(node) ? node : Object.values(node)) {
      n = Math.min(cap + 1, n + size(v, depth + 1))
      if (n > cap) return n
    }
    return n
  }
  return size(doc, 0)
}

/** What an internal reference (`#/a/b`) points to in `doc`; a TypeError for one that points nowhere. */
export const resolve = (doc: Json, ref: string): Json => {
  if (!ref.startsWith('#')) throw new TypeError(`the reference ${ref.slice(0, 200)} is outside the document (the parser bundles external ones first)`)
  let at: Json = doc
  for (const raw of ref.slice(1).split('/').slice(1)) {
    const key = decodeURIComponent(raw).replaceAll('~1', '/').replaceAll('~0', '~')
    if (!isObject(at) && !Array.isArray(at)) at = undefined
    else at = Object.hasOwn(at, key) ? (at as { [k: string]: Json })[key] : undefined
    if (at === undefined) throw new TypeError(`the reference ${ref.slice(0, 200)} points to nothing in the document`)
  }
  return at
}

// ---------------------------------------------------------------------------------------
// internals

const resolveOrUndefined = (doc: Json, ref: string): Json => {
  try {
    return resolve(doc, ref)
  } catch {
    return undefined
  }
}

const nameOf = (ref: string): string => ref.split('/').at(-1) ?? ref

/** OpenAPI 3.0's schema dialect, written as 2020-12. */
const dialect2020 = (s: { [key: string]: Json }): { [key: string]: Json } => {
  let out = s
  if (out.nullable === true) {
    const { nullable: _, ...rest } = out
    out = typeof rest.type === 'string' ? { ...rest, type: [rest.type, 'null'] } : { anyOf: [rest, { type: 'null' }] }
  } else if (out.nullable === false) {
    const { nullable: _, ...rest } = out
    out = rest
  }
  for (const [flag, bound] of [['exclusiveMinimum', 'minimum'], ['exclusiveMaximum', 'maximum']] as const) {
    if (typeof out[flag] !== 'boolean') continue
    const { [flag]: on, [bound]: limit, ...rest } = out
    out = on === true && typeof limit === 'number' ? { ...rest, [flag]: limit } : { ...rest, ...(limit === undefined ? {} : { [bound]: limit }) }
  }
  return out
}
