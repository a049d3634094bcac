/// <reference types="node" preserve="true" />
/**
 * The one-shot, stateless HTTP transport: each POST carries one JSON-RPC message and gets
 * its answer as JSON (202 and no body for notifications). One core decides every reply;
 * two thin adapters drive it: a Web-standard `(Request) => Promise<Response>` handler and a
 * Node `http` listener (which skips building Web Request objects, for speed).
 *
 * @example
 * import { emcp, mcpServer } from 'emcp'
 * import { serveHttp } from 'emcp/http'
 * const echo = emcp({ name: 'echo', input: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } })
 * const server = mcpServer([echo], { name: 'e', version: '1' }).implement({ echo: ({ text }) => text })
 * const running = await serveHttp(server, { port: 3000 }) // http://127.0.0.1:3000/mcp
 * await running.close()
 */
import { createServer, type IncomingMessage, type Server as NodeServer, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import * as E from 'fp-ts/lib/Either.js'
import * as O from 'fp-ts/lib/Option.js'
import { shown } from '../clip.js'
import type { AnyTool } from '../emcp.js'
import { isObject } from '../json-object.js'
import { decode, encode, failure, isRequestId, parse, rpcError, type Outgoing, type RequestId } from '../jsonrpc.js'
import { metaKeys } from '../protocol/modern.js'
import { allEras, assumedHttpVersion, batchesAllowed, isSupportedVersion, latestVersion, supportedVersions, versionsOf, type AnyProtocolVersion, type ProtocolVersion } from '../protocol/versions.js'
import type { Server } from '../server.js'
import { newSession, type Identity, type Session } from '../session.js'
import { defaultDrainTimeoutMs, exitSoon, inFlight, onShutdownSignal, refusalOf, shuttingDown } from './drain.js'
import { addressKey } from './caller.js'
import { httpSessions, type HttpSessions, type SessionOptions } from './http-sessions.js'
import { byteBudget, releasedAtEnd, shareOf } from './in-flight.js'
import { claimsModern, envelopeMissing, modernPost } from './http-modern.js'

export { httpSessions, type HttpSession, type HttpSessions, type SessionOptions } from './http-sessions.js'
export { memoryEventStore, type EventStore, type Replay } from './event-store.js'
export { sseStream, type SseOptions, type SseStream } from './sse.js'

// ---------------------------------------------------------------------------------------
// model

/** Options shared by both HTTP adapters. */
export interface HttpOptions {
  /** The largest request body accepted, in bytes (default 4 MiB); larger ones get 413. */
  readonly maxBodyBytes?: number
  /**
   * The most request-body bytes handled at once (default 32 MiB), from before a body is read
   * until its answer is out; a request past it waits, its body unread. One larger than the
   * limit runs alone.
   */
  readonly maxBytesInFlight?: number
  /** The same for one client address (default 8 MiB: two bodies of the default maximum size); 0: no limit per client. */
  readonly maxBytesInFlightPerClient?: number
  /**
   * The client's address, for the limits per client (default: the connection's peer address;
   * the fetch handler knows none). Behind a reverse proxy, read the header the proxy sets.
   */
  readonly clientAddress?: (req: HttpRequestHead) => string | undefined
  /** Refuse requests whose Host or Origin is not allowed (default true). */
  readonly dnsRebindingProtection?: boolean
  /** Host header values allowed (host or host:port); loopback names when absent. */
  readonly allowedHosts?: ReadonlyArray<string>
  /** Origin header values allowed (exact); loopback origins when absent. */
  readonly allowedOrigins?: ReadonlyArray<string>
  /** Answer CORS preflights and name allowed origins in answers, for browser clients (default true). */
  readonly cors?: boolean
  /**
   * Stateful mode: sessions named by `MCP-Session-Id`, SSE streams (GET and per request),
   * DELETE to end a session. Off by default: each POST then stands alone.
   */
  readonly sessions?: boolean | SessionOptions
  /**
   * 2026-07-28: how often a `subscriptions/listen` stream gets an SSE comment line while no
   * notification flows, so that intermediaries keep it open (default 15 000 ms; 0: never).
   */
  readonly keepAliveMs?: number
  /** Bearer tokens: who each request comes from (see `BearerAuth`); every caller is anonymous when absent. */
  readonly auth?: BearerAuth
}

/**
 * Bearer-token authentication, pluggable: `verify` turns the token of an
 * `Authorization: Bearer <token>` header into an identity (undefined, or a throw, for a token
 * it does not accept: 401). The identity lands on the session, where the server's
 * `authorize` predicate reads it. In stateful mode a session keeps the subject that
 * initialized it: a request with another subject's token gets 403.
 */
export interface BearerAuth {
  readonly verify: (token: string) => Identity | undefined | Promise<Identity | undefined>
  /** Refuse requests without a token (401); otherwise they are anonymous (default false). */
  readonly required?: boolean
  /** The realm named in `WWW-Authenticate` (default "mcp"). */
  readonly realm?: string
}

/** Options of `serveHttp`. */
export interface ServeHttpOptions extends HttpOptions {
  /** The port (default 3000; 0 picks a free one). */
  readonly port?: number
  /** The address to bind (default 127.0.0.1). */
  readonly host?: string
  /** The path served (default `/mcp`); other paths get 404. */
  readonly path?: string
  /**
   * Drain on SIGTERM and SIGINT (default true): answer the requests in flight, refuse new
   * ones with 503 and a JSON-RPC error, close, then exit with code 0. A second signal ends
   * the drain at once.
   */
  readonly handleSignals?: boolean
  /** The longest a drain waits for requests in flight (default 10 000 ms); the connections still open are then cut. */
  readonly drainTimeoutMs?: number
}

/** A running HTTP server. */
export interface RunningHttp {
  /** The endpoint, e.g. `http://127.0.0.1:3000/mcp`. */
  readonly url: string
  /** The port bound. */
  readonly port: number
  /** The Node server underneath. */
  readonly server: NodeServer
  /** Stops accepting connections and resolves once open ones are closed. */
  readonly close: () => Promise<void>
  /** Refuses new requests (503) while answering those in flight, for at most `drainTimeoutMs`; then closes. */
  readonly drain: () => Promise<void>
}

/** What the core needs to know of a request. */
export interface HttpRequestHead {
  readonly method: string
  /** A header's value by lower-case name, or undefined. */
  readonly header: (name: string) => string | undefined
  /** Fires when the client goes away before the answer is complete. */
  readonly signal?: AbortSignal
  /** The client's address (the connection's peer), for the per-caller session limit; unknown to the fetch handler. */
  readonly remoteAddress?: string
}

/** The core's decision: a status, headers and a body (text, or an SSE stream's chunks). */
export interface HttpReply {
  readonly status: number
  readonly headers: { readonly [name: string]: string }
  readonly body: string | AsyncIterable<string>
}

/** The body as read by an adapter: its text, or the sign that it was over the limit. */
export type BodyRead = { readonly text: string } | 'too-large'

// ---------------------------------------------------------------------------------------
// constructors

/**
 * The transport core: checks the request head, reads the body through `readBody` (with the
 * limit), and answers through the server's dispatcher. No I/O of its own.
 */
export const httpCore = <U extends AnyTool>(server: Server<U>, options: HttpOptions = {}) => {
  const maxBodyBytes = options.maxBodyBytes ?? 4 * 1024 * 1024
  const protect = options.dnsRebindingProtection ?? true
  const hostAllowed = options.allowedHosts === undefined ? isLoopbackHost : listed(options.allowedHosts)
  const originAllowed = options.allowedOrigins === undefined ? isLoopbackOrigin : exactly(options.allowedOrigins)

  const cors = options.cors ?? true
  const eras = server.options.eras ?? allEras
  const serves2025 = eras.includes('2025-11-25')
  const modern = eras.includes('2026-07-28') ? modernPost(server as unknown as Server, options.keepAliveMs ?? 15_000) : undefined

  const handle = async (req: HttpRequestHead, readBody: (limit: number) => Promise<BodyRead>): Promise<HttpReply> => {
    const origin = req.header('origin')
    if (protect) {
      const host = req.header('host')
      if (host === undefined || !hostAllowed(host)) return refuse(403, `Forbidden: host ${shown(host ?? '')} is not allowed`)
      if (origin !== undefined && !originAllowed(origin)) return refuse(403, `Forbidden: origin ${shown(origin)} is not allowed`)
    }
    // a browser may read the answer only when it names the origin, and only allowed ones are
    // named (even with the rebinding checks off, or any web page could read the server)
    const reply = cors && origin !== undefined && originAllowed(origin) ? withCors(origin) : (r: HttpReply): HttpReply => r
    if (cors && req.method === 'OPTIONS') return reply(preflight(req, sessions === undefined ? allowed : 'POST, GET, DELETE, OPTIONS'))
    if (draining && req.method === 'GET') return reply(refuse(503, shuttingDown, { connection: 'close' }))
    const leave = running.enter()
    // a body's bytes count from before it is read until its answer is out
    let release: (() => void) | undefined
    const read = async (limit: number): Promise<BodyRead> => {
      release = await budget.take(clientOf(req), shareOf(req, limit))
      return readBody(limit)
    }
    try {
      return reply(releasedAtEnd(await answer(req, read), () => release?.()))
    } catch (e) {
      release?.()
      throw e
    } finally {
      leave()
    }
  }
  const budget = byteBudget({ total: options.maxBytesInFlight ?? 32 * 1024 * 1024, perClient: options.maxBytesInFlightPerClient ?? 8 * 1024 * 1024 })
  const addressOf = (req: HttpRequestHead): string | undefined => options.clientAddress?.(req) ?? req.remoteAddress
  const clientOf = (req: HttpRequestHead): string | undefined => {
    const address = addressOf(req)
    return address === undefined ? undefined : addressKey(address)
  }

  // while draining, requests are refused; notifications and responses still reach the calls in flight
  const running = inFlight()
  let draining = false
  // the stateless sessions with a call running: past the drain's deadline, their calls are
  // aborted (a stateful session's are when the registry closes and releases it)
  const oneShots = new Set<Session>()
  const drain = async (timeoutMs: number): Promise<boolean> => {
    draining = true
    const drained = await running.drained(timeoutMs)
    for (const s of oneShots) server.release(s)
    sessions?.close()
    return drained
  }
  const drainRefusal = (text: string): HttpReply | undefined => {
    const parsed = parse(text)
    const refusal = E.isRight(parsed) ? refusalOf(parsed.right) : undefined
    return refusal === undefined ? undefined : { status: 503, headers: { ...jsonHeaders, connection: 'close' }, body: encode(refusal) }
  }

  const sessions = options.sessions === undefined || options.sessions === false ? undefined : httpSessions(server as unknown as Server, options.sessions === true ? {} : options.sessions)
  const notAllowed = (): HttpReply =>
    refuse(405, `Method Not Allowed: this endpoint accepts ${sessions === undefined ? 'POST only' : 'POST, GET and DELETE'}`, {
      allow: [sessions === undefined ? 'POST' : 'POST, GET, DELETE', ...(cors ? ['OPTIONS'] : [])].join(', '),
    })

  const answer = async (req: HttpRequestHead, readBody: (limit: number) => Promise<BodyRead>): Promise<HttpReply> => {
    const caller = await identify(req)
    if (typeof caller === 'object' && 'status' in caller) return caller
    if (sessions !== undefined && req.method === 'GET') return sameCaller(sessions, req, caller) ?? openStream(sessions, req)
    if (sessions !== undefined && req.method === 'DELETE') return sameCaller(sessions, req, caller) ?? endSession(sessions, req)
    if (req.method !== 'POST') return notAllowed()
    const accept = req.header('accept')
    if (accept !== undefined && !acceptsJson(accept))
      return refuse(406, 'Not Acceptable: the Accept header must allow application/json')
    const type = req.header('content-type')
    if (type === undefined || !isJsonType(type))
      return refuse(415, 'Unsupported Media Type: Content-Type must be application/json')
    const version = req.header('mcp-protocol-version')
    const legacyHeader = version === undefined || isSupportedVersion(version)
    if (!legacyHeader && modern === undefined)
      return refuse(400, `Bad Request: unsupported MCP-Protocol-Version ${shown(version)} (supported: ${supportedVersions.join(', ')})`)
    const body = await readBody(maxBodyBytes)
    if (body === 'too-large') return refuse(413, `Payload Too Large: the body exceeds ${maxBodyBytes} bytes`, { connection: 'close' })
    const refused = draining ? drainRefusal(body.text) : undefined
    if (refused !== undefined) return refused
    // 2026-07-28 traffic names its revision in the body's _meta (and the header): no sessions
    if (modern !== undefined && (!legacyHeader || body.text.includes(metaKeys.protocolVersion))) {
      const parsed = parse(body.text)
      if (E.isLeft(parsed)) return { status: 400, headers: jsonHeaders, body: encode(failure(null, parsed.left)) }
      if (claimsModern(parsed.right, serves2025)) return modern(req, parsed.right, caller)
      if (!legacyHeader) return envelopeMissing(parsed.right, version as string, versionsOf(eras))
    }
    const legacy = legacyHeader ? (version as ProtocolVersion | undefined) : assumedHttpVersion
    if (sessions !== undefined) return sameCaller(sessions, req, caller) ?? post(sessions, req, body.text, legacy, caller)
    const session = newSession(legacy ?? assumedHttpVersion)
    session.identity = caller
    const alone = mayNeedChannel(body.text) ? await withoutChannel(body.text, session) : undefined
    if (alone !== undefined) return alone
    oneShots.add(session)
    let out: O.Option<string>
    try {
      out = await server.dispatchText(body.text, session)()
    } finally {
      oneShots.delete(session)
    }
    if (O.isNone(out)) return { status: 202, headers: {}, body: '' }
    return { status: isUnaddressedError(out.value) ? 400 : 200, headers: jsonHeaders, body: out.value }
  }

  /**
   * A stateless request has no channel back: its `initialize` does not offer what needs one
   * (list_changed notifications, resource subscriptions), and `resources/subscribe` is
   * refused rather than acknowledged for updates that could never arrive. Undefined: any
   * other message, dispatched as usual.
   */
  const withoutChannel = async (text: string, session: Session): Promise<HttpReply | undefined> => {
    const parsed = parse(text)
    if (E.isLeft(parsed) || !isObject(parsed.right) || !isRequestId(parsed.right.id)) return undefined
    const message = parsed.right
    if (message.method === 'resources/subscribe')
      return {
        status: 200,
        headers: jsonHeaders,
        body: encode(failure(message.id as RequestId, rpcError('MethodNotFound', 'Method not found: resources/subscribe needs a session to send updates on; this endpoint is stateless'))),
      }
    if (message.method !== 'initialize') return undefined
    const out = await server.dispatch(message, session)()
    if (O.isNone(out)) return { status: 202, headers: {}, body: '' }
    const reply = out.value as Outgoing
    if (!('result' in reply)) return { status: 200, headers: jsonHeaders, body: encode(reply) }
    const result = reply.result as { readonly capabilities?: { readonly [name: string]: unknown } }
    return { status: 200, headers: jsonHeaders, body: encode({ ...reply, result: { ...result, capabilities: channelFree(result.capabilities ?? {}) } }) }
  }

  /** A POST in stateful mode: initialize opens a session; anything else needs one. */
  const post = async (
    registry: HttpSessions,
    req: HttpRequestHead,
    text: string,
    version: ProtocolVersion | undefined,
    caller: Identity | undefined,
  ): Promise<HttpReply> => {
    const parsed = parse(text)
    if (E.isLeft(parsed)) return { status: 400, headers: jsonHeaders, body: encode(failure(null, parsed.left)) }
    const message = parsed.right
    const sid = req.header('mcp-session-id')
    if (sid === undefined) {
      if (!isInitialize(message)) return refuse(400, 'Bad Request: the MCP-Session-Id header is required (send initialize first to get one)')
      const entry = registry.open(version ?? latestVersion, { identity: caller, address: addressOf(req) })
      const out = await server.dispatch(message, entry.session)()
      const reply = O.isSome(out) ? encode(out.value) : ''
      // a failed initialize opens nothing (and so makes no room either)
      if (entry.session.clientCapabilities === undefined) return { status: 200, headers: jsonHeaders, body: reply }
      const admitted = registry.admit(entry)
      if (admitted === 'caller-limit')
        return refuse(429, `Too Many Requests: this caller already has ${registry.limits.maxSessionsPerCaller} sessions, each with a stream open; end one (DELETE) or try again later`)
      if (admitted === 'full') return refuse(503, 'Service Unavailable: too many sessions are open; try again later')
      return { status: 200, headers: { ...jsonHeaders, 'mcp-session-id': entry.id }, body: reply }
    }
    const entry = registry.get(sid)
    if (entry === undefined) return refuse(404, 'Not Found: this session does not exist or has ended; initialize a new one')
    const accept = req.header('accept') ?? ''
    if (!/text\/event-stream/i.test(accept) || !streamsWorthIt(message, entry.session.protocolVersion)) {
      const out = await server.dispatch(message, entry.session)()
      if (O.isNone(out)) return { status: 202, headers: {}, body: '' }
      const text = encode(out.value)
      return { status: isUnaddressedError(text) ? 400 : 200, headers: jsonHeaders, body: text }
    }
    // an SSE stream carries the request's notifications and requests to the client, then its answer
    const stream = registry.stream(entry, 'request')
    if (typeof stream === 'string') return refuse(500, 'Internal Server Error: no stream')
    req.signal?.addEventListener('abort', () => stream.cut(), { once: true })
    // the answer goes to the stream id, not this connection: a client cut off resumes and gets it
    const leave = running.enter()
    registry
      .within(entry, stream.id, () => server.dispatch(message, entry.session)())
      .then(
        (out) => {
          if (O.isSome(out)) registry.deliver(entry, stream.id, encode(out.value))
          registry.finish(entry, stream.id)
        },
        () => registry.finish(entry, stream.id),
      )
      .finally(leave)
    return { status: 200, headers: sseHeaders, body: stream.body }
  }

  /** GET in stateful mode: the session's standalone stream, or a resumed one (Last-Event-ID). */
  const openStream = (registry: HttpSessions, req: HttpRequestHead): HttpReply => {
    const accept = req.header('accept') ?? ''
    if (!/text\/event-stream/i.test(accept)) return refuse(406, 'Not Acceptable: a GET must accept text/event-stream')
    const sid = req.header('mcp-session-id')
    if (sid === undefined) return refuse(400, 'Bad Request: the MCP-Session-Id header is required')
    const entry = registry.get(sid)
    if (entry === undefined) return refuse(404, 'Not Found: this session does not exist or has ended; initialize a new one')
    const last = req.header('last-event-id')
    if (last === undefined && entry.standalone !== undefined && !entry.standalone.closed())
      return refuse(409, 'Conflict: this session already has an open GET stream')
    const stream = registry.stream(entry, 'standalone', last)
    if (stream === 'unknown-event') return refuse(400, `Bad Request: unknown Last-Event-ID ${shown(last)}`)
    if (stream === 'too-many-streams') return refuse(429, `Too Many Requests: this session already has ${registry.limits.maxGetStreams} GET streams open`)
    req.signal?.addEventListener('abort', () => stream.cut(), { once: true })
    return { status: 200, headers: sseHeaders, body: stream.body }
  }

  /** DELETE in stateful mode: the client ends its session. */
  const endSession = (registry: HttpSessions, req: HttpRequestHead): HttpReply => {
    const sid = req.header('mcp-session-id')
    if (sid === undefined) return refuse(400, 'Bad Request: the MCP-Session-Id header is required')
    return registry.end(sid)
      ? { status: 200, headers: {}, body: '' }
      : refuse(404, 'Not Found: this session does not exist or has ended')
  }

  const auth = options.auth
  const realm = auth?.realm ?? 'mcp'
  /** The request's identity (undefined: anonymous), or the 401 that refuses it. */
  const identify = async (req: HttpRequestHead): Promise<Identity | undefined | HttpReply> => {
    if (auth === undefined) return undefined
    const header = req.header('authorization')
    const challenge = (error?: string): HttpReply =>
      refuse(401, `Unauthorized: ${error === undefined ? 'a bearer token is required' : 'the bearer token was not accepted'}`, {
        'www-authenticate': `Bearer realm="${realm}"${error === undefined ? '' : `, error="${error}"`}`,
      })
    if (header === undefined) return auth.required === true ? challenge() : undefined
    const m = /^Bearer\s+(\S+)\s*$/i.exec(header)
    if (m === null) return challenge('invalid_request')
    try {
      return (await auth.verify(m[1] as string)) ?? challenge('invalid_token')
    } catch {
      return challenge('invalid_token')
    }
  }
  /** Stateful mode: a session answers only to the subject that opened it (and takes its fresh roles). */
  const sameCaller = (registry: HttpSessions, req: HttpRequestHead, caller: Identity | undefined): HttpReply | undefined => {
    if (auth === undefined) return undefined
    const sid = req.header('mcp-session-id')
    const entry = sid === undefined ? undefined : registry.get(sid)
    if (entry === undefined) return undefined
    if (entry.session.identity?.subject !== caller?.subject) return refuse(403, 'Forbidden: this session belongs to another caller')
    entry.session.identity = caller
    return undefined
  }

  /** Ends the open 2026-07-28 streams (a `subscriptions/listen` answers its graceful result first). */
  const endStreams = (): void => modern?.close()
  Object.assign(handle, { sessions, drain, endStreams })
  return handle as typeof handle & {
    readonly sessions: HttpSessions | undefined
    /** Refuses new requests from now on; resolves (true) once none is in flight, or false at the deadline. */
    readonly drain: (timeoutMs: number) => Promise<boolean>
    readonly endStreams: () => void
  }
}

/** A Web-standard handler: `(Request) => Promise<Response>`, for any runtime with fetch types. */
export const toFetchHandler = <U extends AnyTool>(server: Server<U>, options: HttpOptions = {}) => {
  const core = httpCore(server, options)
  return async (request: Request): Promise<Response> => {
    // a Request built in code has no Host header: its URL says which host it is for
    const header = (n: string): string | undefined => request.headers.get(n) ?? (n === 'host' ? hostOfUrl(request.url) : undefined)
    const reply = await core({ method: request.method, header, signal: request.signal }, (limit) => readWebBody(request, limit))
    return new Response(webBody(reply.body), { status: reply.status, headers: reply.headers })
  }
}

/** A Node `http` request listener; requests to paths other than `path` get 404. */
export const toNodeListener = <U extends AnyTool>(server: Server<U>, options: HttpOptions & { readonly path?: string } = {}) => {
  const core = httpCore(server, options)
  const path = options.path
  const listener = (req: IncomingMessage, res: ServerResponse): void => {
    if (path !== undefined && pathOf(req.url) !== path) {
      send(res, refuse(404, `Not Found: the MCP endpoint is ${path}`))
      req.resume()
      return
    }
    const head = new NodeHead(req, res)
    core(head, (limit) => readNodeBody(req, limit)).then(
      (reply) => {
        send(res, reply)
        if (reply.status === 413) req.destroy()
      },
      (e: unknown) => send(res, refuse(500, `Internal Server Error: ${String(e)}`)),
    )
  }
  return Object.assign(listener, { sessions: core.sessions, drain: core.drain, endStreams: core.endStreams })
}

/** Serves `server` over HTTP on 127.0.0.1 (by default) at `/mcp`. */
export const serveHttp = <U extends AnyTool>(server: Server<U>, options: ServeHttpOptions = {}): Promise<RunningHttp> => {
  const host = options.host ?? '127.0.0.1'
  const path = options.path ?? '/mcp'
  const listener = toNodeListener(server, { ...options, path })
  const node = createServer(listener)
  return new Promise((resolve, reject) => {
    node.once('error', reject)
    node.listen(options.port ?? 3000, host, () => {
      node.off('error', reject)
      const port = (node.address() as AddressInfo).port
      const shown = host.includes(':') ? `[${host}]` : host
      const close = (): Promise<void> =>
        new Promise<void>((done) => {
          stopListening()
          listener.sessions?.close()
          listener.endStreams()
          node.close(() => done())
          node.closeIdleConnections()
          // ended streams finish writing a moment later: their keep-alive connections then idle
          setImmediate(() => node.closeIdleConnections())
          setTimeout(() => node.closeIdleConnections(), 50).unref()
        })
      let draining: Promise<void> | undefined
      const drain = (): Promise<void> =>
        (draining ??= listener.drain(options.drainTimeoutMs ?? defaultDrainTimeoutMs).then((drained) => {
          // past the deadline, connections still waiting on a call are cut; streams that are
          // no call (a 2026 subscriptions/listen) get a second to end before they are cut too
          if (!drained) node.closeAllConnections()
          setTimeout(() => node.closeAllConnections(), 1_000).unref()
          return close()
        }))
      // a second signal ends the drain at once
      const onSignal = (): void => {
        if (draining === undefined) void drain().then(() => exitSoon())
        else {
          node.closeAllConnections()
          void close().then(() => exitSoon(0))
        }
      }
      const stopListening = (options.handleSignals ?? true) ? onShutdownSignal(onSignal) : () => {}
      resolve({ url: `http://${shown}:${port}${path}`, port, server: node, close, drain })
    })
  })
}

// ---------------------------------------------------------------------------------------
// internals

const jsonHeaders = { 'content-type': 'application/json' }

const sseHeaders = { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' }

const isInitialize = (m: unknown): boolean => isObject(m) && m.method === 'initialize'

/** A cheap first look: only these two methods are answered differently without a channel. */
const mayNeedChannel = (text: string): boolean => text.includes('"initialize"') || text.includes('"resources/subscribe"')

const stripped = new WeakMap<object, { readonly [name: string]: unknown }>()

/**
 * Capabilities without the ones that promise notifications: `listChanged` flags and resource
 * `subscribe`. A server's capabilities are one object for its lifetime: each is stripped once.
 */
const channelFree = (capabilities: { readonly [name: string]: unknown }): { readonly [name: string]: unknown } => {
  const known = stripped.get(capabilities)
  if (known !== undefined) return known
  const out: Record<string, unknown> = {}
  for (const [name, value] of Object.entries(capabilities)) {
    if (!isObject(value) || !('listChanged' in value || 'subscribe' in value)) {
      out[name] = value
      continue
    }
    const { listChanged: _l, subscribe: _s, ...rest } = value
    out[name] = rest
  }
  stripped.set(capabilities, out)
  return out
}

/**
 * Only valid calls can send progress, logs or requests to the client along the way: the rest
 * (and anything refused whole, such as a batch after 2025-03-26) answer as JSON, with the
 * status that goes with it. One level only: an array inside a batch is no message (and a
 * client's array nested 100 000 deep must not overflow the stack).
 */
const streamsWorthIt = (m: unknown, version: AnyProtocolVersion): boolean =>
  Array.isArray(m) ? batchesAllowed(version) && m.some(isCall) : isCall(m)
const isCall = (m: unknown): boolean => {
  const d = decode(m)
  return d._tag === 'Right' && d.right.kind === 'request' && d.right.method === 'tools/call'
}

/** The methods this endpoint answers (OPTIONS for CORS preflights). */
const allowed = 'POST, OPTIONS'

/** Request headers a browser client may send. */
const corsRequestHeaders = 'content-type, accept, authorization, mcp-protocol-version, mcp-session-id, last-event-id, mcp-method, mcp-name'

/** A CORS preflight: which methods and headers a cross-origin request may use. */
const preflight = (req: HttpRequestHead, methods: string): HttpReply => ({
  status: 204,
  headers: {
    allow: methods,
    'access-control-allow-methods': methods,
    'access-control-allow-headers': req.header('access-control-request-headers') ?? corsRequestHeaders,
    'access-control-max-age': '600',
  },
  body: '',
})

/** Adds the CORS answer headers for an origin that passed the origin check. */
const withCors =
  (origin: string) =>
  (r: HttpReply): HttpReply => ({
    ...r,
    headers: {
      ...r.headers,
      'access-control-allow-origin': origin,
      'access-control-expose-headers': 'mcp-session-id, mcp-protocol-version',
      vary: 'origin',
    },
  })

/** A refusal before any message was read: a JSON-RPC error with id null, as the SDKs send. */
const refuse = (status: number, message: string, extra: { readonly [name: string]: string } = {}): HttpReply => ({
  status,
  headers: { ...jsonHeaders, ...extra },
  body: encode(failure(null, rpcError('Refused', message))),
})

/** Parse errors and invalid requests have no id to answer to: they are the client's fault. */
const isUnaddressedError = (body: string): boolean => body.startsWith('{"jsonrpc":"2.0","id":null,"error"')

const loopbackNames = new Set(['localhost', '127.0.0.1', '[::1]', '::1'])

const hostnameOf = (host: string): string => {
  const h = host.trim().toLowerCase()
  if (h.startsWith('[')) return h.slice(0, h.indexOf(']') + 1)
  const colon = h.lastIndexOf(':')
  return colon === -1 ? h : h.slice(0, colon)
}

const isLoopbackHost = (host: string): boolean => loopbackNames.has(hostnameOf(host))

const isLoopbackOrigin = (origin: string): boolean => {
  try {
    const u = new URL(origin)
    return (u.protocol === 'http:' || u.protocol === 'https:') && loopbackNames.has(u.hostname)
  } catch {
    return false
  }
}

const listed = (allowed: ReadonlyArray<string>) => {
  const set = new Set(allowed.map((a) => a.toLowerCase()))
  return (value: string): boolean => set.has(value.toLowerCase()) || set.has(hostnameOf(value))
}

/** Origins compare whole (scheme, host and port): another port is another origin. */
const exactly = (allowed: ReadonlyArray<string>) => {
  const set = new Set(allowed.map((a) => a.toLowerCase()))
  return (value: string): boolean => set.has(value.toLowerCase())
}

/** True when the Accept header admits JSON; `application/json;q=0` refuses it whatever wildcards say. */
const acceptsJson = (accept: string): boolean => {
  let admitted = false
  for (const part of accept.split(',')) {
    const [range = '', ...params] = part.split(';')
    const type = range.trim().toLowerCase()
    const refused = params.some((p) => /^\s*q\s*=\s*0(\.0{0,3})?\s*$/i.test(p))
    if (type === 'application/json' && refused) return false
    if (!refused && (type === 'application/json' || type === 'application/*' || type === '*/*')) admitted = true
  }
  return admitted
}

const isJsonType = (type: string): boolean => (type.split(';')[0] ?? '').trim().toLowerCase() === 'application/json'

const hostOfUrl = (url: string): string | undefined => {
  try {
    return new URL(url).host || undefined
  } catch {
    return undefined
  }
}

const pathOf = (url: string | undefined): string => {
  const u = url ?? '/'
  const q = u.indexOf('?')
  return q === -1 ? u : u.slice(0, q)
}

const headerOf = (req: IncomingMessage, name: string): string | undefined => {
  const v = req.headers[name]
  return Array.isArray(v) ? v.join(', ') : v
}

/**
 * A Node request as the core sees it. The client going away before the answer is complete
 * ends any stream it was reading; the AbortSignal that says so is made only when asked for
 * (streams ask). Both the signal and a getter on a per-request literal outlive the young
 * generation: either one made the peak memory of a stateless server under load 1.5 times
 * higher. A class keeps the getter on its prototype.
 */
class NodeHead implements HttpRequestHead {
  readonly method: string
  readonly remoteAddress: string | undefined
  private gone: AbortController | undefined = undefined
  private cut = false
  constructor(
    private readonly req: IncomingMessage,
    res: ServerResponse,
  ) {
    this.method = req.method ?? 'GET'
    this.remoteAddress = req.socket.remoteAddress
    res.once('close', () => {
      if (res.writableFinished) return
      this.cut = true
      this.gone?.abort()
    })
  }
  header(name: string): string | undefined {
    return headerOf(this.req, name)
  }
  get signal(): AbortSignal {
    if (this.gone === undefined) {
      this.gone = new AbortController()
      if (this.cut) this.gone.abort()
    }
    return this.gone.signal
  }
}

const send = (res: ServerResponse, reply: HttpReply): void => {
  const body = reply.body
  if (typeof body === 'string') {
    // a flat [name, value, ...] list, not a spread copy of the headers: the copy per answer
    // raised a stateless server's peak memory under load by a tenth (measured)
    const headers: string[] = []
    for (const name in reply.headers) headers.push(name, reply.headers[name] as string)
    headers.push('content-length', String(Buffer.byteLength(body)))
    res.writeHead(reply.status, headers)
    res.end(body)
    return
  }
  res.writeHead(reply.status, reply.headers)
  res.flushHeaders()
  void (async () => {
    try {
      // a response closed while waiting for 'drain' never drains: stop there (leaving the
      // loop cuts the stream), or the loop and what it holds would wait forever
      for await (const chunk of body) if ((!res.write(chunk) && !(await drained(res))) || res.destroyed) break
    } finally {
      res.end()
    }
  })()
}

/** Resolves true once `res` can take more, false if it closed first. */
const drained = (res: ServerResponse): Promise<boolean> =>
  new Promise((resolve) => {
    const done = (ok: boolean) => (): void => {
      res.off('drain', onDrain)
      res.off('close', onClose)
      resolve(ok)
    }
    const onDrain = done(true)
    const onClose = done(false)
    res.once('drain', onDrain)
    res.once('close', onClose)
  })

/** A Web body: text as is, an SSE stream as a ReadableStream of its chunks. */
const webBody = (body: string | AsyncIterable<string>): BodyInit | null => {
  if (typeof body === 'string') return body === '' ? null : body
  const chunks = body[Symbol.asyncIterator]()
  const encoder = new TextEncoder()
  return new ReadableStream<Uint8Array>({
    pull: async (controller) => {
      const next = await chunks.next()
      if (next.done === true) controller.close()
      else controller.enqueue(encoder.encode(next.value))
    },
    cancel: async () => {
      await chunks.return?.()
    },
  })
}

const readNodeBody = (req: IncomingMessage, limit: number): Promise<BodyRead> =>
  new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length'])
    if (Number.isFinite(declared) && declared > limit) {
      resolve('too-large')
      return
    }
    const chunks: Buffer[] = []
    let size = 0
    const onData = (chunk: Buffer): void => {
      size += chunk.length
      if (size > limit) {
        req.off('data', onData)
        req.off('end', onEnd)
        resolve('too-large')
        return
      }
      chunks.push(chunk)
    }
    const onEnd = (): void =>
      resolve({ text: (chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks)).toString('utf8') })
    req.on('data', onData)
    req.on('end', onEnd)
    req.on('error', reject)
  })

const readWebBody = async (request: Request, limit: number): Promise<BodyRead> => {
  const declared = Number(request.headers.get('content-length'))
  if (Number.isFinite(declared) && declared > limit) return 'too-large'
  if (request.body === null) return { text: '' }
  const reader = request.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > limit) {
      await reader.cancel()
      return 'too-large'
    }
    chunks.push(value)
  }
  return { text: Buffer.concat(chunks).toString('utf8') }
}
