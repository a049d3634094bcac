/// <reference types="node" preserve="true" />
/**
 * The task store of the tasks extension (`io.modelcontextprotocol/tasks`): every task by its
 * id, with its status, its outstanding requests to the client and, once it ended, its result
 * or error. Bounded: a task is dropped once its TTL has passed (its work aborted if it still
 * runs), and the store holds at most `maxTasks` (the oldest ended task makes room; when every
 * task still runs, a new one is refused). Each change is told to the listeners, as the
 * `DetailedTask` that `tasks/get` would answer at that moment.
 *
 * @example
 * import { taskStore } from 'emcp'
 * const store = taskStore({ ttlMs: 60_000, maxTasks: 100 })
 * const created = store.create()                        // Right(record), status "working"
 * if (created._tag === 'Right') store.complete(created.right.taskId, { content: [] })
 */
import * as E from 'fp-ts/lib/Either.js'
import { rpcError, type Params, type RpcError, type RpcErrorObject } from '../../protocol/jsonrpc.js'

// ---------------------------------------------------------------------------------------
// model

/** Where a task is in its life; the last three are terminal. */
export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled'

/** A request to the client that a task waits on (an `InputRequest`: elicitation, sampling, roots). */
export interface InputRequest {
  readonly method: string
  readonly params?: Params
}

/** A task as the wire shows it (`Task` of the extension). */
export interface Task {
  readonly taskId: string
  readonly status: TaskStatus
  readonly statusMessage?: string
  /** ISO 8601. */
  readonly createdAt: string
  /** ISO 8601. */
  readonly lastUpdatedAt: string
  /** Milliseconds from creation the task is kept; null: until the store needs the room. */
  readonly ttlMs: number | null
  /** How often the client should poll, in milliseconds. */
  readonly pollIntervalMs?: number
}

/** A task with what its status carries: the outstanding requests, the result or the error. */
export interface DetailedTask extends Task {
  readonly inputRequests?: { readonly [key: string]: InputRequest }
  readonly result?: { readonly [key: string]: unknown }
  readonly error?: RpcErrorObject
}

/** Bounds and pacing of a store. */
export interface TaskStoreOptions {
  /** How long a task is kept after its creation, in ms (default one hour); null keeps it until room is needed. */
  readonly ttlMs?: number | null
  /** The most tasks held at once (default 1000). */
  readonly maxTasks?: number
  /** The polling interval suggested to clients, in ms (default 1000). */
  readonly pollIntervalMs?: number
  /** The clock (ms since the epoch); for tests. */
  readonly now?: () => number
  /** Makes task ids; they must be unguessable (default: random UUIDs). */
  readonly newId?: () => string
}

/** What the store keeps of one task. */
export interface TaskRecord {
  readonly taskId: string
  readonly createdAt: number
  readonly status: TaskStatus
  readonly statusMessage: string | undefined
  readonly lastUpdatedAt: number
  /** Whom the task belongs to (see server/principal.ts); undefined: to whoever holds its id. */
  readonly owner?: string | undefined
}

/** Options of one request to the client made by a task. */
export interface AskOptions {
  /** Gives up when this fires. */
  readonly signal?: AbortSignal
  /** Gives up after this many milliseconds (default: wait as long as the task lives). */
  readonly timeoutMs?: number
  /** The key to show the request under, unless this task used it already (default `input-N`). */
  readonly key?: string
}

