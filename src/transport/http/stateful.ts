/**
 * The end of the chain in stateful mode (2025-11-25 era): `initialize` opens a session
 * (named by `MCP-Session-Id` in the answer, within the session limits), and every other POST
 * names one. A tool call that finishes within `jsonWithinMs` having sent nothing is answered
 * as plain JSON, which costs no event log; one that notifies, asks the client, or runs longer
 * is answered on an SSE stream of its own, opened then, which carries the call's notifications
 * and requests to the client, then its answer. The answer goes to the stream's id, not the
 * connection, so a client cut off resumes and gets it. A client whose Accept names SSE but not
 * JSON gets the stream at once.
 *
 * @example
 * import { stateful } from './stateful.js'
 * const end = stateful(server, registry, { running, addressOf: (req) => req.remoteAddress, auth: false })
 */
import * as O from 'fp-ts/lib/Option.js'
import { decode, encode } from '../../protocol/jsonrpc.js'
import { isObject } from '../../util/json-object.js'
import { batchesAllowed, isSupportedVersion, latestVersion, type AnyProtocolVersion } from '../../protocol/versions.js'
import type { Server } from '../../server/server.js'
import type { InFlight } from '../drain.js'
import type { HttpHandler, HttpReply, HttpRequest, HttpRequestHead } from './model.js'
import { json, jsonHeaders, refuse, replyOf, sseHeaders, storeRefusal } from './reply.js'
import type { HttpSession, HttpSessions } from './sessions.js'
import { sameCaller } from './streams.js'
import { acceptsEventStream, acceptsJson } from './negotiate.js'

// ---------------------------------------------------------------------------------------
// model

/** What the stateful end needs besides the server and its registry. */
export interface StatefulContext {
  /** Counts the calls answered on streams, for the drain. */
  readonly running: InFlight
  /** The client's address, for the per-caller session limit. */
  readonly addressOf: (req: HttpRequestHead) => string | undefined
  /** Whether requests carry verified identities (a session then answers only to its subject). */
  readonly auth: boolean
}

// ---------------------------------------------------------------------------------------
// constructors

/** The stateful end of `server`'s chain over `registry`; `running` counts the calls answered on streams. */
export const stateful = (server: Server, registry: HttpSessions, context: StatefulContext): HttpHandler => {
  const open = initialize(server, registry, context)
  const onStream = streamed(server, registry, context)
  const jsonOrStream = deferred(server, registry, context)
  return async (req) => {
    const sid = req.header('mcp-session-id')
    // a session another replica admitted is taken over first, so that its caller can be checked
    const found = sid === undefined ? undefined : await registry.find(sid).catch(storeRefusal)
    if (found !== undefined && !('session' in found)) return found
    const refused = context.auth ? sameCaller(registry, req) : undefined
    if (refused !== undefined) return refused
    if (sid === undefined) {
      if (!isObject(req.message) || req.message.method !== 'initialize') return refuse(400, 'Bad Request: the MCP-Session-Id header is required (send initialize first to get one)')
      return open(req)
    }
    const entry = found
    if (entry === undefined) return refuse(404, 'Not Found: this session does not exist or has ended; initialize a new one')
    const accept = req.header('accept') ?? ''
    if (acceptsEventStream(accept) && streamsWorthIt(req.message, entry.session.protocolVersion))
      return registry.limits.jsonWithinMs > 0 && !Array.isArray(req.message) && acceptsJson(accept) ? jsonOrStream(req, entry) : onStream(req, entry)
    if (accept !== '' && !acceptsJson(accept) && expectsAnswer(req.message)) return refuse(406, 'Not Acceptable: the Accept header must allow application/json (only tool calls may be answered on an SSE stream)')
    const reply = replyOf(await server.dispatch(req.message, entry.session)())
    await registry.changed(entry)
    return reply
  }
}

// ---------------------------------------------------------------------------------------
// functions

