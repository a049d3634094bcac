/**
 * The tools of a server: their registry (add, remove, enable, disable, with `tools/list`
 * pages computed on change), `tools/list` (per session when something authorizes), and
 * `tools/call` (tool-call.ts: find the tool, check the caller, run the tool-call middleware,
 * then a feature's takeover or the handler). Internal: `mcpServer` composes it.
 *
 * @example
 * import { toolTable } from './tools.js'
 * // const table = toolTable(tools, handlers, { pageSize: 10, hub, takeovers: [], chain })
 * // table.call(request, session) // Right(CallToolResult), now or later
 */
import * as E from 'fp-ts/lib/Either.js'
import { callable, type Callable } from './call.js'
import type { AnyTool, ListedTool } from '../contract/emcp.js'
import type { Answer, Feature } from './feature.js'
import type { Hub } from './hub.js'
import { extensionFields, stripUndefined } from '../util/json-object.js'
import type { RawJson, Request, RpcError } from '../protocol/jsonrpc.js'
import { answerPage, pagesOf } from './pages.js'
import { mirrorProblems } from '../protocol/headers.js'
import { legacyOutputSchema, wrapsOutput } from '../protocol/2025-11-25/legacy-output.js'
import { isModernVersion } from '../protocol/versions.js'
import type { Session } from './session.js'
import { sumOf } from '../contract/sum.js'
import { withTags } from '../util/tags.js'
import { registry, type Registry } from './registry.js'
import { once } from '../util/once.js'
import { isScoped, missingScopes } from './scopes.js'
import { authorized, toolCaller, type Chain } from './tool-call.js'
import { searchGate, type SearchGate } from './search-gate.js'
import { callToolName, type ToolSearchOptions } from '../features/tool-search/mode.js'

export type { Chain } from './tool-call.js'

// ---------------------------------------------------------------------------------------
// model

/** What the tool table needs from the server. */
export interface ToolsConfig {
  readonly pageSize: number | undefined
  readonly hub: Hub
  /** Features that may take a call over (the tasks extension). */
  readonly takeovers: ReadonlyArray<Feature>
  readonly chain: Chain
  /** Tool-search mode from the start (see features/tool-search); off when absent. */
  readonly search?: ToolSearchOptions
}

/** A server's tools and the two methods about them. */
export interface ToolTable {
  /** The contracts served (enabled or not), in order. */
  readonly tools: () => ReadonlyArray<AnyTool>
  readonly list: (req: Request, session: Session) => Answer
  readonly call: (req: Request, session: Session) => Answer
  readonly add: (tool: AnyTool, handler: Callable['handler']) => void
  readonly remove: (name: string) => boolean
  readonly setEnabled: (name: string, enabled: boolean) => void
  readonly batch: (changes: () => void) => void
  /** Turns tool-search mode on with these options, or off (undefined); clients are told the list changed. */
  readonly setSearch: (options: ToolSearchOptions | undefined) => void
}

/** What the registry derives from the enabled tools: the contracts, and their list pages per era (made when first read). */
interface ToolsView {
  readonly enabled: ReadonlyArray<AnyTool>
  /** True when some tool needs scopes: each session then sees its own list. */
  readonly scoped: boolean
  readonly legacy: ReadonlyArray<RawJson>
  readonly modern: ReadonlyArray<RawJson>
}

type ToolRegistry = Registry<Callable, ToolsView>

// ---------------------------------------------------------------------------------------
// constructors

