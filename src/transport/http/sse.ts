/**
 * One Server-Sent Events stream: a queue of events, each with an id, drained by whoever
 * writes the HTTP response. It opens with a priming event (an id, empty data, and a `retry`
 * hint) so that a client can reconnect with `Last-Event-ID`, and every event goes to the
 * event log first, so that it can be replayed after a reconnect (on this replica or another).
 * The log may be asynchronous: each event is written once its id comes back, in order; a
 * log that fails or falls too far behind cuts the stream rather than buffer without end.
 *
 * @example
 * import { sseStream } from 'emcp/http'
 * const s = sseStream('stream-1')
 * s.send('{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1}}')
 * s.close()
 * for await (const chunk of s.body) process.stdout.write(chunk)
 */
import { memoryEventStore, type EventStore } from '../../stores/event-store.js'

// ---------------------------------------------------------------------------------------
// model

/** A stream of events for one HTTP response. */
export interface SseStream {
  /** The stream's id: event ids are `<id>/<n>`. */
  readonly id: string
  /** Queues one event whose data is a JSON-RPC message's text (written once the log gave its id). */
  readonly send: (data: string) => void
  /** Ends the stream once what is queued has been written. */
  readonly close: () => void
  /** Ends the stream at once, dropping what is queued: its reader is gone (the events are in the log, for a resume). */
  readonly cut: () => void
  /** Queues an SSE comment line (a keep-alive: clients ignore it). */
  readonly comment: () => void
  /** True once closing (by us, or because the client went away): it takes no more events. */
  readonly closed: () => boolean
  /** The text of the response body, chunk by chunk; ends when the stream is closed. */
  readonly body: AsyncIterable<string>
}

/**
 * How a stream's events reach the event log. Every call is made at once, in the order of the
 * events, and must settle in that order; the stream writes each event when its id comes back.
 */
export interface SseWriter {
  /** The stored events to send first (a resumed stream), read after every earlier write of the stream; undefined: they are gone, and the stream is cut. */
  readonly replay?: () => Promise<ReadonlyArray<{ readonly id: string; readonly data: string }> | undefined>
  /** The priming event's id (undefined: it goes without one). */
  readonly prime: () => Promise<string | undefined>
  /** Keeps one event and gives its id (undefined: it goes without one); a rejection cuts the stream. */
  readonly append: (data: string) => Promise<string | undefined>
}

/** Options of a stream. */
export interface SseOptions {
  /** Where events are kept for replay, synchronously (default: a stream-local store that keeps nothing); see `writer` for a log of any latency. */
  readonly store?: EventStore
  /** How events reach an asynchronous log (instead of `store`). */
  readonly writer?: SseWriter
  /** The reconnection delay suggested to the client, in milliseconds (default 1000). */
  readonly retryMs?: number
  /** Events already stored to send first (a resumed stream). */
  readonly replay?: ReadonlyArray<{ readonly id: string; readonly data: string }>
  /** Called once when the stream closes. */
  readonly onClose?: () => void
  /**
   * Called once when the stream is over for its reader: `complete` when it was closed and the
   * reader took every event, false when it was cut (its reader went away or fell behind).
   */
  readonly onEnd?: (complete: boolean) => void
  /** Called once, before the cut, when the event log failed or lagged: an event is missing from the log, so the stream cannot be resumed. */
  readonly onFail?: (reason: string) => void
  /** The session the stream belongs to, for the store's per-session budget. */
  readonly owner?: string
  /** Event ids and the priming event (default true); 2026-07-28 streams cannot be resumed and go without. */
  readonly ids?: boolean
  /**
   * The most event bytes queued for a reader that does not keep up (default 16 MiB). Past it
   * the stream is cut: its queue is dropped and it closes; with ids, the events are in the
   * store, and the client resumes from the last one it read.
   */
  readonly maxQueuedBytes?: number
  /** The most events waiting for their id from the log (default 1024); past it, or past `maxPendingBytes`, the stream is cut (`onFail`). */
  readonly maxPendingEvents?: number
  /** The most event bytes waiting for their id from the log (default 8 MiB). */
  readonly maxPendingBytes?: number
}

// ---------------------------------------------------------------------------------------
// constructors

