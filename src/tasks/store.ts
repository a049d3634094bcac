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
import { randomUUID } from 'node:crypto'
import * as E from 'fp-ts/lib/Either.js'
import { rpcError, type Params, type RpcError, type RpcErrorObject } from '../jsonrpc.js'

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
  /** Creates a working task; refused (as data) when every place is taken by a running task. */
  readonly create: (onAbort?: (reason: string) => void) => E.Either<RpcError, TaskRecord>
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
  /** Calls `listener` with the detailed task after every change; returns how to stop. */
  readonly onChange: (listener: (task: DetailedTask) => void) => () => void
  /** How many tasks are held. */
  readonly size: () => number
  /** Aborts every running task and forgets them all. */
  readonly close: () => void
}

// ---------------------------------------------------------------------------------------
// constructors

/** True for the statuses a task never leaves. */
export const isTerminal = (s: TaskStatus): boolean => s === 'completed' || s === 'failed' || s === 'cancelled'

interface Pending {
  readonly request: InputRequest
  readonly resolve: (u: unknown) => void
  readonly reject: (e: Error) => void
}

interface Entry {
  readonly taskId: string
  readonly createdAt: number
  status: TaskStatus
  statusMessage: string | undefined
  lastUpdatedAt: number
  result: { readonly [key: string]: unknown } | undefined
  error: RpcErrorObject | undefined
  readonly inputs: Map<string, Pending>
  /** Every key this task has used: keys are never reused within a task. */
  readonly keys: Set<string>
  nextKey: number
  onAbort: ((reason: string) => void) | undefined
  /** Drops the task when its TTL passes, whether or not anyone reads the store then. */
  expiry: ReturnType<typeof setTimeout> | undefined
}

const defaultTtlMs = 3_600_000
const defaultMaxTasks = 1000
const defaultPollIntervalMs = 1000

