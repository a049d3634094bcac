/**
 * `input_required` (2026-07-28, multi round-trip requests): how the handler API for
 * elicitation, sampling and roots works without server-to-client requests. The handler is
 * run again on each retry; the answers the client already gave are replayed to it in the
 * order it asked, and the first question without an answer ends the attempt: the client
 * gets `resultType: "input_required"` with the questions asked in that turn and a signed
 * `requestState` carrying the answers so far. Handlers must therefore be deterministic up
 * to their questions: ask the same things in the same order on every run.
 *
 * @example
 * import { requestStates } from './request-state.js'
 * import { inputStateOf } from './input-required.js'
 * const states = requestStates({ key: 'a secret shared by the server processes' })
 * inputStateOf('tools/call', { name: 'greet', arguments: {} }, states) // Right(state with no answers yet)
 */
import * as E from 'fp-ts/lib/Either.js'
import { isThenable, type Eventually } from '../../util/eventually.js'
import { isObject } from '../../util/json-object.js'
import { rpcError, type Params, type RpcError } from '../jsonrpc.js'
import { digestOf, type RequestStates } from './request-state.js'

// ---------------------------------------------------------------------------------------
// model

/** One question to the client, as it goes in `inputRequests`. */
export interface InputRequest {
  readonly method: string
  readonly params: Params
}

/** A question of one attempt: the request, and the key the handler gave it (if any). */
export interface Question extends InputRequest {
  readonly key?: string
}

/** What a 2026-07-28 request that may ask the client carries into its handler. */
export interface InputState {
  /** The client's answers so far, in the order the handler asked. */
  readonly answers: ReadonlyArray<unknown>
  /** Ends an attempt: the `input_required` result for the questions still open. */
  readonly require: (questions: ReadonlyArray<Question>) => InputRequired
  /**
   * An answer the request's `inputResponses` already carries under `key`, unasked (a client may
   * answer ahead of the question): taken into `answers` when it fits `method`, else undefined
   * (a missing or malformed one is asked for as usual).
   */
  readonly offered: (key: string, method: string) => unknown
}

/** The end of an attempt that needs the client's input; the dispatcher answers it as a result (once its state is signed). */
export class InputRequired {
  constructor(
    readonly inputRequests: { readonly [key: string]: InputRequest },
    readonly requestState: Promise<string>,
  ) {}
}

/** A question the client cannot answer (it did not declare the capability): -32021 unless the handler catches it. */
export class MissingClientCapability extends Error {
  constructor(
    readonly capability: { readonly [key: string]: unknown },
    message: string,
  ) {
    super(message)
    this.name = 'MissingClientCapability'
  }
}

/** The methods whose requests may answer `input_required`. */
export const inputMethods: ReadonlySet<string> = new Set(['tools/call', 'prompts/get', 'resources/read'])

/** The key of the `i`-th question of a request in `inputRequests` and `inputResponses`. */
export const inputKey = (i: number): string => `input-${i}`

// ---------------------------------------------------------------------------------------
// functions

/**
 * The input state of a request: no answers on a first attempt; on a retry, the answers its
 * (verified) `requestState` carries, then those of `inputResponses` for the questions it
 * left open, in order, up to the first one missing (which will be asked again).
 */
export const inputStateOf = (method: string, params: Params | undefined, states: RequestStates, caller?: string): Eventually<E.Either<RpcError, InputState>> => {
  // the digest is only needed to seal or check a state: a first attempt that asks nothing never waits for it
  let digest: Promise<string> | undefined
  const digestNow = (): Promise<string> => (digest ??= digestOf(method, params))
  const responses = isObject(params?.inputResponses) ? params.inputResponses : {}
  const make = (replayed: ReadonlyArray<unknown>): InputState => {
    const answers = [...replayed]
    const taken = new Set<string>()
    return {
    answers,
    offered: (key, method) => {
      const answer = Object.hasOwn(responses, key) && !taken.has(key) ? responses[key] : undefined
      if (answer === undefined || answerProblem(method, answer) !== undefined) return undefined
      taken.add(key)
      answers.push(answer)
      return answer
    },
    require: (questions) => {
      // keys the handler chose, else input-<n>; a key used twice gets a suffix (keys are unique per request)
      const keys: string[] = []
      for (const [i, q] of questions.entries()) {
        const wanted = q.key ?? inputKey(answers.length + i)
        let key = wanted
        for (let n = 2; keys.includes(key); n++) key = `${wanted}-${n}`
        keys.push(key)
      }
      const asked = Object.fromEntries(questions.map((q, i) => [keys[i], { method: q.method, params: q.params }]))
      // bound to its caller: a state minted for one caller carries answers no one else may replay
      const sealed = { method, answers: [...answers], pending: questions.map((q) => q.method), keys, ...(caller === undefined ? {} : { caller }) }
      const requestState = digestNow().then((digest) => states.seal({ ...sealed, digest }))
      return new InputRequired(asked, requestState)
    },
    }
  }
  const state = params?.requestState
  // a first attempt is answered at once; a retry waits for its state's signature to be checked
  return state === undefined ? E.right(make([])) : replayed(method, state, responses, states, caller, digestNow).then((r) => (E.isLeft(r) ? r : E.right(make(r.right))))
}

