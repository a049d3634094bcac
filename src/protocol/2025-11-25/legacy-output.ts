/**
 * Structured results that are not objects, for 2025-11-25 clients. Since 2026-07-28 a tool's
 * output schema may describe any JSON value (an array, a string, ...) and `structuredContent`
 * carries it as it is; a 2025-11-25 client wants an object at the root of both. The 2025
 * adapter shows such a tool's output schema wrapped as
 * `{ type: 'object', properties: { result: <schema> }, required: ['result'] }` (same-document
 * references rewritten to match) and its structured results as `{ result: <value> }`.
 *
 * @example
 * import { legacyOutputSchema } from './legacy-output.js'
 * legacyOutputSchema({ type: 'array', items: { $ref: '#/$defs/n' }, $defs: { n: { type: 'number' } } })
 * // { type: 'object', properties: { result: { type: 'array', items: { $ref: '#/properties/result/$defs/n' }, ... } }, required: ['result'] }
 */
import { isObject } from '../../util/json-object.js'
import type { JsonSchema } from '../../schema/schema.js'

/** True when an output schema is not an object at its root, so 2025-11-25 clients get it wrapped. */
export const wrapsOutput = (outputSchema: JsonSchema | undefined): boolean => outputSchema !== undefined && outputSchema.type !== 'object'

/** The output schema a 2025-11-25 client is shown. */
export const legacyOutputSchema = (natural: JsonSchema): JsonSchema => {
  const { $schema, ...rest } = natural
  const rebased = typeof natural.$id === 'string' && !natural.$id.startsWith('#') ? rest : (rewrite(rest) as JsonSchema)
  return { ...($schema === undefined ? {} : { $schema }), type: 'object', properties: { result: rebased }, required: ['result'] }
}

const dataKeywords = new Set(['const', 'enum', 'default', 'examples'])
const nameMaps = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas', 'dependencies'])

/** Same-document pointers moved under `#/properties/result`; subtrees with their own `$id` keep theirs. */
const rewrite = (node: unknown): unknown => {
  if (Array.isArray(node)) return node.map(rewrite)
  if (!isObject(node)) return node
  if (typeof node.$id === 'string' && !node.$id.startsWith('#')) return node
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(node)) {
    if ((key === '$ref' || key === '$dynamicRef') && typeof value === 'string' && (value === '#' || value.startsWith('#/')))
      out[key] = `#/properties/result${value.slice(1)}`
    else if (dataKeywords.has(key)) out[key] = value
    else if (nameMaps.has(key) && isObject(value)) out[key] = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, rewrite(v)]))
    else out[key] = rewrite(value)
  }
  return out
}