/** The tool table over checked contracts and their handlers, one for each, in order. */
export const toolTable = (tools: ReadonlyArray<AnyTool>, handlers: ReadonlyArray<Callable['handler']>, config: ToolsConfig): ToolTable => {
  const taskOnly = tools.filter((t) => needsTakeover(t, config)).map((t) => t.name)
  if (taskOnly.length > 0)
    throw new TypeError(`emcp: ${taskOnly.join(', ')} run only as tasks (taskSupport: 'required'): add tasks() to the server's features`)
  // the registry (a callable per tool, a map by name, the list view) is made when first read:
  // a server answers initialize and ping without it, and a 2000-tool one started about 2 ms
  // sooner for it (bench example); everything that can refuse the tools was checked above
  const contracts: Contracts = { tools }
  const reg = once(() => {
    const made = toolRegistry(tools, handlers, config)
    contracts.of = made.list()
    return made
  })
  const gate = searchGate({ enabled: () => reg().view().enabled, has: (name) => reg().isEnabled(name), chain: config.chain })
  if (config.search !== undefined) gate.set(config.search, tools)
  const caller = toolCaller({
    find: (name) => gate.find(name) ?? reg().get(name),
    isEnabled: (name) => gate.find(name) !== undefined || reg().isEnabled(name),
    chain: config.chain,
    takeovers: config.takeovers,
  })
  return {
    tools: contractsOf(contracts, reg),
    list: toolLister(reg, gate, config),
    call: (req, session) => (gate.mode() !== undefined && req.params?.name === callToolName ? gate.callThrough(req, session, caller) : caller(req, session)),
    add: toolAdder(reg, gate, config),
    remove: (name) => reg().remove(name),
    setEnabled: (name, enabled) => reg().setEnabled(name, enabled),
    batch: (changes) => reg().batch(changes),
    setSearch: (options) => {
      gate.set(options, reg().list().map((c) => c.tool))
      config.hub.broadcast('notifications/tools/list_changed')
    },
  }
}

// ---------------------------------------------------------------------------------------
// internals

/** The registry of callables; its view (the list pages) is derived when it changes, and clients are told. */
const toolRegistry = (tools: ReadonlyArray<AnyTool>, handlers: ReadonlyArray<Callable['handler']>, config: ToolsConfig): ToolRegistry => {
  // 2025-11-25 clients see non-object output schemas wrapped; 2026-07-28 clients as they are.
  // The pages are made and serialised on the first `tools/list` of each era after a change,
  // not when the server is built: a server answers its first requests (initialize, ping, a
  // call) without them, and 2000 tools cost about 15 ms of startup to list (bench example).
  const derive = (enabled: ReadonlyArray<Callable>): ToolsView => {
    const list = enabled.map((c) => c.tool)
    let legacy: ReadonlyArray<RawJson> | undefined
    let modern: ReadonlyArray<RawJson> | undefined
    const legacyPages = (): ReadonlyArray<RawJson> => (legacy ??= pagesOf('tools', list.map((t) => listed(t, true)), config.pageSize))
    return {
      enabled: list,
      scoped: list.some(isScoped),
      get legacy() {
        return legacyPages()
      },
      get modern() {
        return (modern ??= list.some((t) => wrapsOutput(t.outputSchema)) ? pagesOf('tools', list.map((t) => listed(t, false)), config.pageSize) : legacyPages())
      },
    }
  }
  return registry(
    tools.map((t, i) => callable(t, handlers[i]!)),
    { noun: 'tool', keyOf: (c) => c.tool.name, derive, changed: () => config.hub.broadcast('notifications/tools/list_changed') },
  )
}

/** The contracts served, and the registry's list they were read from (unset until the registry is made: the contracts given are served until then). */
interface Contracts {
  of?: ReadonlyArray<Callable>
  tools: ReadonlyArray<AnyTool>
}

/** The contracts served, in order: the same array (the one given, until the registry is made) until the registry changes. */
const contractsOf = (contracts: Contracts, reg: () => ToolRegistry): (() => ReadonlyArray<AnyTool>) => () => {
  if (contracts.of === undefined) return contracts.tools
  const of = reg().list()
  if (contracts.of !== of) {
    contracts.of = of
    contracts.tools = of.map((c) => c.tool)
  }
  return contracts.tools
}

/**
 * `tools/list`: the pages computed on change, or, when something authorizes, the session's
 * own; in search mode, those of the gateways and the pinned tools (computed once per change).
 */