/** A new stream with its priming event queued. */
export const sseStream = (id: string, options: SseOptions = {}): SseStream => {
  const ids = options.ids ?? true
  const writer = options.writer ?? localWriter(options.store ?? memoryEventStore({ maxEvents: 0 }), id, options.owner)
  const maxPendingEvents = options.maxPendingEvents ?? 1024
  const maxPendingBytes = options.maxPendingBytes ?? 8 * 1024 * 1024
  const s: StreamState = {
    id,
    options,
    maxQueuedBytes: options.maxQueuedBytes ?? 16 * 1024 * 1024,
    // replayed events first: the priming event's id is then the latest, so a client cut off
    // right after it resumes without skipping any
    queue: (options.replay ?? []).map((e) => frame(stored(() => eventId(e.id)), e.data)),
    closing: false,
    closed: false,
    wasCut: false,
    ended: false,
    wake: undefined,
    queuedBytes: 0,
    queuedEvents: 0,
    chain: Promise.resolve(),
    pending: 0,
    pendingBytes: 0,
  }
  const life = lifecycle(s)
  const logged = inOrder(s, life.fail)

  const replayed = writer.replay?.()
  if (replayed !== undefined)
    logged(replayed, 0, (events) => {
      if (events === undefined) return life.fail('the events to replay were dropped meanwhile')
      for (const e of events) if (!s.closed) s.queue.push(frame(stored(() => eventId(e.id)), e.data))
    })
  if (ids)
    logged(writer.prime(), 0, (primed) => {
      if (!s.closed) s.queue.push(`${primed === undefined ? '' : `id: ${primed}\n`}retry: ${options.retryMs ?? 1000}\ndata:\n\n`)
      s.wake?.()
    })

  return {
    id,
    send: (data) => {
      if (s.closing) return
      if (!ids) return enqueue(s, life, frame(undefined, data))
      // the log must not fall behind without end either: an event it never got makes the stream unresumable
      // (an event larger than the byte bound alone still goes: it waits for no other)
      if (s.pending >= maxPendingEvents || (s.pendingBytes > 0 && s.pendingBytes + data.length > maxPendingBytes))
        return life.fail(`its event log lags behind (${s.pending} events, ${s.pendingBytes} bytes waiting to be kept)`)
      logged(writer.append(data), data.length, (eid) => enqueue(s, life, frame(eid, data)))
    },
    close: life.close,
    cut: life.cut,
    comment: () => {
      if (s.closing) return
      s.queue.push(':\n\n')
      s.wake?.()
    },
    closed: () => s.closing,
    body: reader(s, life),
  }
}

// ---------------------------------------------------------------------------------------
// internals

/** The state of one stream, shared by its parts: its queue for the reader, its life, and its writes to the log. */
interface StreamState {
  readonly id: string
  readonly options: SseOptions
  readonly maxQueuedBytes: number
  /** Framed events waiting for the reader. */
  readonly queue: string[]
  closing: boolean
  closed: boolean
  wasCut: boolean
  ended: boolean
  /** Wakes the reader waiting for an event. */
  wake: (() => void) | undefined
  /** What send() queued since the reader last pulled (it takes the whole queue at each pull). */
  queuedBytes: number
  queuedEvents: number
  /** The writes whose ids have not come back, in order. */
  chain: Promise<void>
  pending: number
  pendingBytes: number
}

/** How a stream ends: closed once what is queued is written, cut at once, or failed (cut, with the reason told). */
interface Lifecycle {
  readonly finish: () => void
  readonly close: () => void
  readonly end: (complete: boolean) => void
  readonly cut: () => void
  readonly fail: (reason: string) => void
}

/** The ways `s` ends, each once. */
const lifecycle = (s: StreamState): Lifecycle => {
  const finish = (): void => {
    if (s.closed) return
    s.closed = true
    s.closing = true
    s.wake?.()
    s.options.onClose?.()
  }
  const end = (complete: boolean): void => {
    if (s.ended) return
    s.ended = true
    s.options.onEnd?.(complete)
  }
  const cut = (): void => {
    s.wasCut = true
    s.queue.length = 0
    finish()
    end(false)
  }
  return {
    finish,
    end,
    cut,
    close: () => {
      if (s.closing) return
      s.closing = true
      // what waits for its id is written first
      void s.chain.then(finish)
    },
    fail: (reason) => {
      if (s.closed) return
      console.error(`emcp: SSE stream ${s.id} cut: ${reason}`)
      s.options.onFail?.(reason)
      cut()
    },
  }
}