/** The answers a retry's verified state and its `inputResponses` give, in order; or why the state is refused. */
const replayed = async (
  method: string,
  state: unknown,
  responses: { readonly [key: string]: unknown },
  states: RequestStates,
  caller: string | undefined,
  digestNow: () => Promise<string>,
): Promise<E.Either<RpcError, ReadonlyArray<unknown>>> => {
  const opened = await states.open(state)
  if (E.isLeft(opened)) return E.left(rpcError('InvalidParams', `${method}: ${opened.left}`))
  const payload = opened.right
  if (payload.method !== method || payload.digest !== (await digestNow()))
    return E.left(rpcError('InvalidParams', `${method}: requestState belongs to another request (method or parameters differ)`))
  if (payload.caller !== caller)
    return E.left(rpcError('InvalidParams', `${method}: requestState was issued to another caller; send the request again without it`))
  const answers = [...payload.answers]
  for (const [i, m] of payload.pending.entries()) {
    const key = payload.keys?.[i] ?? inputKey(payload.answers.length + i)
    const answer = Object.hasOwn(responses, key) ? responses[key] : undefined
    if (answer === undefined) break
    const problem = answerProblem(m, answer)
    if (problem !== undefined) return E.left(rpcError('InvalidParams', `${method}: inputResponses.${key}: ${problem}`))
    answers.push(answer)
  }
  return E.right(answers)
}

/** Why an answer cannot be the result of `method`, or undefined when it can. */
const answerProblem = (method: string, answer: unknown): string | undefined => {
  if (!isObject(answer)) return 'must be an object'
  if (method === 'elicitation/create')
    return ['accept', 'decline', 'cancel'].includes(answer.action as string) ? undefined : 'must be an elicitation result (action: accept, decline or cancel)'
  if (method === 'sampling/createMessage')
    return typeof answer.model === 'string' && answer.content !== undefined ? undefined : 'must be a sampling result (role, content, model)'
  if (method === 'roots/list') return Array.isArray(answer.roots) ? undefined : 'must be a roots result ({ roots: [...] })'
  return undefined
}

/**
 * A request's answer with the two ways a 2026-07-28 handler ends early made data: a question
 * for the client (an `InputRequired`) becomes the `input_required` result, a capability it
 * lacks (`MissingClientCapability`) error -32021. So middleware sees them as outcomes, never
 * as exceptions it might swallow. Anything else thrown is thrown on.
 */
export const questionsAsData = <A>(run: () => Eventually<E.Either<RpcError, A>>): Eventually<E.Either<RpcError, A | InputRequiredResult>> => {
  try {
    const out = run()
    return isThenable(out) ? (out as Promise<E.Either<RpcError, A>>).then(undefined, asData) : out
  } catch (e) {
    return asData(e)
  }
}

/** The result that ends an attempt for want of the client's input. */
export interface InputRequiredResult {
  readonly resultType: 'input_required'
  readonly inputRequests: { readonly [key: string]: InputRequest }
  readonly requestState: string
}

const asData = (e: unknown): Eventually<E.Either<RpcError, InputRequiredResult>> => {
  if (e instanceof InputRequired) return e.requestState.then((requestState) => E.right({ resultType: 'input_required', inputRequests: e.inputRequests, requestState }))
  if (e instanceof MissingClientCapability)
    return E.left(rpcError('MissingRequiredClientCapability', `Missing required client capability: ${e.message}`, { requiredCapabilities: e.capability }))
  throw e
}
