/**
 * What a server may send an SDK client, bounded: the proxy's upstream, and the server
 * `connect` talks to. One answer's size (a result, a notification, a list page, an SSE
 * event, a stdio line), its nesting depth, the pages a list walk (`tools/list`, …) follows,
 * and how long a request waits. An answer past a limit never reaches the caller: the
 * request it answers fails with a JSON-RPC error naming the limit (through the proxy, a tool
 * call with an `isError` result), a notification or question past it is dropped (a question
 * answered with an error), and the HTTP connection goes on; a stdio line past it also ends
 * that process (the SDK's reader cannot resynchronize). The SDK client's own bounds are a
 * 10 MiB stdio line and none on HTTP bodies.
 *
 * @example
 * import { boundedFetch, limitsOf } from './bounds.js'
 * const limits = limitsOf({ maxAnswerBytes: 1 << 20 })
 * const fetchUpstream = boundedFetch(limits) // an HTTP body past 1 MiB answers its request with an error
 */
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client'
import { defaultMaxDepth, deeperThan } from '../util/json-depth.js'
import { utf8 } from '../util/bytes.js'

// ---------------------------------------------------------------------------------------
// model

/** The bounds on what the server sends back (see docs/composition.md for the proxy's defaults). */
export interface UpstreamLimits {
  /** The most bytes of one answer: a JSON body, an SSE event, a stdio line (default 16 MiB). */
  readonly maxAnswerBytes?: number
  /** How deeply one message may nest, arrays and objects (default 512, as for requests). */
  readonly maxDepth?: number
  /** The most pages one `tools/list`, `prompts/list`, `resources/list` walk follows (default 64). */
  readonly maxListPages?: number
  /**
   * The longest a relayed request other than a tool call waits for the upstream, in
   * milliseconds (default 60 000). A tool call is bounded by the proxy's `callTimeoutMs`
   * (default five minutes), which cancels it upstream too.
   */
  readonly requestTimeoutMs?: number
}

/** Who sends the answers, and where its limits are set, for the messages. */
export interface Naming {
  /** The sender: `the upstream`, `the server`. */
  readonly peer: string
  /** What a limit's name follows: `the proxy's limits.`, `the client's `. */
  readonly option: string
}

/** The limits with every default filled in, and their naming. */
export type Limits = Required<UpstreamLimits> & { readonly naming: Naming }

const proxyNaming: Naming = { peer: 'the upstream', option: "the proxy's limits." }

/** The JSON-RPC error code of an answer refused for a limit (the SDK's "internal error"), with `data.limit` naming it. */
export const limitCode = -32603

// ---------------------------------------------------------------------------------------
// functions

/** `limits` with the defaults filled in; a limit that is not a positive integer is a TypeError. */
export const limitsOf = (limits: UpstreamLimits = {}, naming: Naming = proxyNaming): Limits => {
  const out = { maxAnswerBytes: 16 * 1024 * 1024, maxDepth: defaultMaxDepth, maxListPages: 64, requestTimeoutMs: 60_000, ...limits }
  for (const [key, value] of Object.entries(out))
    if (!Number.isSafeInteger(value) || value < 1) throw new TypeError(`${naming === proxyNaming ? 'emcp proxy' : 'emcp/client'}: ${naming.option}${key} must be a positive integer, not ${String(value)}`)
  return { ...out, naming }
}

/** The message of a size or depth limit passed, for `what` (e.g. "the upstream’s answer to tools/call"). */
export const overLimit = (limit: 'maxAnswerBytes' | 'maxDepth', limits: Limits, what: string): string =>
  limit === 'maxDepth'
    ? `${what} nests deeper than ${limits.naming.option}maxDepth (${limits.maxDepth}); it was not passed on`
    : `${what} is larger than ${limits.naming.option}maxAnswerBytes (${limits.maxAnswerBytes} bytes); it was not passed on`

/**
 * `transport` with its incoming messages checked for depth, and every request still waiting
 * answered with an error naming the limit when the transport fails for one (a stdio line past
 * its buffer), then `onBroken` told. The transport object itself is kept (the SDK recognizes
 * stdio by its class).
 */
