/**
 * The manifest document: `{ "_meta": {...}, "tools": [...] }`, one entry per tool as
 * `tools/list` shows it, plus emcp's namespaced `_meta` keys: fingerprints, the execution
 * policy, the dispatch metadata of wire codecs, the server it came from, excluded tools.
 * SEMOSS manifests, the same document with SEMOSS's own `_meta` keys, are read as they are
 * (see semoss.ts and policy.ts).
 *
 * @example
 * import type { Manifest } from 'emcp/manifest'
 * const m: Manifest = {
 *   _meta: { 'emcp/server': { name: 'calc', version: '1.0.0' } },
 *   tools: [{ name: 'add', description: 'Add.', inputSchema: { type: 'object' }, _meta: { 'emcp/policy': 'ask' } }],
 * }
 */
import type { Icon, ToolAnnotations } from '../../contract/emcp.js'
import type { JsonSchema } from '../../schema/schema.js'

/** How a tool may run: freely, after the user confirms, or not at all. */
export type Policy = 'auto' | 'ask' | 'disabled'

/** The policies, in order of trust. */
export const policies: ReadonlyArray<Policy> = ['auto', 'ask', 'disabled']

/** The `_meta` keys emcp reads and writes. */
export const metaKeys = {
  /** Per tool: its execution policy (`auto` when absent). */
  policy: 'emcp/policy',
  /** Per tool and for the manifest: the SHA-256 of the canonical JSON. */
  fingerprint: 'emcp/fingerprint',
  /** Per tool: which wire codec each argument and result property uses. */
  dispatch: 'emcp/dispatch',
  /** Per tool: its category, for namespacing and curated subsets. */
  category: 'emcp/category',
  /** Per tool: free tags, for curated subsets. */
  tags: 'emcp/tags',
  /** Manifest: the server the tools came from. */
  server: 'emcp/server',
  /** Manifest: what was left out of the catalog, each with a reason. */
  excluded: 'emcp/excluded',
} as const

/** One tool of a manifest. Keys with a `/` or starting `x-` beside the MCP ones are extension fields, carried as they are. */
export interface ManifestTool {
  readonly name: string
  readonly title?: string
  readonly description?: string
  readonly inputSchema: JsonSchema
  readonly outputSchema?: JsonSchema
  readonly annotations?: ToolAnnotations
  readonly icons?: ReadonlyArray<Icon>
  readonly _meta?: { readonly [key: string]: unknown }
  /** SEMOSS: the kind of function behind the entry (e.g. `"python"`); carried as it is. */
  readonly _type?: string
  readonly [extension: `${string}/${string}` | `x-${string}`]: unknown
}

/** Something left out of a catalog, and why. */
export interface Excluded {
  readonly name: string
  readonly reason: string
}

/** A manifest document. */
export interface Manifest {
  readonly _meta?: { readonly [key: string]: unknown }
  readonly tools: ReadonlyArray<ManifestTool>
  /** Document extension fields, e.g. a MEOS manifest's `x-meos` (its server name, coverage). */
  readonly [extension: `x-${string}`]: unknown
}

