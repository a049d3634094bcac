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
import { sseStream, type SseStream } from './sse.js'

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
}

/** One HTTP session. */
export interface HttpSession {
  readonly id: string
  readonly session: Session
  /** The GET stream, while one is open. */
  standalone: SseStream | undefined
  /** Streams of requests in flight (they keep the session busy). */
  readonly streams: Set<SseStream>
  lastSeen: number
}

/** The registry of one endpoint. */
export interface HttpSessions {
  /** Opens a session (on initialize); undefined when the limit is reached and none is idle. */
  readonly open: (protocolVersion: ProtocolVersion) => HttpSession | undefined
  /** The session of an id, touched; undefined when unknown or ended. */
  readonly get: (id: string) => HttpSession | undefined
  /** Ends a session (DELETE, eviction, idle time). */
  readonly end: (id: string) => boolean
  /** A new SSE stream of a session; `request` streams carry what their request's handler sends. */
  readonly stream: (entry: HttpSession, kind: 'request' | 'standalone', resumeAfter?: string) => SseStream | 'unknown-event'
  /** Runs `f` so that what the server sends meanwhile goes to `stream`. */
  readonly within: <A>(entry: HttpSession, stream: SseStream, f: () => A) => A
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
  const current = new AsyncLocalStorage<{ readonly entry: HttpSession; readonly stream: SseStream }>()

  const end = (id: string): boolean => {
    const entry = entries.get(id)
    if (entry === undefined) return false
    entries.delete(id)
    entry.standalone?.close()
    for (const s of entry.streams) s.close()
    entry.session.outbound?.close('the HTTP session ended')
    server.release(entry.session)
    return true
  }

  const isIdle = (e: HttpSession): boolean => e.streams.size === 0 && e.standalone === undefined

  const open = (protocolVersion: ProtocolVersion): HttpSession | undefined => {
    if (entries.size >= maxSessions) {
      // make room: the least recently used session that has nothing open
      let oldest: HttpSession | undefined
      for (const e of entries.values()) if (isIdle(e) && (oldest === undefined || e.lastSeen < oldest.lastSeen)) oldest = e
      if (oldest === undefined) return undefined
      end(oldest.id)
    }
    const id = randomUUID()
    const entry: HttpSession = {
      id,
      session: undefined as unknown as Session,
      standalone: undefined,
      streams: new Set(),
      lastSeen: Date.now(),
    }
    const send = (message: unknown): void => {
      const text = JSON.stringify(message)
      const here = current.getStore()
      // a message sent while answering one of this session's requests goes on that request's stream
      if (here !== undefined && here.entry === entry && !here.stream.closed()) here.stream.send(text)
      else if (entry.standalone !== undefined && !entry.standalone.closed()) entry.standalone.send(text)
      // otherwise no stream is open to carry it: MCP lets the server drop it
    }
    ;(entry as { session: Session }).session = newSession(protocolVersion, outbound(send))
    entries.set(id, entry)
    return entry
  }

  const get = (id: string): HttpSession | undefined => {
    const entry = entries.get(id)
    if (entry !== undefined) entry.lastSeen = Date.now()
    return entry
  }

  const stream = (entry: HttpSession, kind: 'request' | 'standalone', resumeAfter?: string): SseStream | 'unknown-event' => {
    let streamId = `${entry.id}.${randomUUID()}`
    let replay: ReadonlyArray<{ id: string; data: string }> = []
    if (resumeAfter !== undefined) {
      const r = store.after(resumeAfter)
      if (r === undefined || !r.streamId.startsWith(`${entry.id}.`)) return 'unknown-event'
      streamId = r.streamId
      replay = r.events
    }
    const s: SseStream = sseStream(streamId, {
      store,
      retryMs: options.retryMs,
      replay,
      onClose: () => {
        entry.streams.delete(s)
        if (entry.standalone === s) entry.standalone = undefined
        entry.lastSeen = Date.now()
      },
    })
    if (kind === 'standalone') entry.standalone = s
    else entry.streams.add(s)
    return s
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
    get,
    end,
    stream,
    within: (entry, s, f) => current.run({ entry, stream: s }, f),
    size: () => entries.size,
    close: () => {
      clearInterval(sweep)
      for (const id of [...entries.keys()]) end(id)
    },
  }
}
