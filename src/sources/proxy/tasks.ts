/**
 * The tasks extension (`io.modelcontextprotocol/tasks`, MCP 2026-07-28) relayed: when the
 * upstream, reached the 2026 way, declares it, the proxy declares it too. A `tools/call`
 * from a client that declares the extension is passed on declaring it (per request, as the
 * client did), and the upstream's `CreateTaskResult` comes back as it came (its task id, its
 * status, its `ttlMs`); `tasks/get`, `tasks/update` and `tasks/cancel` are passed on by task
 * id, and the upstream's `notifications/tasks` reach the `subscriptions/listen` streams that
 * name the task. The upstream sees one client, the proxy; the proxy keeps whose each task is
 * (server/principal.ts: the caller's identity, else its session), so that a client reaches
 * only the tasks created through its own calls: any other id is unknown (-32602), and is
 * never sent upstream.
 *
 * @example
 * import { taskRelay } from './tasks.js'
 * // const relay = taskRelay(up)   // up made with { wrapTransport: (t) => relay.tap.wrap(t) }
 * // mcpServer(tools, info, { features: [relay.feature(client.getServerCapabilities() ?? {})] })
 */
import * as E from 'fp-ts/lib/Either.js'
import type { McpSubscription } from '@modelcontextprotocol/client'
import type { AnyTool } from '../../contract/emcp.js'
import type { Feature, FeatureFactory, MethodHandler } from '../../server/feature.js'
import type { Hub } from '../../server/hub.js'
import type { Session } from '../../server/session.js'
import { ownerOf } from '../../server/principal.js'
import { rpcError, type Params, type RpcError } from '../../protocol/jsonrpc.js'
import { declaresTasks, tasksExtension, undeclared } from '../../features/tasks/extension.js'
import { belongs, maxListenTaskIds } from '../../features/tasks/owner.js'
import { isObject } from '../../util/json-object.js'
import { map } from '../../util/eventually.js'
import { clip } from '../../util/clip.js'
import { asItCame, taskTap, type TaskTap } from './tap.js'
import { relayed } from './relay.js'
import { withOwnMeta, withUpstreamMeta } from './meta.js'
import type { Upstream } from './upstream.js'

// ---------------------------------------------------------------------------------------
// model

/** The relay of the tasks extension of one proxy. */
export interface TaskRelay {
  /** The tap the upstream's transports go through (task results, task notifications). */
  readonly tap: TaskTap
  /** The feature, declared as the upstream declares the extension: its capability, its methods, the takeover of relayed calls, the listen screen. */
  readonly feature: (upstreamCapabilities: { readonly [key: string]: unknown }) => FeatureFactory
  /** Marks a tool as relayed: only its calls are passed on as task calls. */
  readonly relays: (tool: AnyTool) => void
  /**
   * Records the upstream's `CreateTaskResult` for the call running on `session` (the one the
   * takeover gave the handler): the task is that caller's; false when the task is not one the
   * proxy can relay (its id is not a string of at most `maxTaskIdLength` characters).
   */
  readonly created: (session: Readonly<Session>, task: { readonly [key: string]: unknown }) => boolean
  /** Forgets the upstream listen streams of a lost connection: a later stream naming their tasks listens again. */
  readonly reconnected: () => void
}

/** The longest task id relayed: ids are the upstream's, and every client request names one. */
export const maxTaskIdLength = 1024

/** The most tasks whose owners the proxy keeps at once (the oldest is forgotten first). */
export const maxRelayedTasks = 10_000

/** How long a task's owner is kept when the upstream gives the task no `ttlMs` (24 h). */
const defaultKeepMs = 86_400_000

// ---------------------------------------------------------------------------------------
// constructors

/** The relay of the tasks extension through `up` (nothing is asked of it before a request). */
export const taskRelay = (up: Upstream): TaskRelay => {
  const hubs: Hub[] = []
  const owners = ownerTable()
  const listening = upstreamListens(up)
  const tap = taskTap((status) => {
    if (typeof status.taskId !== 'string' || !owners.known(status.taskId)) return
    listening.heard(status)
    for (const h of hubs) h.broadcast('notifications/tasks', withOwnMeta(status), () => false)
  })
  const relayedTools = new WeakSet<AnyTool>()
  const handedOver = new WeakMap<Readonly<Session>, { readonly [key: string]: unknown }>()

  const feature = (upstreamCapabilities: { readonly [key: string]: unknown }): FeatureFactory => (hub): Feature => {
    hubs.push(hub)
    const extensions = upstreamCapabilities.extensions
    const settings = isObject(extensions) && isObject(extensions[tasksExtension]) ? extensions[tasksExtension] : undefined
    if (settings === undefined) return { capabilities: {}, methods: {} }
    const call: Feature['call'] = (c) => {
      if (!relayedTools.has(c.tool) || !declaresTasks(c.session)) return undefined
      // a session of the call's own: the handler hands the upstream's task over through it
      const own: Session = { ...c.session }
      return map(c.run(own), (result) => E.right(handedOver.get(own) ?? result))
    }
    return {
      capabilities: { extensions: { [tasksExtension]: settings } },
      methods: { 'tasks/get': pass('tasks/get', up, owners), 'tasks/update': pass('tasks/update', up, owners), 'tasks/cancel': pass('tasks/cancel', up, owners) },
      call,
      screen: (filter, session) => listening.screen(filter.taskIds ?? [], ownerOf(session), owners),
    }
  }
  return {
    tap,
    feature,
    relays: (tool) => void relayedTools.add(tool),
    created: (session, task) => {
      const { taskId } = task
      if (typeof taskId !== 'string' || taskId.length === 0 || taskId.length > maxTaskIdLength) return false
      owners.add(taskId, ownerOf(session), typeof task.ttlMs === 'number' ? task.ttlMs : undefined)
      handedOver.set(session, withOwnMeta(task))
      return true
    },
    reconnected: () => listening.reset(),
  }
}

