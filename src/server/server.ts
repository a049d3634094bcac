/**
 * AsMCP: the protocol around a sum of tools, as a pure dispatcher
 * `(message, session) -> Task<Option<response>>` with no I/O. It answers `initialize`
 * (version negotiation), `ping`, `tools/list` (precomputed pages) and `tools/call`, and never
 * answers a notification. A request whose `_meta` names 2026-07-28 goes through that era's
 * adapter (protocol/modern.ts) around the same method table; the rest is served the
 * 2025-11-25 way (protocol/legacy.ts). Everything a request could share (names, schemas,
 * list pages, validators) is built once, here, when the server is built.
 *
 * @example
 * import { emcp, mcpServer } from 'emcp'
 * const echo = emcp({ name: 'echo', input: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } })
 * const server = mcpServer([echo], { name: 'echo-server', version: '1.0.0' })
 *   .implement({ echo: ({ text }) => text })
 */
import * as E from 'fp-ts/lib/Either.js'
import type * as O from 'fp-ts/lib/Option.js'
import type { Task } from 'fp-ts/lib/Task.js'
import type { Callable, Handler, Handlers } from './call.js'
import type { KeyCheck, ResultCheck } from './handlers.js'
import { complete } from '../features/completion.js'
import { defaultMaxDepth } from '../util/json-depth.js'
import { stripUndefined } from '../util/json-object.js'
import { checkPageSize } from './pages.js'
import { capabilitiesOf, checkEras, checkHandlers, methodTable } from './assembly.js'
import type { AnyTool, Icon } from '../contract/emcp.js'
import type { Reply, Request } from '../protocol/jsonrpc.js'
import type { Feature, FeatureFactory } from './feature.js'
import { hub as newHub, type Hub } from './hub.js'
import { sharedHub } from './shared-hub.js'
import { memoryStore } from '../stores/memory.js'
import type { SharedStore } from '../stores/store.js'
import { checkCache, type CacheOptions } from '../protocol/2026-07-28/modern.js'
import type { RequestStateOptions } from '../protocol/2026-07-28/request-state.js'
import { initializeWith, setLevel } from '../protocol/2025-11-25/legacy.js'
import type { Era } from '../protocol/versions.js'
import { endpoint } from './endpoint.js'
import { observeNotification, type Middleware, type NotificationStep, type RequestStep } from './middleware.js'
import { toolTable, type Chain, type ToolsConfig, type ToolTable } from './tools.js'
import { registerInner } from './inner.js'
import { routerOf } from './router.js'
import { abortCall, type Session } from './session.js'
import { sumOf, type CheckedTools } from '../contract/sum.js'
import { searchOptionsOf, type ToolSearchOptions } from '../features/tool-search/mode.js'
import { appsCapability, checkAppLinks, withApps, type AppResource, type CheckedLinks } from '../features/apps.js'

// ---------------------------------------------------------------------------------------
// model

/** Who the server is, as sent in the `initialize` result (2026-07-28: in every result's `_meta`). */
export interface ServerInfo {
  readonly name: string
  readonly version: string
  readonly title?: string
  readonly description?: string
  readonly icons?: ReadonlyArray<Icon>
  readonly websiteUrl?: string
}

