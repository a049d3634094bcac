/// <reference types="node" preserve="true" />
/**
 * The stdio output queue: lines out, with backpressure. Lines sent in the same turn of the
 * event loop go out in one write, or in writes of about 64 KiB when the turn sends more. While the output does not drain (the client is not
 * reading), nothing more is written: what waits stays here, where it is bounded, and goes
 * out in one write once the output drains; droppable lines (progress, log messages) are
 * dropped past `maxQueuedBytes`, every other line waits. Once the output has failed (the
 * client went away: EPIPE), lines are dropped.
 *
 * @example
 * import { outputQueue } from './output-queue.js'
 * const q = outputQueue(process.stdout, 16 * 1024 * 1024, { blocked: () => {}, settled: () => {} })
 * q.send('{"jsonrpc":"2.0","id":1,"result":{}}')
 */
import type { Writable } from 'node:stream'

// ---------------------------------------------------------------------------------------
// model

/** What the queue tells its owner. */
export interface QueueEvents {
  /** The output stopped or started accepting writes (see `isBlocked`). */
  readonly blocked: () => void
  /** Something was written, dropped or handed on: `isIdle` may have changed. */
  readonly settled: () => void
}

/** A running queue. */
export interface OutputQueue {
  /** Queues one line (a newline is added); a droppable one may be dropped while the output is blocked. */
  readonly send: (line: string, droppable?: boolean) => void
  /** True while the output does not drain. */
  readonly isBlocked: () => boolean
  /** True when nothing waits: nothing queued or blocked, every write handed on. */
  readonly isIdle: () => boolean
  /** The output failed: what waits is dropped, and so is every line sent from now on. */
  readonly fail: () => void
}

// ---------------------------------------------------------------------------------------
// constructors

/** A queue of lines for `output`, holding at most `maxQueuedBytes` of droppable lines while it is blocked. */
export const outputQueue = (output: Writable, maxQueuedBytes: number, events: QueueEvents): OutputQueue => {
  const state = { queued: [] as string[], queuedChars: 0, heldBytes: 0, blocked: false, unflushed: 0, scheduled: false, broken: false }

  const onDrain = (): void => {
    state.blocked = false
    events.blocked()
    if (state.queued.length > 0) flush()
    else events.settled()
  }

  const flush = (): void => {
    state.scheduled = false
    // a blocked output is not written to: what waits stays here, where it is bounded
    if (state.blocked) return
    state.heldBytes = 0
    if (state.queued.length === 0) return events.settled()
    const text = state.queued.join('')
    state.queued = []
    state.queuedChars = 0
    state.unflushed++
    const accepted = output.write(text, () => {
      // writes the output accepted but had not yet handed on: the owner waits for them
      // after a failure the count starts again from nothing: this write is no longer waited for
      if (!state.broken) state.unflushed--
      events.settled()
    })
    if (!accepted) {
      state.blocked = true
      events.blocked()
      output.once('drain', onDrain)
    }
    events.settled()
  }

  const send = (line: string, droppable = false): void => {
    if (state.broken) return
    // counted only while blocked: that is the part that must be bounded
    if (state.blocked) {
      const bytes = Buffer.byteLength(line) + 1
      if (droppable && state.heldBytes + bytes > maxQueuedBytes) return
      state.heldBytes += bytes
    }
    state.queued.push(line + '\n')
    state.queuedChars += line.length + 1
    // a turn that answers a lot (synchronous handlers, a large chunk of input) writes as it
    // goes: the output says at once when it is full, and reading stops within the chunk
    if (!state.blocked && state.queuedChars >= flushChars) return flush()
    // lines sent in the same turn go out in one write
    if (!state.scheduled) {
      state.scheduled = true
      process.nextTick(flush)
    }
  }

  const fail = (): void => {
    state.broken = true
    state.queued = []
    state.queuedChars = 0
    state.heldBytes = 0
    state.unflushed = 0
    state.blocked = false
  }

  return {
    send,
    isBlocked: () => state.blocked,
    isIdle: () => state.queued.length === 0 && !state.blocked && state.unflushed === 0,
    fail,
  }
}

// ---------------------------------------------------------------------------------------
// internals

/** How much one turn queues before it writes without waiting for the turn to end (characters, about bytes). */
const flushChars = 64 * 1024
