/**
 * The sessions of a stateful Streamable HTTP endpoint: one per `initialize`, named by an
 * unguessable `MCP-Session-Id`, each with its emcp session, its standalone GET stream and
 * the SSE streams of its requests in flight. Messages the server sends on its own go to the
 * stream of the request they belong to (found through AsyncLocalStorage, so a handler's
 * progress and elicitation travel on its own POST's stream), else to the standalone stream.
 *
 * Limits: sessions per caller (its identity, else its address), then sessions in all (see
 * `admission.ts` for who makes room), GET streams per session, streams kept for resumption
 * per session, and an idle time after which a session ends. A stream read to its end, and
 * every stream of an ended session, is forgotten at once, here and in the event store.
 *
 * @example
 * import { emcp, mcpServer } from 'emcp'
 * import { serveHttp } from 'emcp/http'
 * const echo = emcp({ name: 'echo', description: 'Echo.', input: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } })
 * const server = mcpServer([echo], { name: 'e', version: '1' }).implement({ echo: ({ text }) => text })
 * await serveHttp(server, { port: 3000, sessions: { maxSessions: 100, maxSessionsPerCaller: 10, idleMs: 600_000 } })
 */
import { AsyncLocalStorage } from 'node:async_hooks'
import { randomUUID } from 'node:crypto'
import { outbound, type Outbound } from '../../server/outbound.js'
import type { Response } from '../../protocol/jsonrpc.js'
import type { ProtocolVersion } from '../../protocol/versions.js'
import type { Server } from '../../server/server.js'
import { newSession, type Identity, type Session } from '../../server/session.js'
import { isIdle, room, type Admission } from './admission.js'
import { callerOf, type Caller } from './caller.js'
import type { EventStore } from '../../stores/event-store.js'
import type { SseStream } from './sse.js'
import { sessionStream } from './session-stream.js'
import { chained, localLog, sharedLog, type Tail } from './stream-log.js'
import { restore, sessionSharing, type SessionSharing, type Shared } from './shared-sessions.js'

// ---------------------------------------------------------------------------------------
// model

/** Options of the stateful mode. */
export interface SessionOptions {
  /** The most sessions kept at once (default 1000). */
  readonly maxSessions?: number
  /** The most sessions one caller (an identity's subject, else a client address) keeps at once (default 100; 0: no limit). */
  readonly maxSessionsPerCaller?: number
  /** The most GET streams (the standalone one and resumptions) one session keeps open (default 16). */
  readonly maxGetStreams?: number
  /** The most cut streams one session keeps for a resume (default 100); past it the oldest is forgotten. */
  readonly maxResumableStreams?: number
  /** A session unused for this long ends (default 30 minutes). */
  readonly idleMs?: number
  /**
   * Where SSE events are kept for `Last-Event-ID` resumption, in this process only (default:
   * the server's shared store's `events`, so that a stream cut on one replica resumes on
   * another; the default `memoryStore()` keeps 64 MiB in all, 8 MiB a session).
   */
  readonly eventStore?: EventStore
  /** The most events of one stream waiting for the event log to keep them (default 1024); past it, or past `maxPendingBytes`, the stream is cut and cannot be resumed. */
  readonly maxPendingEvents?: number
  /** The most event bytes of one stream waiting for the event log (default 8 MiB). */
  readonly maxPendingBytes?: number
  /** The reconnection delay suggested to clients, in milliseconds (default 1000). */
  readonly retryMs?: number
  /** The most event bytes an SSE stream queues for a client that does not read (default 16 MiB); past it the stream is cut, and the client resumes. */
  readonly maxQueuedBytes?: number
}

/** What a session knows of one of its streams; `tail` is its last write to the event log, which the next one follows. */
export interface StreamState extends Tail {
  readonly role: 'request' | 'standalone'
  /** A request stream whose answer was sent: a resumed one closes after its replay. */
  finished: boolean
  /** The open stream, while a client reads it. */
  live: SseStream | undefined
}

/** One HTTP session; `sharedKey` and `sharedAt` say what of it the shared store has. */
export interface HttpSession extends Shared {
  readonly id: string
  readonly session: Session
  /** Who opened it. */
  readonly caller: Caller
  /** What the event store groups this session's streams by: random, never the session id. */
  readonly owner: string
  /** The GET stream, while one is open. */
  standalone: SseStream | undefined
  /** The id of the latest GET stream: while it is cut, the session's notifications go into the log for its resume. */
  lastGet: string | undefined
  /** Streams of requests in flight (they keep the session busy). */
  readonly streams: Set<SseStream>
  /** The streams opened by GET that are open. */
  readonly gets: Set<SseStream>
  /** The streams a client may still read or resume, by stream id. */
  readonly known: Map<string, StreamState>
  /** Ids of known streams that no client reads (cut, or waiting for their answer), oldest first. */
  readonly resumable: Set<string>
  /** Ids of streams read to their end, the latest few (a connection may have broken right after all), oldest first. */
  readonly recent: Set<string>
  lastSeen: number
}

