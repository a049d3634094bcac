/**
 * The tasks extension across replicas: a task runs on the replica that created it (its
 * handler, its questions and its abort live there), and its record goes to the shared store
 * at creation and after every change, so that `tasks/get` on any replica answers, and a
 * completed task's result outlives the replica that ran it (for its TTL). `tasks/update` and
 * `tasks/cancel` that reach another replica travel on the bus to the one that runs it, which
 * acknowledges them there. No acknowledgement within `orphanAfterMs`: no replica runs the task
 * any more (it died, or was restarted, while the task ran), so the replica that got the request
 * ends the task's record itself, `cancelled` for a cancel and `failed` for an answer, each with
 * a message that says why; a task that had ended already is left as it is.
 *
 * @example
 * import { memoryStore, taskStore } from 'emcp'
 * import { sharedTasks } from './shared.js'
 * const shared = sharedTasks(taskStore(), memoryStore())
 * // shared.tracked: the task store whose creations are recorded; shared.changed(task) after each change
 */
import * as E from 'fp-ts/lib/Either.js'
import { errorCodes, rpcError, type RpcError } from '../../protocol/jsonrpc.js'
import { isObject } from '../../util/json-object.js'
import { channels, storeCall, type BusMessage, type SharedStore, type StoredTask } from '../../stores/store.js'
import { isTerminal, type DetailedTask, type TaskStore } from './store.js'

// ---------------------------------------------------------------------------------------
// model

/** What the extension needs of the shared store. */
export interface SharedTasks {
  /** `store`, with each task recorded in the shared store as soon as it is created. */
  readonly tracked: TaskStore
  /** Records a task and its owner after a change (in order: a later state is never overwritten by an earlier one). */
  readonly changed: (task: DetailedTask, owner: string | undefined) => void
  /** Resolves once every change recorded so far is in the store (or failed to get there, and was reported); undefined when none is on its way. */
  readonly settled: () => Promise<void> | undefined
  /** The record of a task another replica runs; a store failure is an error as data. */
  readonly get: (method: string, taskId: string) => Promise<E.Either<RpcError, StoredTask | undefined>>
  /** Sends `tasks/update` or `tasks/cancel` to the replica that runs `task`; ends its record when no replica runs it any more. */
  readonly tell: (method: string, task: DetailedTask, message: Told) => Promise<E.Either<RpcError, { readonly resultType: 'complete' }>>
}

/** What travels to the replica that runs a task: a cancel, or answers by key. */
export type Told = { readonly op: 'cancel' } | { readonly op: 'answer'; readonly responses: BusMessage }

/** How long the replica that runs a task has to acknowledge a request sent to it, in ms, before the task counts as orphaned. */
export const orphanAfterMs = 3_000

// ---------------------------------------------------------------------------------------
// constructors

