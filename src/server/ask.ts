/// <reference types="node" preserve="true" />
/**
 * How a handler's questions reach the client (sampling, elicitation, roots): one strategy per
 * era, which the era's adapter installs on the session it hands the handler.
 *
 * - 2025-11-25 (`outboundAsker`, a session's default): a request to the client over the
 *   session's channel, answered through the dispatcher.
 * - 2026-07-28 (`replayAsker`, installed by that era's adapter): no request goes out. An
 *   answer the client already gave (replayed from `requestState`) comes back at once; the
 *   first question without one ends the attempt with `input_required` after the handler has
 *   had this turn to ask whatever else it asks alongside, and its promise never settles: the
 *   handler is dropped and runs again on the retry.
 * - a call handed off to a task (`asker.divertedTo`, installed by the tasks extension): the
 *   replay's answers first, then the task's `inputRequests`, answered by `tasks/update`.
 *
 * @example
 * import { outboundAsker } from './ask.js'
 * // inside a handler's context: ask(question, options, call)
 * // outboundAsker.ask({ capability: 'roots', method: 'roots/list', params: {} }, undefined, ctx)
 */
import type { Params, RequestId } from '../protocol/jsonrpc.js'
import type { RequestOptions } from './outbound.js'
import { inputKey, MissingClientCapability, type InputRequired, type InputState, type Question as Asked } from '../protocol/2026-07-28/input-required.js'
import type { Session } from './session.js'

// ---------------------------------------------------------------------------------------
// model

/** One question for the client, and the capability the client must have declared for it. */
export interface Question {
  /** `sampling`, `elicitation.form`, `elicitation.url` or `roots`. */
  readonly capability: string
  readonly method: string
  readonly params: Params
}

/** The call that asks: its signal (cancelling the call cancels its questions) and how to end it. */
export interface Asking {
  /** The client's request that asks: a transport with a stream per request carries the question on it. */
  readonly requestId?: RequestId
  readonly signal: AbortSignal
  readonly abort: (reason?: unknown) => void
}

/** Where a question goes instead (a task): the answer to come, or `undefined` to ask the usual way. */
export type Divert = (question: { readonly method: string; readonly params: Params }, options: RequestOptions) => Promise<unknown> | undefined

/** How one session asks its client. */
export interface Asker {
  /** Asks; the answer, or a rejection (no way to ask, a capability the client lacks, a timeout). */
  readonly ask: (question: Question, options: RequestOptions | undefined, session: Readonly<Session>, call: Asking) => Promise<unknown>
  /** Rejects when the attempt ends for want of the client's input (2026-07-28); none when it cannot. */
  readonly ended: () => Promise<never> | undefined
  /** The same strategy with a new attempt whose unanswered questions go to `divert` first (2026-07-28). */
  readonly divertedTo: (divert: Divert) => Asker
}

// ---------------------------------------------------------------------------------------
// constructors

/** 2025-11-25: requests over the session's channel to the client. */
export const outboundAsker: Asker = {
  ask: (q, options, session, call) => {
    const out = session.outbound
    if (out === undefined || out.asks === false)
      return Promise.reject(new Error(`${q.method} needs a transport that can send requests to the client (stdio or stateful HTTP; stateless HTTP cannot): serve with sessions, \`serveHttp(server, { sessions: true })\` or \`emcp serve --http --sessions\``))
    if (!hasCapability(session, q.capability))
      return Promise.reject(new Error(`the client did not declare the "${q.capability}" capability, so ${q.method} cannot be sent`))
    return out.request(q.method, q.params, { ...options, signal: joined(call.signal, options?.signal), ...(call.requestId === undefined ? {} : { relatedRequestId: call.requestId }) })
  },
  ended: () => undefined,
  divertedTo: () => outboundAsker,
}

/**
 * 2026-07-28: replays the answers of `inputs` (a request that may ask: tools/call,
 * prompts/get, resources/read), or refuses every question (any other request).
 */
