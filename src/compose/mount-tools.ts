/**
 * The tool table of a mount: the parts' tools under their namespaces, listed through the
 * merged, view-cached pages of lists.ts, and called by handing the request, renamed back, to
 * the part's own tools/call: its request and tool-call middleware, its authorization, its
 * scopes and claims, its validators and handler all run as if it were served alone. When
 * nothing of the whole must see the call (no transform, tool-call middleware, authorization
 * or task to record) each route hands it over in one step once the caller's view (its
 * rules and switches) allows the tool, so that a mounted call costs about what the part's
 * own does. In
 * tool-search mode `search_tools` searches the tools of the whole a session sees, and
 * `call_tool` re-enters the whole's `tools/call`, so the same routing and filters apply. Internal.
 *
 * @example
 * import { mountTools } from './mount-tools.js'
 * // const table = mountTools(parts, config, shown)
 * // table.call(request, session) // the part's answer, now or later
 */
import * as E from 'fp-ts/lib/Either.js'
import type { CallToolResult } from '../contract/content.js'
import type { AnyTool } from '../contract/emcp.js'
import type { Answer } from '../server/feature.js'
import { runToolCall, type ToolOutcome } from '../server/middleware.js'
import type { Session } from '../server/session.js'
import { authorized, toolCaller } from '../server/tool-call.js'
import { listedOf, type ToolsConfig, type ToolTable } from '../server/tools.js'
import { searchGate, type SearchGate } from '../server/search-gate.js'
import { answerPage, pagesOf } from '../server/pages.js'
import { missingScopes } from '../server/scopes.js'
import { isModernVersion } from '../protocol/versions.js'
import { callToolName, searchToolName } from '../features/tool-search/mode.js'
import { rpcError, type Request } from '../protocol/jsonrpc.js'
import { clip } from '../util/clip.js'
import { isObject, stripUndefined } from '../util/json-object.js'
import { map, type Eventually } from '../util/eventually.js'
import { mergedList, renamedLists, type Entry, type ListSpec } from './lists.js'
import { prefixed } from './names.js'
import { wholeName, type Part } from './parts.js'
import { argumentsAfter, inputAfter, outputAfter, resultAfter, type ToolTransform } from './transform.js'
import { tagsKey, withTags } from '../util/tags.js'
import { batched } from '../util/batched.js'
import { isTask, type MountTasks } from './mount-tasks.js'

// ---------------------------------------------------------------------------------------
// model

/** Where a tool of the whole goes: its part, its name there, its transform, its contract as the whole serves it. */
export interface Route {
  readonly part: Part
  readonly original: string
  readonly transform: ToolTransform | undefined
  readonly contract: AnyTool
  /**
   * The part's tools/call for a request of this tool as the whole received it (renamed back
   * when the names differ); undefined for a transformed tool, whose arguments and result the
   * whole must see.
   */
  readonly enter: ((req: Request, session: Session) => Answer) | undefined
}

/** What the tool table asks of the mount: whether a session sees a tool of the whole. */
export interface ToolShown {
  readonly tool: (route: Route, session: Session) => boolean
  /** True while no rule or switch hides anything from this session (it then shares the whole lists). */
  readonly everyone: (session: Session) => boolean
  /** True when this session sees what every other such session sees (tag rules at most, no switch of its own). */
  readonly alike: (session: Session) => boolean
  /** Tells the clients of the whole that the tools changed. */
  readonly changed: () => void
  /** How the whole carries the parts' tasks. */
  readonly tasks: MountTasks
}

/** The tool table, and how the mount tells it that a part's tools changed. */
export interface MountTable extends ToolTable {
  readonly partChanged: () => void
  readonly routes: () => ReadonlyMap<string, Route>
}

// ---------------------------------------------------------------------------------------
// constructors

/** The routes of every part's tools; a name given twice fails, naming the tool and both servers. */
export const routesOf = (parts: ReadonlyArray<Part>, onClash: (message: string) => void): ReadonlyMap<string, Route> => {
  const routes = new Map<string, Route>()
  for (const part of parts)
    for (const tool of part.server.tools) {
      const name = wholeName(part, tool)
      const taken = routes.get(name)
      if (taken !== undefined) {
        onClash(`emcp: mount: duplicate tool name: ${name} (from ${taken.part.label} and ${part.label})`)
        continue
      }
      const transform = part.transforms.get(tool.name)
      routes.set(name, { part, original: tool.name, transform, contract: contractAfter(tool, name, transform), enter: transform === undefined ? enterOf(part, tool.name, name) : undefined })
    }
  return routes
}

