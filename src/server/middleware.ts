/**
 * User middleware: one way to wrap every JSON-RPC request and every tool call a server
 * answers, whatever the transport (stdio, HTTP of either era, the in-memory client). A
 * middleware sees the request (method, params, the session with its identity and revision)
 * and, for a tool call, the tool's contract and its arguments; it may act before and after
 * (`await next()`), answer in place of the server (return an error or a result without
 * calling `next`), map an error to another, and, for a tool call, pass other arguments on.
 * Outcomes are data: `Right(result)` or `Left(rpcError(...))`. The first middleware of the
 * list is the outermost.
 *
 * @example
 * import * as E from 'fp-ts/lib/Either.js'
 * import { emcp, mcpServer, rpcError, type Middleware } from 'emcp'
 * const readOnly: Middleware = {
 *   toolCall: (call, next) =>
 *     call.tool.annotations?.readOnlyHint === true ? next() : E.left(rpcError('Forbidden', `${call.tool.name} writes; this server is read-only`)),
 * }
 * const ping = emcp({ name: 'ping', description: 'Answers pong.', input: { type: 'object' }, annotations: { readOnlyHint: true } })
 * mcpServer([ping], { name: 'ro', version: '1' }, { middleware: [readOnly] }).implement({ ping: () => 'pong' })
 */
import * as E from 'fp-ts/lib/Either.js'
import type { CallToolResult } from '../contract/content.js'
import type { AnyTool } from '../contract/emcp.js'
import { isThenable, map, type Eventually } from '../util/eventually.js'
import { rpcError, StructuredResult, type Params, type Request, type RequestId, type RpcError } from '../protocol/jsonrpc.js'
import type { Session } from './session.js'

// ---------------------------------------------------------------------------------------
// model

/** What a request comes to: its result, or a JSON-RPC error, as data. */
export type Outcome = E.Either<RpcError, unknown>

/**
 * A result that is not the call's last word (2026-07-28): the call became a task
 * (`resultType: "task"`), or it needs the client's input first (`"input_required"`).
 */
export interface InterimResult {
  readonly resultType: 'task' | 'input_required'
  readonly [key: string]: unknown
}

/** What a tool call comes to: a tool result (`isError` for a failed call), an interim result, or a JSON-RPC error. */
export type ToolOutcome = E.Either<RpcError, CallToolResult | InterimResult>

/** One JSON-RPC request on its way in. */
export interface RequestInfo {
  readonly id: RequestId
  readonly method: string
  readonly params: Params | undefined
  /**
   * The conversation as its era sees it: `protocolVersion`, `clientInfo`, `clientCapabilities`
   * (2026-07-28: those of the request's `_meta`), and `identity` when the transport
   * authenticated the caller.
   */
  readonly session: Readonly<Session>
}

/** One tool call on its way in: its tool was found and the caller may use it. */
export interface ToolCallInfo<T extends AnyTool = AnyTool> extends RequestInfo {
  /** The contract called: name, schemas, annotations, `_meta`, `taskSupport`. */
  readonly tool: T
  /** The arguments as the client sent them (an object; checked against the input schema after the middleware). */
  readonly arguments: { readonly [key: string]: unknown }
}

/** One JSON-RPC notification from the client, after the server's own bookkeeping (`initialized`, `cancelled`). */
export interface NotificationInfo {
  readonly method: string
  readonly params: Params | undefined
  readonly session: Readonly<Session>
}

/** Sees a notification; it cannot answer (a notification has no answer) and what it throws is logged, not sent. */
export type NotificationStep = (note: NotificationInfo) => void

/** Wraps the rest of the chain and the server's own answer for one request. */
export type RequestStep = (req: RequestInfo, next: () => Promise<Outcome>) => Eventually<Outcome>

/** Wraps the rest of the chain and the tool's run; `next(args)` passes other arguments on. */
export type ToolCallStep<T extends AnyTool = AnyTool> = (
  call: ToolCallInfo<T>,
  next: (args?: { readonly [key: string]: unknown }) => Promise<ToolOutcome>,
) => Eventually<ToolOutcome>

/** A middleware: any of the four hooks. */
export interface Middleware<T extends AnyTool = AnyTool> {
  /** Wraps every request the server answers (not notifications, and not messages refused before a method is looked up). */
  readonly request?: RequestStep
  /** Sees every notification the client sends (tracing, metrics, audit); nothing it does reaches the client. */
  readonly notification?: NotificationStep
  /** Wraps every call of a tool, inside `request`. */
  readonly toolCall?: ToolCallStep<T>
  /**
   * Which tools a session may see and call, as the server's `authorize` option: a tool it
   * refuses is left out of that session's `tools/list`, and calling it is -32003.
   */
  readonly authorize?: (tool: T, session: Readonly<Session>) => boolean
}

// ---------------------------------------------------------------------------------------
// functions

/** Runs a request through the `request` hooks, then `last`; `last` itself when there are none. */
export const runRequest = (steps: ReadonlyArray<RequestStep>, req: Request, session: Session, last: () => Eventually<Outcome>): Eventually<Outcome> => {
  if (steps.length === 0) return last()
  const info: RequestInfo = { id: req.id, method: req.method, params: req.params, session }
  const at = (i: number): Eventually<Outcome> => {
    const step = steps[i]
    return step === undefined ? map(last(), plainResult) : step(info, once(`request step ${i + 1}`, () => at(i + 1)))
  }
  return at(0)
}

/** Shows a notification to every `notification` hook in turn; one that throws is logged and the others still see it. */
export const observeNotification = (steps: ReadonlyArray<NotificationStep>, note: NotificationInfo): void => {
  for (const [i, step] of steps.entries()) {
    try {
      step(note)
    } catch (e) {
      console.error(`emcp: middleware notification step ${i + 1} threw on ${note.method}: ${e instanceof Error ? e.message : String(e)}`)
    }
  }
}

/** Runs a tool call through the `toolCall` hooks, then `run` with the arguments the last one passed on. */
export const runToolCall = (
  steps: ReadonlyArray<ToolCallStep>,
  call: ToolCallInfo,
  run: (args: { readonly [key: string]: unknown }) => Eventually<ToolOutcome>,
): Eventually<ToolOutcome> => {
  const at = (i: number, info: ToolCallInfo): Eventually<ToolOutcome> => {
    const step = steps[i]
    if (step === undefined) return map(run(info.arguments), plainResult)
    return step(
      info,
      once(`toolCall step ${i + 1}`, (args?: { readonly [key: string]: unknown }) => at(i + 1, args === undefined ? info : { ...info, arguments: args })),
    )
  }
  return at(0, call)
}

// ---------------------------------------------------------------------------------------
// internals

/**
 * A result as middleware sees it: a plain object, never a `StructuredResult` (whose text the
 * encoder would write in place of a structured value the middleware edited in place).
 */
const plainResult = <O extends Outcome>(o: O): O => (E.isRight(o) && o.right instanceof StructuredResult ? (E.right({ ...o.right }) as O) : o)

/**
 * `next` as a middleware gets it: always a promise (so `await next()` reads the same for a
 * synchronous answer), and usable once: a second call would run the handler twice.
 */
const once = <A extends unknown[], O>(where: string, f: (...args: A) => Eventually<O>) => {
  let called = false
  return (...args: A): Promise<O> => {
    if (called) return Promise.reject(new Error(`emcp: middleware ${where} called next() twice`))
    called = true
    try {
      const out = f(...args)
      return isThenable(out) ? (out as Promise<O>) : Promise.resolve(out)
    } catch (e) {
      return Promise.reject(e)
    }
  }
}
