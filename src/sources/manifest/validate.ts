/**
 * Checking a manifest read at run time: first its structure (`readManifest`: what
 * `fromManifest` needs, with messages naming the tool and the key), then everything else
 * (`validateManifest`): schemas compile as JSON Schema 2020-12, policies (emcp's and
 * SEMOSS's) and dispatch metadata are well formed, fingerprints still match, and the lint.
 *
 * @example
 * import { validateManifest } from 'emcp/manifest'
 * const report = validateManifest({ tools: [{ name: 'f', inputSchema: { type: 'object', properties: { n: { type: 'nope' } } } }] })
 * report.errors // [{ tool: 'f', path: '/inputSchema/properties/n/type', message: 'must be equal to one of the allowed values ("type" is "nope")' }]
 */
import * as E from 'fp-ts/lib/Either.js'
import { isObject } from '../../util/json-object.js'
import { validatorOf, type JsonSchema } from '../../schema/schema.js'
import { unknownKeywords } from '../../schema/keywords.js'
import { fingerprint } from './canonical.js'
import { meosProblems } from './dispatch.js'
import { toolFingerprint } from './export.js'
import { lintTool } from './lint.js'
import { metaKeys, type Manifest } from './manifest.js'
import { readPolicy } from './policy.js'
import { schemaErrors } from './schema-errors.js'
import { semossProblems, semossWarnings } from './semoss.js'

/** A problem with one tool of a manifest (`tool` is empty for the document itself). */
export interface ManifestProblem {
  readonly tool: string
  /** A JSON pointer into the tool entry (or the document). */
  readonly path: string
  readonly message: string
}

/** What `validateManifest` found. */
export interface ValidationReport {
  readonly tools: number
  readonly errors: ReadonlyArray<ManifestProblem>
  readonly warnings: ReadonlyArray<ManifestProblem>
}

/** Options of `validateManifest`. */
export interface ValidateOptions {
  /** Called after each tool with the count done and the total. */
  readonly onProgress?: (done: number, total: number) => void
}

const namePattern = /^[A-Za-z0-9._-]{1,128}$/

/** The manifest when its structure is sound, or every structural problem, each naming tool and key. */
export const readManifest = (u: unknown): E.Either<ReadonlyArray<ManifestProblem>, Manifest> => {
  const problems: ManifestProblem[] = []
  const at = (tool: string, path: string, message: string): void => {
    problems.push({ tool, path, message })
  }
  if (!isObject(u)) return E.left([{ tool: '', path: '', message: 'a manifest must be a JSON object with a "tools" array' }])
  if (u._meta !== undefined && !isObject(u._meta)) at('', '/_meta', '"_meta" must be an object')
  if (!Array.isArray(u.tools)) return E.left([...problems, { tool: '', path: '/tools', message: '"tools" must be an array' }])
  const seen = new Set<string>()
  u.tools.forEach((t: unknown, i: number) => {
    if (!isObject(t)) return at(`#${i}`, '', 'a tool entry must be an object')
    const name = typeof t.name === 'string' ? t.name : `#${i}`
    if (typeof t.name !== 'string' || !namePattern.test(t.name)) at(name, '/name', `"name" must be 1-128 of A-Z a-z 0-9 _ - . (found ${JSON.stringify(t.name)})`)
    else if (seen.has(t.name)) at(name, '/name', `duplicate tool name ${t.name}`)
    else seen.add(t.name)
    for (const key of ['title', 'description'])
      if (t[key] !== undefined && typeof t[key] !== 'string') at(name, `/${key}`, `"${key}" must be a string`)
    if (!isObject(t.inputSchema)) at(name, '/inputSchema', '"inputSchema" must be a JSON Schema object')
    if (t.outputSchema !== undefined && !isObject(t.outputSchema)) at(name, '/outputSchema', '"outputSchema" must be a JSON Schema object')
    if (t.annotations !== undefined && !isObject(t.annotations)) at(name, '/annotations', '"annotations" must be an object')
    if (t.icons !== undefined && !Array.isArray(t.icons)) at(name, '/icons', '"icons" must be an array')
    if (t._meta !== undefined && !isObject(t._meta)) return at(name, '/_meta', '"_meta" must be an object')
    if (t._type !== undefined && typeof t._type !== 'string') at(name, '/_type', '"_type" must be a string')
    const policy = readPolicy(t._meta)
    if (E.isLeft(policy)) for (const p of policy.left) at(name, p.path, p.message)
    if (t._meta !== undefined) problems.push(...semossProblems(name, t._meta))
    const dispatch = t._meta?.[metaKeys.dispatch]
    if (dispatch !== undefined) {
      if (!isObject(dispatch)) at(name, `/_meta/${metaKeys.dispatch}`, 'dispatch metadata must be an object')
      else
        for (const part of ['arguments', 'result'])
          if (dispatch[part] !== undefined && (!isObject(dispatch[part]) || !Object.values(dispatch[part] as object).every((v) => typeof v === 'string')))
            at(name, `/_meta/${metaKeys.dispatch}/${part}`, `"${part}" must map names to codec names`)
    }
    problems.push(...meosProblems(name, t))
  })
  return problems.length > 0 ? E.left(problems) : E.right(u as unknown as Manifest)
}

