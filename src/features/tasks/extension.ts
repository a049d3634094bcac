/**
 * The tasks extension (`io.modelcontextprotocol/tasks`, MCP 2026-07-28) as a server feature:
 * it declares the extension in `capabilities.extensions`, runs calls of tools that declare
 * `taskSupport` as tasks for clients that declared the extension on the request (see
 * run.ts), and answers `tasks/get` (poll: the task with its input requests, result or
 * error), `tasks/update` (the client's `inputResponses`), and `tasks/cancel`. The extension
 * is server-directed and per request: a request whose `_meta` capabilities do not name it
 * gets no task, and `tasks/*` from it are refused with -32021. `tasks/result` and
 * `tasks/list` (2025-11-25 experimental tasks) are not served (-32601).
 *
 * @example
 * import { emcp, mcpServer, tasks } from 'emcp'
 * const slow = emcp({ name: 'slow', description: 'Takes a while.', input: { type: 'object' }, taskSupport: 'optional' })
 * const server = mcpServer([slow], { name: 's', version: '1' }, { features: [tasks({ ttlMs: 600_000 })] })
 *   .implement({ slow: async () => { await new Promise((r) => setTimeout(r, 5000)); return 'done' } })
 */
import * as E from 'fp-ts/lib/Either.js'
import { clip } from '../../util/clip.js'
import type { Answer, FeatureFactory, ToolCall } from '../../server/feature.js'
import { isObject } from '../../util/json-object.js'
import { map } from '../../util/eventually.js'
import { rpcError, type Request, type RpcError } from '../../protocol/jsonrpc.js'
import { isModernVersion } from '../../protocol/versions.js'
import type { Session } from '../../server/session.js'
import type { BusMessage } from '../../stores/store.js'
import { ownerOf } from '../../server/principal.js'
import { findTask, tasksScreen } from './owner.js'
import { runAsTask } from './run.js'
import { sharedTasks } from './shared.js'
import { taskStore, type DetailedTask, type TaskStore, type TaskStoreOptions } from './store.js'

// ---------------------------------------------------------------------------------------
// model

/** The extension's identifier, its key in `capabilities.extensions`. */
export const tasksExtension = 'io.modelcontextprotocol/tasks'

/** How the server runs tasks. */
export interface TasksOptions extends TaskStoreOptions {
  /**
   * How long a call may take and still be answered inline, in ms (default 0: a handler that
   * waits on anything is handed off to a task at once).
   */
  readonly immediateMs?: number
  /** The store to keep tasks in (default: a new one with the bounds given here). */
  readonly store?: TaskStore
}

/** The tasks feature: put it in the server's `features`; its store is yours to watch. */
export interface TasksFeature extends FeatureFactory {
  /** The tasks of this server. */
  readonly store: TaskStore
}

// ---------------------------------------------------------------------------------------
// constructors