/** How the server behaves. */
export interface ServerOptions {
  /** Guidance for the model, sent in the `initialize` and `server/discover` results. */
  readonly instructions?: string
  /** Tools per `tools/list` page; all in one page when absent. */
  readonly pageSize?: number
  /** Protocol features beside tools: resources, prompts, completion, your own. */
  readonly features?: ReadonlyArray<FeatureFactory>
  /**
   * Which tools a session may see and call, e.g. by the roles of `session.identity`. A tool
   * it refuses is left out of that session's `tools/list`, and calling it is an error
   * (-32003). All tools for everyone when absent.
   */
  readonly authorize?: (tool: AnyTool, session: Readonly<Session>) => boolean
  /**
   * The protocol eras served (default both): `2025-11-25` (an `initialize` handshake opens a
   * conversation) and `2026-07-28` (each request carries its revision in `_meta`). Pin a
   * server to one era by naming only that one. See docs/eras.md.
   */
  readonly eras?: ReadonlyArray<Era>
  /** 2026-07-28 caching hints (`ttlMs`, `cacheScope`) for lists and reads, per server and per method. */
  readonly cache?: CacheOptions
  /** How 2026-07-28 `requestState`s are signed; share the key between the processes a retry may reach. */
  readonly requestState?: RequestStateOptions
  /**
   * The state shared with the other replicas serving the same clients: sessions, SSE events,
   * notifications, tasks, request-state keys (default: a `memoryStore()` of this server's
   * own). Give every replica the same store (see docs/replicas.md).
   */
  readonly store?: SharedStore
  /**
   * The longest an asynchronous call may run, in milliseconds (default 300 000, five
   * minutes; 0 for none). Past it the call's signal is aborted and the client is answered:
   * a tool with an `isError` result, any other method with error -32001.
   */
  readonly callTimeoutMs?: number
  /**
   * How deeply a request's `params` may nest (arrays and objects, `params` itself counted;
   * default 512). A deeper request gets -32602 before anything reads it.
   */
  readonly maxDepth?: number
  /**
   * Wraps every request and every tool call, for every transport: before and after, answering
   * in the server's place, mapping errors (see docs/middleware.md). The first is the outermost.
   */
  readonly middleware?: ReadonlyArray<Middleware>
  /**
   * MCP Apps (`appResource`) the tools link to (`linkApp`): served as resources (beside those
   * of a `resources` feature, or by one of their own) and declared as the
   * `io.modelcontextprotocol/ui` extension. A link to an app not listed here does not compile
   * (literal URIs) or throws when the server is built. See docs/apps.md.
   */
  readonly apps?: ReadonlyArray<AppResource>
  /**
   * Tool-search mode, for large catalogs: `tools/list` shows `search_tools` (ranked names
   * and one-line descriptions for a query), `call_tool` (calls a tool by name, with its own
   * schema, middleware, scopes and authorization) and the `pinned` tools, instead of every
   * tool. Off by default; `true` takes the defaults. See docs/tool-search.md.
   */
  readonly toolSearch?: boolean | ToolSearchOptions
}

/** A server: the tools it serves and the dispatcher that speaks MCP about them. */
export interface Server<U extends AnyTool = AnyTool> {
  readonly info: ServerInfo
  readonly options: ServerOptions
  /** The contracts served now (enabled or not), in the order given, then as added. */
  readonly tools: ReadonlyArray<U>
  /** The sessions the server can notify (stdio, stateful HTTP); its broadcasts reach the other replicas' clients through `store`. */
  readonly hub: Hub
  /** The state shared with the other replicas (`options.store`, else this server's own memory store). */
  readonly store: SharedStore
  /**
   * Adds a tool at run time and tells connected clients (`notifications/tools/list_changed`).
   * The returned server is this one, typed with the new tool.
   */
  readonly addTool: <T extends AnyTool>(tool: T, handler: Handler<T>) => Server<U | T>
  /** Removes a tool at run time; false when there was none of that name. */
  readonly removeTool: (name: string) => boolean
  // method syntax keeps Server<U> assignable to Server<AnyTool> (parameters are bivariant)
  /** Lists and serves a disabled tool again. */
  enableTool(name: U['name']): void
  /** Keeps a tool declared but neither listed nor callable, until enabled again. */
  disableTool(name: U['name']): void
  /**
   * Runs `changes` (calls of addTool, removeTool, enableTool, disableTool): the list pages are
   * computed, and clients told, once when it returns, not once per change.
   */
  readonly batch: (changes: () => void) => void
  /**
   * Turns tool-search mode on (`true` or options) or off (`false`) on a running server, as
   * the `toolSearch` option would have from the start; clients are told the list changed.
   */
  readonly setToolSearch: (setting: boolean | ToolSearchOptions) => void
  /** Forgets a session whose transport closed (its subscriptions, its place in the hub) and aborts its calls still running. */
  readonly release: (session: Session) => void
  /**
   * Answers one parsed JSON-RPC message; `None` for notifications and responses. An array
   * is a batch: answered as an array in sessions at 2025-03-26 or earlier, refused after.
   */
  readonly dispatch: (message: unknown, session: Session) => Task<O.Option<Reply>>
  /** Answers one message given as JSON text; a syntax error gets -32700 with id null. */
  readonly dispatchText: (text: string, session: Session) => Task<O.Option<string>>
  /**
   * `dispatchText` without the promise: the answer now when every handler on the way is
   * synchronous, a promise of it otherwise. For transports that answer many small messages
   * (stdio), where a promise and a microtask per message are a measurable part of a call.
   */
  readonly answerText: (text: string, session: Session) => O.Option<string> | Promise<O.Option<string>>
  /**
   * Adds a middleware inside those already there, typed with this server's tools (`call.tool`
   * is one of them). Returns this server.
   */
  use(middleware: Middleware<U>): Server<U>
}

