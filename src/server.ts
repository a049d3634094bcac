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
import * as O from 'fp-ts/lib/Option.js'
import type { Task } from 'fp-ts/lib/Task.js'
import { callable, describe, runCall, type Callable, type Handler, type Handlers } from './call.js'
import { clip } from './clip.js'
import type { KeyCheck, ResultCheck } from './handlers.js'
import { errorMessage } from './content.js'
import { runWithContext } from './context.js'
import { complete } from './completion.js'
import type { CallToolResult } from './content.js'
import { deeperThan, defaultMaxDepth } from './json-depth.js'
import { extensionFields, isObject, stripUndefined } from './json-object.js'
import { answerPage, checkPageSize, pagesOf } from './pages.js'
import type { AnyTool, Icon, ListedTool } from './emcp.js'
import {
  decode,
  encode,
  failure,
  isRequestId,
  parse,
  rpcError,
  success,
  type Outgoing,
  type Reply,
  type Params,
  type Request,
  type RpcError,
} from './jsonrpc.js'
import { isThenable, map, toPromise, type Eventually } from './eventually.js'
import type { Feature, FeatureFactory, MethodHandler } from './feature.js'
import { hub as newHub, type Hub } from './hub.js'
import { mirrorProblems } from './protocol/headers.js'
import { checkCache, modernAdapter, type CacheOptions } from './protocol/modern.js'
import { requestStates, type RequestStateOptions } from './protocol/request-state.js'
import { listen } from './protocol/subscriptions.js'
import { initializeWith, refuseLegacy, setLevel } from './protocol/legacy.js'
import { legacyOutputSchema, wrapsOutput } from './protocol/legacy-output.js'
import { allEras, batchesAllowed, isModernVersion, type Era } from './protocol/versions.js'
import { abortCall, type Session } from './session.js'
import { sumOf, type CheckedTools } from './sum.js'

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
}

/** A server: the tools it serves and the dispatcher that speaks MCP about them. */
export interface Server<U extends AnyTool = AnyTool> {
  readonly info: ServerInfo
  readonly options: ServerOptions
  /** The contracts served now (enabled or not), in the order given, then as added. */
  readonly tools: ReadonlyArray<U>
  /** The sessions the server can notify (stdio, stateful HTTP). */
  readonly hub: Hub
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
  /** Forgets a session whose transport closed (its subscriptions, its place in the hub) and aborts its calls still running. */
  readonly release: (session: Session) => void
  /**
   * Answers one parsed JSON-RPC message; `None` for notifications and responses. An array
   * is a batch: answered as an array in sessions at 2025-03-26 or earlier, refused after.
   */
  readonly dispatch: (message: unknown, session: Session) => Task<O.Option<Reply>>
  /** Answers one message given as JSON text; a syntax error gets -32700 with id null. */
  readonly dispatchText: (text: string, session: Session) => Task<O.Option<string>>
}

/** A handler whose key names no tool gets a type that says so (object literals and variables alike). */
export type NoExtraHandlers<H, K> = { readonly [P in Exclude<keyof H, K>]: `no tool is named "${P & string}"` }

/** A sum of tools waiting for its handlers. */
export interface ServerBuilder<U extends AnyTool> {
  /**
   * Supplies one handler per tool; a missing or extra key, or a result key a closed output
   * schema does not allow, does not compile (see `KeyCheck` and `ResultCheck`).
   */
  readonly implement: <H extends KeyCheck<H, U['name']> & ResultCheck<H, U> & Handlers<U>>(handlers: H) => Server<U>
}

// ---------------------------------------------------------------------------------------
// constructors

/**
 * Folds a non-empty list of tool contracts into a server. A duplicate name is a compile error
 * (and, for lists built at run time, an exception listing every problem).
 */
export const mcpServer = <const T extends readonly AnyTool[]>(
  tools: CheckedTools<T>,
  info: ServerInfo,
  options: ServerOptions = {},
): ServerBuilder<T[number]> => {
  const list = tools as unknown as ReadonlyArray<T[number]>
  const checked = sumOf(list)
  if (E.isLeft(checked))
    throw new TypeError(`emcp: invalid tool list: ${checked.left.map((e) => `${e.path} ${e.message}`).join('; ')}`)
  checkPageSize(options.pageSize)
  checkEras(options.eras)
  checkCache(options.cache ?? {})
  return {
    implement: (handlers) => build(list, checked.right, handlers as unknown as Record<string, unknown>, info, options),
  }
}

