/// <reference types="node" preserve="true" />
/**
 * The types of the HTTP transport: its options, what a request looks like as it travels
 * down the middleware chain, and the structured reply that comes back up. A reply's status
 * is data, decided where the answer is made; no step reads it back from encoded text.
 *
 * @example
 * import type { HttpMiddleware } from 'emcp/http'
 * // a route beside the MCP endpoint: answered here, everything else goes on down the chain
 * const health: HttpMiddleware = (req, next) =>
 *   req.path === '/health' ? Promise.resolve({ status: 200, headers: {}, body: 'ok' }) : next(req)
 */
import type { Server as NodeServer } from 'node:http'
import type { Either } from 'fp-ts/lib/Either.js'
import type { Identity } from '../../server/session.js'
import type { PlaygroundOptions } from './playground.js'
import type { ServerCardOptions } from './server-card.js'
import type { SessionOptions } from './sessions.js'

// ---------------------------------------------------------------------------------------
// model

/** Options shared by both HTTP adapters. */
export interface HttpOptions {
  /** The largest request body accepted, in bytes (default 4 MiB); larger ones get 413. */
  readonly maxBodyBytes?: number
  /**
   * The most request-body bytes being read at once (default 32 MiB): a body holds what it has
   * received so far (its first 64 KiB from the start) until it is parsed, whatever its answer
   * does afterwards; a request past it waits, the rest of its body unread. One larger than the
   * limit runs alone.
   */
  readonly maxBytesInFlight?: number
  /** The same for one client address (default 8 MiB: two bodies of the default maximum size); 0: no limit per client. */
  readonly maxBytesInFlightPerClient?: number
  /** The longest a request body may take to arrive, once it is being read (default 60 000 ms; 0: none); past it: 408. Time spent waiting for the in-flight budget does not count. */
  readonly bodyTimeoutMs?: number
  /**
   * The slowest a request body may arrive, on average, counted after its first second
   * (default 1024 bytes per second; 0: no minimum); slower: 408.
   */
  readonly minBodyBytesPerSecond?: number
  /**
   * After an early answer (413, 408, or a refusal before the body such as 401, 406, 415), how
   * long the rest of the body is still read and thrown away (default 5000 ms), so that the
   * client, still writing, reads the answer instead of a reset connection. Node adapter only.
   */
  readonly lingerMs?: number
  /** The most bytes thrown away so after an early answer (default 64 MiB); past them, or past `lingerMs`, the connection is closed. */
  readonly maxLingerBytes?: number
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
   * The most long-lived streams open at once: 2026-07-28 `subscriptions/listen` streams and
   * stateful GET streams (default 1000); past it, 429 naming the limit.
   */
  readonly maxStreams?: number
  /** The same for one client: its verified identity, else its address, IPv6 by /64 (default 100, as many as its sessions; 0: no limit per client). */
  readonly maxStreamsPerClient?: number
  /**
   * 2026-07-28: how often a `subscriptions/listen` stream gets an SSE comment line while no
   * notification flows, so that intermediaries keep it open (default 15 000 ms; 0: never).
   */
  readonly keepAliveMs?: number
  /** Bearer tokens: who each request comes from (see `BearerAuth`); every caller is anonymous when absent. */
  readonly auth?: BearerAuth
  /**
   * Middlewares of your own, run after the Host/Origin guards and CORS, before the endpoint's
   * path check and authentication: routes beside the endpoint (a health check, metadata
   * documents), headers, logging. Each answers, or passes the request on with `next`.
   */
  readonly use?: ReadonlyArray<HttpMiddleware>
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
  /** The `WWW-Authenticate` value of a 401 (default `Bearer realm="<realm>", error="<error>"`); `oauth()` points it to its metadata. */
  readonly challenge?: (error: 'invalid_request' | 'invalid_token' | 'insufficient_scope' | undefined, scope?: ReadonlyArray<string>) => string
  /**
   * Says why a token is refused, where `verify` only refuses: `invalid_token` gets 401,
   * `temporarily_unavailable` (the issuer could not be consulted) 503 with Retry-After (its `retryAfterSec`, default 5), so that
   * a client keeps a token that may be good. `oauth()` gives it; when present it is used instead of `verify`.
   */
  readonly check?: (token: string) => Promise<Either<{ readonly error: 'invalid_token' | 'temporarily_unavailable'; readonly description: string; readonly retryAfterSec?: number }, Identity>>
  /** JSON documents served beside the endpoint to anyone (GET): `oauth()`'s Protected Resource Metadata. */
  readonly documents?: ReadonlyArray<{ readonly path: string; readonly body: unknown }>
}