/** A handler whose key names no tool gets a type that says so (object literals and variables alike). */
export type NoExtraHandlers<H, K> = { readonly [P in Exclude<keyof H, K>]: `no tool is named "${P & string}"` }

/** A sum of tools waiting for its handlers. */
export interface ServerBuilder<U extends AnyTool> {
  /**
   * Supplies one handler per tool; a missing or extra key, or a result key a closed output
   * schema does not allow, does not compile (see `KeyCheck` and `ResultCheck`).
   *
   * Why `V`, read from `this`, rather than `U`: a signature reached through `builder.implement`
   * has `U` already replaced by the union of contracts, and the compiler instantiates every
   * type of it that holds that union again (each contract, its argument and result types) each
   * time it applies a mapper for `H`: the constraint in each of the two inference passes, the
   * conditional checks' permissive and restrictive forms, the return type. A type parameter of
   * the signature itself is mapped to the union by a lookup, never walked: about 16
   * instantiations per tool (docs/type-performance.md).
   */
  readonly implement: <V extends AnyTool, H extends KeyCheck<H, V['name']> & ResultCheck<H, V> & Handlers<V>>(this: ServerBuilder<V>, handlers: H) => Server<V>
  /** Phantom: the contracts, so that a builder of some tools is not one of others (`implement` reads them from `this`). Never present at run time. */
  readonly _U?: U
}

// ---------------------------------------------------------------------------------------
// constructors

/**
 * Folds a non-empty list of tool contracts into a server. A duplicate name is a compile error
 * (and, for lists built at run time, an exception listing every problem).
 */
export const mcpServer = <const T extends readonly AnyTool[], const A extends ReadonlyArray<AppResource> = readonly []>(
  // the apps the list links (`never` for nearly every list, which then skips the per-tool link check)
  tools: [T[number]['_app']] extends [never] ? CheckedTools<T> : CheckedLinks<T, A[number]['uri'], CheckedTools<T>>,
  info: ServerInfo,
  options: ServerOptions & { readonly apps?: A } = {},
): ServerBuilder<T[number]> => {
  // a copy: the tool table is made on first use, and the caller's array may have changed by then
  const list = (tools as unknown as ReadonlyArray<T[number]>).slice()
  const checked = sumOf(list)
  if (E.isLeft(checked))
    throw new TypeError(`emcp: invalid tool list: ${checked.left.map((e) => `${e.path} ${e.message}`).join('; ')}`)
  checkPageSize(options.pageSize)
  checkEras(options.eras)
  checkCache(options.cache ?? {})
  checkAppLinks(list, options.apps)
  return {
    // `V` is `T[number]`: `implement` reads it from `this`, which is this builder
    implement: <V extends AnyTool>(handlers: unknown) => build(list, checked.right, handlers as Record<string, unknown>, info, options) as unknown as Server<V>,
  }
}

// ---------------------------------------------------------------------------------------
// internals

/** The server of a tool list: its handlers checked, then assembled around its tool table. */
const build = <U extends AnyTool>(
  tools: ReadonlyArray<U>,
  byName: ReadonlyMap<string, U>,
  handlers: Record<string, unknown>,
  info: ServerInfo,
  options: ServerOptions,
): Server<U> => {
  const found = checkHandlers(byName, handlers)
  return assemble<U>(info, options, (config) => toolTable(tools, found, config))
}