export const replayAsker = (inputs: InputState | undefined, divert?: Divert): Asker => {
  const turn = { asked: 0, questions: [] as Asked[], ended: undefined as Deferred | undefined }
  const end = (): Deferred => (turn.ended ??= deferred())
  return {
    ask: (q, options, session, call) => {
      if (!hasCapability(session, q.capability))
        throw new MissingClientCapability(
          capabilityObject(q.capability),
          `the client did not declare the "${q.capability}" capability in this request's _meta, so ${q.method} cannot be asked`,
        )
      const i = turn.asked++
      if (inputs !== undefined && i < inputs.answers.length) return Promise.resolve(inputs.answers[i])
      // an answer the client sent ahead under this question's key is taken without a round trip
      // (only while no question of this turn is open: answers are replayed by position)
      if (inputs !== undefined && turn.questions.length === 0 && inputs.answers.length === i) {
        const offered = inputs.offered(options?.key ?? inputKey(i), q.method)
        if (offered !== undefined) return Promise.resolve(offered)
      }
      const diverted = divert?.({ method: q.method, params: q.params }, { ...options, signal: joined(call.signal, options?.signal) })
      if (diverted !== undefined) return diverted
      if (inputs === undefined)
        throw new Error(`${q.method} cannot be asked here: in 2026-07-28 only tools/call, prompts/get and resources/read may ask the client`)
      turn.questions.push(options?.key === undefined ? { method: q.method, params: q.params } : { method: q.method, params: q.params, key: options.key })
      if (turn.questions.length === 1)
        later(() => {
          end().reject(inputs.require(turn.questions))
          call.abort('the request needs input from the client; it will run again when the client retries')
        })
      return new Promise(() => {})
    },
    ended: () => (inputs === undefined ? undefined : end().promise),
    divertedTo: (d) => replayAsker(inputs, d),
  }
}

// ---------------------------------------------------------------------------------------
// internals

/** A promise and its rejection; nobody may be listening when a synchronous handler finished first. */
interface Deferred {
  readonly promise: Promise<never>
  readonly reject: (signal: InputRequired) => void
}

const deferred = (): Deferred => {
  const box: { reject: (signal: InputRequired) => void } = { reject: () => {} }
  const promise = new Promise<never>((_, reject) => {
    box.reject = reject
  })
  promise.catch(() => {})
  return { promise, reject: (signal) => box.reject(signal) }
}

/** The call's signal, joined with the handler's own for this question if it gave one. */
/** After the questions asked in this turn of the event loop: `setImmediate` where the runtime has it (Node, Bun), else a zero timer (Deno, workerd). */
const later: (f: () => void) => void = typeof globalThis.setImmediate === 'function' ? (f) => setImmediate(f) : (f) => setTimeout(f, 0)

const joined = (call: AbortSignal, own: AbortSignal | undefined): AbortSignal => (own === undefined ? call : AbortSignal.any([call, own]))

/** The capability a question needs, as `requiredCapabilities` names it. */
const capabilityObject = (capability: string): { readonly [key: string]: unknown } =>
  capability === 'elicitation.form'
    ? { elicitation: { form: {} } }
    : capability === 'elicitation.url'
      ? { elicitation: { url: {} } }
      : { [capability]: {} }

/**
 * Whether the client declared a capability. Elicitation has modes: an empty
 * `elicitation: {}` (as clients before 2025-11-25 send it) means form mode only.
 */
const hasCapability = (session: Readonly<Session>, capability: string): boolean => {
  const caps = session.clientCapabilities ?? {}
  if (capability === 'elicitation.form' || capability === 'elicitation.url') {
    const e = caps.elicitation
    if (typeof e !== 'object' || e === null) return false
    const modes = e as { readonly form?: unknown; readonly url?: unknown }
    if (capability === 'elicitation.url') return modes.url !== undefined
    return modes.form !== undefined || (modes.url === undefined && modes.form === undefined)
  }
  const c = caps[capability]
  return typeof c === 'object' && c !== null
}