export const guarded = <T extends Transport>(transport: T, limits: Limits, onBroken?: (reason: string) => void): T => {
  const pending = new Map<string | number, string>()
  let deliver: ((m: JSONRPCMessage, extra?: never) => void) | undefined
  let report: ((e: Error) => void) | undefined
  const send = transport.send.bind(transport)
  transport.send = (message, options) => {
    const m = message as { id?: string | number; method?: string }
    if (m.method !== undefined && m.id !== undefined) pending.set(m.id, m.method)
    return send(message, options)
  }
  const refuse = (id: string | number, message: string, limit: string): void =>
    deliver?.({ jsonrpc: '2.0', id, error: { code: limitCode, message, data: { limit } } } as JSONRPCMessage)
  Object.defineProperty(transport, 'onmessage', {
    configurable: true,
    get: () => (deliver === undefined ? undefined : onmessage),
    set: (f) => void (deliver = f),
  })
  const onmessage = (message: JSONRPCMessage, extra?: never): void => {
    const m = message as { id?: string | number; method?: string; result?: unknown; error?: unknown }
    const response = m.method === undefined && m.id !== undefined
    if (response) pending.delete(m.id as string | number)
    if (!deeperThan(message, limits.maxDepth + 1)) return deliver?.(message, extra)
    if (response) refuse(m.id as string | number, overLimit('maxDepth', limits, `${limits.naming.peer}’s answer`), 'maxDepth')
    // a question too deep to pass on is answered here; a notification is dropped
    else if (m.id !== undefined) void send({ jsonrpc: '2.0', id: m.id, error: { code: -32600, message: overLimit('maxDepth', limits, `the request ${String(m.method).slice(0, 64)}`) } } as JSONRPCMessage).catch(() => {})
  }
  Object.defineProperty(transport, 'onerror', {
    configurable: true,
    get: () => (report === undefined ? undefined : onerror),
    set: (f) => void (report = f),
  })
  const onerror = (e: Error): void => {
    // the SDK's stdio reader refuses a line past its buffer, then closes: the waiting requests learn why first
    if (/ReadBuffer exceeded/.test(e.message)) {
      for (const [id, method] of [...pending]) {
        pending.delete(id)
        refuse(id, overLimit('maxAnswerBytes', limits, `${limits.naming.peer}’s answer to ${method}`), 'maxAnswerBytes')
      }
      onBroken?.(overLimit('maxAnswerBytes', limits, `a line of ${limits.naming.peer}`))
    }
    report?.(e)
  }
  return transport
}

/**
 * `fetch` for an HTTP upstream, each answer bounded by `limits.maxAnswerBytes`: a JSON body
 * past it becomes a JSON-RPC error answering the request it carried; an SSE event past it
 * becomes that error event and ends a request's stream (a standalone stream drops the event);
 * any other body is cut at the limit.
 */