/** A task store in memory, with the given bounds. */
export const taskStore = (options: TaskStoreOptions = {}): TaskStore => {
  const ttlMs = options.ttlMs === undefined ? defaultTtlMs : options.ttlMs
  const maxTasks = options.maxTasks ?? defaultMaxTasks
  const pollIntervalMs = options.pollIntervalMs ?? defaultPollIntervalMs
  if (ttlMs !== null && !(Number.isSafeInteger(ttlMs) && ttlMs > 0)) throw new TypeError(`emcp: tasks: ttlMs must be a positive integer or null, got ${ttlMs}`)
  if (!(Number.isSafeInteger(maxTasks) && maxTasks > 0)) throw new TypeError(`emcp: tasks: maxTasks must be a positive integer, got ${maxTasks}`)
  if (!(Number.isSafeInteger(pollIntervalMs) && pollIntervalMs > 0))
    throw new TypeError(`emcp: tasks: pollIntervalMs must be a positive integer, got ${pollIntervalMs}`)
  const now = options.now ?? Date.now
  const newId = options.newId ?? randomUUID

  // creation order is expiry order (one TTL for all), so expired tasks are at the front
  const tasks = new Map<string, Entry>()
  const listeners = new Set<(task: DetailedTask) => void>()

  const expired = (e: Entry): boolean => ttlMs !== null && now() >= e.createdAt + ttlMs

  /** Forgets a task; a running one has its work aborted and its questions withdrawn. */
  const drop = (e: Entry, reason: string): void => {
    if (e.expiry !== undefined) clearTimeout(e.expiry)
    tasks.delete(e.taskId)
    if (!isTerminal(e.status)) stop(e, reason)
  }

  const stop = (e: Entry, reason: string): void => {
    for (const p of e.inputs.values()) p.reject(new Error(reason))
    e.inputs.clear()
    const abort = e.onAbort
    e.onAbort = undefined
    abort?.(reason)
  }

  const sweep = (): void => {
    for (const e of tasks.values()) {
      if (!expired(e)) break
      drop(e, 'the task expired (its ttlMs passed)')
    }
  }

  const live = (taskId: string): Entry | undefined => {
    const e = tasks.get(taskId)
    if (e === undefined) return undefined
    if (expired(e)) {
      drop(e, 'the task expired (its ttlMs passed)')
      return undefined
    }
    return e
  }

  const wire = (e: Entry): DetailedTask => {
    const base: Task = {
      taskId: e.taskId,
      status: e.status,
      ...(e.statusMessage === undefined ? {} : { statusMessage: e.statusMessage }),
      createdAt: new Date(e.createdAt).toISOString(),
      lastUpdatedAt: new Date(e.lastUpdatedAt).toISOString(),
      ttlMs,
      pollIntervalMs,
    }
    switch (e.status) {
      case 'input_required':
        return { ...base, inputRequests: Object.fromEntries([...e.inputs].map(([k, p]) => [k, p.request])) }
      case 'completed':
        return { ...base, result: e.result ?? {} }
      case 'failed':
        return { ...base, error: e.error ?? { code: -32603, message: 'Internal error' } }
      default:
        return base
    }
  }

  const changed = (e: Entry): void => {
    e.lastUpdatedAt = Math.max(now(), e.lastUpdatedAt)
    if (listeners.size === 0) return
    const task = wire(e)
    for (const l of listeners) l(task)
  }

  /** Moves a running task to `status`; false when it had already ended. */
  const end = (taskId: string, status: TaskStatus, set: (e: Entry) => void): boolean => {
    const e = live(taskId)
    if (e === undefined || isTerminal(e.status)) return false
    set(e)
    e.status = status
    changed(e)
    return true
  }

  const create = (onAbort?: (reason: string) => void): E.Either<RpcError, TaskRecord> => {
    sweep()
    if (tasks.size >= maxTasks) {
      const ended = [...tasks.values()].find((e) => isTerminal(e.status))
      if (ended === undefined)
        return E.left(rpcError('InternalError', `Internal error: too many tasks are running (maxTasks ${maxTasks}); try again later`))
      drop(ended, 'room was needed')
    }
    const t = now()
    const e: Entry = {
      taskId: newId(),
      createdAt: t,
      status: 'working',
      statusMessage: undefined,
      lastUpdatedAt: t,
      result: undefined,
      error: undefined,
      inputs: new Map(),
      keys: new Set(),
      nextKey: 1,
      onAbort,
      expiry: undefined,
    }
    if (tasks.has(e.taskId)) throw new Error(`emcp: tasks: the id ${e.taskId} is taken (newId must make unique ids)`)
    tasks.set(e.taskId, e)
    if (ttlMs !== null) {
      // a task still running at its TTL is stopped even when nobody polls any more
      e.expiry = setTimeout(() => {
        if (tasks.get(e.taskId) === e) drop(e, 'the task expired (its ttlMs passed)')
      }, ttlMs)
      e.expiry.unref?.()
    }
    return E.right(e)
  }

  const ask = (taskId: string, request: InputRequest, opts: AskOptions = {}): Promise<unknown> =>
    new Promise((resolve, reject) => {
      const e = live(taskId)
      if (e === undefined || isTerminal(e.status)) return reject(new Error(`${request.method}: the task has ended`))
      if (opts.signal?.aborted === true) return reject(new Error(`${request.method} was cancelled`))
      // keys are never reused within a task, so a late answer cannot be taken for another request
      let key = opts.key
      while (key === undefined || e.keys.has(key)) key = `input-${e.nextKey++}`
      e.keys.add(key)
      let timer: ReturnType<typeof setTimeout> | undefined
      const settle = (): void => {
        if (timer !== undefined) clearTimeout(timer)
        opts.signal?.removeEventListener('abort', onAbort)
        e.inputs.delete(key)
      }
      const giveUp = (reason: string): void => {
        if (!e.inputs.has(key)) return
        settle()
        if (e.inputs.size === 0 && e.status === 'input_required') {
          e.status = 'working'
          changed(e)
        }
        reject(new Error(reason))
      }
      const onAbort = (): void => giveUp(`${request.method} was cancelled`)
      opts.signal?.addEventListener('abort', onAbort, { once: true })
      if (opts.timeoutMs !== undefined) timer = setTimeout(() => giveUp(`${request.method} timed out after ${opts.timeoutMs} ms`), opts.timeoutMs)
      e.inputs.set(key, {
        request,
        resolve: (u) => {
          settle()
          resolve(u)
        },
        reject: (err) => {
          settle()
          reject(err)
        },
      })
      e.status = 'input_required'
      changed(e)
    })

  const answer = (taskId: string, responses: { readonly [key: string]: unknown }): number => {
    const e = live(taskId)
    if (e === undefined || e.status !== 'input_required') return 0
    let taken = 0
    for (const [key, response] of Object.entries(responses)) {
      const p = e.inputs.get(key)
      if (p === undefined) continue
      taken++
      p.resolve(response)
    }
    if (taken === 0) return 0
    if (e.inputs.size === 0) e.status = 'working'
    changed(e)
    return taken
  }

  const store: TaskStore = {
    create,
    get: live,
    detailed: (taskId) => {
      const e = live(taskId)
      return e === undefined ? undefined : wire(e)
    },
    ask,
    answer,
    complete: (taskId, result) =>
      end(taskId, 'completed', (e) => {
        e.result = result
        e.onAbort = undefined
      }),
    fail: (taskId, error) =>
      end(taskId, 'failed', (e) => {
        e.error = error
        e.onAbort = undefined
      }),
    cancel: (taskId, reason = 'cancelled by the client') =>
      end(taskId, 'cancelled', (e) => {
        e.statusMessage = reason
        stop(e, reason)
      }),
    say: (taskId, message) => {
      const e = live(taskId)
      if (e === undefined || isTerminal(e.status) || e.statusMessage === message) return
      e.statusMessage = message
      changed(e)
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
  return store
}