/**
 * A server: a composition of a tool table (made by `tableOf` once the hub and the middleware
 * exist), its method table, its era adapters and its endpoint. Internal: `mcpServer` builds one
 * over its handlers, `mount` over the tables of other servers.
 */
export const assemble = <U extends AnyTool>(info: ServerInfo, options: ServerOptions, tableOf: (config: ToolsConfig) => ToolTable): Server<U> => {
  const maxDepth = options.maxDepth ?? defaultMaxDepth
  if (!Number.isInteger(maxDepth) || maxDepth < 1) throw new TypeError(`emcp: maxDepth must be a positive integer, got ${String(maxDepth)}`)
  const store = options.store ?? memoryStore()
  const hub = sharedHub(newHub(), store.bus)
  const features: ReadonlyArray<Feature> = withApps(options.features ?? [], options.apps).map((f) => f(hub, { store }))
  const { chain, use } = chainOf(options)
  const search = searchOptionsOf(options.toolSearch)
  const table = tableOf({ pageSize: options.pageSize, hub, takeovers: features.filter((f) => f.call !== undefined), chain, ...(search === undefined ? {} : { search }) })

  const serverInfo = stripUndefined(info)
  const completers = features.filter((f) => f.complete !== undefined)
  const capabilities = appsCapability(capabilitiesOf(features, completers.length > 0), options.apps)
  const methods = methodTable(features, [
    ['initialize', initializeWith({ capabilities, serverInfo, instructions: options.instructions, hub })],
    ['ping', () => E.right({})],
    ['tools/list', table.list],
    ['tools/call', table.call],
    ['logging/setLevel', setLevel],
    ...(completers.length > 0 ? [['completion/complete', (req: Request, session: Session) => complete(completers, req, session)] as const] : []),
  ])

  const screens = features.flatMap((f) => (f.screen === undefined ? [] : [f.screen]))
  const { route, inner, toolCall } = routerOf(options, { serverInfo, capabilities, hub, methods, chain, store, screens })

  const { answerLine, ...entries } = endpoint({
    route,
    maxDepth,
    notified: (method, params, session) => void (chain.notification.length > 0 && observeNotification(chain.notification, { method, params, session })),
  })
  const server: Server<U> = {
    info,
    options,
    get tools() {
      return table.tools() as ReadonlyArray<U>
    },
    hub,
    store,
    ...entries,
    addTool: <T extends AnyTool>(tool: T, handler: Handler<T>): Server<U | T> => {
      table.add(tool, handler as Callable['handler'])
      return server as Server<U | T>
    },
    removeTool: table.remove,
    enableTool: (name) => table.setEnabled(name, true),
    disableTool: (name) => table.setEnabled(name, false),
    batch: table.batch,
    setToolSearch: (setting) => table.setSearch(searchOptionsOf(setting)),
    release: (session) => {
      // nothing will read the answers of calls still running: their signals say so
      for (const id of [...session.inFlight.keys()]) abortCall(session, id, new DOMException('the session ended', 'AbortError'))
      hub.remove(session)
      for (const f of features) f.release?.(session)
    },
    use: (m) => {
      // sound: the tool a middleware of this server sees is always one of U
      use(m as Middleware)
      return server
    },
  }
  registerInner(server, { inner, toolCall, capabilities, screens, answerLine })
  return server
}

/** Every hook of the server's middleware: the tool table's, and the request and notification hooks around it. */
type FullChain = Chain & { readonly request: RequestStep[]; readonly notification: NotificationStep[] }

/** The hooks of the server's middleware (its `authorize` option first), and how to add more. */
const chainOf = (options: ServerOptions): { readonly chain: FullChain; readonly use: (m: Middleware) => void } => {
  const chain: FullChain = { request: [], notification: [], toolCall: [], authorize: [] }
  if (options.authorize !== undefined) chain.authorize.push(options.authorize)
  const use = (m: Middleware): void => {
    if (m.request !== undefined) chain.request.push(m.request)
    if (m.notification !== undefined) chain.notification.push(m.notification)
    if (m.toolCall !== undefined) chain.toolCall.push(m.toolCall)
    if (m.authorize !== undefined) chain.authorize.push(m.authorize)
  }
  for (const m of options.middleware ?? []) use(m)
  return { chain, use }
}