export const boundedFetch =
  (limits: Limits, inner: typeof fetch = fetch): typeof fetch =>
  async (input, init) => {
    const res = await inner(input, init)
    if (res.body === null) return res
    const ids = requestIds(init?.body)
    const type = (res.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase()
    const cap = limits.maxAnswerBytes
    const refusal = (): string => errorsFor(ids, overLimit('maxAnswerBytes', limits, `${limits.naming.peer}’s answer`))
    if (type === 'text/event-stream') return withBody(res, res.body.pipeThrough(sseEvents(cap, ids.length === 0 ? undefined : () => `data: ${refusal()}\n\n`)))
    const body = await readCapped(res.body, Number(res.headers.get('content-length') ?? Number.NaN), cap)
    if (body !== undefined) return withBody(res, body)
    return type === 'application/json' && ids.length > 0 ? withBody(res, refusal(), 'application/json') : withBody(res, '')
  }

/**
 * The limit an SDK failure is (a relayed request that timed out, a list walk past its pages)
 * and a readable message naming it, or undefined for any other failure.
 */
export const limitFailure = (e: unknown, limits: Limits, method: string): { readonly limit: 'requestTimeoutMs' | 'maxListPages'; readonly message: string } | undefined => {
  const { code, data } = (e ?? {}) as { code?: unknown; data?: { timeout?: unknown; maxTotalTimeout?: unknown } }
  // the SDK reports a caller's abort with the same code, but without the time limit in its data
  const timedOut = code === 'REQUEST_TIMEOUT' && (typeof data?.timeout === 'number' || typeof data?.maxTotalTimeout === 'number')
  if (timedOut) return { limit: 'requestTimeoutMs', message: `${limits.naming.peer} did not answer ${method} within ${limits.naming.option}requestTimeoutMs (${limits.requestTimeoutMs} ms)` }
  if (code === 'LIST_PAGINATION_EXCEEDED') return { limit: 'maxListPages', message: `${limits.naming.peer}’s ${method} went on past ${limits.naming.option}maxListPages (${limits.maxListPages} pages)` }
  return undefined
}

// ---------------------------------------------------------------------------------------
// internals

/** The ids of the JSON-RPC requests in a request body (one message or a batch). */
const requestIds = (body: unknown): Array<string | number> => {
  if (typeof body !== 'string') return []
  try {
    const parsed = JSON.parse(body) as unknown
    return (Array.isArray(parsed) ? parsed : [parsed]).flatMap((m: { id?: unknown; method?: unknown } | null) =>
      m !== null && typeof m === 'object' && typeof m.method === 'string' && (typeof m.id === 'string' || typeof m.id === 'number') ? [m.id] : [],
    )
  } catch {
    return []
  }
}

/** JSON-RPC error answers to `ids`, as one body (a batch for several). */
const errorsFor = (ids: ReadonlyArray<string | number>, message: string): string => {
  const errors = ids.map((id) => ({ jsonrpc: '2.0', id, error: { code: limitCode, message, data: { limit: 'maxAnswerBytes' } } }))
  return JSON.stringify(errors.length === 1 ? errors[0] : errors)
}

const withBody = (res: Response, body: BodyInit, type?: string): Response => {
  const headers = new Headers(res.headers)
  headers.delete('content-length')
  headers.delete('content-encoding')
  if (type !== undefined) headers.set('content-type', type)
  return new Response(body, { status: res.status, statusText: res.statusText, headers })
}

/** The whole body, or undefined (and the body cancelled) once it passes `cap` bytes. */
const readCapped = async (body: ReadableStream<Uint8Array>, declared: number, cap: number): Promise<Uint8Array<ArrayBuffer> | undefined> => {
  if (declared > cap) {
    await body.cancel().catch(() => {})
    return undefined
  }
  const chunks: Uint8Array[] = []
  let size = 0
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength
    if (size > cap) {
      await body.cancel().catch(() => {})
      return undefined
    }
    chunks.push(chunk)
  }
  const all = new Uint8Array(size)
  let at = 0
  for (const c of chunks) {
    all.set(c, at)
    at += c.byteLength
  }
  return all
}

/**
 * SSE bytes passed on one whole event at a time (an event ends at a blank line), each at most
 * `cap` bytes. An event past it is dropped; on a request's stream (`refusal` given) the
 * refusal is sent in its place and the stream ends. Each byte is looked at once.
 */
const sseEvents = (cap: number, refusal: (() => string) | undefined): TransformStream<Uint8Array, Uint8Array> => {
  let held: Uint8Array[] = []
  let size = 0
  let over = false
  let lineLength = 0
  let afterCR = false
  return new TransformStream({
    transform(chunk, out) {
      let from = 0
      for (let i = 0; i < chunk.byteLength; i++) {
        const b = chunk[i]
        if (b === 0x0a && afterCR) {
          afterCR = false
          continue
        }
        afterCR = b === 0x0d
        if (b !== 0x0a && b !== 0x0d) {
          lineLength++
          continue
        }
        if (lineLength > 0) {
          lineLength = 0
          continue
        }
        // a blank line: the event ends here
        const part = chunk.subarray(from, i + 1)
        from = i + 1
        if (!over && size + part.byteLength <= cap) for (const h of [...held, part]) out.enqueue(h)
        else if (refusal !== undefined) {
          out.enqueue(utf8(refusal()))
          out.terminate()
          return
        }
        held = []
        size = 0
        over = false
      }
      const rest = chunk.subarray(from)
      if (over || size + rest.byteLength > cap) {
        over = true
        held = []
      } else {
        held.push(rest.slice())
        size += rest.byteLength
      }
    },
  })
}