/** The tool table over the parts' tools. */
export const mountTools = (parts: ReadonlyArray<Part>, config: ToolsConfig, shown: ToolShown): MountTable => {
  const state = { routes: routesOf(parts, fail), dirty: false, tools: [] as ReadonlyArray<AnyTool> }
  state.tools = [...state.routes.values()].map((r) => r.contract)
  const routes = (): ReadonlyMap<string, Route> => {
    if (state.dirty) {
      // a part changed at run time: a clash now cannot stop the server, the first keeps the name
      state.routes = routesOf(parts, (m) => console.error(`${m}: the first keeps the name`))
      state.tools = [...state.routes.values()].map((r) => r.contract)
      state.dirty = false
    }
    return state.routes
  }
  const disabled = new Set<string>()
  // no tool switched off, no rule, no switch (the common case): nothing to look up
  const seen = (r: Route | undefined, session: Session): r is Route =>
    r !== undefined && ((disabled.size === 0 && shown.everyone(session)) || (!disabled.has(r.contract.name) && shown.tool(r, session)))
  const spec: ListSpec = { method: 'tools/list', key: 'tools', serves: () => true, rename: renameTool, idOf: (e) => String(e.name) }
  const visible = (_: Part, e: Entry, session: Session): boolean => {
    const r = routes().get(String(e.name))
    return seen(r, session) && (config.chain.authorize.length === 0 || authorized(config.chain, r.contract, session))
  }
  const { changed: told, batch } = batched(() => shown.changed())
  const search = mountSearch(() => (routes(), state.tools), disabled, (name, session) => seen(routes().get(name), session), config)
  const everyone = (session: Session): boolean => disabled.size === 0 && config.chain.authorize.length === 0 && shown.everyone(session)
  // the view of sessions alike: the same until a tool is switched for everyone (or the parts answer other pages)
  const shared = { view: {} as object }
  const alike = (session: Session): object | undefined => (config.chain.authorize.length === 0 && shown.alike(session) ? shared.view : undefined)
  const merged = mergedList(spec, renamedLists(spec, parts), config.pageSize, visible, everyone, alike)
  const direct = (req: Request, session: Session): Answer => callTool(routes(), config, shown.tasks, seen, req, session)
  const { chain } = config
  // nothing of the whole must see a call but whether the caller sees the tool (no tool-call
  // middleware, authorization, or task to record): the route hands it to the part, one step,
  // checked on every call since each of those may appear at run time. Rules and switches are
  // only a test of the route, so they keep the handoff; a tool the caller cannot see takes
  // the full path, which refuses it
  const plain = (session: Session): boolean => chain.toolCall.length === 0 && chain.authorize.length === 0 && !state.dirty && shown.tasks.passes(session)
  return {
    tools: () => (routes(), state.tools),
    routes,
    list: (req, session) => (search.gate.mode() === undefined ? merged(req, session) : search.list(req, session)),
    call: (req, session) => {
      if (search.gate.mode() !== undefined) return search.call(req, session, direct)
      const name = req.params?.name
      const r = typeof name === 'string' ? state.routes.get(name) : undefined
      const enter = r?.enter
      return enter !== undefined && plain(session) && seen(r, session) ? enter(req, session) : direct(req, session)
    },
    add: () => {
      throw new TypeError('emcp: a mount serves the tools of its parts: add the tool to one of them')
    },
    remove: () => false,
    setEnabled: (name, enabled) => {
      if (!routes().has(name)) throw new TypeError(`emcp: no tool is named ${name}`)
      if (enabled === !disabled.has(name)) return
      if (enabled) disabled.delete(name)
      else disabled.add(name)
      shared.view = {}
      search.switched()
      told()
    },
    batch,
    partChanged: () => {
      state.dirty = true
    },
    setSearch: (options) => {
      search.gate.set(options, (routes(), state.tools))
      shown.changed()
    },
  }
}

/** Tool-search mode over the whole's tools: its gate, its `tools/list` and its `tools/call`. */
interface MountSearch {
  readonly gate: SearchGate
  readonly list: (req: Request, session: Session) => Answer
  readonly call: (req: Request, session: Session, direct: (req: Request, session: Session) => Answer) => Answer
  /** Tells the search that a tool was switched on or off for everyone. */
  readonly switched: () => void
}

/** The search side of a mount: the index is over the enabled tools of the whole, each search and listing filtered per session. */
const mountSearch = (
  tools: () => ReadonlyArray<AnyTool>,
  disabled: ReadonlySet<string>,
  sees: (name: string, session: Session) => boolean,
  config: ToolsConfig,
): MountSearch => {
  // the same array until the tools or the switched-off set change, so the index is built once per change
  const memo: { of?: ReadonlyArray<AnyTool>; enabled: ReadonlyArray<AnyTool> } = { enabled: [] }
  const enabled = (): ReadonlyArray<AnyTool> => {
    const all = tools()
    if (memo.of !== all) {
      memo.of = all
      memo.enabled = disabled.size === 0 ? all : all.filter((t) => !disabled.has(t.name))
    }
    return memo.enabled
  }
  const gate = searchGate({ enabled, has: sees, visible: (t, session) => sees(t.name, session), chain: config.chain })
  if (config.search !== undefined) gate.set(config.search, tools())
  const gateways = toolCaller({ find: gate.find, isEnabled: (name) => gate.find(name) !== undefined, chain: config.chain, takeovers: config.takeovers })
  const isGateway = (t: AnyTool): boolean => t.name === searchToolName || t.name === callToolName
  return {
    gate,
    // the gateways and the pinned tools the session sees: a few tools, so the pages are built per request
    list: (req, session) => {
      const allowed = (t: AnyTool): boolean =>
        (isGateway(t) || sees(t.name, session)) && missingScopes(t, session).length === 0 && (config.chain.authorize.length === 0 || authorized(config.chain, t, session))
      const legacy = !isModernVersion(session.protocolVersion)
      const pages = pagesOf('tools', gate.listed(enabled()).filter(allowed).map((t) => listedOf(t, legacy)), config.pageSize)
      return answerPage('tools/list', 'tools', pages, req.params?.cursor)
    },
    call: (req, session, direct) => {
      const name = req.params?.name
      if (name === callToolName) return gate.callThrough(req, session, direct)
      return name === searchToolName ? gateways(req, session) : direct(req, session)
    },
    switched: () => {
      memo.of = undefined
    },
  }
}