const toolLister = (reg: () => ToolRegistry, gate: SearchGate, { chain, pageSize }: ToolsConfig) => {
  const searchPages: { of?: ReadonlyArray<AnyTool>; legacy?: ReadonlyArray<RawJson>; modern?: ReadonlyArray<RawJson> } = {}
  return (req: Request, session: Session): E.Either<RpcError, unknown> => {
    const legacy = !isModernVersion(session.protocolVersion)
    const view = reg().view()
    const allowed = (t: AnyTool): boolean => missingScopes(t, session).length === 0 && authorized(chain, t, session)
    const searching = gate.mode() !== undefined
    const shown = gate.listed(view.enabled)
    if (searching && searchPages.of !== shown) {
      searchPages.of = shown
      searchPages.legacy = pagesOf('tools', shown.map((t) => listedOf(t, true)), pageSize)
      searchPages.modern = pagesOf('tools', shown.map((t) => listedOf(t, false)), pageSize)
    }
    // with an authorization predicate each session sees its own list, built per request (the
    // listed forms are still computed once per tool and era)
    const pages =
      chain.authorize.length > 0 || view.scoped
        ? pagesOf('tools', shown.filter(allowed).map((t) => listedOf(t, legacy)), pageSize)
        : searching
          ? ((legacy ? searchPages.legacy : searchPages.modern) as ReadonlyArray<RawJson>)
          : legacy
            ? view.legacy
            : view.modern
    return answerPage('tools/list', 'tools', pages, req.params?.cursor)
  }
}

/** Adding a tool to a running server: the checks `mcpServer` makes at build, one tool at a time. */
const toolAdder = (reg: () => ToolRegistry, gate: SearchGate, config: ToolsConfig) => (tool: AnyTool, handler: Callable['handler']): void => {
  if (gate.find(tool.name) !== undefined) throw new TypeError(`emcp: cannot add tool ${tool.name}: tool search lists its own tool of that name`)
  const checked = sumOf([...reg().list().map((c) => c.tool), tool])
  if (E.isLeft(checked)) throw new TypeError(`emcp: cannot add tool: ${checked.left.map((e) => e.message).join('; ')}`)
  if (typeof handler !== 'function') throw new TypeError(`emcp: missing handler for tool ${tool.name}`)
  const mirrors = mirrorProblems(tool)
  if (mirrors.length > 0) throw new TypeError(`emcp: cannot add tool: ${mirrors.join('; ')}`)
  if (needsTakeover(tool, config)) throw new TypeError(`emcp: cannot add tool ${tool.name}: it runs only as a task and the server has no tasks() feature`)
  reg().add(callable(tool, handler))
}

/** True when the tool runs only as a task and no feature can run it so. */
const needsTakeover = (t: AnyTool, config: ToolsConfig): boolean => t.taskSupport === 'required' && config.takeovers.length === 0

/** The listed form of each tool, per era, computed once per contract (for lists built per session). */
const listedForms = { legacy: new WeakMap<AnyTool, ListedTool>(), modern: new WeakMap<AnyTool, ListedTool>() }
/** The listed form of a tool for an era, computed once per contract. */
export const listedOf = (t: AnyTool, legacy: boolean): ListedTool => {
  const forms = legacy ? listedForms.legacy : listedForms.modern
  let l = forms.get(t)
  if (l === undefined) forms.set(t, (l = listed(t, legacy)))
  return l
}

/** The wire form of a tool in `tools/list`: its contract without the schema slots (for 2025-11-25 clients, an object output schema), and its `x-` extension fields. */
const listed = (t: AnyTool, legacy: boolean): ListedTool =>
  stripUndefined<ListedTool>({
    name: t.name,
    title: t.title,
    description: t.description,
    inputSchema: t.inputSchema,
    outputSchema: legacy && t.outputSchema !== undefined && wrapsOutput(t.outputSchema) ? legacyOutputSchema(t.outputSchema) : t.outputSchema,
    annotations: t.annotations,
    icons: t.icons,
    _meta: withTags(t._meta, t.tags),
    _type: t._type,
    ...extensionFields(t),
  })
