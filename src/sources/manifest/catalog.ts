/**
 * Large catalogs: tools namespaced by category (`category.tool`), curated subsets (some
 * categories, some tags, some names), and a server over a selection that warns when its
 * listing exceeds a token budget.
 *
 * @example
 * import { emcp } from 'emcp'
 * import { catalogServer, namespaced } from 'emcp/manifest'
 * const norm = namespaced('vector', emcp({ name: 'norm', description: 'Length of a vector.', input: { type: 'object' } }))
 * norm.name // 'vector.norm'
 * const server = catalogServer([{ tool: norm, handler: () => '0' }], { name: 'c', version: '1' }, { select: { categories: ['vector'] } })
 */
import type { Handler } from '../../server/call.js'
import type { AnyTool, Tool } from '../../contract/emcp.js'
import { stripUndefined } from '../../util/json-object.js'
import { mcpServer, type Server, type ServerInfo, type ServerOptions } from '../../server/server.js'
import { gateways, searchOptionsOf } from '../../features/tool-search/mode.js'
import { metaKeys } from './manifest.js'
import { listingBudget, type ListingBudget } from './tokens.js'

/** A tool and its handler, as a catalog generator produces them. */
export interface CatalogEntry<T extends AnyTool = AnyTool> {
  readonly tool: T
  readonly handler: Handler<T>
}

/** A curated subset: a tool is kept when it passes every criterion given. */
export interface Selection {
  /** Keep tools of these categories. */
  readonly categories?: ReadonlyArray<string>
  /** Keep tools carrying at least one of these tags. */
  readonly tags?: ReadonlyArray<string>
  /** Keep tools of these names. */
  readonly names?: ReadonlyArray<string>
}

/** Options of a catalog server. */
export interface CatalogOptions extends ServerOptions {
  /** Serve only this subset. */
  readonly select?: Selection
  /** A token budget for the listing; exceeding it calls `onBudget` with a warning. */
  readonly budget?: number
  /** Told the listing's estimate when the server is built (default: a process warning when over budget). */
  readonly onBudget?: (estimate: ListingBudget) => void
}

/**
 * The tool renamed `category.name`, its category recorded in `_meta`. (Its signature, then the
 * implementation: the renamed contract's phantom types, `_R` among them, follow the new name.)
 */
export function namespaced<C extends string, N extends string, I, O, S extends boolean, D extends string, B extends string, A extends string>(
  category: C,
  tool: Tool<N, I, O, S, D, B, A>,
): Tool<`${C}.${N}`, I, O, S, D, B, A>
export function namespaced(category: string, tool: AnyTool): AnyTool {
  return Object.freeze({
    ...tool,
    name: `${category}.${tool.name}`,
    _meta: { ...tool._meta, [metaKeys.category]: category },
  })
}

/** A tool's category: its `_meta` entry, else the part of its name before the first dot. */
export const categoryOf = (tool: { readonly name: string; readonly _meta?: { readonly [key: string]: unknown } | undefined }): string | undefined => {
  const c = tool._meta?.[metaKeys.category]
  if (typeof c === 'string') return c
  const dot = tool.name.indexOf('.')
  return dot > 0 ? tool.name.slice(0, dot) : undefined
}

/** A tool's tags, from its `_meta`. */
export const tagsOf = (tool: { readonly _meta?: { readonly [key: string]: unknown } | undefined }): ReadonlyArray<string> => {
  const t = tool._meta?.[metaKeys.tags]
  return Array.isArray(t) ? t.filter((x): x is string => typeof x === 'string') : []
}

/** Whether a tool belongs to a selection. */
export const selected = (selection: Selection) => (tool: { readonly name: string; readonly _meta?: { readonly [key: string]: unknown } | undefined }): boolean => {
  const { categories, tags, names } = selection
  if (categories !== undefined && !categories.includes(categoryOf(tool) ?? '')) return false
  if (tags !== undefined && !tagsOf(tool).some((t) => tags.includes(t))) return false
  if (names !== undefined && !names.includes(tool.name)) return false
  return true
}

/** A server over the selected entries of a catalog; throws when the selection is empty. */
export const catalogServer = (entries: ReadonlyArray<CatalogEntry>, info: ServerInfo, options: CatalogOptions = {}): Server => {
  const { select, budget, onBudget, ...serverOptions } = options
  const kept = select === undefined ? entries : entries.filter((e) => selected(select)(e.tool))
  if (kept.length === 0) throw new TypeError(`emcp: the selection ${JSON.stringify(select)} keeps no tool of the catalog`)
  const handlers: Record<string, Handler<AnyTool>> = {}
  for (const e of kept) handlers[e.tool.name] = e.handler
  // a list built at run time: mcpServer checks names and duplicates as it runs
  const server: Server = mcpServer(kept.map((e) => e.tool), info, serverOptions).implement(handlers)
  // the listing as tools/list gives it (in tool-search mode: the gateways and the pinned tools): the wire fields of each tool, nothing else
  const search = searchOptionsOf(serverOptions.toolSearch)
  const listed = search === undefined ? server.tools : [...gateways(), ...server.tools.filter((t) => search.pinned?.includes(t.name) === true)]
  const estimate = listingBudget(
    listed.map(({ name, title, description, inputSchema, outputSchema, annotations, icons, _meta }) =>
      stripUndefined({ name, title, description, inputSchema, outputSchema, annotations, icons, _meta }),
    ),
    budget,
  )
  if (onBudget !== undefined) onBudget(estimate)
  else if (estimate.warning !== undefined) process.emitWarning(estimate.warning, 'EmcpBudgetWarning')
  return server
}

/** The categories present in a list of tools, sorted, with their tool counts. */
export const categories = (tools: ReadonlyArray<{ readonly name: string; readonly _meta?: { readonly [key: string]: unknown } | undefined }>): ReadonlyArray<{ readonly category: string; readonly tools: number }> => {
  const counts = new Map<string, number>()
  for (const t of tools) {
    const c = categoryOf(t) ?? ''
    counts.set(c, (counts.get(c) ?? 0) + 1)
  }
  return [...counts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([category, n]) => ({ category, tools: n }))
}
