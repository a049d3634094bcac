/**
 * One SSE stream of a stateful HTTP session: a new one, or a cut one resumed from an event
 * id (`Last-Event-ID`), its stored events replayed first. The session's bookkeeping follows
 * the stream's life: a stream nobody reads waits for a resume (within the session's
 * allowance), a stream read to its end joins the latest few kept, a fresh GET stream gives
 * up the standalone streams nobody reads, and a resume cuts the connection it replaces.
 *
 * @example
 * import { sessionStream } from './session-stream.js'
 * const s = await sessionStream({ log, forget, limits: { maxGetStreams: 16, maxResumable: 100 } }, entry, 'standalone', lastEventId)
 */
import { sseStream, type SseStream } from './sse.js'
import type { HttpSession, StreamState } from './session-entry.js'
import { chained, type StreamLog } from './stream-log.js'

// ---------------------------------------------------------------------------------------
// model

/** What a session's streams share: the event log, the way to forget a stream, and the limits. */
export interface StreamContext {
  readonly log: StreamLog
  /** Forgets a stream: no client will read it again. */
  readonly forget: (entry: HttpSession, streamId: string) => void
  /** A stream another replica opened was resumed here (that replica must stop writing to it). */
  readonly adopted?: (entry: HttpSession, streamId: string) => void
  readonly limits: {
    readonly maxGetStreams: number
    readonly maxResumable: number
    readonly retryMs?: number | undefined
    readonly maxQueuedBytes?: number | undefined
    readonly maxPendingEvents?: number | undefined
    readonly maxPendingBytes?: number | undefined
  }
}

/**
 * A call's stream before it is known to be needed: the call may finish first and be answered
 * as JSON (`drop`), or have something to send, or run long (`open`), and then its POST is
 * answered with this stream, primed and kept in the log like any other.
 */
export interface DeferredStream {
  readonly id: string
  /** Opens the stream (once; not after `drop`). */
  readonly open: () => void
  /** True once the stream was opened. */
  readonly isOpen: () => boolean
  /** Forgets the stream, which was never opened: what the call sends from now on goes elsewhere, as for a finished stream. */
  readonly drop: () => void
}

// ---------------------------------------------------------------------------------------
// constructors

/**
 * A new SSE stream of a session, or a resumed one; a GET (`standalone`) past `maxGetStreams`
 * is refused. A resumed stream this replica never saw (the session was taken over from
 * another) is adopted when its id carries the session's mark. Rejects when the log cannot be
 * read (a `StoreUnavailable`).
 */
export const sessionStream = async (
  context: StreamContext,
  entry: HttpSession,
  kind: 'request' | 'standalone',
  resumeAfter?: string,
): Promise<SseStream | 'unknown-event' | 'too-many-streams'> => {
  const { log, forget, limits } = context
  const mark = entry.mark
  let streamId = `${mark}.${kind === 'standalone' ? 'g' : 'r'}.${crypto.randomUUID()}`
  let state: StreamState | undefined
  if (resumeAfter !== undefined) {
    // which stream: the events themselves are read again below, after every write before the resume
    const r = await log.after(resumeAfter)
    if (r === undefined) return 'unknown-event'
    const known = entry.known.get(r.streamId)
    state = known ?? adopted(entry, mark, r.streamId)
    if (state === undefined) return 'unknown-event'
    if (known === undefined) context.adopted?.(entry, r.streamId)
    streamId = r.streamId
  }
  const previous = state?.live
  if (kind === 'standalone' && entry.gets.size - (previous !== undefined && entry.gets.has(previous) ? 1 : 0) >= limits.maxGetStreams) return 'too-many-streams'
  if (state === undefined) {
    state = { role: kind, finished: false, live: undefined, tail: Promise.resolve() }
    entry.known.set(streamId, state)
    // a fresh GET stream: the client gave up the one it had, so nobody will resume that
    if (kind === 'standalone') for (const [id, s] of entry.known) if (s.role === 'standalone' && s.live === undefined && id !== streamId) forget(entry, id)
  }
  return attach(context, entry, streamId, state, kind, resumeAfter)
}

