/**
 * Self-contained JSON Schema 2020-12: local `$ref`s inlined, external ones refused,
 * draft-07 spellings (`definitions`, array `items`, `additionalItems`, `dependencies`)
 * rewritten, and the dialect named. A manifest's schemas must be readable alone: a client
 * that receives one tool has no base URI to resolve anything against.
 *
 * @example
 * import { selfContained } from 'emcp/manifest'
 * selfContained({ type: 'object', properties: { p: { $ref: '#/$defs/point' } }, $defs: { point: { type: 'array' } } })
 * // Right({ $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', properties: { p: { type: 'array' } } })
 */
import * as E from 'fp-ts/lib/Either.js'
import { isObject } from '../../util/json-object.js'
import { resolvePointer } from '../../util/json-pointer.js'
import type { Issue, JsonSchema } from '../../schema/schema.js'

/** The dialect every manifest schema is written in. */
export const dialect2020 = 'https://json-schema.org/draft/2020-12/schema'

/**
 * The schema rewritten to stand alone in 2020-12. A recursive reference cannot be inlined:
 * it stays, pointing into the schema's own `$defs`, which are then kept (still local).
 */
export const selfContained = (schema: JsonSchema): E.Either<ReadonlyArray<Issue>, JsonSchema> => {
  const issues: Issue[] = []
  const root = toDialect2020(schema)
  const expanding: string[] = []
  let recursive = false

  const resolve = (ref: string, path: string): unknown => {
    if (ref === '#') return root
    if (ref.startsWith('#/')) {
      const node = resolvePointer(root, ref.slice(1))
      if (node === undefined) issues.push({ path, message: `$ref ${ref} points to nothing in this schema` })
      return node
    }
    const found = findAnchor(root, ref.slice(1))
    if (found === undefined) issues.push({ path, message: `$ref ${ref} names no $anchor in this schema` })
    return found
  }

  const walk = (node: unknown, path: string): unknown => {
    if (Array.isArray(node)) return node.map((n, i) => walk(n, `${path}/${i}`))
    if (!isObject(node)) return node
    const ref = node.$ref
    if (typeof ref === 'string') {
      if (!ref.startsWith('#')) {
        issues.push({ path: `${path}/$ref`, message: `external $ref ${ref}: a manifest schema must be self-contained` })
        return node
      }
      const key = ref.replace(/^#\/definitions\//, '#/$defs/')
      if (expanding.includes(key)) {
        recursive = true
        return { ...mapValues(node, path, walk), $ref: key }
      }
      const target = resolve(key, `${path}/$ref`)
      if (target === undefined) return node
      expanding.push(key)
      const inlined = walk(target, path)
      expanding.pop()
      const { $ref: _ref, ...siblings } = node
      const rest = mapValues(siblings, path, walk)
      if (Object.keys(rest).length === 0) return inlined
      // annotations beside a $ref only describe it; anything else must apply as well as the target
      return Object.keys(rest).every((k) => annotationKeywords.has(k)) && isObject(inlined)
        ? { ...inlined, ...rest }
        : { ...rest, allOf: [inlined] }
    }
    return mapValues(node, path, walk)
  }

  const { $defs, ...body } = root
  const out = walk(body, '') as Record<string, unknown>
  if (recursive && isObject($defs)) out.$defs = mapValues($defs, '/$defs', (n, p) => walkKeepingRefs(n, p))
  if (issues.length > 0) return E.left(issues)
  return E.right({ $schema: dialect2020, ...out })

  // inside kept $defs, refs stay as they are (they are local, and may be recursive)
  function walkKeepingRefs(node: unknown, path: string): unknown {
    if (Array.isArray(node)) return node.map((n, i) => walkKeepingRefs(n, `${path}/${i}`))
    if (!isObject(node)) return node
    const ref = node.$ref
    if (typeof ref === 'string' && !ref.startsWith('#'))
      issues.push({ path: `${path}/$ref`, message: `external $ref ${ref}: a manifest schema must be self-contained` })
    const mapped = mapValues(node, path, walkKeepingRefs)
    return typeof ref === 'string' ? { ...mapped, $ref: ref.replace(/^#\/definitions\//, '#/$defs/') } : mapped
  }
}

// ---------------------------------------------------------------------------------------
// internals

const annotationKeywords = new Set(['title', 'description', 'default', 'examples', 'deprecated', 'readOnly', 'writeOnly', '$comment'])

/** Maps the subschemas of a schema object through `f`, leaving data (const, enum, …) alone. */
const mapValues = (
  o: { readonly [key: string]: unknown },
  path: string,
  f: (v: unknown, path: string) => unknown,
): Record<string, unknown> => {
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(o)) {
    if (keywordsWithData.has(k)) out[k] = v
    else if (keywordsWithNames.has(k) && isObject(v)) {
      const named: Record<string, unknown> = {}
      for (const [name, sub] of Object.entries(v)) named[name] = f(sub, `${path}/${k}/${name}`)
      out[k] = named
    } else out[k] = f(v, `${path}/${k}`)
  }
  return out
}

/** Keywords whose values are data, not schemas: never walked for `$ref`. */
const keywordsWithData = new Set([
  'const', 'enum', 'default', 'examples', 'required', 'type', '$comment', 'description', 'title', 'dependentRequired', 'format', 'pattern',
])

/** Keywords whose values map names (which may be anything, `type` included) to schemas. */
const keywordsWithNames = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas', 'dependencies'])

const findAnchor = (node: unknown, anchor: string): unknown => {
  if (Array.isArray(node)) {
    for (const n of node) {
      const found = findAnchor(n, anchor)
      if (found !== undefined) return found
    }
    return undefined
  }
  if (!isObject(node)) return undefined
  if (node.$anchor === anchor) return node
  let found: unknown
  mapValues(node, '', (v) => (found ??= findAnchor(v, anchor)))
  return found
}

/** Rewrites draft-07 spellings to their 2020-12 equivalents, at every level. */
const toDialect2020 = (schema: JsonSchema): JsonSchema => {
  const rewrite = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(rewrite)
    if (!isObject(node)) return node
    const out: Record<string, unknown> = {}
    for (const [k, v] of Object.entries(node)) {
      if (keywordsWithData.has(k)) out[k] = v
      else if (keywordsWithNames.has(k) && k !== 'dependencies' && k !== 'definitions' && k !== '$defs' && isObject(v))
        out[k] = Object.fromEntries(Object.entries(v).map(([name, sub]) => [name, rewrite(sub)]))
      else if (k === '$schema') continue
      else if ((k === 'definitions' || k === '$defs') && isObject(v))
        out.$defs = { ...(isObject(out.$defs) ? out.$defs : {}), ...Object.fromEntries(Object.entries(v).map(([name, sub]) => [name, rewrite(sub)])) }
      else if (k === 'items' && Array.isArray(v)) out.prefixItems = rewrite(v)
      else if (k === 'additionalItems') {
        if (Array.isArray(node.items)) out.items = rewrite(v)
      } else if (k === 'dependencies' && isObject(v)) {
        for (const [p, d] of Object.entries(v)) {
          const slot = Array.isArray(d) ? 'dependentRequired' : 'dependentSchemas'
          out[slot] = { ...(isObject(out[slot]) ? out[slot] : {}), [p]: Array.isArray(d) ? d : rewrite(d) }
        }
      } else out[k] = rewrite(v)
    }
    return out
  }
  return rewrite(schema) as JsonSchema
}
