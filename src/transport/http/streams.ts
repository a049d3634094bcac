/**
 * The stateful mode's GET and DELETE: GET opens the session's standalone SSE stream, or
 * resumes a cut one from `Last-Event-ID`; DELETE ends the session. Both name their session
 * with `MCP-Session-Id`, and with authentication on, a session answers only to the subject
 * that opened it (403 for anyone else). With `slots`, each GET stream takes one of the
 * transport's stream slots (429 at the cap). POSTs pass on down the chain.
 *
 * @example
 * import { streams } from './streams.js'
 * const step = streams(registry, { auth: true })
 */
import { shown } from '../../util/clip.js'
import type { HttpMiddleware, HttpReply, HttpRequest } from './model.js'
import { refuse, sseHeaders, storeRefusal } from './reply.js'
import type { HttpSession, HttpSessions } from './sessions.js'
import { releasedAtEnd, slotRefusal, type StreamLimits, type StreamSlots } from './stream-slots.js'
import { StoreUnavailable } from '../../stores/store.js'
import { acceptsEventStream } from './negotiate.js'

// ---------------------------------------------------------------------------------------
// constructors

/** GET and DELETE over `registry`; `auth` says whether requests carry verified identities. */
export const streams = (registry: HttpSessions, options: { readonly auth: boolean } & Partial<StreamLimits>): HttpMiddleware => {
  const openStream = async (req: HttpRequest): Promise<HttpReply> => {
    if (!acceptsEventStream(req.header('accept'))) return refuse(406, 'Not Acceptable: a GET must accept text/event-stream')
    const sid = req.header('mcp-session-id')
    if (sid === undefined) return refuse(400, 'Bad Request: the MCP-Session-Id header is required')
    const entry = registry.get(sid)
    if (entry === undefined) return refuse(404, 'Not Found: this session does not exist or has ended; initialize a new one')
    const last = req.header('last-event-id')
    if (last === undefined && entry.standalone !== undefined && !entry.standalone.closed()) return refuse(409, 'Conflict: this session already has an open GET stream')
    // a GET stream stays open for as long as the client likes: it takes a slot, given back when it ends however it ends
    const slot = options.slots?.take(options.clientOf?.(req, req.identity))
    if (typeof slot === 'string') return refuse(429, slotRefusal(options.slots as StreamSlots, slot))
    const reply = await getStream(req, entry, last).catch((e: unknown) => {
      slot?.()
      throw e
    })
    if (slot === undefined) return reply
    req.signal?.addEventListener('abort', slot, { once: true })
    return releasedAtEnd(reply, slot)
  }
  /** The session's GET stream, new or resumed from `last`, or the refusal. */
  const getStream = async (req: HttpRequest, entry: HttpSession, last: string | undefined): Promise<HttpReply> => {
    // the shared log down: 503; a store of the user's that throws: the chain's 500
    const stream = await registry.stream(entry, 'standalone', last).catch((e: unknown) => {
      if (e instanceof StoreUnavailable) return storeRefusal(e)
      throw e
    })
    if (typeof stream === 'object' && 'status' in stream) return stream
    if (stream === 'unknown-event') return refuse(400, `Bad Request: unknown Last-Event-ID ${shown(last)}`)
    if (stream === 'too-many-streams') return refuse(429, `Too Many Requests: this session already has ${registry.limits.maxGetStreams} GET streams open`)
    req.signal?.addEventListener('abort', () => stream.cut(), { once: true })
    return { status: 200, headers: sseHeaders, body: stream.body }
  }
  const endSession = async (req: HttpRequest): Promise<HttpReply> => {
    const sid = req.header('mcp-session-id')
    if (sid === undefined) return refuse(400, 'Bad Request: the MCP-Session-Id header is required')
    // answered once the record is gone from the shared store: 503 when it could not be deleted (the session goes on; the client may try again)
    const ended = await registry.endEverywhere(sid).catch(storeRefusal)
    if (typeof ended === 'object') return ended
    return ended ? { status: 200, headers: {}, body: '' } : refuse(404, 'Not Found: this session does not exist or has ended')
  }
  return async (req, next) => {
    if (req.method !== 'GET' && req.method !== 'DELETE') return next(req)
    // a session another replica admitted is taken over first (its caller is checked against its record)
    const sid = req.header('mcp-session-id')
    const failed = sid === undefined ? undefined : await registry.find(sid).then(() => undefined, storeRefusal)
    if (failed !== undefined) return failed
    const refused = options.auth ? sameCaller(registry, req) : undefined
    return refused ?? (req.method === 'GET' ? openStream(req) : endSession(req))
  }
}

// ---------------------------------------------------------------------------------------
// functions

/** With authentication on: a session answers only to the subject that opened it (and takes its fresh roles); undefined when the request may go on. */
export const sameCaller = (registry: HttpSessions, req: HttpRequest): HttpReply | undefined => {
  const sid = req.header('mcp-session-id')
  const entry = sid === undefined ? undefined : registry.get(sid)
  if (entry === undefined) return undefined
  if (entry.session.identity?.subject !== req.identity?.subject) return refuse(403, 'Forbidden: this session belongs to another caller')
  entry.session.identity = req.identity
  return undefined
}
