/**
 * Hand-edited schemas that cannot work, found before a server starts rather than on the
 * first call: a keyword whose value has the wrong kind (`type: "nope"`, `minLength: "3"`, a
 * `pattern` that is not a regular expression), a `$ref` that resolves to nothing, a dialect
 * emcp does not validate. Each problem names the tool and the JSON pointer into its entry.
 * Nothing is compiled here: a server of thousands of tools still compiles each validator on
 * the tool's first call, and the general validator engine is loaded only for a schema that
 * is not plain (see plain-validator.ts).
 *
 * @example
 * import { schemaErrors } from './schema-errors.js'
 * schemaErrors({ name: 'f', inputSchema: { type: 'object', properties: { n: { type: 'nope' } } } })
 * // [{ tool: 'f', path: '/inputSchema/properties/n/type', message: 'must be equal to one of the allowed values' }]
 */
import { escapeToken } from '../../util/json-pointer.js'
import { isPlainSchema } from '../../schema/plain-validator.js'
import { locatedSchemaProblems } from '../../schema/schema-check.js'
import { metaSchemaIssues, type JsonSchema } from '../../schema/schema.js'
import type { ManifestTool } from './manifest.js'
import type { ManifestProblem } from './validate.js'

/** Every reason the entry's schemas cannot be served, each at the pointer of the keyword at fault. */
export const schemaErrors = (entry: Pick<ManifestTool, 'name' | 'inputSchema' | 'outputSchema'>): ReadonlyArray<ManifestProblem> => {
  const out: ManifestProblem[] = []
  for (const slot of ['inputSchema', 'outputSchema'] as const) {
    const schema = entry[slot]
    if (schema === undefined) continue
    const located = locatedSchemaProblems(schema)
    for (const p of located) out.push({ tool: entry.name, path: `/${slot}${p.path}`, message: p.message })
    // a schema too big, too deep or of an unknown dialect is not read any further
    if (located.some((p) => p.path === '' || p.path === '/$schema')) continue
    // a plain schema's keywords are known well formed (patterns included); only the others
    // need the meta-schema (and so the general engine)
    if (isPlainSchema(schema) || isPlainSchema(withoutContentAnnotations(schema) as JsonSchema)) continue
    // the meta-schema reports one keyword several ways (each branch of an anyOf): the first says it best
    const seen = new Set<string>()
    for (const issue of metaSchemaIssues(schema)) {
      if (seen.has(issue.path)) continue
      seen.add(issue.path)
      out.push({ tool: entry.name, path: `/${slot}${issue.path}`, message: `${issue.message} (${describeAt(schema, issue.path)})` })
    }
    for (const p of badPatterns(schema, '')) if (!seen.has(p.path)) out.push({ tool: entry.name, path: `/${slot}${p.path}`, message: p.message })
  }
  return out
}

// ---------------------------------------------------------------------------------------
// internals

/** Keywords whose values are data, not schemas: a `pattern` key inside them is not one. */
const dataKeywords = new Set(['const', 'enum', 'default', 'examples'])

/** The `pattern`s and `patternProperties` keys that are not regular expressions (as validators compile them: with the `u` flag). */
const badPatterns = (node: unknown, path: string): ReadonlyArray<{ readonly path: string; readonly message: string }> => {
  if (Array.isArray(node)) return node.flatMap((n, i) => badPatterns(n, `${path}/${i}`))
  if (typeof node !== 'object' || node === null) return []
  const out: Array<{ path: string; message: string }> = []
  for (const [k, v] of Object.entries(node)) {
    if (dataKeywords.has(k)) continue
    const at = `${path}/${escapeToken(k)}`
    if (k === 'pattern' && typeof v === 'string') {
      const why = regexProblem(v)
      if (why !== undefined) out.push({ path: at, message: `"pattern" is not a regular expression: ${why}` })
    } else if (k === 'patternProperties' && typeof v === 'object' && v !== null)
      for (const [p, sub] of Object.entries(v)) {
        const why = regexProblem(p)
        if (why !== undefined) out.push({ path: `${at}/${escapeToken(p)}`, message: `the key of "patternProperties" is not a regular expression: ${why}` })
        out.push(...badPatterns(sub, `${at}/${escapeToken(p)}`))
      }
    else out.push(...badPatterns(v, at))
  }
  return out
}

/**
 * The schema without its content annotations (`contentMediaType`, `contentEncoding` as
 * strings): validators ignore them, so they do not make a schema less plain.
 */
const withoutContentAnnotations = (node: unknown): unknown => {
  if (Array.isArray(node)) return node.map(withoutContentAnnotations)
  if (typeof node !== 'object' || node === null) return node
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(node)) {
    if ((k === 'contentMediaType' || k === 'contentEncoding') && typeof v === 'string') continue
    out[k] = dataKeywords.has(k) ? v : withoutContentAnnotations(v)
  }
  return out
}

const regexProblem = (source: string): string | undefined => {
  try {
    new RegExp(source, 'u')
    return undefined
  } catch (e) {
    return e instanceof Error ? e.message : String(e)
  }
}

/** The keyword at the end of a pointer and the value found there, for the message. */
const describeAt = (schema: unknown, pointer: string): string => {
  const tokens = pointer.split('/').slice(1)
  let v: unknown = schema
  for (const t of tokens) v = typeof v === 'object' && v !== null ? (v as Record<string, unknown>)[t.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined
  const shown = JSON.stringify(v) ?? 'nothing'
  const keyword = tokens.at(-1)
  return `${keyword === undefined ? 'the schema' : `"${escapeToken(keyword)}"`} is ${shown.length > 80 ? `${shown.slice(0, 79)}…` : shown}`
}