// ---------------------------------------------------------------------------------------
// internals

/** Whose each relayed task is, until its TTL passes (or room is needed: the oldest goes first). */
const ownerTable = () => {
  const tasks = new Map<string, { readonly owner: string | undefined; readonly until: number }>()
  const live = (taskId: string) => {
    const t = tasks.get(taskId)
    if (t === undefined || t.until > Date.now()) return t
    tasks.delete(taskId)
    return undefined
  }
  return {
    add: (taskId: string, owner: string | undefined, ttlMs: number | undefined): void => {
      tasks.delete(taskId)
      tasks.set(taskId, { owner, until: Date.now() + (ttlMs !== undefined && ttlMs > 0 ? Math.min(ttlMs, defaultKeepMs) : defaultKeepMs) })
      if (tasks.size > maxRelayedTasks) tasks.delete(tasks.keys().next().value as string)
    },
    /** True when `taskId` is a relayed task `caller` may reach. */
    mine: (taskId: string, caller: string | undefined): boolean => {
      const t = live(taskId)
      return t !== undefined && belongs(t.owner, caller)
    },
    known: (taskId: string): boolean => live(taskId) !== undefined,
  }
}
type Owners = ReturnType<typeof ownerTable>


/** A `tasks/*` method passed on to the upstream for the caller's own tasks; the rest are unknown ones. */
const pass =
  (method: string, up: Upstream, owners: Owners): MethodHandler =>
  (req, session) => {
    if (!declaresTasks(session)) return E.left(undeclared(session, method))
    const taskId = req.params?.taskId
    if (typeof taskId !== 'string') return E.left(rpcError('InvalidParams', `${method}: params.taskId must be a string`))
    // someone else's task, and an id too long to be one, take the path of an unknown one: nothing goes upstream
    if (taskId.length > maxTaskIdLength || !owners.mine(taskId, ownerOf(session)))
      return E.left(rpcError('UnknownTask', `${method}: no task ${JSON.stringify(clip(taskId))} (unknown, or expired)`))
    return relayed(
      up,
      method,
      async () => {
        const c = await up.client()
        return c.request({ method, params: withUpstreamMeta(withOwnMeta(req.params as Params), c, { session }) }, asItCame)
      },
      // a task's own fields (ttlMs among them) are kept; only the protocol's _meta keys go
      (r) => (isObject(r) ? withOwnMeta(r) : r),
    )
  }

/**
 * The upstream's listen streams for the relayed tasks that downstream streams name: one
 * upstream stream per screened downstream stream's new ids, closed once every task it names
 * has ended; at most `maxListened` ids at once (beyond, polling still works).
 */
const upstreamListens = (up: Upstream) => {
  const streams = new Map<string, { readonly sub: McpSubscription; readonly open: Set<string> }>()
  const screen = async (asked: ReadonlyArray<string>, caller: string | undefined, owners: Owners): Promise<E.Either<RpcError, (method: string, params: Params | undefined) => boolean>> => {
    const ids = [...new Set(asked)]
    if (ids.length > maxListenTaskIds)
      return E.left(rpcError('InvalidParams', `subscriptions/listen: taskIds names ${ids.length} tasks; at most ${maxListenTaskIds} per stream (open another stream for more)`))
    const mine = new Set(ids.filter((id) => owners.mine(id, caller)))
    const fresh = [...mine].filter((id) => !streams.has(id)).slice(0, Math.max(0, maxListened - streams.size))
    if (fresh.length > 0) {
      const opened = await relayed(up, 'subscriptions/listen', async () => (await up.client()).listen({ taskIds: fresh } as never))
      if (E.isLeft(opened)) return opened
      const entry = { sub: opened.right as McpSubscription, open: new Set(fresh) }
      for (const id of fresh) streams.set(id, entry)
    }
    return E.right((method, params) => method !== 'notifications/tasks' || (typeof params?.taskId === 'string' && mine.has(params.taskId)))
  }
  /** A status heard: an ended task's upstream stream is closed once none of its tasks runs. */
  const heard = (status: { readonly [key: string]: unknown }): void => {
    const id = status.taskId as string
    if (status.status !== 'completed' && status.status !== 'failed' && status.status !== 'cancelled') return
    const entry = streams.get(id)
    if (entry === undefined) return
    streams.delete(id)
    entry.open.delete(id)
    if (entry.open.size === 0) void entry.sub.close().catch(() => {})
  }
  return { screen, heard, reset: () => streams.clear() }
}

/** The most relayed task ids upstream listen streams name at once. */
const maxListened = 1000
