/**
 * Export: a server's tools as a manifest. Tools sorted by name, every schema made
 * self-contained 2020-12, annotations, icons, `_meta` (SEMOSS's keys included), SEMOSS's
 * `_type` and namespaced extension fields carried, wire codecs listed as dispatch metadata, a fingerprint per tool and one for the
 * whole document. The same server always gives the same bytes (`manifestText`).
 *
 * @example
 * import { emcp, mcpServer } from 'emcp'
 * import { toManifest, manifestText } from 'emcp/manifest'
 * const ping = emcp({ name: 'ping_tool', description: 'Answers pong.', input: { type: 'object' } })
 * const server = mcpServer([ping], { name: 'p', version: '1.0.0' }).implement({ ping_tool: () => 'pong' })
 * process.stdout.write(manifestText(toManifest(server)))
 */
import * as E from 'fp-ts/lib/Either.js'
import type { AnyTool } from '../../contract/emcp.js'
import { isObject } from '../../util/json-object.js'
import type { Issue } from '../../schema/schema.js'
import type { Server } from '../../server/server.js'
import { dispatchOf } from '../../schema/wire-codec.js'
import { fingerprint } from './canonical.js'
import { metaKeys, type Excluded, type Manifest, type ManifestTool } from './manifest.js'
import { selfContained } from './self-contained.js'

/** What a manifest records beside the tools. */
export interface ManifestOptions {
  /** What the catalog left out, each with its reason (listed sorted by name). */
  readonly excluded?: ReadonlyArray<Excluded>
}

/**
 * What a manifest is written from: a server's info and tools. The tools are only read, so any
 * server fits (`Server<any>` keeps the compiler from comparing each tool's typed contract).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type ServerLike = Pick<Server<any>, 'info' | 'tools'>

/** A problem that keeps a tool out of a manifest, e.g. an external `$ref`. */
export interface ManifestIssue extends Issue {
  readonly tool: string
}

/** The manifest of a server's tools (all of them, disabled ones included), or every problem found. */
export const manifestOf = (
  server: ServerLike,
  options: ManifestOptions = {},
): E.Either<ReadonlyArray<ManifestIssue>, Manifest> => {
  const issues: ManifestIssue[] = []
  const tools: ManifestTool[] = []
  for (const tool of [...server.tools].sort((a, b) => byCodeUnits(a.name, b.name))) {
    const entry = toolEntry(tool)
    if (E.isLeft(entry)) issues.push(...entry.left.map((i) => ({ tool: tool.name, ...i })))
    else tools.push(entry.right)
  }
  if (issues.length > 0) return E.left(issues)
  const { name, version, title } = server.info
  const meta: Record<string, unknown> = { [metaKeys.server]: title === undefined ? { name, version } : { name, title, version } }
  if (options.excluded !== undefined && options.excluded.length > 0)
    meta[metaKeys.excluded] = [...options.excluded].sort((a, b) => byCodeUnits(a.name, b.name)).map(({ name, reason }) => ({ name, reason }))
  const body = { _meta: meta, tools }
  return E.right({ _meta: { ...meta, [metaKeys.fingerprint]: fingerprint(body) }, tools })
}

/** The manifest of a server's tools; throws a TypeError listing every problem. */
export const toManifest = (server: ServerLike, options: ManifestOptions = {}): Manifest => {
  const m = manifestOf(server, options)
  if (E.isLeft(m)) throw new TypeError(`emcp: cannot write a manifest: ${m.left.map((i) => `tool ${i.tool}: ${i.path || '(root)'}: ${i.message}`).join('; ')}`)
  return m.right
}

/** The manifest as the file holds it: two-space JSON and a final newline. */
export const manifestText = (manifest: Manifest): string => `${JSON.stringify(manifest, null, 2)}\n`

/** The fingerprint of one manifest entry: of everything in it but its own fingerprint. */
export const toolFingerprint = (entry: ManifestTool): string => fingerprint(withoutFingerprint(entry))

// ---------------------------------------------------------------------------------------
// internals

/** Plain code-unit order: the same on every machine, whatever the locale. */
export const byCodeUnits = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)

const mcpKeys = new Set(['name', 'title', 'description', 'inputSchema', 'outputSchema', 'annotations', 'icons', '_meta'])

const sortedKeys = (o: object): Record<string, unknown> => {
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(o).sort(([a], [b]) => byCodeUnits(a, b))) if (v !== undefined) out[k] = v
  return out
}

const withoutFingerprint = (entry: ManifestTool): ManifestTool => {
  if (entry._meta === undefined || !(metaKeys.fingerprint in entry._meta)) return entry
  const { [metaKeys.fingerprint]: _, ...meta } = entry._meta
  if (Object.keys(meta).length > 0) return { ...entry, _meta: meta }
  const { _meta: _empty, ...rest } = entry
  return rest
}

const toolEntry = (tool: AnyTool): E.Either<ReadonlyArray<Issue>, ManifestTool> => {
  const issues: Issue[] = []
  const schema = (slot: 'inputSchema' | 'outputSchema') => {
    const s = tool[slot]
    if (s === undefined) return undefined
    const out = selfContained(s)
    if (E.isLeft(out)) {
      issues.push(...out.left.map((i) => ({ path: `/${slot}${i.path}`, message: i.message })))
      return undefined
    }
    return out.right
  }
  const entry: Record<string, unknown> = {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: schema('inputSchema'),
    outputSchema: schema('outputSchema'),
    annotations: tool.annotations === undefined ? undefined : sortedKeys(tool.annotations),
    icons: tool.icons,
    // SEMOSS's kind of tool (carriedEntryKeys), as the manifest it came from had it
    _type: tool._type,
  }
  // extension fields (namespaced with a `/`, or `x-` as MEOS writes them) travel as they are, in a stable order
  const extensions = Object.keys(tool).filter((k) => !mcpKeys.has(k) && (k.includes('/') || k.startsWith('x-'))).sort(byCodeUnits)
  for (const k of extensions) entry[k] = (tool as unknown as Record<string, unknown>)[k]
  const meta: Record<string, unknown> = { ...(isObject(tool._meta) ? tool._meta : {}) }
  delete meta[metaKeys.fingerprint]
  const dispatch = dispatchOf(tool.input, tool.output)
  if (dispatch !== undefined) meta[metaKeys.dispatch] = dispatch
  if (Object.keys(meta).length > 0) entry._meta = sortedKeys(meta)
  if (issues.length > 0) return E.left(issues)
  const clean = sortedUndefinedOut(entry) as unknown as ManifestTool
  const print = toolFingerprint(clean)
  return E.right({ ...clean, _meta: { ...clean._meta, [metaKeys.fingerprint]: print } })
}

const sortedUndefinedOut = (o: Record<string, unknown>): Record<string, unknown> => {
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(o)) if (v !== undefined) out[k] = v
  return out
}
