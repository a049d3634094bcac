/**
 * The tools of a server: their registry (add, remove, enable, disable, with `tools/list`
 * pages computed on change), `tools/list` (per session when something authorizes), and
 * `tools/call` (find the tool, check the caller, run the tool-call middleware, then a
 * feature's takeover or the handler). Internal: `mcpServer` composes it.
 *
 * @example
 * import { toolTable } from './tools.js'
 * // const table = toolTable(tools, handlers, { pageSize: 10, hub, takeovers: [], chain })
 * // table.call(request, session) // Right(CallToolResult), now or later
 */
import * as E from 'fp-ts/lib/Either.js'
import { callable, runCall, type Callable } from './call.js'
import { clip } from '../util/clip.js'
import type { CallToolResult } from '../contract/content.js'
import { runWithContext } from './context.js'
import type { AnyTool, ListedTool } from '../contract/emcp.js'
import { map, type Eventually } from '../util/eventually.js'
import type { Answer, Feature } from './feature.js'
import type { Hub } from './hub.js'
import { extensionFields, isObject, stripUndefined } from '../util/json-object.js'
import { insufficientScope, rpcError, type Request, type RpcError } from '../protocol/jsonrpc.js'
import { answerPage, pagesOf } from './pages.js'
import { mirrorProblems } from '../protocol/headers.js'
import { questionsAsData } from '../protocol/2026-07-28/input-required.js'
import { legacyOutputSchema, wrapsOutput } from '../protocol/2025-11-25/legacy-output.js'
import { isModernVersion } from '../protocol/versions.js'
import type { Session } from './session.js'
import { sumOf } from '../contract/sum.js'
import { runToolCall, type ToolCallStep, type ToolOutcome } from './middleware.js'
import { registry } from './registry.js'
import { isScoped, missingScopes } from './scopes.js'
import { bindClaims } from './claims.js'

// ---------------------------------------------------------------------------------------
// model

/** The hooks a server's middleware installs, read on every request (a server may gain more). */
export interface Chain {
  readonly toolCall: ToolCallStep[]
  readonly authorize: Array<(tool: AnyTool, session: Readonly<Session>) => boolean>
}

/** What the tool table needs from the server. */
export interface ToolsConfig {
  readonly pageSize: number | undefined
  readonly hub: Hub
  /** Features that may take a call over (the tasks extension). */
  readonly takeovers: ReadonlyArray<Feature>
  readonly chain: Chain
}

/** A server's tools and the two methods about them. */
export interface ToolTable {
  /** The contracts served (enabled or not), in order. */
  readonly tools: () => ReadonlyArray<AnyTool>
  readonly list: (req: Request, session: Session) => E.Either<RpcError, unknown>
  readonly call: (req: Request, session: Session) => Answer
  readonly add: (tool: AnyTool, handler: Callable['handler']) => void
  readonly remove: (name: string) => boolean
  readonly setEnabled: (name: string, enabled: boolean) => void
  readonly batch: (changes: () => void) => void
}

// ---------------------------------------------------------------------------------------
// constructors