/** The tasks extension, with its store's bounds (TTL, max tasks) and its handoff delay. */
export const tasks = (options: TasksOptions = {}): TasksFeature => {
  const store = options.store ?? taskStore(options)
  const immediateMs = options.immediateMs ?? 0
  if (!(Number.isSafeInteger(immediateMs) && immediateMs >= 0))
    throw new TypeError(`emcp: tasks: immediateMs must be a non-negative integer, got ${immediateMs}`)

  const call = (c: ToolCall, tracked: TaskStore): Answer | undefined => {
    const support = c.tool.taskSupport ?? 'forbidden'
    if (support === 'forbidden') return undefined
    if (!declaresTasks(c.session)) return support === 'optional' ? undefined : E.left(taskOnly(c.session, c.tool.name))
    return runAsTask(tracked, c, { immediateMs, required: support === 'required' })
  }

  const factory: FeatureFactory = (hub, context) => {
    const shared = sharedTasks(store, context?.store)
    // status notifications go to the subscriptions/listen streams that asked for the task's id
    store.onChange((task, owner) => {
      hub.broadcast('notifications/tasks', { ...task }, () => false)
      shared.changed(task, owner)
    })
    /**
     * Runs a `tasks/*` method for a request that may use the extension, on a task of the
     * caller's known here or to the other replicas; anyone else's task is an unknown one.
     */
    const onTask =
      (method: string, f: (taskId: string, req: Request, task: DetailedTask, here: boolean) => E.Either<RpcError, unknown> | Promise<E.Either<RpcError, unknown>>) =>
      (req: Request, session: Session): Answer => {
        if (!declaresTasks(session)) return E.left(undeclared(session, method))
        const taskId = req.params?.taskId
        if (typeof taskId !== 'string') return E.left(rpcError('InvalidParams', `${method}: params.taskId must be a string`))
        return map(findTask(store, shared, method, taskId, ownerOf(session)), (found): Answer => {
          if (E.isLeft(found)) return found
          if (found.right === undefined) return E.left(rpcError('UnknownTask', `${method}: no task ${JSON.stringify(clip(taskId))} (unknown, or expired)`))
          const answer = f(taskId, req, found.right.task, found.right.here)
          // run here: answered once what it says of the task is in the shared store too, so that
          // nothing a client saw is lost with this replica (a result read here, then the replica dies)
          const settled = found.right.here ? shared.settled() : undefined
          return settled === undefined ? answer : settled.then(() => answer)
        })
      }
    return {
      capabilities: { extensions: { [tasksExtension]: {} } },
      methods: {
        'tasks/get': onTask('tasks/get', (_id, _req, task) => E.right({ resultType: 'complete', ...task })),
        'tasks/update': onTask('tasks/update', (taskId, req, task, here) => {
          const responses = req.params?.inputResponses
          if (!isObject(responses)) return E.left(rpcError('InvalidParams', 'tasks/update: params.inputResponses must be an object'))
          // responses to keys not outstanding are ignored, as the extension asks
          if (here) store.answer(taskId, responses)
          else return shared.tell('tasks/update', task, { op: 'answer', responses: responses as BusMessage })
          return E.right({ resultType: 'complete' })
        }),
        'tasks/cancel': onTask('tasks/cancel', (taskId, _req, task, here) => {
          // cancelling an ended task is acknowledged the same way, and changes nothing
          if (here) store.cancel(taskId)
          else return shared.tell('tasks/cancel', task, { op: 'cancel' })
          return E.right({ resultType: 'complete' })
        }),
      },
      screen: tasksScreen(store, shared),
      // a task's handle leaves once its record is in the shared store: any replica can read it then
      call: (c: ToolCall): Answer | undefined => {
        const answer = call(c, shared.tracked)
        if (answer === undefined) return undefined
        return map(answer, (a): Answer => (E.isRight(a) && isObject(a.right) && a.right.resultType === 'task' ? (shared.settled()?.then(() => a) ?? a) : a))
      },
    }
  }
  return Object.assign(factory, { store })
}

// ---------------------------------------------------------------------------------------
// internals

/**
 * True when a request may use the extension: a 2026-07-28 request whose own capabilities
 * (its `_meta`) name it. The extension does not apply to 2025-11-25 conversations, whatever
 * their `initialize` declared.
 */
export const declaresTasks = (session: Session): boolean => {
  if (!isModernVersion(session.protocolVersion)) return false
  const extensions = session.clientCapabilities?.extensions
  return isObject(extensions) && isObject(extensions[tasksExtension])
}

const requiredCapabilities = { requiredCapabilities: { extensions: { [tasksExtension]: {} } } }

/** The refusal of a `tasks/*` request from a client that did not declare the extension (a relay of the extension answers it too). */
export const undeclared = (session: Session, method: string): RpcError =>
  isModernVersion(session.protocolVersion)
    ? rpcError(
        'MissingRequiredClientCapability',
        `Missing required client capability: ${method} needs the ${tasksExtension} extension in _meta["io.modelcontextprotocol/clientCapabilities"].extensions`,
        requiredCapabilities,
      )
    : rpcError('MethodNotFound', `Method not found: ${method} (the ${tasksExtension} extension needs protocol 2026-07-28)`)

/** The refusal of a call to a tool that runs only as a task, from a client that cannot take one. */
const taskOnly = (session: Session, name: string): RpcError =>
  isModernVersion(session.protocolVersion)
    ? rpcError(
        'MissingRequiredClientCapability',
        `Missing required client capability: tool ${name} runs only as a task; declare the ${tasksExtension} extension in _meta["io.modelcontextprotocol/clientCapabilities"].extensions`,
        requiredCapabilities,
      )
    : rpcError('MethodNotFound', `Tool ${name} runs only as a task (the ${tasksExtension} extension, protocol 2026-07-28)`)
