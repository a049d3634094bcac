/**
 * The 2026-07-28 adapter around the dispatcher. A request whose `params._meta` names its
 * protocol revision is served statelessly: no `initialize`; the client's capabilities, name
 * and log level come from that `_meta`; every result carries `resultType` and the server's
 * name in `_meta`; list and read results carry caching hints; `server/discover` tells what
 * the server speaks; a resource that is not there is -32602. The handlers are the same ones
 * the 2025-11-25 adapter drives: they see a session of the request's revision.
 *
 * @example
 * import { emcp, mcpServer, newSession } from 'emcp'
 * const echo = emcp({ name: 'echo', description: 'Echo.', input: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } })
 * const server = mcpServer([echo], { name: 'e', version: '1' }).implement({ echo: ({ text }) => text })
 * await server.dispatch({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: {
 *   'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } } }, newSession())()
 * // Some({ jsonrpc: '2.0', id: 1, result: { resultType: 'complete', supportedVersions: ['2026-07-28', '2025-11-25', ...], ... } })
 */
import * as E from 'fp-ts/lib/Either.js'
import { clip } from '../../util/clip.js'
import { isThenable, type Eventually } from '../../util/eventually.js'
import type { Answer } from '../../server/feature.js'
import { isObject } from '../../util/json-object.js'
import { RawJson, rpcError, type Notification, type Request, type RpcError } from '../jsonrpc.js'
import type { Outbound } from '../../server/outbound.js'
import { logLevels, type ClientInfo, type LogLevel, type Session } from '../../server/session.js'
import { legacyOnlyMethods } from '../2025-11-25/legacy.js'
import { InputRequired, inputMethods, inputStateOf, MissingClientCapability, type InputState } from './input-required.js'
import type { RequestStates } from './request-state.js'
import { replayAsker } from '../../server/ask.js'
import { callerOf } from '../../server/principal.js'
import { isModernVersion, isSupportedVersion, versionsOf, type Era } from '../versions.js'

// ---------------------------------------------------------------------------------------
// model

/** The `_meta` keys of the 2026-07-28 request envelope and result. */
export const metaKeys = {
  protocolVersion: 'io.modelcontextprotocol/protocolVersion',
  clientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
  clientInfo: 'io.modelcontextprotocol/clientInfo',
  logLevel: 'io.modelcontextprotocol/logLevel',
  serverInfo: 'io.modelcontextprotocol/serverInfo',
} as const

/** How long a result may be cached, and by whom (2026-07-28 `ttlMs` and `cacheScope`). */
export interface CacheHints {
  /** Milliseconds the result stays fresh (an integer, 0 or more). */
  readonly ttlMs?: number
  /** `public`: the same for every user, shared caches may keep it; `private`: per user. */
  readonly cacheScope?: 'public' | 'private'
}

/** The results that carry caching hints. */
export type CacheableMethod = 'server/discover' | 'tools/list' | 'prompts/list' | 'resources/list' | 'resources/templates/list' | 'resources/read'

/** Caching hints for the whole server, and per list (or read) to override them. */
export interface CacheOptions extends CacheHints {
  readonly methods?: { readonly [M in CacheableMethod]?: CacheHints }
}

/** What the adapter needs from the server. */
export interface ModernConfig {
  readonly serverInfo: unknown
  readonly instructions: string | undefined
  readonly capabilities: { readonly [key: string]: unknown }
  readonly eras: ReadonlyArray<Era>
  readonly cache: CacheOptions
  readonly states: RequestStates
  /** The request middleware, around the answer of a request whose envelope was accepted. */
  readonly around: (req: Request, session: Session, inner: () => Answer) => Answer
  /** The method table shared by both eras. */
  readonly answer: (req: Request, session: Session) => Answer
  /** `subscriptions/listen`. */
  readonly listen: (req: Request, session: Session) => Answer
}

/** The 2026-07-28 adapter. */
export interface ModernAdapter {
  /** True for a request or notification this adapter serves (its `_meta` names a revision that is not of the 2025 family). */
  readonly claims: (m: Request | Notification) => boolean
  /** Answers one request; the session is the connection's, read for its channel and cancellations only. */
  readonly respond: (req: Request, connection: Session) => Answer
}


const cacheable: ReadonlySet<string> = new Set<CacheableMethod>([
  'server/discover',
  'tools/list',
  'prompts/list',
  'resources/list',
  'resources/templates/list',
  'resources/read',
])

// ---------------------------------------------------------------------------------------
// constructors