/** Everything wrong with a manifest (errors), and everything doubtful (warnings). */
export const validateManifest = (u: unknown, options: ValidateOptions = {}): ValidationReport => {
  const read = readManifest(u)
  if (E.isLeft(read)) return { tools: isObject(u) && Array.isArray(u.tools) ? u.tools.length : 0, errors: read.left, warnings: [] }
  const m = read.right
  const errors: ManifestProblem[] = []
  const warnings: ManifestProblem[] = []
  const total = m.tools.length
  m.tools.forEach((tool, i) => {
    const invalid = schemaErrors(tool)
    errors.push(...invalid)
    for (const slot of ['inputSchema', 'outputSchema'] as const) {
      const schema = tool[slot]
      if (schema === undefined || invalid.length > 0) continue
      const compiled = compiles(schema)
      if (compiled !== undefined) errors.push({ tool: tool.name, path: `/${slot}`, message: `does not compile as JSON Schema 2020-12: ${compiled}` })
    }
    // a typo validates nothing: a warning here, an error under --strict
    warnings.push(...keywordProblems(tool))
    for (const issue of lintTool(tool)) (issue.severity === 'error' ? errors : warnings).push({ tool: issue.tool, path: issue.path, message: issue.message })
    warnings.push(...semossWarnings(tool))
    const stored = tool._meta?.[metaKeys.fingerprint]
    if (stored !== undefined && stored !== toolFingerprint(tool))
      warnings.push({ tool: tool.name, path: `/_meta/${metaKeys.fingerprint}`, message: 'the fingerprint does not match the entry: it was edited after export' })
    options.onProgress?.(i + 1, total)
  })
  const stored = m._meta?.[metaKeys.fingerprint]
  if (stored !== undefined) {
    const { [metaKeys.fingerprint]: _, ...meta } = m._meta ?? {}
    if (stored !== fingerprint({ _meta: meta, tools: m.tools }))
      warnings.push({ tool: '', path: `/_meta/${metaKeys.fingerprint}`, message: 'the manifest fingerprint does not match its content: it was edited after export' })
  }
  return { tools: total, errors, warnings }
}

/** The unknown keywords of an entry's schemas (`requird`, another library's `kind`), each at its pointer in the entry. */
export const keywordProblems = (tool: { readonly name: string; readonly inputSchema?: unknown; readonly outputSchema?: unknown }): ReadonlyArray<ManifestProblem> =>
  (['inputSchema', 'outputSchema'] as const).flatMap((slot) => {
    const schema = tool[slot]
    return isObject(schema) ? unknownKeywords(schema).map((p) => ({ tool: tool.name, path: `/${slot}${p.path}`, message: p.message })) : []
  })

// ---------------------------------------------------------------------------------------
// internals

/** Undefined when the schema compiles, else why not. */
const compiles = (schema: JsonSchema): string | undefined => {
  try {
    // compilation happens on first use; the value checked does not matter
    validatorOf(schema).decode(undefined)
    return undefined
  } catch (e) {
    return e instanceof Error ? e.message : String(e)
  }
}
