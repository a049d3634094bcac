/**
 * The sessions of a stateful Streamable HTTP endpoint: one per `initialize`, named by an
 * unguessable `MCP-Session-Id`, each with its emcp session, its standalone GET stream and
 * the SSE streams of its requests in flight. Messages the server sends on its own go to the
 * stream of the request they belong to (found through an async scope, util/async-scope.ts, so a handler's
 * progress and elicitation travel on its own POST's stream), else to the standalone stream.
 *
 * Limits: sessions per caller (its identity, else its address), then sessions in all (see
 * `admission.ts` for who makes room), GET streams per session, streams kept for resumption
 * per session, and an idle time after which a session ends. A stream read to its end, and
 * every stream of an ended session, is forgotten at once, here and in the event store.
 *
 * Replicas: a session DELETEd on one replica is never served by another once the DELETE is
 * answered, though the bus that tells the others of the end may come late or not at all. A
 * replica that holds a session asks the store whether its record exists before it serves a
 * request (one call, shared by the requests that arrive before it begins: util/fresh-runs.ts),
 * unless the store showed the record less than `leaseMs` ago (default 100); DELETE answers
 * `leaseMs` (and 5%) after the record is deleted. A read per request alone would close the
 * race too, but costs a store round trip on every request: the lease makes that at most one
 * per `leaseMs` per busy session, for a DELETE slower by `leaseMs`. It needs only that clocks
 * run at about the same rate (it compares durations, each measured in one process), and the
 * same `leaseMs` on every replica. A server on its own default store (`options.store` unset)
 * has no other replica: it serves what it holds with no store call, and DELETE does not wait.
 *
 * @example
 * import { emcp, mcpServer } from 'emcp'
 * import { serveHttp } from 'emcp/http'
 * const echo = emcp({ name: 'echo', description: 'Echo.', input: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } })
 * const server = mcpServer([echo], { name: 'e', version: '1' }).implement({ echo: ({ text }) => text })
 * await serveHttp(server, { port: 3000, sessions: { maxSessions: 100, maxSessionsPerCaller: 10, idleMs: 600_000 } })
 */
import { asyncScope } from '../../util/async-scope.js'
import { isObject } from '../../util/json-object.js'
import type { Outbound } from '../../server/outbound.js'
import type { Response } from '../../protocol/jsonrpc.js'
import type { ProtocolVersion } from '../../protocol/versions.js'
import type { Server } from '../../server/server.js'
import type { Identity } from '../../server/session.js'
import { isIdle, room, type Admission } from './admission.js'
import type { EventStore } from '../../stores/event-store.js'
import type { SseStream } from './sse.js'
import { newEntry, ours, type Fixed, type HttpSession } from './session-entry.js'
import { deferredStream, sessionStream, type DeferredStream } from './session-stream.js'
import { sessionDelivery } from './session-delivery.js'
import { localLog, sharedLog } from './stream-log.js'
import { report, sessionSharing, type SessionSharing } from './shared-sessions.js'
import { storeSide } from './session-lookup.js'

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
   * On a store given to the server (which other replicas may share): how long, in
   * milliseconds, a replica serves a session it holds after the store last showed its record,
   * before it asks again (default 100). DELETE is answered this long (and 5%) after the record
   * is deleted, so that no replica serves the session after the answer: give every replica the
   * same value. 0: one store call before every request, and DELETE answers at once.
   */
  readonly leaseMs?: number
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
  /**
   * A tool call that finishes within this many milliseconds having sent nothing along the way
   * is answered as plain JSON (default 5). One that sends a notification or a request to the
   * client, or runs longer, is answered on its resumable SSE stream, opened at that moment.
   * 0: every tool call gets its stream at once; so does a client whose Accept has no JSON.
   */
  readonly jsonWithinMs?: number
  /** The most event bytes an SSE stream queues for a client that does not read (default 16 MiB); past it the stream is cut, and the client resumes. */
  readonly maxQueuedBytes?: number
  /**
   * Names a new session (default `crypto.randomUUID()`): an id nobody can guess, of 1 to 128
   * visible ASCII characters. A Durable Object serving one session gives its own id (emcp/workers).
   */
  readonly newId?: () => string
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
   * shared store; undefined once it was deleted anywhere (a store that other replicas may use
   * is asked, read after this call); rejects with a `StoreUnavailable` when the store fails.
   */
  readonly find: (id: string) => Promise<HttpSession | undefined>
  /** Writes an admitted session's record to the shared store; rejects with a `StoreUnavailable` (the session is then ended). */
  readonly share: (entry: HttpSession) => Promise<void>
  /** Writes the record again if what other replicas need of it changed (initialized, log level, identity); ends the session here when its record is gone. */
  readonly changed: (entry: HttpSession) => Promise<void>
  /** Ends a session (eviction, idle time) here. */
  readonly end: (id: string) => boolean
  /** Ends a session everywhere (DELETE): in the shared store, then here and on the other replicas; false when it was unknown here; rejects with a `StoreUnavailable` (the session then goes on). */
  readonly endEverywhere: (id: string) => Promise<boolean>
  /** A new SSE stream of a session, or a resumed one (`Last-Event-ID`); a GET (`standalone`) past `maxGetStreams` is refused; rejects when the event log cannot be read. */
  readonly stream: (entry: HttpSession, kind: 'request' | 'standalone', resumeAfter?: string) => Promise<SseStream | 'unknown-event' | 'too-many-streams'>
  /** A request stream opened only when an event is delivered to it, or `open` is called; `opened` then gets it (see `DeferredStream`). */
  readonly deferred: (entry: HttpSession, opened: (stream: SseStream) => void) => DeferredStream
  /** Sends on a stream id: on its open stream (opening a deferred one first), or into the event log for a later resume. */
  readonly deliver: (entry: HttpSession, streamId: string, data: string) => void
  /** A request stream's answer went out: close it (and any stream that resumes it later). */
  readonly finish: (entry: HttpSession, streamId: string) => void
  /** Runs `f`, the answer to `message`, so that what the server sends meanwhile for it goes to the stream `streamId`. */
  readonly within: <A>(entry: HttpSession, streamId: string, message: unknown, f: () => Promise<A>) => Promise<A>
  /** How many sessions are open. */
  readonly size: () => number
  /** The limits in force. */
  readonly limits: { readonly maxSessions: number; readonly maxSessionsPerCaller: number; readonly maxGetStreams: number; readonly jsonWithinMs: number }
  /** Ends every session and stops the idle timer. */
  readonly close: () => void
}