// ---------------------------------------------------------------------------------------
// internals

const build = <U extends AnyTool>(
  tools: ReadonlyArray<U>,
  byName: ReadonlyMap<string, U>,
  handlers: Record<string, unknown>,
  info: ServerInfo,
  options: ServerOptions,
): Server<U> => {
  const problems: string[] = []
  for (const name of byName.keys())
    if (typeof handlers[name] !== 'function') problems.push(`missing handler for tool ${name}`)
  for (const key of Object.keys(handlers)) if (!byName.has(key)) problems.push(`handler for unknown tool ${key}`)
  for (const tool of byName.values()) problems.push(...mirrorProblems(tool))
  if (problems.length > 0) throw new TypeError(`emcp: ${problems.join('; ')}`)

  // the tool registry: changed only by addTool/removeTool/enable/disable, which also
  // recompute the list pages, so that requests never do
  const callables = new Map<string, Callable>()
  for (const [name, tool] of byName) callables.set(name, callable(tool, handlers[name] as Callable['handler']))
  const disabled = new Set<string>()
  let current: ReadonlyArray<U> = [...tools]
  // 2025-11-25 clients see non-object output schemas wrapped; 2026-07-28 clients as they are
  const pagesFor = (list: ReadonlyArray<U>) => {
    const legacy = pagesOf('tools', list.map((t) => listed(t, true)), options.pageSize)
    return { legacy, modern: list.some((t) => wrapsOutput(t.outputSchema)) ? pagesOf('tools', list.map((t) => listed(t, false)), options.pageSize) : legacy }
  }
  let pages = pagesFor(current)
  const hub = newHub()
  // inside batch(), changes only mark the pages stale; the outermost batch recomputes them
  const batching = { depth: 0, changed: false }
  const toolsChanged = (): void => {
    if (batching.depth > 0) {
      batching.changed = true
      return
    }
    pages = pagesFor(current.filter((t) => !disabled.has(t.name)))
    hub.broadcast('notifications/tools/list_changed')
  }
  const batch = (changes: () => void): void => {
    batching.depth++
    try {
      changes()
    } finally {
      if (--batching.depth === 0 && batching.changed) {
        batching.changed = false
        toolsChanged()
      }
    }
  }

  const features: ReadonlyArray<Feature> = (options.features ?? []).map((f) => f(hub))
  const completers = features.filter((f) => f.complete !== undefined)
  const takeovers = features.filter((f) => f.call !== undefined)
  const needsTakeover = (t: AnyTool): boolean => t.taskSupport === 'required' && takeovers.length === 0
  const taskOnly = tools.filter(needsTakeover).map((t) => t.name)
  if (taskOnly.length > 0)
    throw new TypeError(`emcp: ${taskOnly.join(', ')} run only as tasks (taskSupport: 'required'): add tasks() to the server's features`)
  const serverInfo = stripUndefined(info)
  const capabilities = Object.assign(
    {},
    ...features.map((f) => f.capabilities),
    completers.length > 0 ? { completions: {} } : {},
    { tools: { listChanged: true }, logging: {} },
  )

  const eras = options.eras ?? allEras
  const serves2025 = eras.includes('2025-11-25')

  const initialize = initializeWith({ capabilities, serverInfo, instructions: options.instructions, hub })

  // with an authorization predicate each session sees its own list, built per request (the
  // listed forms are still computed once per tool and era)
  const authorize = options.authorize
  const listedForms = { legacy: new WeakMap<AnyTool, ListedTool>(), modern: new WeakMap<AnyTool, ListedTool>() }
  const listedOf = (t: AnyTool, legacy: boolean): ListedTool => {
    const forms = legacy ? listedForms.legacy : listedForms.modern
    let l = forms.get(t)
    if (l === undefined) forms.set(t, (l = listed(t, legacy)))
    return l
  }
  const listTools = (req: Request, session: Session): E.Either<RpcError, unknown> => {
    const legacy = !isModernVersion(session.protocolVersion)
    const page =
      authorize === undefined
        ? legacy ? pages.legacy : pages.modern
        : pagesOf('tools', current.filter((t) => !disabled.has(t.name) && authorize(t, session)).map((t) => listedOf(t, legacy)), options.pageSize)
    return answerPage('tools/list', 'tools', page, req.params?.cursor)
  }

  const callTool = (req: Request, session: Session): Eventually<E.Either<RpcError, unknown>> => {
    const p = req.params
    const name = p?.name
    if (typeof name !== 'string') return E.left(rpcError('InvalidParams', 'tools/call: params.name must be a string'))
    const c = callables.get(name)
    if (c === undefined) return E.left(rpcError('UnknownTool', `Unknown tool: ${clip(name)}`))
    if (disabled.has(name)) return E.left(rpcError('UnknownTool', `Tool ${name} is disabled`))
    if (authorize !== undefined && !authorize(c.tool, session))
      return E.left(rpcError('Forbidden', `Forbidden: ${session.identity === undefined ? 'an anonymous caller' : `${session.identity.subject}`} may not call tool ${clip(name)}`))
    const args = p?.arguments ?? {}
    if (!isObject(args)) return E.left(rpcError('InvalidParams', 'tools/call: params.arguments must be an object'))
    const legacyWrap = wrapsOutput(c.tool.outputSchema) && !isModernVersion(session.protocolVersion)
    const run = (s: Session): Eventually<CallToolResult> => runWithContext(req, s, (ctx) => runCall(c, args, ctx))
    for (const f of takeovers) {
      const taken = f.call?.({ tool: c.tool, request: req, session, run })
      if (taken !== undefined) return taken
    }
    return map(run(session), (r) =>
      E.right(legacyWrap && r.structuredContent !== undefined ? { ...r, structuredContent: { result: r.structuredContent } } : r),
    )
  }

  /** `notifications/cancelled`: abort the call's signal; its answer will not be sent. */
  const cancel = (params: Params | undefined, session: Session): void => {
    const id = params?.requestId
    if (isRequestId(id)) abortCall(session, id, typeof params?.reason === 'string' ? params.reason : 'cancelled by the client')
  }

  // one table of every method answered: the server's own, then the features' (which may
  // neither take one of the server's nor share one between them)
  const methods = new Map<string, MethodHandler>([
    ['initialize', initialize],
    ['ping', () => E.right({})],
    ['tools/list', listTools],
    ['tools/call', callTool],
    ['logging/setLevel', setLevel],
  ])
  if (completers.length > 0) methods.set('completion/complete', (req, session) => complete(completers, req, session))
  const own = new Set(methods.keys())
  for (const f of features)
    for (const [method, handler] of Object.entries(f.methods)) {
      if (own.has(method)) throw new TypeError(`emcp: a feature cannot answer ${method}: the server answers it`)
      if (methods.has(method)) throw new TypeError(`emcp: two features answer ${method}`)
      methods.set(method, handler)
    }

  const modern = eras.includes('2026-07-28')
    ? modernAdapter({
        serverInfo,
        instructions: options.instructions,
        capabilities,
        eras,
        cache: options.cache ?? {},
        states: requestStates(options.requestState),
        answer: (req, session) => answer(req, session),
        listen: listen(hub, capabilities),
      })
    : undefined

  /** The era adapter for a request: 2026-07-28 when its `_meta` says so, else 2025-11-25. */
  const route = (req: Request, session: Session): Eventually<E.Either<RpcError, unknown>> =>
    modern?.claims(req) === true ? modern.respond(req, session) : serves2025 ? answer(req, session) : refuseLegacy(eras, req)

  const callTimeoutMs = options.callTimeoutMs ?? defaultCallTimeoutMs
  const maxDepth = options.maxDepth ?? defaultMaxDepth
  if (!Number.isInteger(maxDepth) || maxDepth < 1) throw new TypeError(`emcp: maxDepth must be a positive integer, got ${String(maxDepth)}`)
  /**
   * An asynchronous call, settled by the first of: its own answer; `callTimeoutMs` (its signal
   * aborted, and an answer that says so instead of its own); its cancellation (no answer, and
   * the transport need not wait for a handler that ignores its signal).
   */
  const settled = (running: Promise<E.Either<RpcError, unknown>>, req: Request, session: Session): Promise<E.Either<RpcError, unknown>> =>
    new Promise((resolve, reject) => {
      const abort = session.inFlight.get(req.id)
      if (abort !== undefined)
        session.inFlight.set(req.id, (reason) => {
          abort(reason)
          resolve(E.left(rpcError('InternalError', 'cancelled')))
        })
      const timer =
        callTimeoutMs > 0
          ? setTimeout(() => {
              const why = `${req.method} timed out after ${callTimeoutMs} ms (callTimeoutMs)`
              session.inFlight.delete(req.id)
              abort?.(new DOMException(why, 'TimeoutError'))
              const name = req.params?.name
              resolve(req.method === 'tools/call' ? E.right(errorMessage(`Tool ${clip(String(name))} ${why.slice(req.method.length + 1)}`)) : E.left(rpcError('RequestTimeout', `Request timed out: ${why}`)))
            }, callTimeoutMs)
          : undefined
      running.then(
        (v) => (clearTimeout(timer), resolve(v)),
        (e: unknown) => (clearTimeout(timer), reject(e)),
      )
    })

  const answer = (req: Request, session: Session): Eventually<E.Either<RpcError, unknown>> => {
    const handler = methods.get(req.method)
    if (handler !== undefined) {
      const out = handler(req, session)
      // here, below the era adapters, so that a timeout's answer is shaped like any other
      return isThenable(out) ? settled(out as Promise<E.Either<RpcError, unknown>>, req, session) : out
    }
    return E.left(
      req.method.startsWith('notifications/')
        ? rpcError('InvalidRequest', `Invalid Request: ${clip(req.method)} is a notification; send it without an id`)
        : rpcError('MethodNotFound', `Method not found: ${clip(req.method)}`),
    )
  }

  /** The dispatcher proper; synchronous unless a handler is asynchronous. */
  const respond = (message: unknown, session: Session): Eventually<O.Option<Outgoing>> => {
    const decoded = decode(message)
    if (E.isLeft(decoded)) return decoded.left.answer ? O.some(failure(decoded.left.id, decoded.left.error)) : O.none
    const m = decoded.right
    if (m.kind === 'notification') {
      if (m.method === 'notifications/initialized') session.initialized = true
      else if (m.method === 'notifications/cancelled') cancel(m.params, session)
      return O.none
    }
    if (m.kind === 'response') {
      // the answer to one of our own requests (sampling, elicitation, roots)
      session.outbound?.settle(m)
      return O.none
    }
    if (deeperThan(m.params, maxDepth))
      return O.some(failure(m.id, rpcError('InvalidParams', `Invalid params: nested deeper than ${maxDepth} levels (maxDepth)`)))
    const reply = (out: E.Either<RpcError, unknown>): O.Option<Outgoing> =>
      session.cancelled.delete(m.id) ? O.none : O.some(E.isRight(out) ? success(m.id, out.right) : failure(m.id, out.left))
    // the one place where anything thrown below the dispatcher becomes an error shape
    const crashed = (e: unknown): O.Option<Outgoing> =>
      reply(E.left(rpcError('InternalError', `Internal error: ${describe(e)}`)))
    try {
      const out = route(m, session)
      return isThenable(out) ? (out as Promise<E.Either<RpcError, unknown>>).then(reply, crashed) : reply(out)
    } catch (e) {
      return crashed(e)
    }
  }

  /** A batch (2025-03-26 and earlier): every member answered, the answers in one array. */
  const respondBatch = (batch: ReadonlyArray<unknown>, session: Session): Eventually<O.Option<Reply>> => {
    const answers = batch.map((m) =>
      isObject(m) && m.method === 'initialize' && 'id' in m
        ? O.some(failure(isRequestId(m.id) ? m.id : null, rpcError('InvalidRequest', 'Invalid Request: initialize must not be part of a batch')))
        : respond(m, session),
    )
    const collect = (settled: ReadonlyArray<O.Option<Outgoing>>): O.Option<Reply> => {
      const replies = settled.filter(O.isSome).map((o) => o.value)
      return replies.length === 0 ? O.none : O.some(replies)
    }
    return answers.some(isThenable) ? Promise.all(answers).then(collect) : collect(answers as ReadonlyArray<O.Option<Outgoing>>)
  }

  const respondAny = (message: unknown, session: Session): Eventually<O.Option<Reply>> =>
    Array.isArray(message) && message.length > 0 && batchesAllowed(session.protocolVersion)
      ? respondBatch(message, session)
      : respond(message, session)

  const encodeOption = (out: O.Option<Reply>): O.Option<string> => {
    if (O.isNone(out)) return O.none
    try {
      return O.some(encode(out.value))
    } catch (e) {
      // a result that JSON cannot carry (a BigInt, a cycle) must still get an answer
      const error = rpcError('InternalError', `Internal error: the response cannot be serialised: ${e instanceof Error ? e.message : String(e)}`)
      const lone = out.value
      return O.some(encode(failure(!Array.isArray(lone) && 'id' in lone ? (lone as Outgoing).id : null, error)))
    }
  }

  const dispatch = (message: unknown, session: Session): Task<O.Option<Reply>> => () =>
    toPromise(respondAny(message, session))

  const dispatchText = (text: string, session: Session): Task<O.Option<string>> => () => {
    const parsed = parse(text)
    if (E.isLeft(parsed)) return Promise.resolve(O.some(encode(failure(null, parsed.left))))
    return toPromise(map(respondAny(parsed.right, session), encodeOption))
  }

  const addTool = <T extends AnyTool>(tool: T, handler: Handler<T>): Server<U | T> => {
    const checked = sumOf([...current, tool] as ReadonlyArray<AnyTool>)
    if (E.isLeft(checked)) throw new TypeError(`emcp: cannot add tool: ${checked.left.map((e) => e.message).join('; ')}`)
    if (typeof handler !== 'function') throw new TypeError(`emcp: missing handler for tool ${tool.name}`)
    const mirrors = mirrorProblems(tool)
    if (mirrors.length > 0) throw new TypeError(`emcp: cannot add tool: ${mirrors.join('; ')}`)
    if (needsTakeover(tool)) throw new TypeError(`emcp: cannot add tool ${tool.name}: it runs only as a task and the server has no tasks() feature`)
    callables.set(tool.name, callable(tool, handler as Callable['handler']))
    current = [...current, tool as unknown as U]
    toolsChanged()
    return server as unknown as Server<U | T>
  }

  const removeTool = (name: string): boolean => {
    if (!callables.delete(name)) return false
    disabled.delete(name)
    current = current.filter((t) => t.name !== name)
    toolsChanged()
    return true
  }

  const setEnabled = (name: string, enabled: boolean): void => {
    if (!callables.has(name)) throw new TypeError(`emcp: no tool is named ${name}`)
    if (enabled === !disabled.has(name)) return
    if (enabled) disabled.delete(name)
    else disabled.add(name)
    toolsChanged()
  }

  const release = (session: Session): void => {
    // nothing will read the answers of calls still running: their signals say so
    for (const id of [...session.inFlight.keys()]) abortCall(session, id, new DOMException('the session ended', 'AbortError'))
    hub.remove(session)
    for (const f of features) f.release?.(session)
  }

  const server: Server<U> = {
    info,
    options,
    get tools() {
      return current
    },
    hub,
    dispatch,
    dispatchText,
    addTool,
    removeTool,
    enableTool: (name) => setEnabled(name, true),
    disableTool: (name) => setEnabled(name, false),
    batch,
    release,
  }
  return server
}

/** Five minutes: long enough for slow tools and a user answering an elicitation, short enough that a hung handler is let go. */
const defaultCallTimeoutMs = 300_000

const checkEras = (eras: ReadonlyArray<Era> | undefined): void => {
  if (eras === undefined) return
  if (eras.length === 0 || !eras.every((e) => allEras.includes(e)))
    throw new TypeError(`emcp: eras must name one or both of ${allEras.join(', ')}, got ${JSON.stringify(eras)}`)
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
