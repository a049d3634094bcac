/**
 * The tasks extension (`io.modelcontextprotocol/tasks`) through a mount. The whole declares
 * the extension when a part does (a part with `tasks()`, a proxy that relays its upstream's),
 * its settings merged. A call handed off to a task by a part is recorded: which part made the
 * task, for whom, until the task's `ttlMs` passes (at most `maxRoutes` at once, the oldest
 * forgotten first). `tasks/get`, `tasks/update` and `tasks/cancel` go to that part; an id
 * not recorded (another replica's, or not the caller's) is looked up by each carrying part in
 * its own records, for the caller, and one none finds is an unknown task. `notifications/tasks`
 * reach the whole's `subscriptions/listen` streams that name the task. A part that does
 * not carry the extension is called as if the client had not declared it, so that no client
 * is handed a task it cannot poll. Internal.
 *
 * @example
 * import { mountTasks } from './mount-tasks.js'
 * // const tasks = mountTasks(parts)
 * // tasks.call(part, request, session) // the part's answer: inline, or a task the whole routes
 */
import * as E from 'fp-ts/lib/Either.js'
import type { Answer, Feature, FeatureFactory, MethodHandler, Screen } from '../server/feature.js'
import { ownerOf } from '../server/principal.js'
import type { Session } from '../server/session.js'
import { rpcError, type Request, type RpcError } from '../protocol/jsonrpc.js'
import { declaresTasks, tasksExtension, undeclared } from '../features/tasks/extension.js'
import { belongs, maxListenTaskIds } from '../features/tasks/owner.js'
import { clip } from '../util/clip.js'
import { isObject } from '../util/json-object.js'
import { all, map } from '../util/eventually.js'
import type { Part } from './parts.js'

// ---------------------------------------------------------------------------------------
// model

/** How the mount carries the tasks extension of its parts. */
export interface MountTasks {
  /** A `tools/call` handed to a part; a task it answers with is recorded for the caller. */
  readonly call: (part: Part, req: Request, session: Session) => Answer
  /** True when a call from `session` goes to its part as it came, nothing to record (its client did not declare the extension). */
  readonly passes: (session: Session) => boolean
  /** The whole's side of the extension (its declaration, `tasks/*`, the listen screen); undefined when no part carries it. */
  readonly feature: FeatureFactory | undefined
}

/** The most task routes a mount keeps at once (the oldest is forgotten to make room). */
export const maxRoutes = 10_000

// ---------------------------------------------------------------------------------------
// constructors

/** The tasks side of a mount over its parts. */
export const mountTasks = (parts: ReadonlyArray<Part>, now: () => number = Date.now): MountTasks => {
  const carriers = new Set(parts.filter((p) => settingsOf(p) !== undefined))
  const routes = taskRoutes(now)
  const call = (part: Part, req: Request, session: Session): Answer => {
    if (!declaresTasks(session)) return part.inner.toolCall(req, session)
    // a part whose tasks the whole cannot route makes none
    if (!carriers.has(part)) return part.inner.toolCall(req, withoutTasks(session))
    return map(part.inner.toolCall(req, session), (out) => {
      if (E.isRight(out) && isTask(out.right)) {
        const t = out.right as { readonly taskId?: unknown; readonly ttlMs?: unknown }
        if (typeof t.taskId === 'string') routes.add(t.taskId, part, ownerOf(session), typeof t.ttlMs === 'number' ? t.ttlMs : undefined)
      }
      return out
    })
  }
  // most clients declare no extension at all: one read answers for them
  const passes = (session: Session): boolean => session.clientCapabilities?.extensions === undefined || !declaresTasks(session)
  if (carriers.size === 0) return { call, passes, feature: undefined }
  // the settings of every part that carries the extension, the first part's winning a key two give
  const settings = Object.assign({}, ...[...carriers].reverse().map(settingsOf)) as { readonly [k: string]: unknown }
  const routed =
    (method: string): MethodHandler =>
    (req, session) => {
      if (!declaresTasks(session)) return E.left(undeclared(session, method))
      const taskId = req.params?.taskId
      if (typeof taskId !== 'string') return E.left(rpcError('InvalidParams', `${method}: params.taskId must be a string`))
      const part = routes.find(taskId, ownerOf(session))
      if (part !== undefined)
        return map(part.inner.inner(req, session), (out) => {
          // the part forgot it (expired, or made room): so does the whole
          if (method === 'tasks/get' && isUnknown(out)) routes.drop(taskId)
          return out
        })
      // not recorded here (made through another replica of the whole, or not the caller's):
      // each carrying part looks it up for the caller in its own records, shared store included
      return askEach([...carriers], req, session, unknownTask(method, taskId))
    }
  const feature: Feature = {
    capabilities: { extensions: { [tasksExtension]: settings } },
    methods: { 'tasks/get': routed('tasks/get'), 'tasks/update': routed('tasks/update'), 'tasks/cancel': routed('tasks/cancel') },
    // a listen stream hears of the tasks it names that are the caller's: recorded here, or
    // found by a carrying part's own screen (which, for a proxy, listens upstream)
    screen: (filter, session) => {
      const ids = [...new Set(filter.taskIds ?? [])]
      if (ids.length > maxListenTaskIds)
        return E.left(rpcError('InvalidParams', `subscriptions/listen: taskIds names ${ids.length} tasks; at most ${maxListenTaskIds} per stream (open another stream for more)`))
      const caller = ownerOf(session)
      const mine = new Set(ids.filter((id) => routes.find(id, caller) !== undefined))
      const asked = ids.length === 0 ? [] : [...carriers].flatMap((p) => (p.inner.screens ?? []).map((screen) => screen({ taskIds: ids }, session)))
      return map(all(asked), (tests): E.Either<RpcError, Screen> => {
        const refused = tests.find(E.isLeft)
        if (refused !== undefined) return refused
        const theirs = tests.flatMap((t) => (E.isRight(t) ? [t.right] : []))
        return E.right((method, params) => method !== 'notifications/tasks' || (typeof params?.taskId === 'string' && mine.has(params.taskId)) || theirs.some((p) => p(method, params)))
      })
    },
  }
  return { call, passes, feature: () => feature }
}

