/**
 * One tool call for a client that declared the tasks extension: the handler starts at once,
 * as for any call; if it settles within `immediateMs` the call is answered inline (a plain
 * result), otherwise it is handed off to a task and the call is answered with the task
 * (`CreateTaskResult`, `resultType: "task"`) while the handler goes on. The handler does
 * not know which: once handed off, its context's questions to the client become the task's
 * `inputRequests` (answered through `tasks/update`), its progress messages the task's
 * `statusMessage`, and `tasks/cancel` aborts its `ctx.signal`. Questions asked before the
 * handoff are the call's own (`input_required`, answered by a retry that runs the handler
 * again): a handler waiting on the client only is not handed off, so a tool may gather its
 * input first and then go on as a task.
 *
 * @example
 * import { taskStore } from 'emcp'
 * // inside a feature's `call` hook (see tasks()):
 * //   call: (c) => runAsTask(store, c, { immediateMs: 0, required: c.tool.taskSupport === 'required' })
 * const store = taskStore()
 */
import * as E from 'fp-ts/lib/Either.js'
import type { CallToolResult } from '../../contract/content.js'
import { isThenable } from '../../util/eventually.js'
import type { Answer, ToolCall } from '../../server/feature.js'
import { errorCodes, rpcError, type RpcError, type RpcErrorObject } from '../../protocol/jsonrpc.js'
import type { Outbound } from '../../server/outbound.js'
import { MissingClientCapability } from '../../protocol/2026-07-28/input-required.js'
import { outboundAsker } from '../../server/ask.js'
import { ownerOf } from '../../server/principal.js'
import type { Session } from '../../server/session.js'
import type { DetailedTask, Task, TaskStore } from './store.js'

// ---------------------------------------------------------------------------------------
// model

/** How a call becomes a task. */
export interface RunOptions {
  /** How long the handler may take and still be answered inline, in ms (0: hand off at the first wait). */
  readonly immediateMs: number
  /** True for tools that run only as tasks: no room for a task is then an error, not an inline answer. */
  readonly required: boolean
}

/** The answer that hands a call off: the task, flat, with `resultType: "task"`. */
export type CreateTaskResult = Task & { readonly resultType: 'task' }

// ---------------------------------------------------------------------------------------
// functions

/** The seed state of a task as `CreateTaskResult` carries it: the task fields only. */
export const createTaskResult = (t: DetailedTask): CreateTaskResult => {
  const { inputRequests: _i, result: _r, error: _e, ...task } = t
  return { resultType: 'task', ...task }
}

/**
 * Runs the call, inline or as a task (see the module comment). A failure before the handoff
 * is the call's own (a rejection the dispatcher turns into an error, or into
 * `input_required` for a question the retry will answer); after it, the task's (`failed`).
 * The handler's work goes to the session's `waitUntil` when it has one: a serverless host
 * (workerd) ends the work with the response otherwise, and a task outlives its call's answer.
 */
