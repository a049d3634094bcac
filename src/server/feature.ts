/**
 * A protocol feature beside tools (resources, prompts, completion, ...): the requests it
 * answers and what `initialize` declares for it. Features plug into the server through its
 * `features` option; each gets the server's hub to notify connected sessions.
 *
 * @example
 * import * as E from 'fp-ts/lib/Either.js'
 * import { emcp, mcpServer, type FeatureFactory } from 'emcp'
 * const hello: FeatureFactory = () => ({
 *   capabilities: { experimental: { hello: {} } },
 *   methods: { 'hello/say': () => E.right({ text: 'hello' }) },
 * })
 * const noop = emcp({ name: 'noop', description: 'Does nothing.', input: { type: 'object' } })
 * mcpServer([noop], { name: 'h', version: '1' }, { features: [hello] }).implement({ noop: () => 'ok' })
 */
import type * as E from 'fp-ts/lib/Either.js'
import type { CallToolResult } from '../contract/content.js'
import type { AnyTool } from '../contract/emcp.js'
import type { Eventually } from '../util/eventually.js'
import type { Hub } from './hub.js'
import type { SharedStore } from '../stores/store.js'
import type { Params, Request, RpcError } from '../protocol/jsonrpc.js'
import type { Session } from './session.js'

// ---------------------------------------------------------------------------------------
// model

/** The answer to one request: a result or an error as data, now or later. */
export type Answer = Eventually<E.Either<RpcError, unknown>>

/** Answers one request of a session. */
export type MethodHandler = (req: Request, session: Session) => Answer

/** What `completion/complete` asks: which prompt or template, which argument, what is typed so far. */
export interface CompletionRequest {
  readonly ref: { readonly type: 'ref/prompt'; readonly name: string } | { readonly type: 'ref/resource'; readonly uri: string }
  readonly argument: { readonly name: string; readonly value: string }
  /** Arguments already resolved (2025-06-18 and later). */
  readonly context?: { readonly arguments?: { readonly [name: string]: string } }
}

/** Suggestions for one argument: at most 100 values, with the total when there are more. */
export interface Completion {
  readonly values: ReadonlyArray<string>
  readonly total?: number
  readonly hasMore?: boolean
}

/** A `tools/call` about to run (its tool found, its arguments an object), offered to the features. */
export interface ToolCall {
  readonly tool: AnyTool
  readonly request: Request
  readonly session: Session
  /**
   * Runs the call: checks the arguments, runs the handler with a context over `session` (a
   * feature may pass a session of its own, e.g. one whose requests to the client it answers).
   */
  readonly run: (session: Session) => Eventually<CallToolResult>
}

/** A feature: its methods and its capabilities. */
export interface Feature {
  /** Merged into the server's capabilities in the `initialize` result. */
  readonly capabilities: { readonly [key: string]: unknown }
  /** The requests it answers, by method name. */
  readonly methods: { readonly [method: string]: MethodHandler }
  /** Drops whatever the feature keeps for a session that went away (e.g. subscriptions). */
  readonly release?: (session: Session) => void
  /**
   * Completes an argument of something this feature owns; `undefined` when the reference is
   * not its own (the server then asks the next feature). A server with any completing feature
   * declares `completions` and answers `completion/complete`. An `RpcError` refuses the
   * completion (e.g. the caller lacks the scopes of the prompt or template).
   */
  readonly complete?: (request: CompletionRequest, session: Session) => Eventually<Completion | RpcError | undefined>
  /**
   * Takes over a tool call (the tasks extension runs some as tasks): the answer, or
   * `undefined` to leave the call to the server. The first feature that answers wins.
   */
  readonly call?: (call: ToolCall) => Answer | undefined
  /**
   * Screens a `subscriptions/listen` stream (2026-07-28) as it opens: from the filter it
   * honours and the caller's session, the test each notification must also pass to reach that
   * stream (the caller may read the resource, owns the task), or an error as data. A
   * notification held back is never told apart from one that never happens.
   */
  readonly screen?: (filter: ListenFilter, session: Session) => Eventually<E.Either<RpcError, Screen>>
}

/** The part of a `subscriptions/listen` filter that names things a caller may not be allowed to hear of. */
export interface ListenFilter {
  readonly resourceSubscriptions?: ReadonlyArray<string>
  /** The tasks extension: `notifications/tasks` for these task ids. */
  readonly taskIds?: ReadonlyArray<string>
}

/** Whether one notification may reach a listen stream. */
export type Screen = (method: string, params: Params | undefined) => boolean

/** What a feature may use of the server besides its hub. */
export interface FeatureContext {
  /** The state shared with the other replicas (the tasks extension keeps its task records there). */
  readonly store: SharedStore
}

/** Builds a feature once the server exists, with the hub it may notify through and the shared store. */
export type FeatureFactory = (hub: Hub, context?: FeatureContext) => Feature
