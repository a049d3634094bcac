/**
 * A lint for tool entries that clients reject or handle badly: external `$ref`s, roots that
 * are not objects, composition at the root, missing descriptions, names longer than some
 * model APIs take. Errors are what a client will refuse; warnings are what some will. Names
 * with dots (`category.tool`) are valid MCP names and draw nothing.
 *
 * @example
 * import { lintTool } from 'emcp/manifest'
 * lintTool({ name: 'f', inputSchema: { type: 'array' } })
 * // [{ tool: 'f', severity: 'error', rule: 'object-root', path: '/inputSchema/type', message: … }, …]
 */
import { isObject } from '../../util/json-object.js'
import type { ManifestTool } from './manifest.js'

/** One finding of the lint. */
export interface LintIssue {
  readonly tool: string
  readonly severity: 'error' | 'warning'
  /** A short stable name of the rule, e.g. `external-ref`. */
  readonly rule: string
  /** A JSON pointer into the tool entry. */
  readonly path: string
  readonly message: string
}

/** The findings for one tool entry, in a stable order. */
export const lintTool = (tool: Pick<ManifestTool, 'name' | 'description' | 'inputSchema' | 'outputSchema'>): ReadonlyArray<LintIssue> => {
  const out: LintIssue[] = []
  const add = (severity: LintIssue['severity'], rule: string, path: string, message: string): void => {
    out.push({ tool: tool.name, severity, rule, path, message })
  }
  if (typeof tool.description !== 'string' || tool.description.trim() === '')
    add('warning', 'description', '/description', 'no description: models choose tools by it, and some clients and test suites require one')
  // a dot is valid in MCP tool names (catalogs namespace with it): only the length draws a warning
  if (tool.name.length > 64)
    add('warning', 'long-name', '/name', `the name has ${tool.name.length} characters: some model APIs accept at most 64, and a client must shorten it for them`)
  for (const slot of ['inputSchema', 'outputSchema'] as const) {
    const schema = tool[slot]
    if (schema === undefined) continue
    if (!isObject(schema)) {
      add('error', 'object-root', `/${slot}`, `the ${slot} must be a JSON Schema object`)
      continue
    }
    if (schema.type !== 'object')
      add('error', 'object-root', `/${slot}/type`, `the ${slot} root must have type "object" (MCP requires it; clients reject other roots)`)
    for (const k of ['anyOf', 'oneOf', 'allOf', 'not', 'if'])
      if (k in schema) add('warning', 'root-composition', `/${slot}/${k}`, `"${k}" at the root of the ${slot}: several model APIs reject composition at the root`)
    walk(schema, `/${slot}`, (node, path) => {
      if (typeof node.$ref === 'string' && !node.$ref.startsWith('#'))
        add('error', 'external-ref', `${path}/$ref`, `external $ref ${node.$ref}: clients cannot resolve it; inline the schema`)
    })
    if (slot === 'inputSchema' && isObject(schema.properties))
      for (const [name, prop] of Object.entries(schema.properties))
        if (isObject(prop) && typeof prop.description !== 'string' && typeof prop.title !== 'string')
          add('warning', 'argument-description', `/inputSchema/properties/${name}`, `argument "${name}" has no description`)
  }
  return out
}

// ---------------------------------------------------------------------------------------
// internals

const dataKeywords = new Set(['const', 'enum', 'default', 'examples', 'required', 'type'])

const walk = (node: unknown, path: string, visit: (node: { readonly [key: string]: unknown }, path: string) => void): void => {
  if (Array.isArray(node)) {
    node.forEach((n, i) => walk(n, `${path}/${i}`, visit))
    return
  }
  if (!isObject(node)) return
  visit(node, path)
  for (const [k, v] of Object.entries(node)) {
    if (dataKeywords.has(k)) continue
    if ((k === 'properties' || k === 'patternProperties' || k === '$defs' || k === 'definitions') && isObject(v))
      for (const [name, sub] of Object.entries(v)) walk(sub, `${path}/${k}/${name}`, visit)
    else walk(v, `${path}/${k}`, visit)
  }
}