/** The tasks of a server. */
export interface TaskStore {
  /** Creates a working task, `owner`'s if given; refused (as data) when every place is taken by a running task. */
  readonly create: (onAbort?: (reason: string) => void, owner?: string) => E.Either<RpcError, TaskRecord>
  /** The task, unless unknown or expired. */
  readonly get: (taskId: string) => TaskRecord | undefined
  /** What `tasks/get` answers for the task (without `resultType`), unless unknown or expired. */
  readonly detailed: (taskId: string) => DetailedTask | undefined
  /** Parks the task in `input_required` until `answer` brings the response to this request. */
  readonly ask: (taskId: string, request: InputRequest, options?: AskOptions) => Promise<unknown>
  /** Hands over responses by key; keys not outstanding are ignored. Returns how many were taken. */
  readonly answer: (taskId: string, responses: { readonly [key: string]: unknown }) => number
  /** Ends the task with a result (status `completed`); false if it had already ended. */
  readonly complete: (taskId: string, result: { readonly [key: string]: unknown }) => boolean
  /** Ends the task with a JSON-RPC error (status `failed`); false if it had already ended. */
  readonly fail: (taskId: string, error: RpcErrorObject) => boolean
  /** Ends the task as `cancelled` and aborts its work; false if it had already ended (a no-op then). */
  readonly cancel: (taskId: string, reason?: string) => boolean
  /** Sets the status message of a running task. */
  readonly say: (taskId: string, message: string) => void
  /** Calls `listener` with the detailed task (and its owner) after every change; returns how to stop. */
  readonly onChange: (listener: (task: DetailedTask, owner: string | undefined) => void) => () => void
  /** How many tasks are held. */
  readonly size: () => number
  /** Aborts every running task and forgets them all. */
  readonly close: () => void
}

// ---------------------------------------------------------------------------------------
// constructors

/** True for the statuses a task never leaves. */
export const isTerminal = (s: TaskStatus): boolean => s === 'completed' || s === 'failed' || s === 'cancelled'

const defaultTtlMs = 3_600_000
const defaultMaxTasks = 1000
const defaultPollIntervalMs = 1000

/** A task store in memory, with the given bounds. */
export const taskStore = (options: TaskStoreOptions = {}): TaskStore => {
  const { ttlMs, maxTasks, pollIntervalMs } = boundsOf(options)
  const now = options.now ?? Date.now
  const newId = options.newId ?? (() => crypto.randomUUID())

  const { tasks, drop, sweep, live, running, hold } = holding(ttlMs, now)
  const listeners = new Set<(task: DetailedTask, owner: string | undefined) => void>()
  const changed = (e: Entry): void => {
    e.lastUpdatedAt = Math.max(now(), e.lastUpdatedAt)
    if (listeners.size === 0) return
    const task = wire(e, ttlMs, pollIntervalMs)
    for (const l of listeners) l(task, e.owner)
  }
  /** Moves a running task to the state `next` makes of its run; false when it had already ended. */
  const end = (taskId: string, next: (run: Running) => State): boolean => {
    const r = running(taskId)
    if (r === undefined) return false
    r.e.state = next(r.run)
    changed(r.e)
    return true
  }

  const create = (onAbort?: (reason: string) => void, owner?: string): E.Either<RpcError, TaskRecord> => {
    sweep()
    if (tasks.size >= maxTasks) {
      const ended = [...tasks.values()].find((e) => !isRunning(e.state))
      if (ended === undefined)
        return E.left(rpcError('InternalError', `Internal error: too many tasks are running (maxTasks ${maxTasks}); try again later`))
      drop(ended, 'room was needed')
    }
    const t = now()
    const run: Running = { inputs: new Map(), keys: new Set(), nextKey: 1, onAbort }
    const e: Entry = { taskId: newId(), owner, createdAt: t, statusMessage: undefined, lastUpdatedAt: t, expiry: undefined, state: { status: 'working', run } }
    hold(e)
    return E.right(record(e))
  }

  return {
    create,
    get: (taskId) => {
      const e = live(taskId)
      return e === undefined ? undefined : record(e)
    },
    detailed: (taskId) => {
      const e = live(taskId)
      return e === undefined ? undefined : wire(e, ttlMs, pollIntervalMs)
    },
    ask: (taskId, request, opts = {}) => {
      const r = running(taskId)
      return r === undefined ? Promise.reject(new Error(`${request.method}: the task has ended`)) : askOf(r.e, r.run, request, opts, changed)
    },
    answer: (taskId, responses) => {
      const e = live(taskId)
      return e === undefined ? 0 : answerOf(e, responses, changed)
    },
    complete: (taskId, result) => end(taskId, () => ({ status: 'completed', result })),
    fail: (taskId, error) => end(taskId, () => ({ status: 'failed', error })),
    cancel: (taskId, reason = 'cancelled by the client') =>
      end(taskId, (run) => {
        stop(run, reason)
        return { status: 'cancelled', reason }
      }),
    say: (taskId, message) => {
      const r = running(taskId)
      if (r === undefined || r.e.statusMessage === message) return
      r.e.statusMessage = message
      changed(r.e)
    },
    onChange: (listener) => {
      listeners.add(listener)
      return () => {
        listeners.delete(listener)
      }
    },
    size: () => {
      sweep()
      return tasks.size
    },
    close: () => {
      for (const e of [...tasks.values()]) drop(e, 'the server closed')
    },
  }
}