/** The registry of one endpoint. */
export interface HttpSessions {
  /** Opens a session for an initialize from this caller; it counts against the limits only once admitted. */
  readonly open: (protocolVersion: ProtocolVersion, from?: { readonly identity?: Identity; readonly address?: string }) => HttpSession
  /** Admits an initialized session, making room if the limits allow; when they do not, the session is ended and the answer says which limit. */
  readonly admit: (entry: HttpSession) => Admission
  /** The session of an id, touched; undefined when unknown or ended. */
  readonly get: (id: string) => HttpSession | undefined
  /**
   * The session of an id, held here or, when another replica admitted it, taken over from the
   * shared store; rejects with a `StoreUnavailable` when the store fails.
   */
  readonly find: (id: string) => Promise<HttpSession | undefined>
  /** Writes an admitted session's record to the shared store; rejects with a `StoreUnavailable` (the session is then ended). */
  readonly share: (entry: HttpSession) => Promise<void>
  /** Writes the record again if what other replicas need of it changed (initialized, log level, identity). */
  readonly changed: (entry: HttpSession) => Promise<void>
  /** Ends a session (eviction, idle time) here. */
  readonly end: (id: string) => boolean
  /** Ends a session everywhere (DELETE): here, in the shared store, and on the other replicas; false when it was unknown here. */
  readonly endEverywhere: (id: string) => Promise<boolean>
  /** A new SSE stream of a session, or a resumed one (`Last-Event-ID`); a GET (`standalone`) past `maxGetStreams` is refused; rejects when the event log cannot be read. */
  readonly stream: (entry: HttpSession, kind: 'request' | 'standalone', resumeAfter?: string) => Promise<SseStream | 'unknown-event' | 'too-many-streams'>
  /** Sends on a stream id: on its open stream, or into the event log for a later resume. */
  readonly deliver: (entry: HttpSession, streamId: string, data: string) => void
  /** A request stream's answer went out: close it (and any stream that resumes it later). */
  readonly finish: (entry: HttpSession, streamId: string) => void
  /** Runs `f` so that what the server sends meanwhile goes to the stream `streamId`. */
  readonly within: <A>(entry: HttpSession, streamId: string, f: () => A) => A
  /** How many sessions are open. */
  readonly size: () => number
  /** The limits in force. */
  readonly limits: { readonly maxSessions: number; readonly maxSessionsPerCaller: number; readonly maxGetStreams: number }
  /** Ends every session and stops the idle timer. */
  readonly close: () => void
}

export { isIdle, type Admission } from './admission.js'

// ---------------------------------------------------------------------------------------
// constructors