/** The tool table over checked contracts and their handlers. */
export const toolTable = (tools: ReadonlyArray<AnyTool>, handlers: Record<string, unknown>, config: ToolsConfig): ToolTable => {
  const { pageSize, chain } = config
  // 2025-11-25 clients see non-object output schemas wrapped; 2026-07-28 clients as they are
  const derive = (enabled: ReadonlyArray<Callable>) => {
    const list = enabled.map((c) => c.tool)
    const legacy = pagesOf('tools', list.map((t) => listed(t, true)), pageSize)
    return { enabled: list, scoped: list.some(isScoped), legacy, modern: list.some((t) => wrapsOutput(t.outputSchema)) ? pagesOf('tools', list.map((t) => listed(t, false)), pageSize) : legacy }
  }
  const reg = registry(
    tools.map((t) => callable(t, handlers[t.name] as Callable['handler'])),
    { noun: 'tool', keyOf: (c) => c.tool.name, derive, changed: () => config.hub.broadcast('notifications/tools/list_changed') },
  )
  const contracts = { of: reg.list(), tools: tools }
  const needsTakeover = (t: AnyTool): boolean => t.taskSupport === 'required' && config.takeovers.length === 0
  const taskOnly = tools.filter(needsTakeover).map((t) => t.name)
  if (taskOnly.length > 0)
    throw new TypeError(`emcp: ${taskOnly.join(', ')} run only as tasks (taskSupport: 'required'): add tasks() to the server's features`)

  const authorized = (t: AnyTool, session: Session): boolean => chain.authorize.every((f) => f(t, session))
  const allowed = (t: AnyTool, session: Session): boolean => missingScopes(t, session).length === 0 && authorized(t, session)

  const list = (req: Request, session: Session): E.Either<RpcError, unknown> => {
    const legacy = !isModernVersion(session.protocolVersion)
    const view = reg.view()
    // with an authorization predicate each session sees its own list, built per request (the
    // listed forms are still computed once per tool and era)
    const pages =
      chain.authorize.length === 0 && !view.scoped
        ? legacy ? view.legacy : view.modern
        : pagesOf('tools', view.enabled.filter((t) => allowed(t, session)).map((t) => listedOf(t, legacy)), pageSize)
    return answerPage('tools/list', 'tools', pages, req.params?.cursor)
  }

  const call = (req: Request, session: Session): Answer => {
    const p = req.params
    const name = p?.name
    if (typeof name !== 'string') return E.left(rpcError('InvalidParams', 'tools/call: params.name must be a string'))
    const c = reg.get(name)
    if (c === undefined) return E.left(rpcError('UnknownTool', `Unknown tool: ${clip(name)}`))
    if (!reg.isEnabled(name)) return E.left(rpcError('UnknownTool', `Tool ${name} is disabled`))
    const missing = missingScopes(c.tool, session)
    if (missing.length > 0)
      return E.left(insufficientScope(`Forbidden: tool ${name} needs the scope ${missing.join(' ')}`, c.tool.scopes ?? missing))
    if (chain.authorize.length > 0 && !authorized(c.tool, session))
      return E.left(rpcError('Forbidden', `Forbidden: ${session.identity === undefined ? 'an anonymous caller' : `${session.identity.subject}`} may not call tool ${clip(name)}`))
    const args = p?.arguments ?? {}
    if (!isObject(args)) return E.left(rpcError('InvalidParams', 'tools/call: params.arguments must be an object'))
    if (c.tool.claims === undefined) return callWith(c, req, session, args)
    // the arguments a contract binds to token claims: filled here, before middleware and handler see them
    const bound = bindClaims(c.tool, args, session)
    return E.isLeft(bound) ? bound.left : callWith(c, req, session, bound.right)
  }

  /** The call once its arguments are known: the tool-call middleware, then the tool. */
  const callWith = (c: Callable, req: Request, session: Session, args: { readonly [key: string]: unknown }): Answer => {
    const p = req.params
    const out =
      chain.toolCall.length === 0
        ? runTool(c, req, session, args)
        : runToolCall(chain.toolCall, { id: req.id, method: req.method, params: p, session, tool: c.tool, arguments: args }, (a) =>
            questionsAsData(() => runTool(c, req, session, a)) as Eventually<ToolOutcome>,
          )
    // the era shapes the wire: middleware sees the contract's own structured results
    return wrapsOutput(c.tool.outputSchema) && !isModernVersion(session.protocolVersion) ? map(out, legacyWrapped) : out
  }

  /** The handler (or a feature that takes the call over, e.g. to run it as a task). */
  const runTool = (c: Callable, req: Request, session: Session, args: { readonly [key: string]: unknown }): Answer => {
    const run = (s: Session): Eventually<CallToolResult> => runWithContext(req, s, (ctx) => runCall(c, args, ctx))
    for (const f of config.takeovers) {
      const taken = f.call?.({ tool: c.tool, request: req, session, run })
      if (taken !== undefined) return taken
    }
    return map(run(session), E.right)
  }

  const add = (tool: AnyTool, handler: Callable['handler']): void => {
    const checked = sumOf([...reg.list().map((c) => c.tool), tool])
    if (E.isLeft(checked)) throw new TypeError(`emcp: cannot add tool: ${checked.left.map((e) => e.message).join('; ')}`)
    if (typeof handler !== 'function') throw new TypeError(`emcp: missing handler for tool ${tool.name}`)
    const mirrors = mirrorProblems(tool)
    if (mirrors.length > 0) throw new TypeError(`emcp: cannot add tool: ${mirrors.join('; ')}`)
    if (needsTakeover(tool)) throw new TypeError(`emcp: cannot add tool ${tool.name}: it runs only as a task and the server has no tasks() feature`)
    reg.add(callable(tool, handler))
  }

  return {
    tools: () => {
      // the same array until the registry changes
      const of = reg.list()
      if (contracts.of !== of) {
        contracts.of = of
        contracts.tools = of.map((c) => c.tool)
      }
      return contracts.tools
    },
    list,
    call,
    add,
    remove: reg.remove,
    setEnabled: reg.setEnabled,
    batch: reg.batch,
  }
}

// ---------------------------------------------------------------------------------------
// internals

const legacyWrapped = (out: E.Either<RpcError, unknown>): E.Either<RpcError, unknown> => {
  if (E.isLeft(out)) return out
  const r = out.right as CallToolResult
  return isObject(r) && r.structuredContent !== undefined && r.resultType === undefined ? E.right({ ...r, structuredContent: { result: r.structuredContent } }) : out
}

/** The listed form of each tool, per era, computed once per contract (for lists built per session). */
const listedForms = { legacy: new WeakMap<AnyTool, ListedTool>(), modern: new WeakMap<AnyTool, ListedTool>() }
const listedOf = (t: AnyTool, legacy: boolean): ListedTool => {
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
    _meta: t._meta,
    _type: t._type,
    ...extensionFields(t),
  })
