/**
 * One tool call for a client that declared the tasks extension: the handler starts at once,
 * as for any call; if it settles within `immediateMs` the call is answered inline (a plain
 * result), otherwise it is handed off to a task and the call is answered with the task
 * (`CreateTaskResult`, `resultType: "task"`) while the handler goes on. The handler does
 * not know which: its context's requests to the client become the task's `inputRequests`
 * (answered through `tasks/update`), its progress messages the task's `statusMessage`, and
 * `tasks/cancel` aborts its `ctx.signal`. A handler that asks the client before the handoff
 * hands the call off at once: a task is the channel a stateless client answers through.
 *
 * @example
 * import { taskStore } from 'emcp'
 * // inside a feature's `call` hook (see tasks()):
 * //   call: (c) => runAsTask(store, c, { immediateMs: 0, required: false })
 * const store = taskStore()
 */
import * as E from 'fp-ts/lib/Either.js'
import type { CallToolResult } from '../content.js'
import { isThenable } from '../eventually.js'
import type { Answer, ToolCall } from '../feature.js'
import { errorCodes, rpcError, type Params, type RpcError } from '../jsonrpc.js'
import type { Outbound, RequestOptions } from '../outbound.js'
import type { Session } from '../session.js'
import type { DetailedTask, InputRequest, Task, TaskStore } from './store.js'

// ---------------------------------------------------------------------------------------
// model

/** How a call becomes a task. */
export interface RunOptions {
  /** How long the handler may take and still be answered inline, in ms (0: hand off at the first wait). */
  readonly immediateMs: number
  /** True for tools that run only as tasks: no room for a task is then an error, not an inline answer. */
  readonly required: boolean
  /** The client's capabilities for this request (what its questions may use). */
  readonly clientCapabilities: { readonly [key: string]: unknown } | undefined
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
 * Runs the call, inline or as a task (see the module comment). Never rejects: a crash of the
 * call is a JSON-RPC error inline, or a `failed` task once handed off.
 */
export const runAsTask = (store: TaskStore, call: ToolCall, options: RunOptions): Answer => {
  const id = call.request.id
  let taskId: string | undefined
  // 'running' until the call is answered: inline, as a task, or refused
  let phase: 'running' | 'inline' | 'task' | 'refused' = 'running'
  let noRoom = false
  let refusal: RpcError | undefined
  const early: Array<{ readonly request: InputRequest; readonly options: RequestOptions | undefined; readonly resolve: (u: unknown) => void; readonly reject: (e: Error) => void }> = []
  let answer: (a: E.Either<RpcError, unknown>) => void = () => undefined
  let timer: ReturnType<typeof setTimeout> | undefined

  const abortWork = (reason: string): void => session.inFlight.get(id)?.(reason)

  const decide = (p: 'inline' | 'task' | 'refused', a: E.Either<RpcError, unknown>): void => {
    if (phase !== 'running') return
    phase = p
    if (timer !== undefined) clearTimeout(timer)
    call.session.inFlight.delete(id)
    answer(a)
  }

  /** Hands the call off to a new task; when there is no room, says so (and the call stays inline). */
  const handoff = (): void => {
    if (phase !== 'running' || noRoom) return
    const created = store.create(abortWork)
    if (E.isLeft(created)) {
      noRoom = true
      for (const q of early.splice(0)) q.reject(new Error(`${q.request.method}: ${created.left.message}`))
      if (options.required) {
        refusal = created.left
        abortWork(created.left.message)
        decide('refused', created)
      }
      return
    }
    taskId = created.right.taskId
    for (const q of early.splice(0)) store.ask(taskId, q.request, q.options).then(q.resolve, q.reject)
    decide('task', E.right(createTaskResult(store.detailed(taskId) as DetailedTask)))
  }

  const outbound: Outbound = {
    notify: (method, params) => {
      if (taskId === undefined) {
        // before the handoff the call is an ordinary one: its notifications go where its answer goes
        call.session.outbound?.notify(method, params)
        return
      }
      // a task carries no progress or log notifications; a progress message is its status message
      if (method === 'notifications/progress' && typeof params?.message === 'string') store.say(taskId, params.message)
    },
    request: (method, params, opts) => {
      const request: InputRequest = params === undefined ? { method } : { method, params: params as Params }
      if (taskId !== undefined) return store.ask(taskId, request, opts)
      if (noRoom) return Promise.reject(new Error(`${method}: the call could not become a task, and a stateless client can be asked only through one`))
      const asked = new Promise<unknown>((resolve, reject) => early.push({ request, options: opts, resolve, reject }))
      handoff()
      return asked
    },
    settle: () => false,
    close: () => undefined,
    pending: () => 0,
  }

  // the handler's session: the caller's, with the task as its channel to the client
  const session: Session = {
    ...call.session,
    clientCapabilities: options.clientCapabilities ?? call.session.clientCapabilities,
    inFlight: new Map(),
    cancelled: new Set(),
    outbound,
  }

  const finished = (result: CallToolResult): void => {
    if (phase === 'running') return decide('inline', E.right(result))
    if (taskId === undefined) return
    // what tasks/get will answer must be JSON, as the inline answer would have to be
    const json = serialisable(result)
    if (E.isRight(json)) store.complete(taskId, result as unknown as { readonly [key: string]: unknown })
    else store.fail(taskId, { code: errorCodes.InternalError, message: json.left })
  }

  const crashed = (e: unknown): void => {
    const message = `Internal error: ${e instanceof Error ? e.message : String(e)}`
    if (phase === 'running') return decide('inline', E.left(rpcError('InternalError', message)))
    if (taskId !== undefined) store.fail(taskId, { code: errorCodes.InternalError, message })
  }

  let out: ReturnType<ToolCall['run']>
  try {
    out = call.run(session)
  } catch (e) {
    return E.left(rpcError('InternalError', `Internal error: ${e instanceof Error ? e.message : String(e)}`))
  }
  if (!isThenable(out)) {
    // settled at once, unless it asked the client first (then it is a task already)
    if (phase === 'running') return E.right(out)
    finished(out as CallToolResult)
    return E.right(createTaskResult(store.detailed(taskId as string) as DetailedTask))
  }
  if (phase !== 'running') {
    ;(out as Promise<CallToolResult>).then(finished, crashed)
    return phase === 'task' ? E.right(createTaskResult(store.detailed(taskId as string) as DetailedTask)) : E.left(refusal as RpcError)
  }
  return new Promise((resolve) => {
    answer = resolve
    // until answered, notifications/cancelled for the call reaches the handler
    call.session.inFlight.set(id, (reason) => {
      const why = typeof reason === 'string' ? reason : 'cancelled by the client'
      abortWork(why)
      // a cancelled call is never handed off; its answer is not sent
      decide('refused', E.left(rpcError('InvalidRequest', `the call was cancelled: ${why}`)))
    })
    ;(out as Promise<CallToolResult>).then(finished, crashed)
    timer = setTimeout(handoff, options.immediateMs)
  })
}

// ---------------------------------------------------------------------------------------
// internals

const serialisable = (result: CallToolResult): E.Either<string, string> => {
  try {
    return E.right(JSON.stringify(result))
  } catch (e) {
    return E.left(`Internal error: the result cannot be serialised: ${e instanceof Error ? e.message : String(e)}`)
  }
}
