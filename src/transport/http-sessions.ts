/**
 * The sessions of a stateful Streamable HTTP endpoint: one per `initialize`, named by an
 * unguessable `MCP-Session-Id`, each with its emcp session, its standalone GET stream and
 * the SSE streams of its requests in flight. Messages the server sends on its own go to the
 * stream of the request they belong to (found through AsyncLocalStorage, so a handler's
 * progress and elicitation travel on its own POST's stream), else to the standalone stream.
 * Limits: a maximum number of sessions (the least recently used idle one makes room) and an
 * idle time after which a session ends.
 *
 * @example
 * import { emcp, mcpServer } from 'emcp'
 * import { serveHttp } from 'emcp/http'
 * const echo = emcp({ name: 'echo', description: 'Echo.', input: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } })
 * const server = mcpServer([echo], { name: 'e', version: '1' }).implement({ echo: ({ text }) => text })
 * await serveHttp(server, { port: 3000, sessions: { maxSessions: 100, idleMs: 600_000 } })
 */
import { AsyncLocalStorage } from 'node:async_hooks'
import { randomUUID } from 'node:crypto'
import { outbound } from '../outbound.js'
import type { ProtocolVersion } from '../protocol/versions.js'
import type { Server } from '../server.js'
import { newSession, type Session } from '../session.js'
import { memoryEventStore, type EventStore } from './event-store.js'
import { sseStream, stored, type SseStream } from './sse.js'

// ---------------------------------------------------------------------------------------
// model

/** Options of the stateful mode. */
export interface SessionOptions {
  /** The most sessions kept at once (default 1000). */
  readonly maxSessions?: number
  /** A session unused for this long ends (default 30 minutes). */
  readonly idleMs?: number
  /** Where SSE events are kept for `Last-Event-ID` resumption (default: in memory, 10 000 events). */
  readonly eventStore?: EventStore
  /** The reconnection delay suggested to clients, in milliseconds (default 1000). */
  readonly retryMs?: number
  /** The most event bytes an SSE stream queues for a client that does not read (default 16 MiB); past it the stream is cut, and the client resumes. */
  readonly maxQueuedBytes?: number
}

/** One HTTP session. */
export interface HttpSession {
  readonly id: string
  readonly session: Session
  /** The GET stream, while one is open. */
  standalone: SseStream | undefined
  /** Streams of requests in flight (they keep the session busy). */
  readonly streams: Set<SseStream>
  /** What each stream id of this session is for; a resumed stream keeps its role. */
  readonly kinds: Map<string, 'request' | 'standalone'>
  /** Request streams whose answer was sent: a resumed one closes after its replay. */
  readonly finished: Set<string>
  /** The open stream of each stream id (a resumed stream replaces a cut one). */
  readonly live: Map<string, SseStream>
  lastSeen: number
}

/** The registry of one endpoint. */
export interface HttpSessions {
  /** Opens a session for an initialize; it counts against the limit only once admitted. */
  readonly open: (protocolVersion: ProtocolVersion) => HttpSession
  /** Admits an initialized session, making room if needed; false (and ended) when none can be made. */
  readonly admit: (entry: HttpSession) => boolean
  /** The session of an id, touched; undefined when unknown or ended. */
  readonly get: (id: string) => HttpSession | undefined
  /** Ends a session (DELETE, eviction, idle time). */
  readonly end: (id: string) => boolean
  /** A new SSE stream of a session, or a resumed one (`Last-Event-ID`). */
  readonly stream: (entry: HttpSession, kind: 'request' | 'standalone', resumeAfter?: string) => SseStream | 'unknown-event'
  /** Sends on a stream id: on its open stream, or into the event store for a later resume. */
  readonly deliver: (entry: HttpSession, streamId: string, data: string) => void
  /** A request stream's answer went out: close it (and any stream that resumes it later). */
  readonly finish: (entry: HttpSession, streamId: string) => void
  /** Runs `f` so that what the server sends meanwhile goes to the stream `streamId`. */
  readonly within: <A>(entry: HttpSession, streamId: string, f: () => A) => A
  /** How many sessions are open. */
  readonly size: () => number
  /** Ends every session and stops the idle timer. */
  readonly close: () => void
}

// ---------------------------------------------------------------------------------------
// constructors