/** True for a `CreateTaskResult`: the answer that hands a call off to a task. */
export const isTask = (result: unknown): boolean => isObject(result) && result.resultType === 'task'

// ---------------------------------------------------------------------------------------
// internals

/** The extension's settings a part declares; undefined when it does not carry the extension. */
const settingsOf = (part: Part): { readonly [k: string]: unknown } | undefined => {
  const extensions = part.inner.capabilities.extensions
  const own = isObject(extensions) ? extensions[tasksExtension] : undefined
  return isObject(own) ? own : undefined
}

/** The session as if its client had not declared the extension (the rest shared, as a call's own session is). */
const withoutTasks = (session: Session): Session => {
  const caps = session.clientCapabilities ?? {}
  const { [tasksExtension]: _dropped, ...extensions } = isObject(caps.extensions) ? caps.extensions : {}
  return { ...session, clientCapabilities: { ...caps, extensions } }
}

/** True for the extension's unknown-task answer (a part's, or a proxy's relay of it). */
const isUnknown = (out: E.Either<RpcError, unknown>): boolean => E.isLeft(out) && out.left._tag === 'UnknownTask'

/** Asks each part in turn; the first answer that is not an unknown task is the answer, else `unknown`. */
const askEach = (parts: ReadonlyArray<Part>, req: Request, session: Session, unknown: RpcError): Answer => {
  const [first, ...rest] = parts
  if (first === undefined) return E.left(unknown)
  return map(first.inner.inner(req, session), (out) => (isUnknown(out) ? askEach(rest, req, session, unknown) : out))
}

const unknownTask = (method: string, taskId: string): RpcError => rpcError('UnknownTask', `${method}: no task ${JSON.stringify(clip(taskId))} (unknown, or expired)`)

/** One recorded task: the part that made it, its owner, when it expires. */
interface TaskRoute {
  readonly part: Part
  readonly owner: string | undefined
  readonly expires: number
}

/** Which part made each task, bounded in count and expiring with each task's ttl. */
const taskRoutes = (now: () => number) => {
  // insertion order is creation order: the first entries are the oldest
  const byId = new Map<string, TaskRoute>()
  const sweep = (): void => {
    const t = now()
    for (const [id, r] of byId) if (r.expires <= t) byId.delete(id)
    // still full: the oldest tenth makes room, so that a full table is swept once per tenth of
    // its size in new tasks rather than on every one (each sweep reads the whole table)
    for (const id of byId.keys()) {
      if (byId.size <= maxRoutes - Math.ceil(maxRoutes / 10)) break
      byId.delete(id)
    }
  }
  return {
    add: (taskId: string, part: Part, owner: string | undefined, ttlMs: number | undefined): void => {
      if (byId.size >= maxRoutes) sweep()
      byId.set(taskId, { part, owner, expires: ttlMs === undefined ? Number.POSITIVE_INFINITY : now() + ttlMs })
    },
    /** The part that made `taskId` for `caller`; undefined when unknown, expired or someone else's. */
    find: (taskId: string, caller: string | undefined): Part | undefined => {
      const r = byId.get(taskId)
      if (r === undefined) return undefined
      if (r.expires <= now()) {
        byId.delete(taskId)
        return undefined
      }
      return belongs(r.owner, caller) ? r.part : undefined
    },
    drop: (taskId: string): void => {
      byId.delete(taskId)
    },
  }
}
