/**
 * The sessions a server can reach on their own initiative: those whose transport gave them
 * a channel to the client (stdio, stateful HTTP). Notifications that concern every client,
 * such as `notifications/tools/list_changed`, go out through here.
 *
 * @example
 * import { hub, newSession, outbound } from 'emcp'
 * const h = hub()
 * const s = newSession(undefined, outbound((m) => console.error(JSON.stringify(m))))
 * h.add(s)
 * h.broadcast('notifications/tools/list_changed')
 */
import type { Params } from '../protocol/jsonrpc.js'
import type { Session } from './session.js'

// ---------------------------------------------------------------------------------------
// model

/** The reachable sessions of one server. */
export interface Hub {
  /** Starts reaching a session (the dispatcher does this on `initialize`). */
  readonly add: (session: Session) => void
  /** Stops reaching a session (its transport closed). */
  readonly remove: (session: Session) => void
  /** Sends a notification to every session, or to those `to` picks. */
  readonly broadcast: (method: string, params?: Params, to?: (session: Session) => boolean) => void
  /** How many sessions are reachable now. */
  readonly size: () => number
}

// ---------------------------------------------------------------------------------------
// constructors

/** An empty hub. */
export const hub = (): Hub => {
  const sessions = new Set<Session>()
  return {
    add: (session) => {
      if (session.outbound !== undefined) sessions.add(session)
    },
    remove: (session) => {
      sessions.delete(session)
    },
    broadcast: (method, params, to) => {
      for (const s of sessions)
        if (s.listens !== undefined ? s.listens(method, params) : to === undefined || to(s)) s.outbound?.notify(method, params)
    },
    size: () => sessions.size,
  }
}

// ---------------------------------------------------------------------------------------
// functions

/** The hubs of the servers a feature is plugged into, held weakly: a dropped server is forgotten. */
export const hubsOf = () => {
  const refs = new Set<WeakRef<Hub>>()
  return {
    add: (hub: Hub): void => {
      refs.add(new WeakRef(hub))
    },
    broadcast: (...args: Parameters<Hub['broadcast']>): void => {
      for (const ref of refs) {
        const hub = ref.deref()
        if (hub === undefined) refs.delete(ref)
        else hub.broadcast(...args)
      }
    },
  }
}
