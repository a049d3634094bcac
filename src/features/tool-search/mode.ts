/**
 * Tool-search mode: instead of every tool, `tools/list` shows two gateway tools and the
 * pinned ones. `search_tools` ranks the server's tools for a query (index.ts) and answers
 * their names and one-line descriptions; `call_tool` calls one of them by name, as
 * `tools/call` would: the same admission (enabled, scopes, authorization, claims), the
 * same middleware, the same validation of arguments and results. Whatever a caller may
 * neither see nor call directly it cannot find or reach through the gateways. Internal: the
 * tool table (server/tools.ts) consults it; servers turn it on with `toolSearch`.
 *
 * @example
 * import { emcp, mcpServer } from 'emcp'
 * const add = emcp({ name: 'add', description: 'Add two numbers.', input: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } } } })
 * const server = mcpServer([add], { name: 'calc', version: '1.0.0' }, { toolSearch: { pinned: ['add'] } })
 *   .implement({ add: ({ a, b }) => String((a ?? 0) + (b ?? 0)) })
 */
import { emcp, type AnyTool, type ToolAnnotations } from '../../contract/emcp.js'
import type { JsonSchema } from '../../schema/schema.js'
import type { Abbreviations } from './abbreviations.js'
import { searchIndex, type Hit, type SearchIndex } from './rank.js'
import { once } from '../../util/once.js'

// ---------------------------------------------------------------------------------------
// model

/** How a server's tool-search mode behaves (`toolSearch: true` takes every default). */
export interface ToolSearchOptions {
  /** Tools listed beside `search_tools` and `call_tool`, in the server's order; each must name a tool. */
  readonly pinned?: ReadonlyArray<string>
  /** Abbreviations of this server's tool names beside the built-in table (docs/tool-search.md); `{ qty: 'quantity' }`. */
  readonly abbreviations?: Abbreviations
  /** How many tools a search answers when the query gives no `limit` (default 10, at most `maxSearchLimit`). */
  readonly defaultLimit?: number
}

/** The name of the gateway that searches. */
export const searchToolName = 'search_tools'

/** The name of the gateway that calls. */
export const callToolName = 'call_tool'

/** The most tools one search answers. */
export const maxSearchLimit = 50

/** The longest query, in characters. */
export const maxQueryChars = 1000

/** What `search_tools` answers per tool (the schemas and annotations only when asked for `details`). */
export interface SearchHit {
  readonly name: string
  readonly description: string
  readonly score: number
  readonly inputSchema?: JsonSchema
  readonly outputSchema?: JsonSchema
  readonly annotations?: ToolAnnotations
}

/** The search mode of a server, as its tool table holds it. */
export interface SearchMode {
  readonly options: ToolSearchOptions
  readonly pinned: ReadonlySet<string>
  readonly defaultLimit: number
  /** The index of a tool list: built on the first search after the list changes, then kept. */
  readonly indexOf: (tools: ReadonlyArray<AnyTool>) => SearchIndex
}

// ---------------------------------------------------------------------------------------
// constructors

/**
 * The `search_tools` contract, made on first use: built at import, the two gateways cost
 * about 0.9M instructions (their schemas checked and compiled) of every start of every
 * server, which almost never turns tool search on.
 */
export const searchTool = once(() =>
  emcp({
    name: searchToolName,
    title: 'Search tools',
    description:
      'Find the tools of this server for a task: give a few words (what you want done, the kinds of values involved); get the best-matching tool names with one-line descriptions, best first. Call one with call_tool; set details to true to get each tool\'s input and output schemas and annotations as well.',
    input: {
      type: 'object',
      properties: {
        query: { type: 'string', minLength: 1, maxLength: maxQueryChars, description: 'What the tool should do, in a few words (e.g. "number of instants of a temporal value").' },
        limit: { type: 'integer', minimum: 1, maximum: maxSearchLimit, description: `How many tools to answer (default 10, at most ${maxSearchLimit}).` },
        details: { type: 'boolean', description: "Also answer each tool's input and output schemas and annotations." },
      },
      required: ['query'],
      additionalProperties: false,
    },
    output: {
      type: 'object',
      properties: {
        tools: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              name: { type: 'string' },
              description: { type: 'string' },
              score: { type: 'number' },
              inputSchema: { type: 'object' },
              outputSchema: {},
              annotations: { type: 'object' },
            },
            required: ['name', 'description', 'score'],
          },
        },
      },
      required: ['tools'],
    },
    annotations: { title: 'Search tools', readOnlyHint: true, idempotentHint: true, destructiveHint: false, openWorldHint: false },
  } as const),
)