/** Fails unless caching hints are well formed. */
export const checkCache = (cache: CacheOptions): void => {
  const check = (where: string, h: CacheHints): void => {
    if (h.ttlMs !== undefined && !(Number.isSafeInteger(h.ttlMs) && h.ttlMs >= 0))
      throw new TypeError(`emcp: ${where}ttlMs must be an integer of 0 or more, got ${String(h.ttlMs)}`)
    if (h.cacheScope !== undefined && h.cacheScope !== 'public' && h.cacheScope !== 'private')
      throw new TypeError(`emcp: ${where}cacheScope must be "public" or "private", got ${JSON.stringify(h.cacheScope)}`)
  }
  check('cache.', cache)
  for (const [m, h] of Object.entries(cache.methods ?? {})) {
    if (!cacheable.has(m)) throw new TypeError(`emcp: cache.methods: ${m} carries no caching hints (only ${[...cacheable].join(', ')})`)
    check(`cache.methods["${m}"].`, h ?? {})
  }
}

/**
 * The adapter's `claims` for a server serving `eras`, apart from the adapter: a server tests
 * every request with it, and makes the adapter itself on the first request it claims.
 */
export const claimsOf = (eras: ReadonlyArray<Era>): ((m: Request | Notification) => boolean) => {
  const serves2025 = eras.includes('2025-11-25')
  // the request's revision: a 2025-family one in `_meta` is left to the 2025 adapter when that era is served
  return (m) => {
    const meta = m.params?._meta
    if (!isObject(meta) || !(metaKeys.protocolVersion in meta)) return false
    return !(serves2025 && isSupportedVersion(meta[metaKeys.protocolVersion]))
  }
}

/** The adapter for a server. */
export const modernAdapter = (config: ModernConfig): ModernAdapter => {
  const supported = versionsOf(config.eras)
  const complete = completer(config)

  const discover = (): Answer =>
    E.right({
      supportedVersions: supported,
      capabilities: config.capabilities,
      ...(config.instructions === undefined ? {} : { instructions: config.instructions }),
    })

  const claims = claimsOf(config.eras)

  const respond = (req: Request, connection: Session): Answer => {
    const meta = (req.params?._meta ?? {}) as { readonly [key: string]: unknown }
    const version = meta[metaKeys.protocolVersion]
    if (typeof version !== 'string')
      return E.left(rpcError('InvalidParams', `Invalid params: _meta["${metaKeys.protocolVersion}"] must be a string`))
    if (!isModernVersion(version))
      return E.left(rpcError('UnsupportedProtocolVersion', `Unsupported protocol version: ${clip(version)} (supported: ${supported.join(', ')})`, { supported, requested: clip(version) }))
    const caps = meta[metaKeys.clientCapabilities]
    if (!isObject(caps))
      return E.left(rpcError('InvalidParams', `Invalid params: _meta["${metaKeys.clientCapabilities}"] is required (an object; {} declares none)`))
    const level = meta[metaKeys.logLevel]
    if (level !== undefined && !(logLevels as ReadonlyArray<unknown>).includes(level))
      return E.left(rpcError('InvalidParams', `Invalid params: _meta["${metaKeys.logLevel}"] must be one of ${logLevels.join(', ')}`))
    const info = meta[metaKeys.clientInfo]
    // the request's own view: its revision, capabilities and log level; the connection's
    // channel and cancellations (so that notifications/cancelled reaches the call)
    const session: Session = {
      ...connection,
      outbound: connection.outbound === undefined ? undefined : noRequests(connection.outbound),
      protocolVersion: version,
      clientInfo: isObject(info) ? (info as ClientInfo) : undefined,
      clientCapabilities: caps,
      initialized: true,
      logLevel: level as LogLevel | undefined,
      // questions to the client: replayed answers and input_required, never requests
      ask: replayAsker(undefined),
      listens: undefined,
    }
    return inputMethods.has(req.method) ? withInputs(req, session, config.states, () => run(req, session, version)) : run(req, session, version)
  }

  /** The request's answer under its own view of the session, once its input state is known. */
  const run = (req: Request, session: Session, version: string): Answer => {
    const method = req.method
    let out: Eventually<E.Either<RpcError, unknown>>
    try {
      out = config.around(req, session, () =>
        method === 'server/discover'
          ? discover()
          : method === 'subscriptions/listen'
            ? config.listen(req, session)
            : legacyOnlyMethods.has(method)
              ? E.left(rpcError('MethodNotFound', `Method not found: ${method} is not part of protocol revision ${version}`))
              : config.answer(req, session),
      )
    } catch (e) {
      return settleThrown(e)
    }
    const settle = settleOf(method)
    return isThenable(out) ? (out as Promise<E.Either<RpcError, unknown>>).then(settle, settleThrown) : settle(out)
  }

  /**
   * The last step of a request's answer, made outside the request's scope: a closure made
   * there would keep the whole request (its params may be megabytes) for as long as the
   * answer takes, and a subscription's takes hours.
   */
  const settleOf =
    (method: string) =>
    (r: E.Either<RpcError, unknown>): E.Either<RpcError, unknown> =>
      E.isRight(r) ? E.right(complete(method, r.right)) : E.left(modernError(r.left))

  /** What ends a request early: a question for the client, or a capability it lacks; anything else is thrown on. */
  const settleThrown = (e: unknown): Answer => {
    if (e instanceof InputRequired)
      return e.requestState.then((requestState) =>
        E.right({
          resultType: 'input_required',
          inputRequests: e.inputRequests,
          requestState,
          _meta: { [metaKeys.serverInfo]: config.serverInfo },
        }),
      )
    if (e instanceof MissingClientCapability)
      return E.left(rpcError('MissingRequiredClientCapability', `Missing required client capability: ${e.message}`, { requiredCapabilities: e.capability }))
    throw e
  }

  return { claims, respond }
}