export const runAsTask = (store: TaskStore, call: ToolCall, options: RunOptions): Answer => {
  const id = call.request.id
  let taskId: string | undefined
  // 'running' until the call is answered: inline, as a task, or refused
  let phase: 'running' | 'inline' | 'task' | 'refused' = 'running'
  let noRoom = false
  // a question asked before the handoff without an answer: the attempt ends with input_required
  let waitingOnClient = false
  let answer: (a: E.Either<RpcError, unknown>) => void = () => undefined
  let fail: (e: unknown) => void = () => undefined
  let timer: { readonly clear: () => void } | undefined

  const abortWork = (reason: string): void => session.inFlight.get(id)?.(reason)

  const decide = (p: 'inline' | 'task' | 'refused'): boolean => {
    if (phase !== 'running') return false
    phase = p
    timer?.clear()
    call.session.inFlight.delete(id)
    return true
  }

  /** Hands the call off to a new task; when there is no room, says so (and the call stays inline). */
  const handoff = (): void => {
    if (phase !== 'running' || noRoom || waitingOnClient) return
    // the task is its creator's: no one else may read, answer or cancel it
    const created = store.create(abortWork, ownerOf(call.session))
    if (E.isLeft(created)) {
      noRoom = true
      if (options.required && decide('refused')) {
        abortWork(created.left.message)
        answer(created)
      }
      return
    }
    taskId = created.right.taskId
    if (decide('task')) answer(E.right(createTaskResult(store.detailed(taskId) as DetailedTask)))
  }

  const taskChannel = channelOf(store, () => taskId)
  // the handler's session: the request's own until the handoff, then with the task as its
  // channel to the client (read when used, so the handler's context follows the handoff)
  const session: Session = {
    ...call.session,
    inFlight: new Map(),
    cancelled: new Set(),
    // once handed off, questions the replay cannot answer go to the task; before, the call
    // asks the usual way: input_required, answered by a retry
    ask: (call.session.ask ?? outboundAsker).divertedTo((question, opts) => {
      if (taskId !== undefined) return store.ask(taskId, question, opts)
      waitingOnClient = true
      return undefined
    }),
  }
  Object.defineProperty(session, 'outbound', { enumerable: true, get: () => (taskId === undefined ? call.session.outbound : taskChannel) })

  const finished = (result: CallToolResult): void => {
    if (decide('inline')) return answer(E.right(result))
    if (taskId === undefined) return
    // what tasks/get will answer must be JSON, as the inline answer would have to be
    const json = serialisable(result)
    if (E.isRight(json)) store.complete(taskId, result as unknown as { readonly [key: string]: unknown })
    else store.fail(taskId, { code: errorCodes.InternalError, message: json.left })
  }

  const crashed = (e: unknown): void => {
    if (decide('inline')) return fail(e)
    if (taskId !== undefined) store.fail(taskId, taskError(e))
  }

  // a synchronous throw is the call's own, for the dispatcher to answer
  const out = call.run(session)
  if (!isThenable(out)) return E.right(out)
  return new Promise((resolve, reject) => {
    answer = resolve
    fail = reject
    // until answered, notifications/cancelled for the call reaches the handler
    call.session.inFlight.set(id, (reason) => {
      const why = typeof reason === 'string' ? reason : 'cancelled by the client'
      abortWork(why)
      // a cancelled call is never handed off; its answer is not sent
      if (decide('refused')) resolve(E.left(rpcError('InvalidRequest', `the call was cancelled: ${why}`)))
    })
    const settled = (out as Promise<CallToolResult>).then(finished, crashed)
    call.session.waitUntil?.(settled)
    // 0: hand off at the first wait, still in this turn of the event loop: once the microtasks
    // queued now have run (a handler that only awaits values already there settles within
    // them). A timer could lose the race to a handler's own short timer on a busy machine.
    if (options.immediateMs === 0) {
      let cleared = false
      timer = { clear: () => (cleared = true) }
      afterMicrotasks(handoffHops, () => {
        if (!cleared) handoff()
      })
    } else {
      const t = setTimeout(handoff, options.immediateMs)
      timer = { clear: () => clearTimeout(t) }
    }
  })
}

/**
 * The task's channel, once handed off: questions become its inputRequests; of the
 * notifications, a progress message becomes its status message (a task carries none).
 */
const channelOf = (store: TaskStore, taskId: () => string | undefined): Outbound => ({
  notify: (method, params) => {
    const id = taskId()
    if (id !== undefined && method === 'notifications/progress' && typeof params?.message === 'string') store.say(id, params.message)
  },
  request: (method, params, opts) => {
    const id = taskId()
    return id === undefined ? Promise.reject(new Error(`${method}: the call has not become a task`)) : store.ask(id, params === undefined ? { method, params: {} } : { method, params }, opts)
  },
  settle: () => false,
  close: () => undefined,
  pending: () => 0,
})

/** How many microtask turns a handler may take and still be answered inline when immediateMs is 0. */
const handoffHops = 100

/** Runs `f` after `hops` turns of the microtask queue (all within the current task of the event loop). */
const afterMicrotasks = (hops: number, f: () => void): void => {
  if (hops === 0) f()
  else queueMicrotask(() => afterMicrotasks(hops - 1, f))
}

/** The JSON-RPC error a failed task shows: a capability the client lacks is -32021, as inline. */
const taskError = (e: unknown): RpcErrorObject =>
  e instanceof MissingClientCapability
    ? {
        code: errorCodes.MissingRequiredClientCapability,
        message: `Missing required client capability: ${e.message}`,
        data: { requiredCapabilities: e.capability },
      }
    : { code: errorCodes.InternalError, message: `Internal error: ${e instanceof Error ? e.message : String(e)}` }

// ---------------------------------------------------------------------------------------
// internals

const serialisable = (result: CallToolResult): E.Either<string, string> => {
  try {
    return E.right(JSON.stringify(result))
  } catch (e) {
    return E.left(`Internal error: the result cannot be serialised: ${e instanceof Error ? e.message : String(e)}`)
  }
}