/** The `call_tool` contract, made on first use (its calls are answered by the tool they name: see `callThrough` in server/tools.ts). */
export const callTool = once(() =>
  emcp({
    name: callToolName,
    title: 'Call a tool',
    description:
      'Call one of this server\'s tools by name (find it with search_tools): its arguments are checked against that tool\'s own input schema, and its result is that tool\'s result.',
    input: {
      type: 'object',
      properties: {
        name: { type: 'string', minLength: 1, maxLength: 128, description: 'The tool to call, as search_tools named it.' },
        arguments: { type: 'object', description: "The tool's arguments, as its input schema describes them." },
      },
      required: ['name'],
      additionalProperties: false,
    },
    annotations: { title: 'Call a tool', readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  } as const),
)

/** The gateways' names, in the order listed (known without making the contracts). */
const gatewayNames: ReadonlyArray<string> = [searchToolName, callToolName]

/** The gateways, in the order listed, made on first use. */
export const gateways = once((): ReadonlyArray<AnyTool> => [searchTool(), callTool()])

/** A search mode for `options` over the tools served now; throws a TypeError for options that cannot work. */
export const searchMode = (options: ToolSearchOptions, tools: ReadonlyArray<AnyTool>): SearchMode => {
  checkShape(options)
  const names = new Set(tools.map((t) => t.name))
  const taken = gatewayNames.filter((name) => names.has(name))
  if (taken.length > 0) throw new TypeError(`emcp: toolSearch lists its own ${taken.join(' and ')}: rename the server's tool of that name`)
  const unknown = (options.pinned ?? []).filter((p) => !names.has(p))
  if (unknown.length > 0) throw new TypeError(`emcp: toolSearch.pinned names no tool: ${unknown.join(', ')}`)
  const defaultLimit = options.defaultLimit ?? 10
  if (!Number.isInteger(defaultLimit) || defaultLimit < 1 || defaultLimit > maxSearchLimit)
    throw new TypeError(`emcp: toolSearch.defaultLimit must be a whole number from 1 to ${maxSearchLimit}, got ${String(defaultLimit)}`)
  const built: { of?: ReadonlyArray<AnyTool>; index?: SearchIndex } = {}
  const indexOf = (list: ReadonlyArray<AnyTool>): SearchIndex => {
    if (built.of !== list || built.index === undefined) {
      built.index = searchIndex(list, { abbreviations: options.abbreviations })
      built.of = list
    }
    return built.index
  }
  return { options, pinned: new Set(options.pinned ?? []), defaultLimit, indexOf }
}

// ---------------------------------------------------------------------------------------
// functions

/** The options a `toolSearch` value means: undefined when off. */
export const searchOptionsOf = (setting: boolean | ToolSearchOptions | undefined): ToolSearchOptions | undefined =>
  setting === undefined || setting === false ? undefined : setting === true ? {} : setting

/** What `tools/list` shows in search mode: the gateways, then the pinned tools among those served, in order. */
export const listedInSearch = (mode: SearchMode, enabled: ReadonlyArray<AnyTool>): ReadonlyArray<AnyTool> => [
  ...gateways(),
  ...enabled.filter((t) => mode.pinned.has(t.name)),
]

/** How `search_tools` answers one call: the tools the caller may see, and the output schema as its era lists it. */
export interface SearchScope {
  readonly visible: (t: AnyTool) => boolean
  readonly outputSchema: (t: AnyTool) => JsonSchema | undefined
}

/** The answer of `search_tools`: the best tools among those visible, with their schemas when asked. */
export const searchAnswer = (index: SearchIndex, args: { readonly query: string; readonly limit?: number; readonly details?: boolean }, limit: number, scope: SearchScope): { tools: SearchHit[] } => ({
  tools: index.search(args.query, args.limit ?? limit, scope.visible).map((h: Hit) => ({
    name: h.name,
    description: h.description,
    score: h.score,
    ...(args.details === true ? detailsOf(h.tool, scope.outputSchema(h.tool)) : {}),
  })),
})

/**
 * The tools nearest a name no visible tool has, for the error that names them: the best
 * search hits for the name's words, else the names at the fewest edits (at most 3: a typo).
 * Linear in the tools: the edit distance is computed in a band, only for names of about the same length.
 */
export const nearestNames = (index: SearchIndex, tools: ReadonlyArray<AnyTool>, name: string, visible: (t: AnyTool) => boolean): ReadonlyArray<string> => {
  const asked = name.slice(0, 128)
  const hits = index.search(asked, 3, visible).map((h) => h.name)
  if (hits.length > 0) return hits
  return tools
    .filter(visible)
    .map((t) => ({ name: t.name, d: editDistance(asked.toLowerCase(), t.name.toLowerCase(), 3) }))
    .filter((c) => c.d <= 3)
    .sort((a, b) => a.d - b.d || (a.name < b.name ? -1 : 1))
    .slice(0, 3)
    .map((c) => c.name)
}

// ---------------------------------------------------------------------------------------
// internals

/** Fails, naming the key, on options a JavaScript caller got the shape of wrong. */
const checkShape = (options: unknown): void => {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) throw new TypeError(`emcp: toolSearch must be true, false or an object of options, got ${typeof options}`)
  const { pinned, abbreviations } = options as { pinned?: unknown; abbreviations?: unknown }
  if (pinned !== undefined && !(Array.isArray(pinned) && pinned.every((p) => typeof p === 'string')))
    throw new TypeError('emcp: toolSearch.pinned must be an array of tool names')
  if (abbreviations !== undefined && !(typeof abbreviations === 'object' && abbreviations !== null && Object.values(abbreviations).every((v) => typeof v === 'string')))
    throw new TypeError('emcp: toolSearch.abbreviations must map each abbreviation to the words it stands for, as a string')
}

/** What `details` adds to a hit: the schemas and annotations a caller needs to call the tool well. */
const detailsOf = (t: AnyTool, outputSchema: JsonSchema | undefined): Pick<SearchHit, 'inputSchema' | 'outputSchema' | 'annotations'> => ({
  inputSchema: t.inputSchema,
  ...(outputSchema === undefined ? {} : { outputSchema }),
  ...(t.annotations === undefined ? {} : { annotations: t.annotations }),
})

/** The Levenshtein distance of two words when at most `max`, else `max + 1`; computed in a band of width `2 max + 1`. */
const editDistance = (a: string, b: string, max: number): number => {
  if (Math.abs(a.length - b.length) > max) return max + 1
  let row = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const next = new Array<number>(b.length + 1).fill(max + 1)
    next[0] = i
    for (let j = Math.max(1, i - max); j <= Math.min(b.length, i + max); j++)
      next[j] = Math.min((row[j] as number) + 1, (next[j - 1] as number) + 1, (row[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1))
    row = next
  }
  return Math.min(row[b.length] as number, max + 1)
}