/** Runs `run` once the request's input state (the answers its `requestState` replays) is on the session, or answers why the state is refused. */
const withInputs = (req: Request, session: Session, states: RequestStates, run: () => Answer): Answer => {
  const inputs = inputStateOf(req.method, req.params, states, callerOf(session))
  const go = (r: E.Either<RpcError, InputState>): Answer => {
    if (E.isLeft(r)) return r
    session.ask = replayAsker(r.right)
    return run()
  }
  // a retry's state is checked through Web Crypto, a promise; a first attempt stays synchronous
  return isThenable(inputs) ? (inputs as Promise<E.Either<RpcError, InputState>>).then(go) : go(inputs as E.Either<RpcError, InputState>)
}

/**
 * Gives a result its 2026-07-28 form: `resultType` (kept when the result names its own, e.g.
 * the tasks extension's "task"), caching hints on a complete one, the server in `_meta`.
 */
const completer = (config: ModernConfig): ((method: string, result: unknown) => unknown) => {
  // the caching hints of each cacheable method, settled once with the server
  const hints = new Map(
    [...cacheable].map((method) => {
      const own = config.cache.methods?.[method as CacheableMethod] ?? {}
      return [method, { ttlMs: own.ttlMs ?? config.cache.ttlMs ?? 0, cacheScope: own.cacheScope ?? config.cache.cacheScope ?? 'private' }] as const
    }),
  )

  const completeValue = (method: string, result: unknown): unknown => {
    const r = isObject(result) ? result : {}
    const meta = isObject(r._meta) ? r._meta : {}
    // a result that names its own type (an extension's, e.g. the tasks extension's "task") keeps it
    const resultType = typeof r.resultType === 'string' ? r.resultType : 'complete'
    return {
      ...r,
      resultType,
      ...(resultType === 'complete' ? hints.get(method) : undefined),
      _meta: { ...meta, [metaKeys.serverInfo]: config.serverInfo },
    }
  }
  // precomputed pages (RawJson) get their 2026 form once per page, not per request
  const wrappedPages = new WeakMap<RawJson, RawJson>()
  return (method: string, result: unknown): unknown => {
    if (result instanceof RawJson) {
      let done = wrappedPages.get(result)
      if (done === undefined) wrappedPages.set(result, (done = new RawJson(completeValue(method, result.value))))
      return done
    }
    return completeValue(method, result)
  }
}

/**
 * The connection's channel for a 2026-07-28 request: its notifications (progress, logs) go
 * out, but no request does; questions to the client are `input_required` results.
 */
const noRequests = (out: Outbound): Outbound => {
  // one view per connection channel, not one per request
  let view = noRequestViews.get(out)
  if (view === undefined)
    noRequestViews.set(
      out,
      (view = {
        ...out,
        request: (method) =>
          Promise.reject(new Error(`${method} cannot be sent: in 2026-07-28 only tools/call, prompts/get and resources/read may ask the client, through input_required`)),
      }),
    )
  return view
}
const noRequestViews = new WeakMap<Outbound, Outbound>()

/** Errors whose code changed in 2026-07-28: a resource that is not there is -32602. */
export const modernError = (e: RpcError): RpcError => (e._tag === 'ResourceNotFound' ? rpcError('InvalidParams', e.message, e.data) : e)