export { isIdle, type Admission } from './admission.js'
export { SessionsFull } from './session-lookup.js'
export type { HttpSession, StreamState } from './session-entry.js'
export type { DeferredStream } from './session-stream.js'

// ---------------------------------------------------------------------------------------
// constructors

/** A registry for `server`'s sessions. */
export const httpSessions = (server: Server, options: SessionOptions = {}): HttpSessions => {
  const maxSessions = options.maxSessions ?? 1000
  const maxSessionsPerCaller = options.maxSessionsPerCaller ?? 100
  const maxGetStreams = options.maxGetStreams ?? 16
  const idleMs = options.idleMs ?? 30 * 60_000
  const jsonWithinMs = options.jsonWithinMs ?? 5
  const leaseMs = options.leaseMs ?? 100
  if (!(Number.isFinite(leaseMs) && leaseMs >= 0)) throw new RangeError(`emcp: sessions.leaseMs must be a number of milliseconds, 0 or more, got ${String(leaseMs)}`)
  // the user's own event store, as before; else the shared store's log, which other replicas read
  const delivery = sessionDelivery(options.eventStore !== undefined ? localLog(options.eventStore) : sharedLog(server.store.events))
  const { forget, deliver } = delivery
  // a session evicted for room ends everywhere (an idle one ends here only: its record's TTL, kept alive by the replicas that use it, is the shared idle time)
  const { entries, end, admit, get } = sessionTable(server, { maxSessions, maxSessionsPerCaller }, forget, (id) => void sharing.ended(id).catch(report))
  // a store the user gave may be shared by other processes: what this replica holds may have been deleted there
  const confirming = server.options.store !== undefined
  const current = asyncScope<{ readonly entry: HttpSession; readonly streamId: string }>()
  // a client's answers to our requests reach this replica's entry whatever replica they came to
  const settleHere = (id: string, response: Response): void => {
    const entry = entries.get(id)
    if (entry !== undefined) own.get(entry)?.settle(response)
  }
  // a stream resumed on another replica is written there from now on: this replica lets go of it (the log keeps it)
  const movedAway = (id: string, streamId: string): void => {
    const entry = entries.get(id)
    if (entry !== undefined) delivery.letGo(entry, streamId)
  }
  const sharing: SessionSharing = sessionSharing(server.store, { idleMs, leaseMs, others: confirming, onEnded: (id) => void end(id), onAnswer: settleHere, onMoved: movedAway })
  const own = new WeakMap<HttpSession, Outbound>()

  const made = (protocolVersion: ProtocolVersion, from: { readonly identity?: Identity; readonly address?: string }, fixed?: Fixed): HttpSession => {
    const entry = newEntry(protocolVersion, from, current, deliver, fixed)
    const base = entry.session.outbound as Outbound
    own.set(entry, base)
    // an answer no call here waits for may be for a call on another replica
    // (only ids of the form our channels give out: anything else answers nothing anywhere, and a client must not make every replica read it)
    ;(entry.session as { outbound: Outbound }).outbound = { ...base, settle: (r) => base.settle(r) || (ours(r.id) && sharing.answer(entry.id, r), false) }
    return entry
  }
  const open: HttpSessions['open'] = (protocolVersion, from = {}) => {
    if (options.newId === undefined) return made(protocolVersion, from)
    const id = sessionIdOf(options.newId())
    // two sessions under one id would answer each other's requests
    if (entries.has(id)) throw new Error(`emcp: sessions.newId gave ${JSON.stringify(id)}, the id of a session still open`)
    return made(protocolVersion, from, { id, owner: crypto.randomUUID(), idPrefix: 'emcp-' })
  }

  const { find, keepAlive, changed, endEverywhere } = storeSide(server, sharing, { entries, get, end, admit }, made, confirming)

  const share = (entry: HttpSession): Promise<void> =>
    sharing.share(entry).catch((e: unknown) => {
      end(entry.id)
      throw e
    })

  const streams = {
    log: delivery.log,
    forget,
    adopted: (entry: HttpSession, streamId: string) => sharing.moved(entry.id, streamId),
    limits: { ...options, maxGetStreams, maxResumable: options.maxResumableStreams ?? 100 },
  }

  const sweep = sweeper(entries, idleMs, end, confirming ? keepAlive : undefined)

  return {
    open,
    admit,
    get,
    find,
    share,
    changed,
    end,
    endEverywhere,
    stream: (entry, kind, resumeAfter) => sessionStream(streams, entry, kind, resumeAfter),
    deferred: (entry, opened) => deferredStream(streams, entry, opened),
    deliver,
    finish: delivery.finish,
    within: (entry, streamId, message, f) => {
      // by the request's id too: a runtime without AsyncLocalStorage loses the scope at the first await
      const id = isObject(message) && (typeof message.id === 'string' || typeof message.id === 'number') ? message.id : undefined
      if (id === undefined) return current.run({ entry, streamId }, f)
      entry.calls.set(id, streamId)
      return current.run({ entry, streamId }, f).finally(() => {
        if (entry.calls.get(id) === streamId) entry.calls.delete(id)
      })
    },
    size: () => entries.size,
    limits: { maxSessions, maxSessionsPerCaller, maxGetStreams, jsonWithinMs },
    close: () => {
      clearInterval(sweep)
      for (const id of [...entries.keys()]) end(id)
    },
  }
}