/** Options of `serveHttp`. */
export interface ServeHttpOptions extends HttpOptions {
  /**
   * Serve the server card (draft SEP-2127, a subset of the registry's server.json) at
   * `/.well-known/mcp/server-card.json` (default false). See docs/distribution.md.
   */
  readonly serverCard?: boolean | ServerCardOptions
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
  /**
   * Serve the playground page at `/` (default false): forms from the tools' input schemas,
   * results, progress, logs, elicitation. Loopback only unless `{ allowRemote: true }`.
   */
  readonly playground?: boolean | PlaygroundOptions
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

/** What the transport needs to know of a request's head. */
export interface HttpRequestHead {
  readonly method: string
  /** A header's value by lower-case name, or undefined. */
  readonly header: (name: string) => string | undefined
  /** Fires when the client goes away before the answer is complete. */
  readonly signal?: AbortSignal
  /** The client's address (the connection's peer), for the per-caller session limit; unknown to the fetch handler. */
  readonly remoteAddress?: string
  /** The request's path, without its query string (undefined when the adapter does not know it). */
  readonly path?: string
  /** The host's way to keep working after the answer is sent (a worker's `ctx.waitUntil`); tasks hand their handlers to it. */
  readonly waitUntil?: (work: Promise<unknown>) => void
}

/**
 * A request as it travels down the chain: its head, a way to read its body (once), and what
 * the steps before learnt of it. Each field below is written by one step, named beside it.
 */
export interface HttpRequest extends HttpRequestHead {
  /** Reads the body, up to `limit` bytes and at `pace`; called once, by the body step. */
  readonly readBody: (limit: number, pace?: BodyPace) => Promise<BodyRead>
  /** Who sent it (auth); undefined: anonymous. */
  identity: Identity | undefined
  /** The body, parsed once (body); undefined before that step. */
  message: unknown
}

/** The transport's decision: a status, headers and a body (text, or an SSE stream's chunks). */
export interface HttpReply {
  readonly status: number
  readonly headers: { readonly [name: string]: string }
  readonly body: string | AsyncIterable<string>
  /** A 403 for a tool whose scopes the token lacks: the scopes it needs (the auth step adds the Bearer challenge). */
  readonly insufficientScope?: ReadonlyArray<string>
}

/** The body as read by an adapter: its text, or the sign that it was over the limit, or arrived too slowly. */
export type BodyRead = { readonly text: string } | 'too-large' | 'too-slow'

/** How fast a body must arrive, and how its bytes are reserved in the budget as they come. */
export interface BodyPace {
  /** The longest the whole body may take, in milliseconds (0: no deadline). */
  readonly timeoutMs: number
  /** The slowest average rate after the first second, in bytes per second (0: no minimum). */
  readonly minBytesPerSecond: number
  /** Called with the bytes received so far: a promise when the read must wait for them to be reserved, else undefined. */
  readonly reserve?: (received: number) => Promise<void> | undefined
  /**
   * True while other requests wait for the budget this body holds: a body must then be on its
   * way to its end (at its pace of the last second, the rest within `pressedFinishSec`), or be given up.
   */
  readonly pressed?: () => boolean
  /** The most a body may be (its declared length counts first), for the rest a body of unknown length may still send. */
  readonly limit?: number
  /** Told when the body is given up because it held others up (`pressed`), just before it is answered 'too-slow'. */
  readonly onHeldUp?: () => void
}

/** The rest of the chain, as a step sees it. */
export type HttpHandler = (req: HttpRequest) => Promise<HttpReply>

/** One step of the chain: answer the request, or pass it on with `next` (and maybe change the reply on its way back). */
export type HttpMiddleware = (req: HttpRequest, next: HttpHandler) => Promise<HttpReply>
