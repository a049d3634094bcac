/**
 * What a handler may know and do while it runs: the request's id and `_meta`, the session it
 * belongs to, and an AbortSignal that fires when the call is abandoned.
 *
 * @example
 * import { emcp, mcpServer } from 'emcp'
 * const slow = emcp({ name: 'slow', input: { type: 'object' } })
 * mcpServer([slow], { name: 's', version: '1' }).implement({
 *   slow: async (_args, ctx) => (ctx.signal.aborted ? 'cancelled' : 'done'),
 * })
 */
import type { RequestId } from './jsonrpc.js'
import type { Session } from './session.js'

// ---------------------------------------------------------------------------------------
// model

/** The second argument of every handler. */
export interface ToolContext {
  /** The JSON-RPC id of the `tools/call` request. */
  readonly requestId: RequestId
  /** The request's `_meta` (e.g. a progress token), if any. */
  readonly meta: { readonly [key: string]: unknown } | undefined
  /** The conversation the call belongs to (revision, client info and capabilities). */
  readonly session: Readonly<Session>
  /** Fires when the client cancels the call (`notifications/cancelled`). */
  readonly signal: AbortSignal
}

// ---------------------------------------------------------------------------------------
// constructors

/** A handler's context plus the means to abort it (kept out of the handler's view). */
export interface CallControl {
  readonly ctx: ToolContext
  /** Aborts the call's signal, now or (if nobody has read it yet) when it is first read. */
  readonly abort: (reason?: unknown) => void
}

/**
 * A context whose AbortController is made only if a handler reads `signal` or the call is
 * aborted, so calls that never look pay nothing (a plain object: class fields cost more).
 */
export const callContext = (
  requestId: RequestId,
  meta: { readonly [key: string]: unknown } | undefined,
  session: Readonly<Session>,
): CallControl => {
  let controller: AbortController | undefined
  return {
    ctx: {
      requestId,
      meta,
      session,
      get signal() {
        return (controller ??= new AbortController()).signal
      },
    },
    abort: (reason) => (controller ??= new AbortController()).abort(reason),
  }
}