/** The shared side of `store`'s tasks, through `shared` (none: this process only). */
export const sharedTasks = (store: TaskStore, shared: SharedStore | undefined): SharedTasks => {
  if (shared === undefined)
    return { tracked: store, changed: () => undefined, settled: () => undefined, get: () => Promise.resolve(E.right(undefined)), tell: () => Promise.resolve(E.right({ resultType: 'complete' as const })) }
  // the writes on their way, one after another: the store sees the task's states in the order they came
  const writes = { tail: Promise.resolve(), pending: 0 }
  const record = (task: DetailedTask, owner: string | undefined): void => {
    const ttl = ttlLeft(task)
    if (ttl !== null && !(ttl > 0)) return
    // the owner travels with the record: every replica refuses the task to anyone else
    const stored: StoredTask = owner === undefined ? task : { ...task, owner }
    writes.pending++
    writes.tail = writes.tail
      .then(() => storeCall('tasks: put', () => shared.tasks.put(stored, ttl)))
      .catch(report)
      .finally(() => void writes.pending--)
  }
  /** The requests sent to other replicas that wait for an acknowledgement, by their id. */
  const waiting = new Map<string, () => void>()
  shared.bus
    .subscribe(channels.tasks, (m) => {
      if (!isObject(m) || typeof m.taskId !== 'string') return
      if (m.op === 'ack' && typeof m.ask === 'string') return waiting.get(m.ask)?.()
      if (store.get(m.taskId) === undefined) return
      // acknowledged first: the teller's wait is bus latency only, not the work done here
      if (typeof m.ask === 'string') void shared.bus.publish(channels.tasks, { op: 'ack', ask: m.ask, taskId: m.taskId }).catch(report)
      if (m.op === 'cancel') store.cancel(m.taskId)
      else if (m.op === 'answer' && isObject(m.responses)) store.answer(m.taskId, m.responses)
    })
    .catch(report)
  /** True when a replica acknowledged the request `ask` within `orphanAfterMs`. */
  const acknowledged = (ask: string): Promise<boolean> =>
    new Promise((resolve) => {
      const timer = setTimeout(() => (waiting.delete(ask), resolve(false)), orphanAfterMs)
      waiting.set(ask, () => (clearTimeout(timer), waiting.delete(ask), resolve(true)))
    })
  /** Ends the record of a task no replica runs any more (unless it ended meanwhile). */
  const endOrphan = async (method: string, taskId: string, op: Told['op']): Promise<void> => {
    const now = await storeCall(`${method}: read the task`, () => shared.tasks.get(taskId))
    if (now === undefined || isTerminal(now.status)) return
    const ended = orphaned(now, op)
    const ttl = ttlLeft(ended)
    if (ttl === null || ttl > 0) await storeCall(`${method}: end the task`, () => shared.tasks.put(ended, ttl))
  }
  return {
    tracked: {
      ...store,
      create: (onAbort, owner) => {
        const created = store.create(onAbort, owner)
        const task = E.isRight(created) ? store.detailed(created.right.taskId) : undefined
        if (task !== undefined) record(task, owner)
        return created
      },
    },
    changed: record,
    settled: () => (writes.pending === 0 ? undefined : writes.tail),
    get: (method, taskId) =>
      storeCall(`${method}: read the task`, () => shared.tasks.get(taskId)).then(
        (t) => E.right(t),
        (e: unknown) => E.left(unavailable(e)),
      ),
    tell: async (method, task, told) => {
      const ask = crypto.randomUUID()
      const heard = acknowledged(ask)
      try {
        await storeCall(`${method}: reach the task's replica`, () => shared.bus.publish(channels.tasks, { ...told, taskId: task.taskId, ask }))
        // an ended task needs no one to run it: a cancel or an answer changes nothing then
        if (!isTerminal(task.status) && !(await heard)) await endOrphan(method, task.taskId, told.op)
        return E.right({ resultType: 'complete' as const })
      } catch (e) {
        return E.left(unavailable(e))
      } finally {
        waiting.get(ask)?.()
      }
    },
  }
}

// ---------------------------------------------------------------------------------------
// internals

/** Milliseconds the store should keep `task`: what is left of its TTL (null: no expiry). */
const ttlLeft = (task: DetailedTask): number | null => (task.ttlMs === null ? null : Date.parse(task.createdAt) + task.ttlMs - Date.now())

/** The record of a task whose replica is gone, ended: `cancelled` by a cancel, `failed` by an answer no one can take. */
const orphaned = (task: StoredTask, op: Told['op']): StoredTask => {
  const { inputRequests, ...rest } = task
  void inputRequests
  const ended = { ...rest, lastUpdatedAt: new Date().toISOString() }
  const gone = 'the server process that ran this task stopped before the task ended'
  return op === 'cancel'
    ? { ...ended, status: 'cancelled', statusMessage: `cancelled by the client; ${gone}, so its work had stopped already` }
    : { ...ended, status: 'failed', statusMessage: `${gone}: the answer could not be delivered`, error: { code: errorCodes.InternalError, message: `Internal error: ${gone}; its answers cannot be delivered. Call the tool again` } }
}

const unavailable = (e: unknown): RpcError => rpcError('StoreUnavailable', e instanceof Error ? e.message : String(e))

/** A record that could not be written costs other replicas a fresh view of the task; it is reported. */
const report = (e: unknown): void => {
  console.error(`emcp: tasks: ${e instanceof Error ? e.message : String(e)}`)
}
