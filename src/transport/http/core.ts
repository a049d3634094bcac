/**
 * The HTTP transport's chain, assembled from its options. One message flows down it:
 *
 *   guards (Host, Origin) → CORS → your `use` steps → endpoint path → drain (count, refuse GET)
 *   → auth → GET/DELETE of sessions → negotiate (method, Accept, Content-Type, version header)
 *   → body (budget, read once at a pace, parse once) → drain (refuse requests) → era 2026-07-28
 *   → stateful or stateless end (the server's dispatcher)
 *
 * Steps that a configuration does not need are left out, not skipped per request. No I/O of
 * its own: the Node and fetch adapters read bodies and write replies.
 *
 * @example
 * import { httpChain } from './core.js'
 * const chain = httpChain(server, { sessions: true })
 * const reply = await chain.handle(request) // an HttpRequest from an adapter
 */
import { clip } from '../../util/clip.js'
import type { AnyTool } from '../../contract/emcp.js'
import { allEras } from '../../protocol/versions.js'
import type { Server } from '../../server/server.js'
import { bearer } from './auth.js'
import { addressOf, body } from './body.js'
import { compose } from './compose.js'
import { cors } from './cors.js'
import { documents } from './documents.js'
import { drainGate } from './drain.js'
import { endpoint } from './endpoint.js'
import { guards } from './guards.js'
import { callerOf } from './caller.js'
import type { Identity } from '../../server/session.js'
import type { HttpHandler, HttpMiddleware, HttpOptions, HttpRequestHead } from './model.js'
import { modern } from './modern.js'
import { negotiate } from './negotiate.js'
import { refuse } from './reply.js'
import { httpSessions, type HttpSessions } from './sessions.js'
import { stateful } from './stateful.js'
import { stateless } from './stateless.js'
import { streamSlots } from './stream-slots.js'
import { streams } from './streams.js'

// ---------------------------------------------------------------------------------------
// model

/** A built chain and the handles on its state. */
export interface HttpChain {
  /** Answers one request. */
  readonly handle: HttpHandler
  /** The session registry, in stateful mode. */
  readonly sessions: HttpSessions | undefined
  /** Refuses new requests from now on; resolves (true) once none is in flight, or false at the deadline. */
  readonly drain: (timeoutMs: number) => Promise<boolean>
  /** Ends the open 2026-07-28 streams (a `subscriptions/listen` answers its graceful result first). */
  readonly endStreams: () => void
}

// ---------------------------------------------------------------------------------------
// constructors

/** The chain of `server` under `options`; with `path`, other paths get 404. */
export const httpChain = <U extends AnyTool>(typed: Server<U>, options: HttpOptions & { readonly path?: string } = {}): HttpChain => {
  const server = typed as unknown as Server
  const sessions = options.sessions === undefined || options.sessions === false ? undefined : httpSessions(server, options.sessions === true ? {} : options.sessions)
  const withCors = options.cors ?? true
  const methods = sessions === undefined ? 'POST' : 'POST, GET, DELETE'
  const gate = drainGate()
  // long-lived streams, of either era, counted per client (identity, else address) and in all
  const slots = streamSlots({ total: options.maxStreams ?? 1000, perClient: options.maxStreamsPerClient ?? 100 })
  const streamClient = (req: HttpRequestHead, identity: Identity | undefined): string | undefined => callerOf(identity, addressOf(options, req)).key
  const era = (server.options.eras ?? allEras).includes('2026-07-28') ? modern(server, { keepAliveMs: options.keepAliveMs, slots, clientOf: streamClient }) : undefined
  const oneShot = sessions === undefined ? stateless(server, gate.running) : undefined
  const end =
    sessions === undefined
      ? (oneShot as HttpHandler)
      : stateful(server, sessions, { running: gate.running, addressOf: (req) => addressOf(options, req), auth: options.auth !== undefined })
  const steps: ReadonlyArray<HttpMiddleware | false> = [
    (options.dnsRebindingProtection ?? true) && guards(options),
    withCors && cors(options, `${methods}, OPTIONS`),
    ...(options.use ?? []),
    options.auth?.documents !== undefined && documents(options.auth.documents),
    options.path !== undefined && endpoint(options.path),
    gate.track,
    options.auth !== undefined && bearer(options.auth),
    sessions !== undefined && streams(sessions, { auth: options.auth !== undefined, slots, clientOf: streamClient }),
    negotiate({ methods, cors: withCors, modern: era !== undefined }),
    body(options),
    gate.refuse,
    era ?? false,
  ]
  const handle = compose(
    steps.filter((s): s is HttpMiddleware => s !== false),
    end,
    (e) => refuse(500, `Internal Server Error: ${clip(e instanceof Error ? e.message : String(e))}`),
  )
  const drain = async (timeoutMs: number): Promise<boolean> => {
    gate.start()
    const drained = await gate.running.drained(timeoutMs)
    // past the deadline, stateless calls are aborted; a stateful session's are when the registry closes and releases it
    oneShot?.releaseAll()
    sessions?.close()
    return drained
  }
  return { handle, sessions, drain, endStreams: () => era?.close() }
}
