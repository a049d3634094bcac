/**
 * Who makes room when a new session would pass a limit. The per-caller limit comes first: a
 * caller at its limit gives up its own least recently used idle session, or is refused
 * (429). Then the global cap: the least recently used idle session makes room, anonymous
 * ones first; with none idle, the least recently used session of the caller that holds the
 * most. An anonymous newcomer never ends an authenticated session, and takes a busy session
 * only from a caller that holds more than it will; an authenticated newcomer may end any
 * anonymous session, and an authenticated one only on the same terms. Otherwise: 503.
 *
 * @example
 * import { room } from './admission.js'
 * const r = room(entry, registry, { maxSessions: 1000, maxSessionsPerCaller: 100 })
 * // [] (it fits), [someSession] (end it first), 'caller-limit' or 'full'
 */
import type { HttpSession } from './sessions.js'

// ---------------------------------------------------------------------------------------
// model

/** The outcome of admitting a session. */
export type Admission = 'admitted' | 'caller-limit' | 'full'

/** The sessions a registry holds, as admission sees them. */
export interface Held {
  readonly entries: ReadonlyMap<string, HttpSession>
  /** The sessions of each caller key. */
  readonly byCaller: ReadonlyMap<string, ReadonlySet<HttpSession>>
}

// ---------------------------------------------------------------------------------------
// functions

/** A session with no stream open: it may be ended to make room, and its idle time runs. */
export const isIdle = (e: HttpSession): boolean => e.streams.size === 0 && e.standalone === undefined && e.gets.size === 0

/** The sessions to end so that `newcomer` fits (none when it fits as is), or the limit that refuses it. */
export const room = (
  newcomer: HttpSession,
  held: Held,
  limits: { readonly maxSessions: number; readonly maxSessionsPerCaller: number },
): ReadonlyArray<HttpSession> | 'caller-limit' | 'full' => {
  const key = newcomer.caller.key
  const mine = key === undefined ? undefined : held.byCaller.get(key)
  const victims: HttpSession[] = []
  if (limits.maxSessionsPerCaller > 0 && mine !== undefined && mine.size >= limits.maxSessionsPerCaller) {
    const own = leastRecent(mine, isIdle)
    if (own === undefined) return 'caller-limit'
    victims.push(own)
  }
  if (held.entries.size - victims.length < limits.maxSessions) return victims
  const other = globalVictim(newcomer, mine?.size ?? 0, held)
  return other === undefined ? 'full' : [...victims, other]
}

// ---------------------------------------------------------------------------------------
// internals

/** The session that makes room under the global cap, or undefined when none may. */
const globalVictim = (newcomer: HttpSession, newcomerHolds: number, held: Held): HttpSession | undefined => {
  const mayEnd = (e: HttpSession): boolean => newcomer.caller.authenticated || !e.caller.authenticated
  const idle =
    leastRecent(held.entries.values(), (e) => isIdle(e) && !e.caller.authenticated) ??
    leastRecent(held.entries.values(), (e) => isIdle(e) && mayEnd(e))
  if (idle !== undefined) return idle
  // none idle: the caller holding the most gives up its least recently used session
  const anonymous = largest(held, (set, first) => !first.caller.authenticated && (newcomer.caller.authenticated || set.size > newcomerHolds + 1))
  const chosen = anonymous ?? (newcomer.caller.authenticated ? largest(held, (set, first) => first.caller.authenticated && set.size > newcomerHolds + 1) : undefined)
  return chosen === undefined ? undefined : leastRecent(chosen, () => true)
}

/** The largest caller's sessions among those `ok` accepts. */
const largest = (held: Held, ok: (set: ReadonlySet<HttpSession>, first: HttpSession) => boolean): ReadonlySet<HttpSession> | undefined => {
  let best: ReadonlySet<HttpSession> | undefined
  for (const set of held.byCaller.values()) {
    const first = set.values().next().value
    if (first !== undefined && ok(set, first) && (best === undefined || set.size > best.size)) best = set
  }
  return best
}

/** The least recently used of `sessions` that `ok` accepts. */
const leastRecent = (sessions: Iterable<HttpSession>, ok: (e: HttpSession) => boolean): HttpSession | undefined => {
  let oldest: HttpSession | undefined
  for (const e of sessions) if (ok(e) && (oldest === undefined || e.lastSeen < oldest.lastSeen)) oldest = e
  return oldest
}