// ---------------------------------------------------------------------------------------
// internals

/** A session id from `newId`, checked: the header carries visible ASCII only (MCP, Streamable HTTP). */
const sessionIdOf = (id: unknown): string => {
  if (typeof id === 'string' && id.length >= 1 && id.length <= 128 && /^[\x21-\x7e]+$/.test(id)) return id
  throw new TypeError(`emcp: sessions.newId must give 1 to 128 visible ASCII characters, got ${typeof id === 'string' ? JSON.stringify(id.slice(0, 140)) : typeof id}`)
}

/** The sessions this replica holds, by id and by caller: admitted within the limits (evicting others when `room` says so), touched, ended. */
const sessionTable = (
  server: Server,
  limits: { readonly maxSessions: number; readonly maxSessionsPerCaller: number },
  forget: (entry: HttpSession, streamId: string) => void,
  evicted: (id: string) => void,
) => {
  const entries = new Map<string, HttpSession>()
  const byCaller = new Map<string, Set<HttpSession>>()
  const end = (id: string): boolean => {
    const entry = entries.get(id)
    if (entry === undefined) return false
    entries.delete(id)
    const mine = entry.caller.key === undefined ? undefined : byCaller.get(entry.caller.key)
    mine?.delete(entry)
    if (mine?.size === 0) byCaller.delete(entry.caller.key as string)
    closeEntry(server, entry, forget)
    return true
  }

  const admit = (entry: HttpSession): Admission => {
    const r = room(entry, { entries, byCaller }, limits)
    if (typeof r === 'string') {
      entry.session.outbound?.close('too many sessions')
      server.release(entry.session)
      return r
    }
    for (const victim of r) {
      end(victim.id)
      evicted(victim.id)
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

  return { entries, end, admit, get }
}

/** Closes a session's streams, forgets them (their events go now, not when the store's budget pushes them out) and releases its emcp session. */
const closeEntry = (server: Server, entry: HttpSession, forget: (entry: HttpSession, streamId: string) => void): void => {
  for (const state of [...entry.known.values()]) state.live?.close()
  for (const streamId of [...entry.known.keys()]) forget(entry, streamId)
  entry.session.outbound?.close('the HTTP session ended')
  server.release(entry.session)
}

/**
 * Ends, every so often, the sessions idle for longer than `idleMs`, and hands the busy ones to
 * `keepBusy` (which keeps a shared record alive: often enough for a record whose TTL is
 * `idleMs`); the timer does not keep the process alive.
 */
const sweeper = (entries: ReadonlyMap<string, HttpSession>, idleMs: number, end: (id: string) => boolean, keepBusy?: (e: HttpSession) => void): NodeJS.Timeout => {
  const sweep = setInterval(
    () => {
      const now = Date.now()
      for (const e of [...entries.values()]) {
        if (!isIdle(e)) keepBusy?.(e)
        else if (now - e.lastSeen > idleMs) end(e.id)
      }
    },
    Math.min(idleMs / 4, 60_000),
  )
  ;(sweep as { unref?: () => void }).unref?.()
  return sweep
}
