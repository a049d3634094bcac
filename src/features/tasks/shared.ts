/**
 * The tasks extension across replicas: a task runs on the replica that created it (its
 * handler, its questions and its abort live there), and its record goes to the shared store
 * at creation and after every change, so that `tasks/get` on any replica answers, and a
 * completed task's result outlives the replica that ran it (for its TTL). `tasks/update` and
 * `tasks/cancel` that reach another replica travel on the bus to the one that runs it.
 *
 * @example
 * import { memoryStore, taskStore } from 'emcp'
 * import { sharedTasks } from './shared.js'
 * const shared = sharedTasks(taskStore(), memoryStore())
 * // shared.tracked: the task store whose creations are recorded; shared.changed(task) after each change
 */
import * as E from 'fp-ts/lib/Either.js'
import { rpcError, type RpcError } from '../../protocol/jsonrpc.js'
import { isObject } from '../../util/json-object.js'
import { channels, storeCall, type BusMessage, type SharedStore } from '../../stores/store.js'
import type { DetailedTask, TaskStore } from './store.js'

// ---------------------------------------------------------------------------------------
// model

/** What the extension needs of the shared store. */
export interface SharedTasks {
  /** `store`, with each task recorded in the shared store as soon as it is created. */
  readonly tracked: TaskStore
  /** Records a task after a change (in order: a later state is never overwritten by an earlier one). */
  readonly changed: (task: DetailedTask) => void
  /** The record of a task another replica runs; a store failure is an error as data. */
  readonly get: (method: string, taskId: string) => Promise<E.Either<RpcError, DetailedTask | undefined>>
  /** Sends `tasks/update` or `tasks/cancel` to the replica that runs the task. */
  readonly tell: (method: string, message: BusMessage) => Promise<E.Either<RpcError, { readonly resultType: 'complete' }>>
}

// ---------------------------------------------------------------------------------------
// constructors

/** The shared side of `store`'s tasks, through `shared` (none: this process only). */
export const sharedTasks = (store: TaskStore, shared: SharedStore | undefined): SharedTasks => {
  if (shared === undefined)
    return { tracked: store, changed: () => undefined, get: () => Promise.resolve(E.right(undefined)), tell: () => Promise.resolve(E.right({ resultType: 'complete' })) }
  let writes: Promise<void> = Promise.resolve()
  const record = (task: DetailedTask): void => {
    const ttl = task.ttlMs === null ? null : Date.parse(task.createdAt) + task.ttlMs - Date.now()
    if (ttl !== null && !(ttl > 0)) return
    // one write after another: the store sees the task's states in the order they came
    writes = writes.then(() => storeCall('tasks: put', () => shared.tasks.put(task, ttl))).catch(report)
  }
  shared.bus
    .subscribe(channels.tasks, (m) => {
      if (!isObject(m) || typeof m.taskId !== 'string' || store.get(m.taskId) === undefined) return
      if (m.op === 'cancel') store.cancel(m.taskId)
      else if (m.op === 'answer' && isObject(m.responses)) store.answer(m.taskId, m.responses)
    })
    .catch(report)
  return {
    tracked: {
      ...store,
      create: (onAbort) => {
        const created = store.create(onAbort)
        const task = E.isRight(created) ? store.detailed(created.right.taskId) : undefined
        if (task !== undefined) record(task)
        return created
      },
    },
    changed: record,
    get: (method, taskId) =>
      storeCall(`${method}: read the task`, () => shared.tasks.get(taskId)).then(
        (t) => E.right(t),
        (e: unknown) => E.left(unavailable(e)),
      ),
    tell: (method, message) =>
      storeCall(`${method}: reach the task's replica`, () => shared.bus.publish(channels.tasks, message)).then(
        () => E.right({ resultType: 'complete' as const }),
        (e: unknown) => E.left(unavailable(e)),
      ),
  }
}

// ---------------------------------------------------------------------------------------
// internals

const unavailable = (e: unknown): RpcError => rpcError('StoreUnavailable', e instanceof Error ? e.message : String(e))

/** A record that could not be written costs other replicas a fresh view of the task; it is reported. */
const report = (e: unknown): void => {
  console.error(`emcp: tasks: ${e instanceof Error ? e.message : String(e)}`)
}