/** A registry for `server`'s sessions. */
export const httpSessions = (server: Server, options: SessionOptions = {}): HttpSessions => {
  const maxSessions = options.maxSessions ?? 1000
  const maxSessionsPerCaller = options.maxSessionsPerCaller ?? 100
  const maxGetStreams = options.maxGetStreams ?? 16
  const maxResumable = options.maxResumableStreams ?? 100
  const idleMs = options.idleMs ?? 30 * 60_000
  // the user's own event store, as before; else the shared store's log, which other replicas read
  const log = options.eventStore !== undefined ? localLog(options.eventStore) : sharedLog(server.store.events)
  const entries = new Map<string, HttpSession>()
  const byCaller = new Map<string, Set<HttpSession>>()
  const current = new AsyncLocalStorage<{ readonly entry: HttpSession; readonly streamId: string }>()
  // a client's answers to our requests reach this replica's entry whatever replica they came to
  const settleHere = (id: string, response: Response): void => {
    const entry = entries.get(id)
    if (entry !== undefined) own.get(entry)?.settle(response)
  }
  // a stream resumed on another replica is written there from now on: this replica lets go of it (the log keeps it)
  const movedAway = (id: string, streamId: string): void => {
    const entry = entries.get(id)
    const state = entry?.known.get(streamId)
    if (entry === undefined || state === undefined) return
    state.live?.cut()
    entry.known.delete(streamId)
    entry.resumable.delete(streamId)
    entry.recent.delete(streamId)
    if (entry.lastGet === streamId) entry.lastGet = undefined
  }
  const sharing: SessionSharing = sessionSharing(server.store, { idleMs, onEnded: (id) => void end(id), onAnswer: settleHere, onMoved: movedAway })
  const own = new WeakMap<HttpSession, Outbound>()
  const taking = new Map<string, Promise<HttpSession | undefined>>()

  /** Forgets a stream: no client will read it again. */
  const forget = (entry: HttpSession, streamId: string): void => {
    const state = entry.known.get(streamId)
    entry.known.delete(streamId)
    entry.resumable.delete(streamId)
    entry.recent.delete(streamId)
    if (entry.lastGet === streamId) entry.lastGet = undefined
    // after the stream's writes, so that none of them brings it back
    void (state === undefined ? log.forget(streamId) : chained(state, () => log.forget(streamId)))
  }

  const end = (id: string): boolean => {
    const entry = entries.get(id)
    if (entry === undefined) return false
    entries.delete(id)
    const mine = entry.caller.key === undefined ? undefined : byCaller.get(entry.caller.key)
    mine?.delete(entry)
    if (mine?.size === 0) byCaller.delete(entry.caller.key as string)
    for (const state of [...entry.known.values()]) state.live?.close()
    // its events go now, not when the store's budget pushes them out
    for (const streamId of [...entry.known.keys()]) forget(entry, streamId)
    entry.session.outbound?.close('the HTTP session ended')
    server.release(entry.session)
    return true
  }

  const deliver = (entry: HttpSession, streamId: string, data: string): void => {
    const state = entry.known.get(streamId)
    // a forgotten stream (its session ended) has no reader to come
    if (state === undefined) return
    if (state.live !== undefined && !state.live.closed()) state.live.send(data)
    // the client's connection was cut: keep the event for when it resumes (one the log lost makes the stream unresumable)
    else
      chained(state, () => log.append(streamId, data)).catch((e: unknown) => {
        console.error(`emcp: SSE stream ${streamId} forgotten: the event log failed (${e instanceof Error ? e.message : String(e)})`)
        if (entry.known.get(streamId) === state) forget(entry, streamId)
      })
  }

  const made = (protocolVersion: ProtocolVersion, from: { readonly identity?: Identity; readonly address?: string }, fixed?: Fixed): HttpSession => {
    const entry = newEntry(protocolVersion, from, current, deliver, fixed)
    const base = entry.session.outbound as Outbound
    own.set(entry, base)
    // an answer no call here waits for may be for a call on another replica
    // (only ids of the form our channels give out: anything else answers nothing anywhere, and a client must not make every replica read it)
    ;(entry.session as { outbound: Outbound }).outbound = { ...base, settle: (r) => base.settle(r) || (ours(r.id) && sharing.answer(entry.id, r), false) }
    return entry
  }
  const open: HttpSessions['open'] = (protocolVersion, from = {}) => made(protocolVersion, from)

  /** A session another replica admitted, rebuilt here from its record (once, however many requests ask at the same time). */
  const takeOver = (id: string): Promise<HttpSession | undefined> => {
    const known = taking.get(id)
    if (known !== undefined) return known
    const p = sharing
      .lookup(id)
      .then((record) => {
        if (record === undefined || entries.has(id)) return entries.get(id)
        const entry = made(record.protocolVersion as ProtocolVersion, { identity: record.identity }, { id, owner: record.owner, idPrefix: `emcp-${randomUUID().slice(0, 8)}-` })
        restore(entry.session, record)
        entry.sharedKey = undefined
        entry.sharedAt = Date.now()
        // a replica at its limits cannot take the session over, but the session exists: 503, not 404
        const admitted = admit(entry)
        if (admitted !== 'admitted') throw new SessionsFull(admitted)
        if (entry.session.initialized || entry.session.clientCapabilities !== undefined) server.hub.add(entry.session)
        return entry
      })
      .finally(() => taking.delete(id))
    taking.set(id, p)
    return p
  }

  const admit = (entry: HttpSession): Admission => {
    const r = room(entry, { entries, byCaller }, { maxSessions, maxSessionsPerCaller })
    if (typeof r === 'string') {
      entry.session.outbound?.close('too many sessions')
      server.release(entry.session)
      return r
    }
    // a session evicted for room ends everywhere (an idle one ends here only: its record's TTL, kept alive by the replicas that use it, is the shared idle time)
    for (const victim of r) {
      end(victim.id)
      void sharing.ended(victim.id)
    }
    entries.set(entry.id, entry)
    const key = entry.caller.key
    if (key !== undefined) byCaller.set(key, (byCaller.get(key) ?? new Set()).add(entry))
    return 'admitted'
  }

  const get = (id: string): HttpSession | undefined => {
    const entry = entries.get(id)
    if (entry !== undefined) entry.lastSeen = Date.now()
    return entry
  }

  const find = (id: string): Promise<HttpSession | undefined> => {
    const entry = get(id)
    if (entry === undefined) return takeOver(id)
    sharing.touch(entry)
    return Promise.resolve(entry)
  }

  const share = (entry: HttpSession): Promise<void> =>
    sharing.share(entry).catch((e: unknown) => {
      end(entry.id)
      throw e
    })

  const streams = {
    log,
    forget,
    adopted: (entry: HttpSession, streamId: string) => sharing.moved(entry.id, streamId),
    limits: { maxGetStreams, maxResumable, retryMs: options.retryMs, maxQueuedBytes: options.maxQueuedBytes, maxPendingEvents: options.maxPendingEvents, maxPendingBytes: options.maxPendingBytes },
  }

  const finish = (entry: HttpSession, streamId: string): void => {
    const state = entry.known.get(streamId)
    if (state === undefined) return
    state.finished = true
    state.live?.close()
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
    find,
    share,
    changed: sharing.changed,
    end,
    endEverywhere: async (id) => {
      const here = end(id)
      await sharing.ended(id)
      return here
    },
    stream: (entry, kind, resumeAfter) => sessionStream(streams, entry, kind, resumeAfter),
    deliver,
    finish,
    within: (entry, streamId, f) => current.run({ entry, streamId }, f),
    size: () => entries.size,
    limits: { maxSessions, maxSessionsPerCaller, maxGetStreams },
    close: () => {
      clearInterval(sweep)
      for (const id of [...entries.keys()]) end(id)
    },
  }
}

