/**
 * A session: what the server knows of one client conversation (the negotiated revision,
 * the client's name and capabilities). A stdio connection is one session; a stateless HTTP
 * request gets a fresh one from its headers.
 *
 * @example
 * import { newSession } from 'emcp'
 * const s = newSession()            // before initialize
 * const h = newSession('2025-06-18') // from an MCP-Protocol-Version header
 * const w = newSession('2025-11-25', undefined, { transport: 'http', id: 'f3c1…' }) // w.id, w.transport
 */
import type { Params, RequestId } from '../protocol/jsonrpc.js'
import type { Outbound } from './outbound.js'
import type { Asker } from './ask.js'
import { latestVersion, type AnyProtocolVersion } from '../protocol/versions.js'

// ---------------------------------------------------------------------------------------
// model

/** The client's name and version, as sent in `initialize`. */
export interface ClientInfo {
  readonly name: string
  readonly version: string
  readonly title?: string
  readonly [key: string]: unknown
}

/** Log levels (RFC 5424), least severe first. */
export const logLevels = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'] as const

/** A log level. */
export type LogLevel = (typeof logLevels)[number]

/** Who is calling, as a transport established it (e.g. the HTTP transport's bearer-token verifier). */
export interface Identity {
  /** A stable name of the caller (a user id, a client id). */
  readonly subject: string
  /** The roles the caller holds; authorization predicates read these. */
  readonly roles: ReadonlyArray<string>
  /** The OAuth scopes the caller's token grants (a verifier such as `oauth()` fills them). */
  readonly scopes?: ReadonlyArray<string>
  /** Anything else the verifier learnt (token claims). */
  readonly claims?: { readonly [key: string]: unknown }
}

/** The transport that carries a conversation: a pipe (`stdio`), HTTP (`http`), or the in-process client (`memory`). */
export type TransportName = 'stdio' | 'http' | 'memory'

/** Where a session comes from, as its transport knows it. */
export interface SessionOrigin {
  /** The transport that carries the conversation. */
  readonly transport?: TransportName
  /** The MCP session id the transport issued (stateful HTTP's `MCP-Session-Id`). */
  readonly id?: string
  /** Keeps the runtime alive for work that outlives the answer (a worker's `ctx.waitUntil`). */
  readonly waitUntil?: ((work: Promise<unknown>) => void) | undefined
}

/** The state of one conversation; the dispatcher updates it on `initialize`. */
export interface Session {
  /**
   * The MCP session id, where the transport issued one (stateful HTTP's `MCP-Session-Id`);
   * undefined elsewhere (stdio, stateless HTTP, 2026-07-28 requests). A secret of the client's:
   * telemetry records only a hash of it.
   */
  readonly id?: string | undefined
  /** The transport that carries the conversation; undefined for a session made by hand. */
  readonly transport?: TransportName | undefined
  /**
   * The negotiated revision (our latest until `initialize` says otherwise); for a 2026-07-28
   * request, the revision its `_meta` names.
   */
  protocolVersion: AnyProtocolVersion
  /** The client's name and version, once `initialize` arrived. */
  clientInfo: ClientInfo | undefined
  /** The client's declared capabilities, once `initialize` arrived. */
  clientCapabilities: { readonly [key: string]: unknown } | undefined
  /** True once the client sent `notifications/initialized`. */
  initialized: boolean
  /** Asynchronous calls still running, by request id: how to abort each. */
  readonly inFlight: Map<RequestId, (reason?: unknown) => void>
  /** Ids cancelled by the client whose answers must not be sent. */
  readonly cancelled: Set<RequestId>
  /** The way to the client for notifications and requests; none on stateless HTTP. */
  readonly outbound: Outbound | undefined
  /**
   * The least severe level the client wants (`logging/setLevel`); all levels until it says.
   * For a 2026-07-28 request: the level of its `_meta`, and no log messages at all without one.
   */
  logLevel: LogLevel | undefined
  /** Who is calling, when the transport knows (HTTP with a token verifier); undefined: anonymous. */
  identity: Identity | undefined
  /** The resource URIs the client subscribed to (`resources/subscribe`); kept here so that a stateful transport can share them with other replicas. */
  resourceSubscriptions?: Set<string>
  /**
   * How a handler's questions reach the client, installed by the request's era: requests over
   * `outbound` when absent (2025-11-25); answers replayed from `requestState` and
   * `input_required` (2026-07-28); a task's `inputRequests` for a call handed off to a task.
   */
  ask?: Asker
  /**
   * A `subscriptions/listen` stream (2026-07-28) in the hub: it decides for itself which
   * notifications it takes, whatever a broadcast's own choice of sessions says.
   */
  listens?: (method: string, params: Params | undefined) => boolean
  /**
   * Keeps the runtime alive for work that outlives the answer, such as a tool call handed off
   * to a task: a serverless host's `ctx.waitUntil` (workerd), which would otherwise end the
   * work with the response. Undefined where the process lives on by itself.
   */
  readonly waitUntil?: ((work: Promise<unknown>) => void) | undefined
}

// ---------------------------------------------------------------------------------------
// constructors

/**
 * A new session, optionally already at a known revision (stateless HTTP), with the
 * transport's channel to the client when it has one, and where it comes from.
 */
export const newSession = (protocolVersion: AnyProtocolVersion = latestVersion, outbound?: Outbound, origin?: SessionOrigin): Session => ({
  id: origin?.id,
  transport: origin?.transport,
  protocolVersion,
  clientInfo: undefined,
  clientCapabilities: undefined,
  initialized: false,
  inFlight: new Map(),
  cancelled: new Set(),
  outbound,
  logLevel: undefined,
  identity: undefined,
  waitUntil: origin?.waitUntil,
})

// ---------------------------------------------------------------------------------------
// functions

/**
 * Aborts a call in flight with `reason` and marks it cancelled, so that its answer is not
 * sent; false when no call of that id is running. The one way a call is ended from outside:
 * `notifications/cancelled`, a released session, a drain's deadline.
 */
export const abortCall = (session: Session, id: RequestId, reason: unknown): boolean => {
  const abort = session.inFlight.get(id)
  if (abort === undefined) return false
  session.inFlight.delete(id)
  session.cancelled.add(id)
  abort(reason)
  return true
}
