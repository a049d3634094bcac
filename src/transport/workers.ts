/**
 * `emcp/workers`: 2025-11-25 sessions on Cloudflare Workers, one Durable Object per session.
 * A Worker's isolates keep nothing between requests, so the session lives in an object: the
 * Worker sends an `initialize` to a new object (`newUniqueId()`), whose id becomes the
 * `MCP-Session-Id`; every later request naming that id (POST, the GET stream, DELETE) goes to
 * the object (`idFromString`), which runs emcp's stateful fetch handler for its one session:
 * its SSE streams, progress and logs on a call's stream, sampling and elicitation, resource
 * subscriptions. An id the namespace did not make, or whose session ended, answers 404. Every
 * other request (2026-07-28, 2025-11-25 without a session) is served by the Worker itself,
 * statelessly, as `toFetchHandler` does. No `nodejs_compat` flag is needed.
 *
 * @example
 * import { emcp, mcpServer } from 'emcp/fetch'
 * import { durableSessions } from 'emcp/workers'
 * const echo = emcp({ name: 'echo', description: 'Echo the text.', input: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } as const })
 * const mcp = durableSessions(() => mcpServer([echo], { name: 'edge', version: '1.0.0' }).implement({ echo: ({ text }) => text }), { path: '/mcp' })
 * export default mcp.worker          // the Worker's fetch
 * export const McpSession = mcp.Session // the Durable Object class, bound as MCP_SESSIONS
 */
// the walker, for the first schema checked where code cannot be generated (workerd): no require there to load it later
import '../schema/walker.js'
import type { AnyTool } from '../contract/emcp.js'
import { isModernVersion } from '../protocol/versions.js'
import type { Server } from '../server/server.js'
import { isObject } from '../util/json-object.js'
import { declaredLength, readWebBody } from './http/body-pace.js'
import { toFetchHandler, type FetchHandler, type FetchOptions } from './http/fetch.js'
import { refuse } from './http/reply.js'
import { durableObjectStore, type DurableStorage } from '../stores/durable-object.js'
import type { SharedStore } from '../stores/store.js'
import type { SessionOptions } from './http/sessions.js'

// ---------------------------------------------------------------------------------------
// model

/** The fetch handler's options, and where the Durable Object namespace is bound. */
export interface DurableSessionsOptions extends Omit<FetchOptions, 'sessions'> {
  /** The name of the Durable Object namespace binding in the Worker's `env` (default `MCP_SESSIONS`). */
  readonly binding?: string
  /** The session's limits inside its object (`maxSessions` is 1 there: one object, one session). */
  readonly sessions?: Omit<SessionOptions, 'maxSessions' | 'maxSessionsPerCaller' | 'newId'>
}

/** The part of a Durable Object namespace binding used here. */
export interface SessionNamespace {
  readonly newUniqueId: () => SessionObjectId
  readonly idFromString: (id: string) => SessionObjectId
  readonly get: (id: SessionObjectId) => { readonly fetch: (request: Request) => Promise<Response> }
}

/** A Durable Object id: its string is the session id. */
export interface SessionObjectId {
  readonly toString: () => string
}

/** The part of a Durable Object's state used here. */
export interface SessionObjectState {
  readonly id: SessionObjectId
  /** The object's storage, where the session's record is kept when the maker passes the store on. */
  readonly storage?: DurableStorage
  readonly waitUntil?: (work: Promise<unknown>) => void
}

/** A worker's execution context, as far as emcp uses it. */
export interface WorkerContext {
  readonly waitUntil?: (work: Promise<unknown>) => void
}

/** The Worker's handler and the Durable Object class to export beside it. */
export interface DurableSessions<Env> {
  /** The Worker (`export default mcp.worker`): routes each request to its session's object, or serves it statelessly. */
  readonly worker: { readonly fetch: (request: Request, env: Env, ctx?: WorkerContext) => Promise<Response> }
  /** The Durable Object class (`export const McpSession = mcp.Session`, bound under `binding`). */
  readonly Session: new (state: SessionObjectState, env: Env) => { fetch(request: Request): Promise<Response> }
}

export { durableObjectStore, type DurableStorage } from '../stores/durable-object.js'

// ---------------------------------------------------------------------------------------
// constructors

/**
 * A Worker and a Durable Object class serving `make(env, store)`'s server: sessions in
 * objects, everything else in the Worker. `make` runs once per isolate for the Worker (no
 * store) and once per object, with the bindings and a store keeping the session's record in
 * the object's storage: give it to `mcpServer`'s options (`{ store }`) and a session outlives
 * its object's eviction.
 */
