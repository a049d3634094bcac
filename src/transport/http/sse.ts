/**
 * One Server-Sent Events stream: a queue of events, each with an id, drained by whoever
 * writes the HTTP response. It opens with a priming event (an id, empty data, and a `retry`
 * hint) so that a client can reconnect with `Last-Event-ID`, and every event goes to the
 * event store first, so that it can be replayed after a reconnect.
 *
 * @example
 * import { sseStream } from 'emcp/http'
 * const s = sseStream('stream-1')
 * s.send('{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1}}')
 * s.close()
 * for await (const chunk of s.body) process.stdout.write(chunk)
 */
import { memoryEventStore, type EventStore } from './event-store.js'

// ---------------------------------------------------------------------------------------
// model

/** A stream of events for one HTTP response. */
export interface SseStream {
  /** The stream's id: event ids are `<id>/<n>`. */
  readonly id: string
  /** Queues one event whose data is a JSON-RPC message's text. */
  readonly send: (data: string) => void
  /** Ends the stream once what is queued has been written. */
  readonly close: () => void
  /** Ends the stream at once, dropping what is queued: its reader is gone (the events are in the store, for a resume). */
  readonly cut: () => void
  /** Queues an SSE comment line (a keep-alive: clients ignore it). */
  readonly comment: () => void
  /** True once closed (by us or because the client went away). */
  readonly closed: () => boolean
  /** The text of the response body, chunk by chunk; ends when the stream is closed. */
  readonly body: AsyncIterable<string>
}

/** Options of a stream. */
export interface SseOptions {
  /** Where events are kept for replay (default: a stream-local store that keeps nothing). */
  readonly store?: EventStore
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
}

// ---------------------------------------------------------------------------------------
// constructors

/** A new stream with its priming event queued. */
export const sseStream = (id: string, options: SseOptions = {}): SseStream => {
  const store = options.store ?? memoryEventStore({ maxEvents: 0 })
  // replayed events first: the priming event's id is then the latest, so a client cut off
  // right after it resumes without skipping any
  const ids = options.ids ?? true
  const queue: string[] = (options.replay ?? []).map((e) => frame(stored(() => eventId(e.id)), e.data))
  if (ids) {
    const primed = stored(() => eventId(store.prime(id, options.owner)))
    queue.push(`${primed === undefined ? '' : `id: ${primed}\n`}retry: ${options.retryMs ?? 1000}\ndata:\n\n`)
  }
  let closed = false
  let wasCut = false
  let ended = false
  let wake: (() => void) | undefined
  const maxQueuedBytes = options.maxQueuedBytes ?? 16 * 1024 * 1024
  // what send() queued since the reader last pulled (it takes the whole queue at each pull)
  let queuedBytes = 0
  let queuedEvents = 0

  const close = (): void => {
    if (closed) return
    closed = true
    wake?.()
    options.onClose?.()
  }
  const end = (complete: boolean): void => {
    if (ended) return
    ended = true
    options.onEnd?.(complete)
  }
  const cut = (): void => {
    wasCut = true
    queue.length = 0
    close()
    end(false)
  }

  const body: AsyncIterable<string> = {
    [Symbol.asyncIterator]: () => ({
      next: async (): Promise<IteratorResult<string>> => {
        while (queue.length === 0 && !closed) await new Promise<void>((resolve) => (wake = resolve))
        wake = undefined
        // everything queued goes out in one chunk
        queuedBytes = 0
        queuedEvents = 0
        if (queue.length > 0) return { done: false, value: queue.splice(0).join('') }
        end(!wasCut)
        return { done: true, value: undefined }
      },
      return: async (): Promise<IteratorResult<string>> => {
        // the reader gave up before the end
        cut()
        return { done: true, value: undefined }
      },
    }),
  }

  return {
    id,
    send: (data) => {
      if (closed) return
      // a store that fails costs resumption of this event, never its delivery
      const event = frame(ids ? stored(() => eventId(store.append(id, data))) : undefined, data)
      queuedBytes += event.length
      if (queuedBytes > maxQueuedBytes) {
        // a slow reader must not grow the server's memory without end: what send() queued
        // goes (the priming event and a replay stay, so that the client can resume)
        queue.splice(queue.length - queuedEvents, queuedEvents)
        queuedBytes = 0
        queuedEvents = 0
        wasCut = true
        close()
        return
      }
      queue.push(event)
      queuedEvents++
      wake?.()
    },
    close,
    cut,
    comment: () => {
      if (closed) return
      queue.push(':\n\n')
      wake?.()
    },
    closed: () => closed,
    body,
  }
}

// ---------------------------------------------------------------------------------------
// internals

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

/** What an event store call gave, or undefined (reported on stderr) when it threw: a store is someone else's code. */
export const stored = <A>(f: () => A): A | undefined => {
  try {
    return f()
  } catch (e) {
    console.error(`emcp: the event store failed (the event is sent but cannot be replayed): ${e instanceof Error ? e.message : String(e)}`)
    return undefined
  }
}