/** A session another replica admitted that this one has no room to take over: 503, the client may try again (or reach another replica). */
export class SessionsFull extends Error {
  constructor(readonly limit: Exclude<Admission, 'admitted'>) {
    super(`Service Unavailable: this replica has no room to take the session over (${limit === 'full' ? 'too many sessions are open' : 'its caller has too many sessions'}); try again later`)
    this.name = 'SessionsFull'
  }
}

// ---------------------------------------------------------------------------------------
// internals

/** True for the ids of requests emcp sends (`emcp-N`, `emcp-<replica>-N`). */
const ours = (id: unknown): boolean => typeof id === 'string' && id.startsWith('emcp-') && id.length <= 64

/** What a session taken over from another replica keeps: its id, its event-log owner, and request ids of its own. */
interface Fixed {
  readonly id: string
  readonly owner: string
  readonly idPrefix: string
}

/**
 * A session not yet admitted. What the server sends on its own goes to the stream of the
 * request being answered (`current` says which), else to the standalone stream.
 */
const newEntry = (
  protocolVersion: ProtocolVersion,
  from: { readonly identity?: Identity; readonly address?: string },
  current: AsyncLocalStorage<{ readonly entry: HttpSession; readonly streamId: string }>,
  deliver: (entry: HttpSession, streamId: string, data: string) => void,
  fixed?: Fixed,
): HttpSession => {
  const entry: HttpSession = {
    id: fixed?.id ?? randomUUID(),
    session: undefined as unknown as Session,
    caller: callerOf(from.identity, from.address),
    owner: fixed?.owner ?? randomUUID(),
    standalone: undefined,
    lastGet: undefined,
    streams: new Set(),
    gets: new Set(),
    known: new Map(),
    resumable: new Set(),
    recent: new Set(),
    lastSeen: Date.now(),
  }
  const send = (message: unknown): void => {
    const text = JSON.stringify(message)
    const here = current.getStore()
    const state = here?.entry === entry ? entry.known.get(here.streamId) : undefined
    // a message sent while answering one of this session's requests goes on that request's stream
    if (here !== undefined && state !== undefined && !state.finished) deliver(entry, here.streamId, text)
    else if (entry.standalone !== undefined && !entry.standalone.closed()) entry.standalone.send(text)
    // the GET stream was cut: a notification waits in the log for the client to resume it (here or on another replica)
    else if (entry.lastGet !== undefined && !(typeof message === 'object' && message !== null && 'id' in message)) deliver(entry, entry.lastGet, text)
    // a request that nothing can carry would wait out its timeout: fail it now instead
    else if (typeof message === 'object' && message !== null && 'id' in message)
      throw new Error(
        'no SSE stream is open to carry it: the call was answered as JSON and the session has no GET stream (accept text/event-stream, or open the GET stream)',
      )
    // a notification nothing can carry is dropped, as MCP allows
  }
  ;(entry as { session: Session }).session = newSession(protocolVersion, outbound(send, fixed?.idPrefix), { transport: 'http', id: entry.id })
  entry.session.identity = from.identity
  return entry
}
