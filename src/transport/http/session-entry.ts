/// <reference types="node" preserve="true" />
/**
 * One session of a stateful HTTP endpoint as the registry keeps it: its emcp session, its
 * caller, and the streams it may still write to or resume. What the server sends on its own
 * goes to the stream of the request being answered (an async scope says which, else the
 * request the message names), else to
 * the standalone GET stream, else (a notification) into the log of a cut GET stream.
 *
 * @example
 * import { asyncScope } from '../../util/async-scope.js'
 * import { newEntry } from './session-entry.js'
 * const entry = newEntry('2025-11-25', {}, asyncScope(), (entry, streamId, data) => undefined)
 */
import type { AsyncScope } from '../../util/async-scope.js'
import { outbound } from '../../server/outbound.js'
import type { ProtocolVersion } from '../../protocol/versions.js'
import type { RequestId } from '../../protocol/jsonrpc.js'
import { newSession, type Identity, type Session } from '../../server/session.js'
import { callerOf, type Caller } from './caller.js'
import type { Shared } from './shared-sessions.js'
import type { SseStream } from './sse.js'
import { markOf, type Tail } from './stream-log.js'

// ---------------------------------------------------------------------------------------
// model

/** What a session knows of one of its streams; `tail` is its last write to the event log, which the next one follows. */
export interface StreamState extends Tail {
  readonly role: 'request' | 'standalone'
  /** A request stream whose answer was sent: a resumed one closes after its replay. */
  finished: boolean
  /** The open stream, while a client reads it. */
  live: SseStream | undefined
  /**
   * A request stream not opened yet (its call may still be answered as JSON): the first event
   * delivered to it opens it, synchronously, before the event goes on it.
   */
  open?: (() => void) | undefined
}

/** One HTTP session; `sharedKey` and `sharedAt` say what of it the shared store has. */
export interface HttpSession extends Shared {
  readonly id: string
  readonly session: Session
  /** Who opened it. */
  readonly caller: Caller
  /** What the event store groups this session's streams by: random, never the session id. */
  readonly owner: string
  /** The mark in front of its stream ids (`markOf(owner)`), computed once: a digest per call would cost every streamed call. */
  readonly mark: string
  /** The GET stream, while one is open. */
  standalone: SseStream | undefined
  /** The id of the latest GET stream: while it is cut, the session's notifications go into the log for its resume. */
  lastGet: string | undefined
  /** The stream of each client request in flight, by its id: where a message that names its request goes where no async scope says. */
  readonly calls: Map<RequestId, string>
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

// ---------------------------------------------------------------------------------------
// constructors

/** True for the ids of requests emcp sends (`emcp-N`, `emcp-<replica>-N`). */
export const ours = (id: unknown): boolean => typeof id === 'string' && id.startsWith('emcp-') && id.length <= 64

/** What a session taken over from another replica keeps: its id, its event-log owner, and request ids of its own. */
export interface Fixed {
  readonly id: string
  readonly owner: string
  readonly idPrefix: string
}

/**
 * A session not yet admitted. What the server sends on its own goes to the stream of the
 * request being answered (`current` says which), else to the standalone stream.
 */
export const newEntry = (
  protocolVersion: ProtocolVersion,
  from: { readonly identity?: Identity; readonly address?: string },
  current: AsyncScope<{ readonly entry: HttpSession; readonly streamId: string }>,
  deliver: (entry: HttpSession, streamId: string, data: string) => void,
  fixed?: Fixed,
): HttpSession => {
  const owner = fixed?.owner ?? crypto.randomUUID()
  const entry: HttpSession = {
    id: fixed?.id ?? crypto.randomUUID(),
    session: undefined as unknown as Session,
    caller: callerOf(from.identity, from.address),
    owner,
    mark: markOf(owner),
    standalone: undefined,
    lastGet: undefined,
    calls: new Map(),
    streams: new Set(),
    gets: new Set(),
    known: new Map(),
    resumable: new Set(),
    recent: new Set(),
    lastSeen: Date.now(),
  }
  const send = (message: unknown, related?: RequestId): void => {
    const text = JSON.stringify(message)
    const here = current.getStore()
    // the async scope where the runtime carries one; else the request the message names (workerd has no AsyncLocalStorage)
    const streamId = here?.entry === entry ? here.streamId : related === undefined ? undefined : entry.calls.get(related)
    const state = streamId === undefined ? undefined : entry.known.get(streamId)
    // a message sent while answering one of this session's requests goes on that request's stream
    if (streamId !== undefined && state !== undefined && !state.finished) deliver(entry, streamId, text)
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
