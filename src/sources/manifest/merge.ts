/**
 * Re-exporting from code without losing hand edits: `mergeManifests(file, code)` takes each
 * tool's contract (its schemas and dispatch metadata) from the code, and keeps what people
 * edit by hand in the file (titles, descriptions, annotations, policies, any other `_meta`,
 * `_type`, extension fields). Each entry's `emcp/fingerprint` is the base of the merge: the
 * fingerprint of the entry as the code last exported it. An entry whose content still
 * matches it was not edited, and takes the code's; one whose code still matches it keeps
 * the file's edits; where both changed, the file's edits are kept over the code's new
 * contract and every field both give a value to and now disagree on is listed as a
 * conflict (the base is one fingerprint, not a copy: which side changed a field cannot be
 * told, so a field only the file edited is listed too). An entry without a fingerprint (a
 * hand-written file, as SEMOSS keeps them) counts as edited; the code counts as changed
 * for it when its contract differs from the file's.
 *
 * @example
 * import { mergeManifests } from 'emcp/manifest'
 * const code = { tools: [{ name: 'f', description: 'From code.', inputSchema: { type: 'object' } }] }
 * const file = { tools: [{ name: 'f', description: 'Edited by hand.', inputSchema: { type: 'object' }, _meta: { SMSS_MCP_EXECUTION: 'ask' } }] }
 * mergeManifests(file, code).manifest.tools[0] // description 'Edited by hand.', the policy kept
 */
import { isObject } from '../../util/json-object.js'
import { escapeToken } from '../../util/json-pointer.js'
import { canonicalJson, fingerprint } from './canonical.js'
import { byCodeUnits, toolFingerprint } from './export.js'
import { metaKeys, type Manifest, type ManifestTool } from './manifest.js'
import { dispatchNameOf } from './semoss.js'

// ---------------------------------------------------------------------------------------
// model

/** A field both the file and the code changed: the file's value is the one kept. */
export interface MergeConflict {
  readonly tool: string
  /** A JSON pointer into the tool entry, e.g. `/description` or `/_meta/SMSS_MCP_EXECUTION`. */
  readonly path: string
  /** The file's value (kept); undefined when the file has none. */
  readonly file: unknown
  /** The code's value (not taken); undefined when the code has none. */
  readonly code: unknown
}

/** What `mergeManifests` made, and what it did tool by tool. */
export interface MergeResult {
  readonly manifest: Manifest
  /** Tools whose hand edits were kept. */
  readonly kept: ReadonlyArray<string>
  /** Of those, tools whose contract (schemas, dispatch) came new from the code. */
  readonly contractChanged: ReadonlyArray<string>
  /** Tools only the code has (taken from it). */
  readonly added: ReadonlyArray<string>
  /** Tools only the file has (no longer in the code: left out). */
  readonly removed: ReadonlyArray<string>
  readonly conflicts: ReadonlyArray<MergeConflict>
}

// ---------------------------------------------------------------------------------------
// functions

/** The manifest of the code with the file's hand edits kept (see the module header). */
export const mergeManifests = (file: Manifest, code: Manifest): MergeResult => {
  const pairs = paired(file.tools, code.tools)
  const tools: ManifestTool[] = []
  const kept: string[] = []
  const contractChanged: string[] = []
  const conflicts: MergeConflict[] = []
  for (const c of code.tools) {
    const f = pairs.get(c.name)
    if (f === undefined) {
      tools.push(c)
      continue
    }
    const merged = mergeTool(f, c)
    tools.push(merged.tool)
    if (merged.kept) kept.push(f.name)
    if (merged.kept && !sameContract(f, c)) contractChanged.push(f.name)
    conflicts.push(...merged.conflicts)
  }
  const matched = new Set([...pairs.values()].map((f) => f.name))
  const added = code.tools.filter((c) => !pairs.has(c.name)).map((c) => c.name)
  const removed = file.tools.filter((f) => !matched.has(f.name)).map((f) => f.name)
  tools.sort((a, b) => byCodeUnits(a.name, b.name))
  // the document: the file's own keys, the code's (server, excluded) over them, a new fingerprint
  const { [metaKeys.fingerprint]: _f, ...fileMeta } = file._meta ?? {}
  const { [metaKeys.fingerprint]: _c, ...codeMeta } = code._meta ?? {}
  const meta = { ...fileMeta, ...codeMeta }
  const manifest = { _meta: { ...meta, [metaKeys.fingerprint]: fingerprint({ _meta: meta, tools }) }, tools }
  return { manifest, kept, contractChanged, added, removed, conflicts }
}

// ---------------------------------------------------------------------------------------
// internals

/** The keys of an entry that make its contract: what the code defines and the handler relies on. */
const contractKeys = new Set(['name', 'inputSchema', 'outputSchema'])

/** The `_meta` keys the code owns: its fingerprint (the merge's base) and the dispatch metadata of its codecs. */
const codeMetaKeys = new Set<string>([metaKeys.fingerprint, metaKeys.dispatch])

/**
 * The file entry of each code tool, by the code tool's name: the entry of that name, else an
 * entry renamed in the file whose `SMSS_FUNCTION_NAME` names the code tool (it keeps its name).
 */