/** A registry for `server`'s sessions. */
export const httpSessions = (server: Server, options: SessionOptions = {}): HttpSessions => {
  const maxSessions = options.maxSessions ?? 1000
  const idleMs = options.idleMs ?? 30 * 60_000
  const store = options.eventStore ?? memoryEventStore()
  const entries = new Map<string, HttpSession>()
  const current = new AsyncLocalStorage<{ readonly entry: HttpSession; readonly streamId: string }>()

  const end = (id: string): boolean => {
    const entry = entries.get(id)
    if (entry === undefined) return false
    entries.delete(id)
    for (const s of [...entry.live.values()]) s.close()
    entry.session.outbound?.close('the HTTP session ended')
    server.release(entry.session)
    return true
  }

  const isIdle = (e: HttpSession): boolean => e.live.size === 0

  const deliver = (entry: HttpSession, streamId: string, data: string): void => {
    const s = entry.live.get(streamId)
    if (s !== undefined && !s.closed()) s.send(data)
    // the client's connection was cut: keep the event for when it resumes
    else stored(() => store.append(streamId, data))
  }

  const open = (protocolVersion: ProtocolVersion): HttpSession => {
    const entry: HttpSession = {
      id: randomUUID(),
      session: undefined as unknown as Session,
      standalone: undefined,
      streams: new Set(),
      kinds: new Map(),
      finished: new Set(),
      live: new Map(),
      lastSeen: Date.now(),
    }
    const send = (message: unknown): void => {
      const text = JSON.stringify(message)
      const here = current.getStore()
      // a message sent while answering one of this session's requests goes on that request's stream
      if (here !== undefined && here.entry === entry && !entry.finished.has(here.streamId)) deliver(entry, here.streamId, text)
      else if (entry.standalone !== undefined && !entry.standalone.closed()) entry.standalone.send(text)
      // a request that nothing can carry would wait out its timeout: fail it now instead
      else if (typeof message === 'object' && message !== null && 'id' in message)
        throw new Error(
          'no SSE stream is open to carry it: the call was answered as JSON and the session has no GET stream (accept text/event-stream, or open the GET stream)',
        )
      // a notification nothing can carry is dropped, as MCP allows
    }
    ;(entry as { session: Session }).session = newSession(protocolVersion, outbound(send))
    return entry
  }

  const admit = (entry: HttpSession): boolean => {
    if (entries.size >= maxSessions) {
      // make room: the least recently used session that has nothing open
      let oldest: HttpSession | undefined
      for (const e of entries.values()) if (isIdle(e) && (oldest === undefined || e.lastSeen < oldest.lastSeen)) oldest = e
      if (oldest === undefined) {
        entry.session.outbound?.close('too many sessions')
        server.release(entry.session)
        return false
      }
      end(oldest.id)
    }
    entries.set(entry.id, entry)
    return true
  }

  const get = (id: string): HttpSession | undefined => {
    const entry = entries.get(id)
    if (entry !== undefined) entry.lastSeen = Date.now()
    return entry
  }

  const stream = (entry: HttpSession, kind: 'request' | 'standalone', resumeAfter?: string): SseStream | 'unknown-event' => {
    let streamId = `${entry.id}.${randomUUID()}`
    let replay: ReadonlyArray<{ id: string; data: string }> = []
    let role = kind
    if (resumeAfter !== undefined) {
      const r = store.after(resumeAfter)
      const known = r === undefined ? undefined : entry.kinds.get(r.streamId)
      if (r === undefined || known === undefined) return 'unknown-event'
      streamId = r.streamId
      replay = r.events
      role = known
    }
    entry.kinds.set(streamId, role)
    const s: SseStream = sseStream(streamId, {
      store,
      retryMs: options.retryMs,
      maxQueuedBytes: options.maxQueuedBytes,
      replay,
      onClose: () => {
        entry.streams.delete(s)
        if (entry.live.get(streamId) === s) entry.live.delete(streamId)
        if (entry.standalone === s) entry.standalone = undefined
        entry.lastSeen = Date.now()
      },
    })
    entry.live.get(streamId)?.close()
    entry.live.set(streamId, s)
    if (role === 'standalone') entry.standalone = s
    else entry.streams.add(s)
    // a resumed request stream whose answer already went out ends after its replay
    if (role === 'request' && entry.finished.has(streamId)) s.close()
    return s
  }

  const finish = (entry: HttpSession, streamId: string): void => {
    entry.finished.add(streamId)
    entry.live.get(streamId)?.close()
  }

  const sweep = setInterval(
    () => {
      const now = Date.now()
      for (const e of [...entries.values()]) if (isIdle(e) && now - e.lastSeen > idleMs) end(e.id)
    },
    Math.min(idleMs, 60_000),
  )
  sweep.unref()

  return {
    open,
    admit,
    get,
    end,
    stream,
    deliver,
    finish,
    within: (entry, streamId, f) => current.run({ entry, streamId }, f),
    size: () => entries.size,
    close: () => {
      clearInterval(sweep)
      for (const id of [...entries.keys()]) end(id)
    },
  }
}