// ---------------------------------------------------------------------------------------
// internals

/** A request to the client that a running task waits on. */
interface Pending {
  readonly request: InputRequest
  readonly resolve: (u: unknown) => void
  readonly reject: (e: Error) => void
}

/** What a running task has: its outstanding questions and how to stop its work. */
interface Running {
  readonly inputs: Map<string, Pending>
  /** Every key this task has used: keys are never reused within a task. */
  readonly keys: Set<string>
  nextKey: number
  readonly onAbort: ((reason: string) => void) | undefined
}

/** Where a task is, each status with only its own data. */
type State = RunningState | { readonly status: 'completed'; readonly result: { readonly [key: string]: unknown } } | { readonly status: 'failed'; readonly error: RpcErrorObject } | { readonly status: 'cancelled'; readonly reason: string }

/** The two statuses of a task whose work goes on. */
type RunningState = { readonly status: 'working'; readonly run: Running } | { readonly status: 'input_required'; readonly run: Running }

/** One task as the store keeps it. */
interface Entry {
  readonly taskId: string
  readonly owner: string | undefined
  readonly createdAt: number
  statusMessage: string | undefined
  lastUpdatedAt: number
  /** Drops the task when its TTL passes, whether or not anyone reads the store then. */
  expiry: ReturnType<typeof setTimeout> | undefined
  state: State
}

/**
 * The tasks a store holds, by id, in creation order (which is expiry order: one TTL for all,
 * so expired tasks are at the front), each dropped when its TTL passes.
 */
const holding = (ttlMs: number | null, now: () => number) => {
  const tasks = new Map<string, Entry>()
  const expired = (e: Entry): boolean => ttlMs !== null && now() >= e.createdAt + ttlMs
  /** Forgets a task; a running one has its work aborted and its questions withdrawn. */
  const drop = (e: Entry, reason: string): void => {
    if (e.expiry !== undefined) clearTimeout(e.expiry)
    tasks.delete(e.taskId)
    if (isRunning(e.state)) stop(e.state.run, reason)
  }
  const live = (taskId: string): Entry | undefined => {
    const e = tasks.get(taskId)
    if (e === undefined || !expired(e)) return e
    drop(e, 'the task expired (its ttlMs passed)')
    return undefined
  }
  return {
    tasks,
    drop,
    live,
    sweep: (): void => {
      for (const e of tasks.values()) {
        if (!expired(e)) break
        drop(e, 'the task expired (its ttlMs passed)')
      }
    },
    /** A task whose work goes on, with its run; undefined when unknown, expired or ended. */
    running: (taskId: string): { readonly e: Entry; readonly run: Running } | undefined => {
      const e = live(taskId)
      return e !== undefined && isRunning(e.state) ? { e, run: e.state.run } : undefined
    },
    hold: (e: Entry): void => {
      if (tasks.has(e.taskId)) throw new Error(`emcp: tasks: the id ${e.taskId} is taken (newId must make unique ids)`)
      tasks.set(e.taskId, e)
      if (ttlMs === null) return
      // a task still running at its TTL is stopped even when nobody polls any more
      e.expiry = setTimeout(() => {
        if (tasks.get(e.taskId) === e) drop(e, 'the task expired (its ttlMs passed)')
      }, ttlMs)
      e.expiry.unref?.()
    },
  }
}

/** The bounds of a store, checked. */
const boundsOf = (options: TaskStoreOptions): { readonly ttlMs: number | null; readonly maxTasks: number; readonly pollIntervalMs: number } => {
  const ttlMs = options.ttlMs === undefined ? defaultTtlMs : options.ttlMs
  const maxTasks = options.maxTasks ?? defaultMaxTasks
  const pollIntervalMs = options.pollIntervalMs ?? defaultPollIntervalMs
  if (ttlMs !== null && !(Number.isSafeInteger(ttlMs) && ttlMs > 0)) throw new TypeError(`emcp: tasks: ttlMs must be a positive integer or null, got ${ttlMs}`)
  if (!(Number.isSafeInteger(maxTasks) && maxTasks > 0)) throw new TypeError(`emcp: tasks: maxTasks must be a positive integer, got ${maxTasks}`)
  if (!(Number.isSafeInteger(pollIntervalMs) && pollIntervalMs > 0))
    throw new TypeError(`emcp: tasks: pollIntervalMs must be a positive integer, got ${pollIntervalMs}`)
  return { ttlMs, maxTasks, pollIntervalMs }
}

