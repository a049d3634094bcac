/**
 * One SSE stream of a stateful HTTP session: a new one, or a cut one resumed from an event
 * id (`Last-Event-ID`), its stored events replayed first. The session's bookkeeping follows
 * the stream's life: a stream nobody reads waits for a resume (within the session's
 * allowance), a stream read to its end joins the latest few kept, a fresh GET stream gives
 * up the standalone streams nobody reads, and a resume cuts the connection it replaces.
 *
 * @example
 * import { sessionStream } from './session-stream.js'
 * const s = sessionStream({ store, forget, limits: { maxGetStreams: 16, maxResumable: 100 } }, entry, 'standalone', lastEventId)
 */
import { randomUUID } from 'node:crypto'
import type { EventStore } from './event-store.js'
import { sseStream, type SseStream } from './sse.js'
import type { HttpSession, StreamState } from './sessions.js'

// ---------------------------------------------------------------------------------------
// model

/** What a session's streams share: the event store, the way to forget a stream, and the limits. */
export interface StreamContext {
  readonly store: EventStore
  /** Forgets a stream: no client will read it again. */
  readonly forget: (entry: HttpSession, streamId: string) => void
  readonly limits: {
    readonly maxGetStreams: number
    readonly maxResumable: number
    readonly retryMs?: number | undefined
    readonly maxQueuedBytes?: number | undefined
  }
}

// ---------------------------------------------------------------------------------------
// constructors

/** A new SSE stream of a session, or a resumed one; a GET (`standalone`) past `maxGetStreams` is refused. */
export const sessionStream = (
  context: StreamContext,
  entry: HttpSession,
  kind: 'request' | 'standalone',
  resumeAfter?: string,
): SseStream | 'unknown-event' | 'too-many-streams' => {
  const { store, forget, limits } = context
  let streamId: string = randomUUID()
  let replay: ReadonlyArray<{ id: string; data: string }> = []
  let state: StreamState | undefined
  if (resumeAfter !== undefined) {
    const r = store.after(resumeAfter)
    state = r === undefined ? undefined : entry.known.get(r.streamId)
    if (r === undefined || state === undefined) return 'unknown-event'
    streamId = r.streamId
    replay = r.events
  }
  const previous = state?.live
  if (kind === 'standalone' && entry.gets.size - (previous !== undefined && entry.gets.has(previous) ? 1 : 0) >= limits.maxGetStreams) return 'too-many-streams'
  if (state === undefined) {
    state = { role: kind, finished: false, live: undefined }
    entry.known.set(streamId, state)
    // a fresh GET stream: the client gave up the one it had, so nobody will resume that
    if (kind === 'standalone') for (const [id, s] of entry.known) if (s.role === 'standalone' && s.live === undefined && id !== streamId) forget(entry, id)
  }
  const mine: StreamState = state
  const s: SseStream = sseStream(streamId, {
    store,
    owner: entry.owner,
    retryMs: limits.retryMs,
    maxQueuedBytes: limits.maxQueuedBytes,
    replay,
    onClose: () => {
      entry.streams.delete(s)
      entry.gets.delete(s)
      if (entry.standalone === s) entry.standalone = undefined
      entry.lastSeen = Date.now()
      if (mine.live !== s) return
      mine.live = undefined
      if (entry.known.get(streamId) !== mine) return
      // nobody reads it now: it waits for a resume, within the session's allowance
      entry.resumable.add(streamId)
      if (entry.resumable.size > limits.maxResumable) forget(entry, entry.resumable.values().next().value as string)
    },
    // a stream read to its end is most likely done with: only the latest few stay resumable
    onEnd: (complete) => {
      if (!complete || mine.live !== undefined || entry.known.get(streamId) !== mine) return
      entry.resumable.delete(streamId)
      entry.recent.add(streamId)
      if (entry.recent.size > keptRead) forget(entry, entry.recent.values().next().value as string)
    },
  })
  mine.live = s
  entry.resumable.delete(streamId)
  entry.recent.delete(streamId)
  // the connection a resume replaces is gone: what it queued is in the store and replayed
  previous?.cut()
  if (mine.role === 'standalone') entry.standalone = s
  else entry.streams.add(s)
  if (kind === 'standalone') entry.gets.add(s)
  // a resumed request stream whose answer already went out ends after its replay
  if (mine.role === 'request' && mine.finished) s.close()
  return s
}

// ---------------------------------------------------------------------------------------
// internals

/** How many streams read to their end a session keeps resumable. */
const keptRead = 8