// ---------------------------------------------------------------------------------------
// internals

const fail = (message: string): never => {
  throw new TypeError(message)
}

/** `tools/call` of the whole: found, seen, let in by the whole's middleware, then answered by the part. */
const callTool = (
  routes: ReadonlyMap<string, Route>,
  config: ToolsConfig,
  tasks: MountTasks,
  sees: (r: Route | undefined, session: Session) => r is Route,
  req: Request,
  session: Session,
): Answer => {
  const p = req.params
  const name = p?.name
  if (typeof name !== 'string') return E.left(rpcError('InvalidParams', 'tools/call: params.name must be a string'))
  const r = routes.get(name)
  // a tool the caller cannot see is a tool that does not exist, for that caller
  if (!sees(r, session)) return E.left(rpcError('UnknownTool', `Unknown tool: ${clip(name)}`))
  if (config.chain.authorize.length > 0 && !authorized(config.chain, r.contract, session))
    return E.left(rpcError('Forbidden', `Forbidden: ${session.identity === undefined ? 'an anonymous caller' : session.identity.subject} may not call tool ${clip(name)}`))
  const t = r.transform
  // no transform and no tool-call middleware of the whole: the request renamed, one object
  // (mounted whole, the request as it came)
  if (t === undefined && config.chain.toolCall.length === 0) return tasks.call(r.part, r.original === name ? req : renamed(req, r.original), session)
  const given = p?.arguments
  const args = t !== undefined && (given === undefined || isObject(given)) ? argumentsAfter(given ?? {}, t, session) : given
  const forward = (a: unknown): Answer => {
    const out = tasks.call(r.part, { ...req, params: { ...p, name: r.original, ...(a === undefined ? {} : { arguments: a }) } }, session)
    // a task's result is the part's own, read through tasks/get: the transform applies to inline answers
    return t?.pick === undefined ? out : map(out, (e) => (E.isRight(e) && !isTask(e.right) ? E.right(resultAfter(e.right as CallToolResult, t)) : e))
  }
  if (config.chain.toolCall.length === 0 || !isObject(args ?? {})) return forward(args)
  const info = { id: req.id, method: req.method, params: p, session, tool: r.contract, arguments: (args ?? {}) as { readonly [k: string]: unknown } }
  return runToolCall(config.chain.toolCall, info, (a) => forward(a) as Eventually<ToolOutcome>)
}

/** The request as the part names its tool: one object, the rest shared. */
const renamed = (req: Request, original: string): Request => ({ kind: 'request', id: req.id, method: req.method, params: { ...req.params, name: original } })

/** The part's tools/call for its tool `original`, served by the whole as `name`. */
const enterOf = (part: Part, original: string, name: string): ((req: Request, session: Session) => Answer) =>
  original === name ? part.inner.toolCall : (req, session) => part.inner.toolCall(renamed(req, original), session)

/** A part's tool as the whole serves it: renamed, and transformed. */
const contractAfter = (tool: AnyTool, name: string, t: ToolTransform | undefined): AnyTool =>
  Object.freeze(
    t === undefined
      ? { ...tool, name }
      : stripUndefined({
          ...tool,
          name,
          title: t.title ?? tool.title,
          description: t.description ?? tool.description,
          annotations: t.annotations ?? tool.annotations,
          tags: t.tags ?? tool.tags,
          inputSchema: inputAfter(tool.inputSchema, t),
          outputSchema: outputAfter(tool.outputSchema, t),
        }),
  ) as AnyTool

/** A listed tool of a part as the whole lists it. */
const renameTool = (part: Part, e: Entry): Entry => {
  const original = String(e.name)
  const t = part.transforms.get(original)
  const name = prefixed(part.namespace, t?.name ?? original)
  if (t === undefined) return { ...e, name }
  const meta = isObject(e._meta) ? e._meta : undefined
  const untagged = meta === undefined || t.tags === undefined ? meta : Object.fromEntries(Object.entries(meta).filter(([k]) => k !== tagsKey))
  return stripUndefined({
    ...e,
    name,
    title: t.title ?? e.title,
    description: t.description ?? e.description,
    annotations: t.annotations ?? e.annotations,
    inputSchema: inputAfter(e.inputSchema as Entry, t),
    outputSchema: outputAfter(e.outputSchema as Entry | undefined, t),
    _meta: withTags(untagged, t.tags),
  })
}
