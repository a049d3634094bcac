/**
 * Tasks belong to whoever created them (server/principal.ts: the authenticated caller, else
 * the session, else nobody in particular). A task is looked up for a caller: someone else's
 * task is not found, exactly as an id that never existed, in every `tasks/*` method and in
 * the `taskIds` of a `subscriptions/listen` stream, whichever replica runs it.
 *
 * @example
 * import { memoryStore, taskStore } from 'emcp'
 * import { sharedTasks } from './shared.js'
 * import { findTask } from './owner.js'
 * const store = taskStore()
 * const shared = sharedTasks(store, memoryStore())
 * void findTask(store, shared, 'tasks/get', 'some-id', undefined) // Right(undefined): no such task
 */
import * as E from 'fp-ts/lib/Either.js'
import type { Feature, Screen } from '../../server/feature.js'
import { ownerOf } from '../../server/principal.js'
import { rpcError, type RpcError } from '../../protocol/jsonrpc.js'
import type { StoredTask } from '../../stores/store.js'
import { all, map, type Eventually } from '../../util/eventually.js'
import type { SharedTasks } from './shared.js'
import type { DetailedTask, TaskStore } from './store.js'

// ---------------------------------------------------------------------------------------
// model

/** A task found for its owner: as `tasks/get` shows it, and whether this replica runs it. */
export interface Found {
  readonly task: DetailedTask
  readonly here: boolean
}

/** The most task ids one `subscriptions/listen` stream may name (each may cost a read of the shared store). */
export const maxListenTaskIds = 1000

// ---------------------------------------------------------------------------------------
// functions

/** True when a task of `owner` is the caller's: its own, or one created by nobody in particular. */
export const belongs = (owner: string | undefined, caller: string | undefined): boolean => owner === undefined || owner === caller

/**
 * The task `taskId` if it is `caller`'s: run here, else as the shared store has it; undefined
 * when unknown, expired, or someone else's; a store failure is an error as data.
 */
export const findTask = (store: TaskStore, shared: SharedTasks, method: string, taskId: string, caller: string | undefined): Eventually<E.Either<RpcError, Found | undefined>> => {
  const local = store.get(taskId)
  const task = local !== undefined && belongs(local.owner, caller) ? store.detailed(taskId) : undefined
  if (task !== undefined) return E.right({ task, here: true })
  // someone else's task takes the path of an unknown one: the same answer, the same work
  return shared.get(method, taskId).then((t) => (E.isLeft(t) ? t : E.right(t.right !== undefined && belongs(t.right.owner, caller) ? { task: shown(t.right), here: false } : undefined)))
}

/**
 * The screen of the extension's `notifications/tasks` on a listen stream: of the ids it names,
 * only the caller's tasks are heard of (looked up once, when the stream opens: task ids are
 * made by the server, so none named later can become the caller's).
 */
export const tasksScreen =
  (store: TaskStore, shared: SharedTasks): NonNullable<Feature['screen']> =>
  (filter, session) => {
    const ids = [...new Set(filter.taskIds ?? [])]
    if (ids.length > maxListenTaskIds)
      return E.left(rpcError('InvalidParams', `subscriptions/listen: taskIds names ${ids.length} tasks; at most ${maxListenTaskIds} per stream (open another stream for more)`))
    const caller = ownerOf(session)
    const found = all(ids.map((id) => map(findTask(store, shared, 'subscriptions/listen', id, caller), (f) => (E.isLeft(f) ? f : E.right(f.right === undefined ? undefined : id)))))
    return map(found, (results): E.Either<RpcError, Screen> => {
      const failed = results.find(E.isLeft)
      if (failed !== undefined) return failed
      const mine = new Set(results.flatMap((r) => (E.isRight(r) && r.right !== undefined ? [r.right] : [])))
      return E.right((method, params) => method !== 'notifications/tasks' || (typeof params?.taskId === 'string' && mine.has(params.taskId)))
    })
  }

// ---------------------------------------------------------------------------------------
// internals

/** A stored task as a client sees it: without its owner. */
const shown = (t: StoredTask): DetailedTask => {
  const { owner: _owner, ...task } = t
  return task
}