/** Hands responses to a task in `input_required` by key; how many were taken. */
const answerOf = (e: Entry, responses: { readonly [key: string]: unknown }, changed: (e: Entry) => void): number => {
  if (e.state.status !== 'input_required') return 0
  const run = e.state.run
  let taken = 0
  for (const [key, response] of Object.entries(responses)) {
    const p = run.inputs.get(key)
    if (p === undefined) continue
    taken++
    p.resolve(response)
  }
  if (taken === 0) return 0
  if (run.inputs.size === 0) e.state = { status: 'working', run }
  changed(e)
  return taken
}

const isRunning = (s: State): s is RunningState => s.status === 'working' || s.status === 'input_required'

/** Withdraws a running task's questions and aborts its work (once). */
const stop = (run: Running, reason: string): void => {
  for (const p of run.inputs.values()) p.reject(new Error(reason))
  run.inputs.clear()
  run.onAbort?.(reason)
}

const record = (e: Entry): TaskRecord => ({
  taskId: e.taskId,
  owner: e.owner,
  createdAt: e.createdAt,
  status: e.state.status,
  statusMessage: e.state.status === 'cancelled' ? e.state.reason : e.statusMessage,
  lastUpdatedAt: e.lastUpdatedAt,
})

/** The task as `tasks/get` shows it: the common fields, and what its status carries. */
const wire = (e: Entry, ttlMs: number | null, pollIntervalMs: number): DetailedTask => {
  const statusMessage = e.state.status === 'cancelled' ? e.state.reason : e.statusMessage
  const base: Task = {
    taskId: e.taskId,
    status: e.state.status,
    ...(statusMessage === undefined ? {} : { statusMessage }),
    createdAt: new Date(e.createdAt).toISOString(),
    lastUpdatedAt: new Date(e.lastUpdatedAt).toISOString(),
    ttlMs,
    pollIntervalMs,
  }
  switch (e.state.status) {
    case 'input_required':
      return { ...base, inputRequests: Object.fromEntries([...e.state.run.inputs].map(([k, p]) => [k, p.request])) }
    case 'completed':
      return { ...base, result: e.state.result }
    case 'failed':
      return { ...base, error: e.state.error }
    default:
      return base
  }
}

/** Parks a running task in `input_required` until an answer, a timeout or an abort settles this question. */
const askOf = (e: Entry, run: Running, request: InputRequest, opts: AskOptions, changed: (e: Entry) => void): Promise<unknown> =>
  new Promise((resolve, reject) => {
    if (opts.signal?.aborted === true) return reject(new Error(`${request.method} was cancelled`))
    // keys are never reused within a task, so a late answer cannot be taken for another request
    let key = opts.key
    while (key === undefined || run.keys.has(key)) key = `input-${run.nextKey++}`
    run.keys.add(key)
    const timer = opts.timeoutMs === undefined ? undefined : setTimeout(() => giveUp(`${request.method} timed out after ${opts.timeoutMs} ms`), opts.timeoutMs)
    const settle = (): void => {
      if (timer !== undefined) clearTimeout(timer)
      opts.signal?.removeEventListener('abort', onAbort)
      run.inputs.delete(key)
    }
    const giveUp = (reason: string): void => {
      if (!run.inputs.has(key)) return
      settle()
      if (run.inputs.size === 0 && e.state.status === 'input_required') {
        e.state = { status: 'working', run }
        changed(e)
      }
      reject(new Error(reason))
    }
    const onAbort = (): void => giveUp(`${request.method} was cancelled`)
    opts.signal?.addEventListener('abort', onAbort, { once: true })
    run.inputs.set(key, { request, resolve: (u) => (settle(), resolve(u)), reject: (err) => (settle(), reject(err)) })
    e.state = { status: 'input_required', run }
    changed(e)
  })