/** Queues one framed event, or cuts the stream when its reader does not keep up. */
const enqueue = (s: StreamState, life: Lifecycle, event: string): void => {
  if (s.closed) return
  s.queuedBytes += event.length
  if (s.queuedBytes > s.maxQueuedBytes) {
    // a slow reader must not grow the server's memory without end: what send() queued
    // goes (the priming event and a replay stay, so that the client can resume)
    s.queue.splice(s.queue.length - s.queuedEvents, s.queuedEvents)
    s.queuedBytes = 0
    s.queuedEvents = 0
    s.wasCut = true
    life.finish()
    // over for its reader now: a reader stuck waiting for the client to drain would only learn it when the client reads again
    life.end(false)
    return
  }
  s.queue.push(event)
  s.queuedEvents++
  s.wake?.()
}

/** Runs `then` with what `p` gives once every earlier write is written; a failure cuts the stream. */
const inOrder =
  (s: StreamState, fail: (reason: string) => void) =>
  <A>(p: Promise<A>, size: number, then: (a: A) => void): void => {
    s.pending++
    s.pendingBytes += size
    s.chain = s.chain
      .then(() => p)
      .then(then, (e: unknown) => fail(`the event log failed (${e instanceof Error ? e.message : String(e)}); the client can resume elsewhere, from before this stream`))
      .finally(() => {
        s.pending--
        s.pendingBytes -= size
      })
  }

/** The response body: everything queued in one chunk at each pull, until the stream closes. */
const reader = (s: StreamState, life: Lifecycle): AsyncIterable<string> => ({
  [Symbol.asyncIterator]: () => ({
    next: async (): Promise<IteratorResult<string>> => {
      while (s.queue.length === 0 && !s.closed) await new Promise<void>((resolve) => (s.wake = resolve))
      s.wake = undefined
      // everything queued goes out in one chunk
      s.queuedBytes = 0
      s.queuedEvents = 0
      if (s.queue.length > 0) return { done: false, value: s.queue.splice(0).join('') }
      life.end(!s.wasCut)
      return { done: true, value: undefined }
    },
    return: async (): Promise<IteratorResult<string>> => {
      // the reader gave up before the end
      life.cut()
      return { done: true, value: undefined }
    },
  }),
})

/**
 * One `message` event (without an id when the stream has none or the store could not keep
 * it). JSON text has no raw line breaks, but a data line per line keeps SSE valid anyway;
 * SSE ends a line at CRLF, CR or LF, so the data splits on all three (a lone CR left in a
 * data line would end it early, and the rest would be read as a field of its own).
 */
const frame = (id: string | undefined, data: string): string =>
  `${id === undefined ? '' : `id: ${id}\n`}event: message\n${data.split(lineBreak).map((l) => `data: ${l}`).join('\n')}\n\n`

const lineBreak = /\r\n|\r|\n/

/**
 * An event id as the store gave it, or a throw when it holds a line break (or NUL, which
 * makes clients ignore the id): written as is it would end the `id:` line and inject fields
 * or events of its own. A store is someone else's code, and `stored` turns the throw into an
 * event sent without an id.
 */
export const eventId = (id: string): string => {
  if (/[\r\n\0]/.test(id)) throw new Error(`event id ${JSON.stringify(id.slice(0, 64))} holds a line break or NUL`)
  return id
}

/** A synchronous store as a stream's writer (what it fails to keep goes without an id). */
const localWriter = (store: EventStore, id: string, owner: string | undefined): SseWriter => ({
  prime: () => Promise.resolve(stored(() => eventId(store.prime(id, owner)))),
  append: (data) => Promise.resolve(stored(() => eventId(store.append(id, data)))),
})

/** What an event store call gave, or undefined (reported on stderr) when it threw: a store is someone else's code. */
export const stored = <A>(f: () => A): A | undefined => {
  try {
    return f()
  } catch (e) {
    console.error(`emcp: the event store failed (the event is sent but cannot be replayed): ${e instanceof Error ? e.message : String(e)}`)
    return undefined
  }
}
