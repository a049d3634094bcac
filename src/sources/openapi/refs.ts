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

// ---------------------------------------------------------------------------------------
// functions

/**
 * `schema` with every internal `$ref` into `doc` inlined; `cycles` receives the pointer of
 * each reference that closed a cycle (left as `{}`). Throws a TypeError naming a reference
 * that points nowhere or outside the document, or a schema that expands past `maxExpansions`.
 */
export const inlined = (doc: Json, schema: Json, cycles: string[]): Json => {
  let expansions = 0
  const walk = (node: Json, ancestors: ReadonlyArray<string>): Json => {
    if (Array.isArray(node)) return node.map((n) => walk(n, ancestors))
    if (!isObject(node)) return node
    const ref = node.$ref
    if (typeof ref === 'string') {
      if (ancestors.includes(ref)) {
        cycles.push(ref)
        return { description: `${nameOf(ref)} (recursive: not expanded further)` }
      }
      if (++expansions > maxExpansions) throw new TypeError(`the schema expands past ${maxExpansions} references when inlined`)
      const { $ref: _, ...siblings } = node
      const target = walk(resolve(doc, ref), [...ancestors, ref])
      // 3.1 allows keywords beside a $ref (a description, mostly): they apply as well
      return Object.keys(siblings).length === 0 ? target : { ...(isObject(target) ? target : {}), ...(walk(siblings, ancestors) as object) }
    }
    const out: { [key: string]: Json } = {}
    for (const [k, v] of Object.entries(node)) out[k] = walk(v, ancestors)
    return dialect2020(out)
  }
  return walk(schema, [])
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
