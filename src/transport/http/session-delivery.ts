/**
 * Where a session's events go, by stream id: on the stream's open connection (opening a
 * deferred one first), else into the event log for a later resume; and how a stream is let
 * go of (forgotten here and in the log, finished, or moved to another replica).
 *
 * @example
 * import { memoryStore } from 'emcp'
 * import { sessionDelivery } from './session-delivery.js'
 * import { sharedLog } from './stream-log.js'
 * const delivery = sessionDelivery(sharedLog(memoryStore().events))
 * // delivery.deliver(entry, streamId, '{"jsonrpc":"2.0","method":"notifications/progress","params":{...}}')
 */
import type { HttpSession } from './session-entry.js'
import { chained, type StreamLog } from './stream-log.js'

// ---------------------------------------------------------------------------------------
// model

/** A session's streams as the registry handles them. */
export interface SessionDelivery {
  readonly log: StreamLog
  /** Forgets a stream: no client will read it again (its events go from the log after its last write). */
  readonly forget: (entry: HttpSession, streamId: string) => void
  /** Sends on a stream id: on its open stream (opening a deferred one first), or into the event log for a later resume. */
  readonly deliver: (entry: HttpSession, streamId: string, data: string) => void
  /** A request stream's answer went out: close it (and any stream that resumes it later). */
  readonly finish: (entry: HttpSession, streamId: string) => void
  /** A stream resumed on another replica is written there from now on: let go of it here (the log keeps it). */
  readonly letGo: (entry: HttpSession, streamId: string) => void
}

// ---------------------------------------------------------------------------------------
// constructors

/** The delivery of every session's events through `log`. */
export const sessionDelivery = (log: StreamLog): SessionDelivery => {
  const drop = (entry: HttpSession, streamId: string): void => {
    entry.known.delete(streamId)
    entry.resumable.delete(streamId)
    entry.recent.delete(streamId)
    if (entry.lastGet === streamId) entry.lastGet = undefined
  }

  const forget = (entry: HttpSession, streamId: string): void => {
    const state = entry.known.get(streamId)
    drop(entry, streamId)
    // after the stream's writes, so that none of them brings it back
    void (state === undefined ? log.forget(streamId) : chained(state, () => log.forget(streamId)))
  }

  const deliver = (entry: HttpSession, streamId: string, data: string): void => {
    const state = entry.known.get(streamId)
    // a forgotten stream (its session ended) has no reader to come
    if (state === undefined) return
    // a call's first event opens its deferred stream: the POST is answered with it, the event goes on it
    state.open?.()
    if (state.live !== undefined && !state.live.closed()) state.live.send(data)
    // the client's connection was cut: keep the event for when it resumes (one the log lost makes the stream unresumable)
    else
      chained(state, () => log.append(streamId, data)).catch((e: unknown) => {
        console.error(`emcp: SSE stream ${streamId} forgotten: the event log failed (${e instanceof Error ? e.message : String(e)})`)
        if (entry.known.get(streamId) === state) forget(entry, streamId)
      })
  }

  const finish = (entry: HttpSession, streamId: string): void => {
    const state = entry.known.get(streamId)
    if (state === undefined) return
    state.finished = true
    state.live?.close()
  }

  const letGo = (entry: HttpSession, streamId: string): void => {
    const state = entry.known.get(streamId)
    if (state === undefined) return
    state.live?.cut()
    drop(entry, streamId)
  }

  return { log, forget, deliver, finish, letGo }
}
