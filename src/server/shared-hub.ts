/**
 * A hub that reaches the clients of every replica: a broadcast goes to this server's sessions
 * as before, and, for the notifications that concern other replicas' clients (list_changed,
 * resources/updated, the tasks extension's notifications/tasks), onto the shared store's bus;
 * what another replica published there goes to this server's sessions. A broadcast meant for
 * every session (`to` absent) reaches every session on the other side too; one meant for some
 * sessions (`to` is a predicate, which cannot travel) reaches the `subscriptions/listen`
 * streams there, which choose for themselves, and, for `resources/updated`, the sessions there
 * subscribed to its URI. Delivery follows the bus: at most once.
 *
 * @example
 * import { hub, memoryStore } from 'emcp'
 * import { sharedHub } from './shared-hub.js'
 * const store = memoryStore()
 * const a = sharedHub(hub(), store.bus)
 * const b = sharedHub(hub(), store.bus)
 * a.broadcast('notifications/tools/list_changed') // b's sessions hear it too
 */
import type { Params } from '../protocol/jsonrpc.js'
import { isObject } from '../util/json-object.js'
import { channels, type Bus, type BusMessage } from '../stores/store.js'
import type { Hub } from './hub.js'
import type { Session } from './session.js'

// ---------------------------------------------------------------------------------------
// constructors

/** `local` with its broadcasts shared through `bus` (see the module comment). */
export const sharedHub = (local: Hub, bus: Bus): Hub => {
  // made on first use: reading `crypto` loads Web Crypto, which a server's startup does not otherwise need
  let origin: string | undefined
  const ours = (): string => (origin ??= crypto.randomUUID())
  const heard = (m: BusMessage): void => {
    if (!isObject(m) || m.origin === ours() || typeof m.method !== 'string' || !shared.has(m.method)) return
    const params = isObject(m.params) ? (m.params as Params) : undefined
    local.broadcast(m.method, params, m.all === true ? undefined : some(m.method, params))
  }
  bus.subscribe(channels.notify, heard).catch((e: unknown) => report('subscribe to', e))
  return {
    ...local,
    broadcast: (method, params, to) => {
      local.broadcast(method, params, to)
      if (!shared.has(method)) return
      const message = { origin: ours(), method, all: to === undefined, ...(params === undefined ? {} : { params: params as BusMessage }) }
      bus.publish(channels.notify, message).catch((e: unknown) => report('publish on', e))
    },
  }
}

// ---------------------------------------------------------------------------------------
// internals

/**
 * Whom a broadcast meant for some sessions reaches here: for `resources/updated`, the sessions
 * subscribed to its URI (their subscriptions live on the session, restored from the shared
 * record on a takeover); for anything else, none but the listen streams.
 */
const some = (method: string, params: Params | undefined): ((s: Session) => boolean) => {
  const uri = params?.uri
  return method === 'notifications/resources/updated' && typeof uri === 'string' ? (s) => s.resourceSubscriptions?.has(uri) === true : () => false
}

/** The notifications other replicas' clients may be waiting for. */
const shared = new Set([
  'notifications/tools/list_changed',
  'notifications/prompts/list_changed',
  'notifications/resources/list_changed',
  'notifications/resources/updated',
  'notifications/tasks',
])

/** A bus failure costs other replicas this notification (MCP lets notifications go undelivered); it is reported, never thrown at the broadcaster. */
const report = (what: string, e: unknown): void => {
  console.error(`emcp: could not ${what} the shared store's bus (${channels.notify}): ${e instanceof Error ? e.message : String(e)}`)
}
