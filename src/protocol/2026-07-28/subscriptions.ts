/**
 * `subscriptions/listen` (2026-07-28): one long-lived request whose answer is a stream of the
 * change notifications the client opted in to, each tagged with the subscription's id (the
 * request's id) in `_meta`. The server acknowledges first, with the part of the filter it
 * honours; the stream ends when the client cancels (stdio: `notifications/cancelled`; HTTP:
 * closing the response stream), or gracefully, with a result, when the channel closes.
 *
 * @example
 * import { hub, newSession, outbound } from 'emcp'
 * import { listen } from './subscriptions.js'
 * const h = hub()
 * const session = newSession('2026-07-28', outbound((m) => console.error(JSON.stringify(m))))
 * void listen(h, { tools: { listChanged: true } })({ kind: 'request', id: 1, method: 'subscriptions/listen', params: { notifications: { toolsListChanged: true } } }, session)
 * h.broadcast('notifications/tools/list_changed') // goes out with _meta: { 'io.modelcontextprotocol/subscriptionId': 1 }
 */
import * as E from 'fp-ts/lib/Either.js'
import type { Answer, Feature, ListenFilter, Screen } from '../../server/feature.js'
import type { Hub } from '../../server/hub.js'
import type { Outbound } from '../../server/outbound.js'
import { all, map } from '../../util/eventually.js'
import { isObject } from '../../util/json-object.js'
import { rpcError, type Params, type Request, type RpcError } from '../jsonrpc.js'
import type { Session } from '../../server/session.js'
import { declaresTasks, tasksExtension } from '../../features/tasks/extension.js'

/** The `_meta` key naming the subscription a notification belongs to. */
export const subscriptionIdKey = 'io.modelcontextprotocol/subscriptionId'

/** What a client may opt in to: the list changes, and the named resources and tasks a feature's screen judges. */
export interface SubscriptionFilter extends ListenFilter {
  readonly toolsListChanged?: boolean
  readonly promptsListChanged?: boolean
  readonly resourcesListChanged?: boolean
}

/**
 * Answers `subscriptions/listen` for a server with these capabilities, through its hub; each
 * of `screens` (the features') may hold back what the caller may not hear of.
 */
export const listen =
  (hub: Hub, capabilities: { readonly [key: string]: unknown }, screens: ReadonlyArray<NonNullable<Feature['screen']>> = []) =>
  (req: Request, session: Session): Answer => {
    const asked = req.params?.notifications
    if (!isObject(asked)) return E.left(rpcError('InvalidParams', 'subscriptions/listen: params.notifications must be an object'))
    if (asked.taskIds !== undefined && !declaresTasks(session))
      return E.left(
        rpcError('MissingRequiredClientCapability', `Missing required client capability: taskIds need the ${tasksExtension} extension`, {
          requiredCapabilities: { extensions: { [tasksExtension]: {} } },
        }),
      )
    const out = session.outbound
    if (out === undefined)
      return E.left(rpcError('InvalidRequest', 'subscriptions/listen needs a transport that can stream notifications (stdio, or HTTP with an SSE answer)'))
    const honoured = honour(asked, capabilities)
    // the stream's closures outlive the request by hours: they keep its id, not the request (its params may be megabytes)
    const id = req.id
    const screened = all(screens.map((screen) => screen(honoured, session)))
    return map(screened, (tests) => {
      const refused = tests.find(E.isLeft)
      if (refused !== undefined) return refused
      const passes = tests.flatMap((t) => (E.isRight(t) ? [t.right] : []))
      const wanted = wants(honoured)
      return stream(hub, id, session, out, honoured, (method, params) => wanted(method, params) && passes.every((p) => p(method, params)))
    })
  }

/** Opens the stream: the acknowledgement, then every notification `wanted` lets through, until the client or the channel ends it. */
const stream = (hub: Hub, id: Request['id'], session: Session, out: Outbound, honoured: SubscriptionFilter, wanted: Screen): Promise<E.Either<RpcError, unknown>> => {
  const tag = (params: Params | undefined): Params => ({
    ...params,
    _meta: { ...(isObject(params?._meta) ? params._meta : {}), [subscriptionIdKey]: id },
  })
  const listener: Session = {
    ...session,
    inFlight: new Map(),
    cancelled: new Set(),
    outbound: { ...out, notify: (method, params) => out.notify(method, tag(params)) },
    listens: wanted,
  }
  out.notify('notifications/subscriptions/acknowledged', tag({ notifications: honoured }))
  hub.add(listener)
  return new Promise((resolve) => {
    const end = (): void => {
      out.closed?.removeEventListener('abort', end)
      hub.remove(listener)
      session.inFlight.delete(id)
      resolve(E.right({ _meta: { [subscriptionIdKey]: id } }))
    }
    // cancelled by the client: the dispatcher drops the answer; closed channel: a graceful end
    session.inFlight.set(id, end)
    if (out.closed?.aborted === true) end()
    else out.closed?.addEventListener('abort', end, { once: true })
  })
}

/** The part of a filter the server honours: what its capabilities say it can send. */
const honour = (asked: Params, capabilities: { readonly [key: string]: unknown }): SubscriptionFilter => {
  const listChanged = (c: unknown): boolean => isObject(c) && c.listChanged === true
  const resources = capabilities.resources
  const uris = asked.resourceSubscriptions
  const taskIds = asked.taskIds
  const extensions = capabilities.extensions
  return {
    ...(Array.isArray(taskIds) && isObject(extensions) && isObject(extensions[tasksExtension])
      ? { taskIds: taskIds.filter((t): t is string => typeof t === 'string') }
      : {}),
    ...(asked.toolsListChanged === true && listChanged(capabilities.tools) ? { toolsListChanged: true } : {}),
    ...(asked.promptsListChanged === true && listChanged(capabilities.prompts) ? { promptsListChanged: true } : {}),
    ...(asked.resourcesListChanged === true && listChanged(resources) ? { resourcesListChanged: true } : {}),
    ...(Array.isArray(uris) && isObject(resources) && resources.subscribe === true
      ? { resourceSubscriptions: uris.filter((u): u is string => typeof u === 'string') }
      : {}),
  }
}

/** Which notifications a filter lets through. */
const wants =
  (f: SubscriptionFilter) =>
  (method: string, params: Params | undefined): boolean => {
    switch (method) {
      case 'notifications/tools/list_changed':
        return f.toolsListChanged === true
      case 'notifications/prompts/list_changed':
        return f.promptsListChanged === true
      case 'notifications/resources/list_changed':
        return f.resourcesListChanged === true
      case 'notifications/resources/updated':
        return typeof params?.uri === 'string' && (f.resourceSubscriptions ?? []).includes(params.uri)
      case 'notifications/tasks':
        return typeof params?.taskId === 'string' && (f.taskIds ?? []).includes(params.taskId)
      default:
        return false
    }
  }