const paired = (file: ReadonlyArray<ManifestTool>, code: ReadonlyArray<ManifestTool>): Map<string, ManifestTool> => {
  const byName = new Map(file.map((f) => [f.name, f]))
  const codeNames = new Set(code.map((c) => c.name))
  const out = new Map<string, ManifestTool>()
  for (const c of code) {
    const same = byName.get(c.name)
    if (same !== undefined) out.set(c.name, same)
  }
  for (const f of file) {
    const target = dispatchNameOf(f)
    if (target !== f.name && !codeNames.has(f.name) && codeNames.has(target) && !out.has(target)) out.set(target, f)
  }
  return out
}

const sameContract = (f: ManifestTool, c: ManifestTool): boolean =>
  canonicalJson(contractOf(f)) === canonicalJson(contractOf(c))

const contractOf = (t: ManifestTool): unknown => ({ inputSchema: t.inputSchema, outputSchema: t.outputSchema, dispatch: t._meta?.[metaKeys.dispatch] })

/** One tool: the code's entry, the file's, or the code's contract under the file's edits. */
const mergeTool = (f: ManifestTool, c: ManifestTool): { readonly tool: ManifestTool; readonly kept: boolean; readonly conflicts: ReadonlyArray<MergeConflict> } => {
  const base = f._meta?.[metaKeys.fingerprint]
  const codePrint = toolFingerprint(c)
  const fileEdited = typeof base !== 'string' || toolFingerprint(f) !== base
  if (!fileEdited) return { tool: c, kept: false, conflicts: [] }
  const codeChanged = typeof base === 'string' ? codePrint !== base : !sameContract(f, c)
  // the code did not move since the file's base: the file's entry is the merge (with the code's name, if it was renamed by hand)
  if (typeof base === 'string' && !codeChanged) return { tool: ordered(withPrint(f, codePrint)), kept: true, conflicts: [] }
  const tool = ordered(overlay(f, c, codePrint))
  return { tool, kept: true, conflicts: codeChanged ? disagreements(f, c) : [] }
}

/** The code's entry with every field a person edits taken from the file where the file has it. */
const overlay = (f: ManifestTool, c: ManifestTool, codePrint: string): ManifestTool => {
  // entries, not assignments: a key is an own property whatever it is called
  const edited = Object.entries(f).filter(([k]) => !contractKeys.has(k) && k !== '_meta')
  const meta = [...Object.entries(c._meta ?? {}), ...Object.entries(f._meta ?? {}).filter(([k]) => !codeMetaKeys.has(k)), [metaKeys.fingerprint, codePrint]]
  return Object.fromEntries([...Object.entries(c), ...edited, ['name', f.name], ['_meta', Object.fromEntries(meta)]]) as unknown as ManifestTool
}

/** The order `toManifest` writes an entry's keys in (the rest sorted, `_meta` last), so that merges diff cleanly. */
const entryOrder = ['name', 'title', 'description', 'inputSchema', 'outputSchema', 'annotations', 'icons', '_type']

const ordered = (t: ManifestTool): ManifestTool => {
  const o = t as unknown as Record<string, unknown>
  const known = entryOrder.filter((k) => Object.hasOwn(o, k) && o[k] !== undefined).map((k): [string, unknown] => [k, o[k]])
  const rest = Object.entries(o).filter(([k]) => !entryOrder.includes(k) && k !== '_meta').sort(([a], [b]) => byCodeUnits(a, b))
  // _meta keys sorted, the fingerprint last, as toManifest writes them
  const last = (k: string): number => (k === metaKeys.fingerprint ? 1 : 0)
  const meta = isObject(o._meta) ? [['_meta', Object.fromEntries(Object.entries(o._meta).sort(([a], [b]) => last(a) - last(b) || byCodeUnits(a, b)))] as [string, unknown]] : []
  return Object.fromEntries([...known, ...rest, ...meta]) as unknown as ManifestTool
}

const withPrint = (f: ManifestTool, print: string): ManifestTool => ({ ...f, _meta: { ...f._meta, [metaKeys.fingerprint]: print } })

/**
 * The hand-editable fields on which the file and the code disagree, each top-level key and
 * each `_meta` key, where both have a value: the code may have changed it, the file did.
 */
const disagreements = (f: ManifestTool, c: ManifestTool): ReadonlyArray<MergeConflict> => {
  const out: MergeConflict[] = []
  const differ = (a: unknown, b: unknown): boolean => (a === undefined || b === undefined ? a !== b : canonicalJson(a) !== canonicalJson(b))
  const keys = [...new Set([...Object.keys(c), ...Object.keys(f)])].filter((k) => !contractKeys.has(k) && k !== '_meta').sort(byCodeUnits)
  for (const k of keys) {
    const fv = (f as unknown as Record<string, unknown>)[k]
    const cv = (c as unknown as Record<string, unknown>)[k]
    // a field the file lacks is taken from the code, and one the code does not write was only edited by hand
    if (fv !== undefined && cv !== undefined && differ(fv, cv)) out.push({ tool: f.name, path: `/${escapeToken(k)}`, file: fv, code: cv })
  }
  const fm = isObject(f._meta) ? f._meta : {}
  const cm = isObject(c._meta) ? c._meta : {}
  for (const k of Object.keys(fm).filter((k) => !codeMetaKeys.has(k)).sort(byCodeUnits))
    if (cm[k] !== undefined && differ(fm[k], cm[k])) out.push({ tool: f.name, path: `/_meta/${escapeToken(k)}`, file: fm[k], code: cm[k] })
  return out
}