/** `initialize`: a session opened within the session limits, named in the answer's `MCP-Session-Id` once shared. */
const initialize =
  (server: Server, registry: HttpSessions, context: StatefulContext) =>
  async (req: HttpRequest): Promise<HttpReply> => {
    const version = req.header('mcp-protocol-version')
    const entry = registry.open(version !== undefined && isSupportedVersion(version) ? version : latestVersion, { identity: req.identity, address: context.addressOf(req) })
    const out = await server.dispatch(req.message, entry.session)()
    if (O.isNone(out)) return { status: 200, headers: jsonHeaders, body: '' }
    // a failed initialize opens nothing (and so makes no room either)
    if (entry.session.clientCapabilities === undefined) return json(200, out.value)
    const admitted = registry.admit(entry)
    if (admitted === 'caller-limit')
      return refuse(429, `Too Many Requests: this caller already has ${registry.limits.maxSessionsPerCaller} sessions, each with a stream open; end one (DELETE) or try again later`)
    if (admitted === 'full') return refuse(503, 'Service Unavailable: too many sessions are open; try again later')
    // other replicas serve the session only once its record is in the shared store
    const failed = await registry.share(entry).then(
      () => undefined,
      (e: unknown) => storeRefusal(e),
    )
    return failed ?? json(200, out.value, { 'mcp-session-id': entry.id })
  }

/** A call answered on an SSE stream; the call counts as in flight until its answer is out. */
const streamed =
  (server: Server, registry: HttpSessions, context: StatefulContext) =>
  async (req: HttpRequest, entry: HttpSession): Promise<HttpReply> => {
    const stream = await registry.stream(entry, 'request')
    if (typeof stream === 'string') return refuse(500, 'Internal Server Error: no stream')
    req.signal?.addEventListener('abort', () => stream.cut(), { once: true })
    const leave = context.running.enter()
    registry
      .within(entry, stream.id, req.message, () => server.dispatch(req.message, entry.session)())
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

/**
 * A call answered as JSON when it finishes before it sends anything and within
 * `jsonWithinMs`; else on its stream, opened by its first message or at the threshold, so
 * that nothing it sends is lost or reordered (the priming event, then its events in order).
 */
const deferred =
  (server: Server, registry: HttpSessions, context: StatefulContext) =>
  (req: HttpRequest, entry: HttpSession): Promise<HttpReply> =>
    new Promise((resolve) => {
      // the request's abort signal is asked for only once the stream opens: made for every call, it costs memory under load
      const call = registry.deferred(entry, (stream) => {
        clearTimeout(timer)
        const signal = req.signal
        if (signal?.aborted === true) stream.cut()
        else signal?.addEventListener('abort', () => stream.cut(), { once: true })
        resolve({ status: 200, headers: sseHeaders, body: stream.body })
      })
      const timer = setTimeout(call.open, registry.limits.jsonWithinMs)
      const leave = context.running.enter()
      registry
        .within(entry, call.id, req.message, () => server.dispatch(req.message, entry.session)())
        .then(
          (out) => {
            clearTimeout(timer)
            if (!call.isOpen()) {
              call.drop()
              return resolve(replyOf(out))
            }
            if (O.isSome(out)) registry.deliver(entry, call.id, encode(out.value))
            registry.finish(entry, call.id)
          },
          (e: unknown) => {
            clearTimeout(timer)
            if (!call.isOpen()) {
              call.drop()
              return resolve(refuse(500, `Internal Server Error: ${e instanceof Error ? e.message : String(e)}`))
            }
            registry.finish(entry, call.id)
          },
        )
        .finally(leave)
    })

// ---------------------------------------------------------------------------------------
// internals

/**
 * Only valid calls can send progress, logs or requests to the client along the way: the rest
 * (and anything refused whole, such as a batch after 2025-03-26) answer as JSON, with the
 * status that goes with it. One level only: an array inside a batch is no message (and a
 * client's array nested 100 000 deep must not overflow the stack).
 */
const streamsWorthIt = (m: unknown, version: AnyProtocolVersion): boolean => (Array.isArray(m) ? batchesAllowed(version) && m.some(isCall) : isCall(m))
/** True for a request (or a batch holding one): its answer has a body. */
const expectsAnswer = (m: unknown): boolean => (Array.isArray(m) ? m.some(isRequest) : isRequest(m))
const isRequest = (m: unknown): boolean => isObject(m) && typeof m.method === 'string' && 'id' in m
const isCall = (m: unknown): boolean => {
  // the full check only for what names tools/call: every other message is decoded once, by the server
  if (!isObject(m) || m.method !== 'tools/call') return false
  const d = decode(m)
  return d._tag === 'Right' && d.right.kind === 'request' && d.right.method === 'tools/call'
}