export const durableSessions = <Env, U extends AnyTool>(make: (env: Env, store?: SharedStore) => Server<U>, options: DurableSessionsOptions = {}): DurableSessions<Env> => {
  const binding = options.binding ?? 'MCP_SESSIONS'
  const { binding: _, sessions, ...fetchOptions } = options
  let stateless: FetchHandler | undefined
  const fetch = async (request: Request, env: Env, ctx?: WorkerContext): Promise<Response> => {
    stateless ??= toFetchHandler(make(env), fetchOptions)
    const route = await routeOf(request, fetchOptions)
    if (route.kind === 'here') return stateless(route.request, env, ctx)
    if (route.kind === 'refused') return route.response
    const namespace = namespaceOf(env, binding)
    // a Worker deployed without the binding says so in its answer, not only in the platform's log
    if (typeof namespace === 'string') return refusal(500, `Internal Server Error: ${namespace}`)
    if (route.kind === 'new') return namespace.get(namespace.newUniqueId()).fetch(route.request)
    const id = idOf(namespace, route.sessionId)
    return id === undefined ? gone() : namespace.get(id).fetch(request)
  }

  class Session {
    private readonly handler: FetchHandler
    constructor(
      private readonly state: SessionObjectState,
      private readonly env: Env,
    ) {
      const id = state.id.toString()
      // the session's record in the object's storage, when the maker passes the store on: it outlives the object's eviction
      const store = state.storage === undefined ? undefined : durableObjectStore(state.storage)
      // one object, one session, named by the object's id (the Worker finds the object by it); no other replica reads its record, so no lease
      this.handler = toFetchHandler(make(env, store), { ...fetchOptions, sessions: { leaseMs: 0, ...sessions, maxSessions: 1, maxSessionsPerCaller: 0, newId: () => id } })
    }
    fetch(request: Request): Promise<Response> {
      return this.handler(request, this.env, this.state)
    }
  }

  return { worker: { fetch }, Session }
}

// ---------------------------------------------------------------------------------------
// internals

/** Where a request goes: the Worker's own stateless handler, a new session's object, an existing one's, or nowhere. */
type Route =
  | { readonly kind: 'here'; readonly request: Request }
  | { readonly kind: 'new'; readonly request: Request }
  | { readonly kind: 'session'; readonly sessionId: string }
  | { readonly kind: 'refused'; readonly response: Response }

/**
 * A request naming a session goes to its object; a POST that may be an `initialize` (no
 * session, no 2026-07-28 version header) is read, up to the body limit and at the body pace,
 * to see; everything else stays in the Worker, whose chain checks it as usual.
 */
const routeOf = async (request: Request, options: FetchOptions): Promise<Route> => {
  if (options.path !== undefined && pathOf(request.url) !== options.path) return { kind: 'here', request }
  const sessionId = request.headers.get('mcp-session-id')
  if (sessionId !== null) return { kind: 'session', sessionId }
  const version = request.headers.get('mcp-protocol-version')
  if (request.method !== 'POST' || (version !== null && isModernVersion(version))) return { kind: 'here', request }
  const limit = options.maxBodyBytes ?? 4 * 1024 * 1024
  const timeoutMs = options.bodyTimeoutMs ?? 60_000
  const read = await readWebBody(request.body, declaredLength(request.headers.get('content-length')), limit, {
    timeoutMs,
    minBytesPerSecond: options.minBodyBytesPerSecond ?? 1024,
  })
  if (read === 'too-large') return { kind: 'refused', response: refusal(413, `Payload Too Large: the body exceeds ${limit} bytes (maxBodyBytes)`) }
  if (read === 'too-slow') return { kind: 'refused', response: refusal(408, `Request Timeout: the body must arrive within ${timeoutMs} ms`) }
  const headers = new Headers(request.headers)
  headers.delete('content-length')
  const again = new Request(request.url, { method: 'POST', headers, body: read.text, signal: request.signal })
  return { kind: isInitialize(read.text) ? 'new' : 'here', request: again }
}

/** True when the body is one `initialize` request (a batch never is). */
const isInitialize = (text: string): boolean => {
  // the cheap test first: most bodies are not
  if (!text.includes('initialize')) return false
  try {
    const m: unknown = JSON.parse(text)
    return isObject(m) && m.method === 'initialize' && 'id' in m
  } catch {
    return false
  }
}

/** The object of a session id, when the namespace made it (a forged or malformed id throws there). */
const idOf = (namespace: SessionNamespace, sessionId: string): SessionObjectId | undefined => {
  if (sessionId.length === 0 || sessionId.length > 128) return undefined
  try {
    return namespace.idFromString(sessionId)
  } catch {
    return undefined
  }
}

/** The namespace bound under `binding`, or what is missing. */
const namespaceOf = (env: unknown, binding: string): SessionNamespace | string => {
  const namespace = isObject(env) ? env[binding] : undefined
  if (isObject(namespace) && typeof namespace.newUniqueId === 'function' && typeof namespace.idFromString === 'function' && typeof namespace.get === 'function')
    return namespace as unknown as SessionNamespace
  return `emcp/workers: env.${binding} is not a Durable Object namespace; bind the exported Session class under "${binding}" (wrangler.toml [[durable_objects.bindings]])`
}

const pathOf = (url: string): string | undefined => {
  try {
    return new URL(url).pathname
  } catch {
    return undefined
  }
}

/** A JSON-RPC error answer with an HTTP status: the chain's own refusal. */
const refusal = (status: number, message: string): Response => {
  const reply = refuse(status, message)
  return new Response(reply.body as string, { status, headers: reply.headers })
}

/** The answer to a session id no object holds: 404, as on Node. */
const gone = (): Response => refusal(404, 'Not Found: this session does not exist or has ended; initialize a new one')