/** A request stream that opens only when `open` is called or an event is delivered to it (see `DeferredStream`). */
export const deferredStream = (context: StreamContext, entry: HttpSession, opened: (stream: SseStream) => void): DeferredStream => {
  const id = `${entry.mark}.r.${crypto.randomUUID()}`
  const state: StreamState = { role: 'request', finished: false, live: undefined, tail: Promise.resolve() }
  let status: 'waiting' | 'open' | 'dropped' = 'waiting'
  const open = (): void => {
    if (status !== 'waiting') return
    status = 'open'
    state.open = undefined
    opened(attach(context, entry, id, state, 'request', undefined))
  }
  state.open = open
  entry.known.set(id, state)
  return {
    id,
    open,
    isOpen: () => status === 'open',
    drop: () => {
      if (status !== 'waiting') return
      status = 'dropped'
      state.open = undefined
      // nothing of it reached the log: there is nothing to forget there
      if (entry.known.get(id) === state) entry.known.delete(id)
    },
  }
}

/** The SSE stream of a known stream state, opened now (after a resume's replay when `resumeAfter` is given). */
const attach = (context: StreamContext, entry: HttpSession, id: string, mine: StreamState, kind: 'request' | 'standalone', resumeAfter: string | undefined): SseStream => {
  const { log, forget, limits } = context
  const previous = mine.live
  const s: SseStream = sseStream(id, {
    writer: {
      // read in the stream's order: after what the connection it replaces, or a delivery meanwhile, wrote
      replay: resumeAfter === undefined ? undefined : () => chained(mine, () => log.after(resumeAfter)).then((r) => (r?.streamId === id ? r.events : undefined)),
      prime: () => chained(mine, () => log.prime(id, entry.owner)),
      append: (data) => chained(mine, () => log.append(id, data)),
    },
    retryMs: limits.retryMs,
    maxQueuedBytes: limits.maxQueuedBytes,
    maxPendingEvents: limits.maxPendingEvents,
    maxPendingBytes: limits.maxPendingBytes,
    // an event the log lost: a resume would skip it, so none is allowed
    onFail: () => forget(entry, id),
    onClose: () => {
      entry.streams.delete(s)
      entry.gets.delete(s)
      if (entry.standalone === s) entry.standalone = undefined
      entry.lastSeen = Date.now()
      if (mine.live !== s) return
      mine.live = undefined
      if (entry.known.get(id) !== mine) return
      // nobody reads it now: it waits for a resume, within the session's allowance
      entry.resumable.add(id)
      if (entry.resumable.size > limits.maxResumable) forget(entry, entry.resumable.values().next().value as string)
    },
    // a stream read to its end is most likely done with: only the latest few stay resumable
    onEnd: (complete) => {
      if (!complete || mine.live !== undefined || entry.known.get(id) !== mine) return
      entry.resumable.delete(id)
      entry.recent.add(id)
      if (entry.recent.size > keptRead) forget(entry, entry.recent.values().next().value as string)
    },
  })
  mine.live = s
  entry.resumable.delete(id)
  entry.recent.delete(id)
  // the connection a resume replaces is gone: what it queued is in the log and replayed
  previous?.cut()
  if (mine.role === 'standalone') {
    entry.standalone = s
    entry.lastGet = id
  } else entry.streams.add(s)
  if (kind === 'standalone') entry.gets.add(s)
  // a resumed request stream whose answer already went out ends after its replay
  if (mine.role === 'request' && mine.finished) s.close()
  return s
}

/**
 * A stream of the session that another replica opened, resumed here: a GET stream goes on
 * here; a request stream replays what its call wrote and closes (the call runs, and writes
 * its answer, on the replica that has it: the client resumes again for the rest).
 */
const adopted = (entry: HttpSession, mark: string, streamId: string): StreamState | undefined => {
  const [m, role] = streamId.split('.')
  if (m !== mark || (role !== 'g' && role !== 'r')) return undefined
  const state: StreamState = { role: role === 'g' ? 'standalone' : 'request', finished: role === 'r', live: undefined, tail: Promise.resolve() }
  entry.known.set(streamId, state)
  return state
}

// ---------------------------------------------------------------------------------------
// internals

/** How many streams read to their end a session keeps resumable. */
const keptRead = 8
