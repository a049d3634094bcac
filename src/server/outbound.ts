/// <reference types="node" preserve="true" />
/**
 * The server's own messages to the client: notifications, and requests whose answers come
 * back through the dispatcher and are matched here by id. A transport that can carry them
 * (stdio, a stateful HTTP session) gives its session an `Outbound`; stateless HTTP cannot,
 * so its sessions have none.
 *
 * @example
 * import { outbound } from 'emcp'
 * const out = outbound((message) => process.stdout.write(JSON.stringify(message) + '\n'))
 * out.notify('notifications/tools/list_changed')
 * const roots = out.request('roots/list', undefined, { timeoutMs: 5000 }) // settled by out.settle(response)
 */
import type { Params, RequestId, Response } from '../protocol/jsonrpc.js'

// ---------------------------------------------------------------------------------------
// model

/** A message the server sends on its own: a notification or a request. */
export type ServerMessage =
  | { readonly jsonrpc: '2.0'; readonly method: string; readonly params?: Params }
  | { readonly jsonrpc: '2.0'; readonly id: RequestId; readonly method: string; readonly params?: Params }

/** How a request to the client may end early. */
export interface RequestOptions {
  /** Gives up (and tells the client `notifications/cancelled`) when this fires. */
  readonly signal?: AbortSignal
  /** Gives up after this many milliseconds (default 60 000). */
  readonly timeoutMs?: number
  /**
   * 2026-07-28: the question's key in `inputRequests` (and so in the client's
   * `inputResponses`), unique within the request; `input-N` when absent.
   */
  readonly key?: string
  /**
   * The client's request this one serves (a tool call asking for sampling): a transport with
   * a stream per request sends it on that request's stream.
   */
  readonly relatedRequestId?: RequestId
}

/** A JSON-RPC error answered by the client to one of our requests. */
export class ClientError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message)
    this.name = 'ClientError'
  }
}

/** The server's channel to one client. */
export interface Outbound {
  /** Sends a notification; `related`: the client's request it belongs to (progress, logs of a call), which a transport may carry it with. */
  readonly notify: (method: string, params?: Params, related?: RequestId) => void
  /** Sends a request; resolves to the client's result, rejects on its error, a timeout or abort. */
  readonly request: (method: string, params?: Params, options?: RequestOptions) => Promise<unknown>
  /** Hands over a response from the client; false when it answers nothing we asked. */
  readonly settle: (response: Response) => boolean
  /** Rejects every request still waiting (the connection is gone). */
  readonly close: (reason: string) => void
  /** How many of our requests await the client's answer. */
  readonly pending: () => number
  /** Aborts once the channel is closed (long-lived answers such as `subscriptions/listen` then end). */
  readonly closed?: AbortSignal
  /** False for a channel that carries notifications only (a stateless POST's SSE answer): no request is sent on it. */
  readonly asks?: boolean
}

// ---------------------------------------------------------------------------------------
// constructors

/**
 * A channel that writes through `send`. Its requests' ids are `<idPrefix><n>` (default
 * `emcp-`): channels to one client from different processes take different prefixes, so
 * that an answer can be told apart whichever process it reaches. `send`'s second argument is
 * the client's request the message belongs to, when the sender said.
 */
export const outbound = (send: (message: ServerMessage, related?: RequestId) => void, idPrefix: string = 'emcp-'): Outbound => {
  let next = 1
  const closing = new AbortController()
  const waiting = new Map<RequestId, { resolve: (u: unknown) => void; reject: (e: Error) => void; done: () => void }>()

  const request = (method: string, params?: Params, options: RequestOptions = {}): Promise<unknown> =>
    new Promise((resolve, reject) => {
      // our ids are strings with a prefix, so they never read as the client's own
      const id = `${idPrefix}${next++}`
      const { signal, timeoutMs = 60_000, relatedRequestId: related } = options
      const giveUp = (reason: string): void => {
        if (!waiting.has(id)) return
        done()
        send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason } }, related)
        reject(new Error(reason))
      }
      const onAbort = (): void => giveUp(`${method} was cancelled`)
      const timer = setTimeout(() => giveUp(`${method} timed out after ${timeoutMs} ms`), timeoutMs)
      const done = (): void => {
        clearTimeout(timer)
        signal?.removeEventListener('abort', onAbort)
        waiting.delete(id)
      }
      if (signal?.aborted === true) {
        clearTimeout(timer)
        reject(new Error(`${method} was cancelled`))
        return
      }
      signal?.addEventListener('abort', onAbort, { once: true })
      waiting.set(id, { resolve, reject, done })
      try {
        send(params === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params }, related)
      } catch (e) {
        // never sent (e.g. params JSON cannot carry): nothing to wait for, nothing to cancel later
        done()
        reject(e instanceof Error ? e : new Error(String(e)))
      }
    })

  return {
    notify: (method, params, related) => send(params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params }, related),
    request,
    settle: (response) => {
      const w = waiting.get(response.id)
      if (w === undefined) return false
      w.done()
      if (response.error !== undefined) w.reject(new ClientError(response.error.code, response.error.message, response.error.data))
      else w.resolve(response.result)
      return true
    },
    close: (reason) => {
      closing.abort(reason)
      for (const w of [...waiting.values()]) {
        w.done()
        w.reject(new Error(reason))
      }
    },
    pending: () => waiting.size,
    closed: closing.signal,
  }
}
