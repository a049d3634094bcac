/**
 * The tool table of a mount: the parts' tools under their namespaces, listed through the
 * merged, view-cached pages of lists.ts, and called by handing the request, renamed back, to
 * the part's own method table: its request and tool-call middleware, its authorization, its
 * scopes and claims, its validators and handler all run as if it were served alone. Internal.
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
import { authorized } from '../server/tool-call.js'
import type { ToolsConfig, ToolTable } from '../server/tools.js'
import { rpcError, type Request } from '../protocol/jsonrpc.js'
import { clip } from '../util/clip.js'
import { isObject, stripUndefined } from '../util/json-object.js'
import { map, type Eventually } from '../util/eventually.js'
import { mergedList, renamedLists, type Entry, type ListSpec } from './lists.js'
import { prefixed } from './names.js'
import { wholeName, type Part } from './parts.js'
import { argumentsAfter, inputAfter, outputAfter, resultAfter, type ToolTransform } from './transform.js'
import { tagsKey, withTags } from '../util/tags.js'

// ---------------------------------------------------------------------------------------
// model

/** Where a tool of the whole goes: its part, its name there, its transform, its contract as the whole serves it. */
export interface Route {
  readonly part: Part
  readonly original: string
  readonly transform: ToolTransform | undefined
  readonly contract: AnyTool
}

/** What the tool table asks of the mount: whether a session sees a tool of the whole. */
export interface ToolShown {
  readonly tool: (route: Route, session: Session) => boolean
  /** Tells the clients of the whole that the tools changed. */
  readonly changed: () => void
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
      routes.set(name, { part, original: tool.name, transform, contract: contractAfter(tool, name, transform) })
    }
  return routes
}

/** The tool table over the parts' tools. */
export const mountTools = (parts: ReadonlyArray<Part>, config: ToolsConfig, shown: ToolShown): MountTable => {
  const state = { routes: routesOf(parts, fail), dirty: false, depth: 0, pending: false, tools: [] as ReadonlyArray<AnyTool> }
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
  const spec: ListSpec = { method: 'tools/list', key: 'tools', serves: () => true, rename: renameTool, idOf: (e) => String(e.name) }
  const visible = (_: Part, e: Entry, session: Session): boolean => {
    const r = routes().get(String(e.name))
    return r !== undefined && !disabled.has(r.contract.name) && shown.tool(r, session) && (config.chain.authorize.length === 0 || authorized(config.chain, r.contract, session))
  }
  const told = (): void => {
    if (state.depth > 0) state.pending = true
    else shown.changed()
  }
  return {
    tools: () => (routes(), state.tools),
    routes,
    list: mergedList(spec, renamedLists(spec, parts), config.pageSize, visible),
    call: (req, session) => callTool(routes(), config, (r) => !disabled.has(r.contract.name) && shown.tool(r, session), req, session),
    add: () => {
      throw new TypeError('emcp: a mount serves the tools of its parts: add the tool to one of them')
    },
    remove: () => false,
    setEnabled: (name, enabled) => {
      if (!routes().has(name)) throw new TypeError(`emcp: no tool is named ${name}`)
      if (enabled === !disabled.has(name)) return
      if (enabled) disabled.delete(name)
      else disabled.add(name)
      told()
    },
    batch: (changes) => {
      state.depth++
      try {
        changes()
      } finally {
        if (--state.depth === 0 && state.pending) {
          state.pending = false
          shown.changed()
        }
      }
    },
    partChanged: () => {
      state.dirty = true
    },
  }
}

// ---------------------------------------------------------------------------------------
// internals

const fail = (message: string): never => {
  throw new TypeError(message)
}

/** `tools/call` of the whole: found, seen, let in by the whole's middleware, then answered by the part. */
const callTool = (routes: ReadonlyMap<string, Route>, config: ToolsConfig, sees: (r: Route) => boolean, req: Request, session: Session): Answer => {
  const p = req.params
  const name = p?.name
  if (typeof name !== 'string') return E.left(rpcError('InvalidParams', 'tools/call: params.name must be a string'))
  const r = routes.get(name)
  // a tool the caller cannot see is a tool that does not exist, for that caller
  if (r === undefined || !sees(r)) return E.left(rpcError('UnknownTool', `Unknown tool: ${clip(name)}`))
  if (config.chain.authorize.length > 0 && !authorized(config.chain, r.contract, session))
    return E.left(rpcError('Forbidden', `Forbidden: ${session.identity === undefined ? 'an anonymous caller' : session.identity.subject} may not call tool ${clip(name)}`))
  const t = r.transform
  // the common case, no transform and no tool-call middleware of the whole: the request renamed, one object
  if (t === undefined && config.chain.toolCall.length === 0) return r.part.inner.inner({ kind: 'request', id: req.id, method: req.method, params: { ...p, name: r.original } }, session)
  const given = p?.arguments
  const args = t !== undefined && (given === undefined || isObject(given)) ? argumentsAfter(given ?? {}, t, session) : given
  const forward = (a: unknown): Answer => {
    const out = r.part.inner.inner({ ...req, params: { ...p, name: r.original, ...(a === undefined ? {} : { arguments: a }) } }, session)
    return t?.pick === undefined ? out : map(out, (e) => (E.isRight(e) ? E.right(resultAfter(e.right as CallToolResult, t)) : e))
  }
  if (config.chain.toolCall.length === 0 || !isObject(args ?? {})) return forward(args)
  const info = { id: req.id, method: req.method, params: p, session, tool: r.contract, arguments: (args ?? {}) as { readonly [k: string]: unknown } }
  return runToolCall(config.chain.toolCall, info, (a) => forward(a) as Eventually<ToolOutcome>)
}

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
