/**
 * A stateful HTTP session across replicas, through the server's shared store: its record is
 * written when it is admitted and whenever what a replica needs of it changes (initialized,
 * log level, identity), read by a replica that gets a request for a session it does not hold,
 * kept alive while used, and deleted by DELETE before DELETE is answered. The record is the
 * truth: the bus message that tells the replicas a session ended arrives when it arrives (or
 * not at all), so a replica that holds a session confirms its record before it serves a
 * request (`confirm`: one store call, which keeps the record alive when that is due), unless
 * the store showed the record less than `leaseMs` ago (`trusted`); DELETE then answers
 * `leaseMs` after the delete (`outlive`). A write after a change never makes a deleted record
 * again (`replace`). A client's answer to a server-to-client request that reaches a replica
 * whose call does not wait for it goes on the bus to the replica whose call does.
 *
 * @example
 * import { sessionSharing } from './shared-sessions.js'
 * const sharing = sessionSharing(server.store, { idleMs: 600_000, onEnded: (id) => registry.end(id), onAnswer: (id, r) => settleHere(id, r) })
 * await sharing.share(entry) // after admitting it
 * await sharing.confirm(entry) // false once the session was deleted anywhere
 */
import type { Response } from '../../protocol/jsonrpc.js'
import { isObject } from '../../util/json-object.js'
import type { Session } from '../../server/session.js'
import { channels, storeCall, type BusMessage, type SessionRecord, type SharedStore } from '../../stores/store.js'

// ---------------------------------------------------------------------------------------
// model

/** What a session needs of the store; `entry` is the registry's own (see sessions.ts). */
export interface SessionSharing {
  /** Writes the session's record (on admission). Rejects with a `StoreUnavailable`. */
  readonly share: (entry: Shared) => Promise<void>
  /** Writes the record again when what other replicas need of it changed: false when it is gone (deleted elsewhere); a failure is reported (the answer is already given). */
  readonly changed: (entry: Shared) => Promise<boolean>
  /** The record of a session another replica admitted. Rejects with a `StoreUnavailable`. */
  readonly lookup: (id: string) => Promise<SessionRecord | undefined>
  /**
   * Keeps the record alive while the session is used: undefined when that is not due yet (at
   * most four writes per idle time), else true, or false when the record is gone. Rejects
   * with a `StoreUnavailable`.
   */
  readonly keep: (entry: Shared) => Promise<boolean> | undefined
  /** True while the record exists, read from the store now (a `keep` when one is due, else a read). Rejects with a `StoreUnavailable`. */
  readonly confirm: (entry: Shared) => Promise<boolean>
  /** True when the store showed the record less than `leaseMs` ago: a DELETE answered since then waits until then is `leaseMs` past. */
  readonly trusted: (entry: Shared) => boolean
  /** Resolves once no replica trusts a record the store showed before `since` (a `performance.now()`): `leaseMs` after it, and 5% more for clocks that run apart. */
  readonly outlive: (since: number) => Promise<void>
  /** Deletes the record, then tells every replica the session ended. Rejects with a `StoreUnavailable` when the record could not be deleted. */
  readonly ended: (id: string) => Promise<void>
  /** Tells the other replicas that a stream of the session was resumed here: they stop writing to it. */
  readonly moved: (id: string, streamId: string) => void
  /** Sends a client's answer that no call here waits for to the replica whose call does. */
  readonly answer: (id: string, response: Response) => void
}

/** What sharing reads of a registry entry. */
export interface Shared {
  readonly id: string
  readonly owner: string
  readonly session: Session
  /** What was last written of the fields that change (undefined: never written). */
  sharedKey?: string
  /** When the record was last written or touched. */
  sharedAt?: number
  /** When (`performance.now()`) the latest store call that found the record began. */
  confirmedAt?: number
}

// ---------------------------------------------------------------------------------------
// constructors

/**
 * Sharing through `store`; `onEnded` and `onAnswer` act on this replica's entries for what
 * other replicas said; `others`: other processes may use the store (then a write after a
 * change replaces a record that exists only).
 */
export const sessionSharing = (
  store: SharedStore,
  options: {
    readonly idleMs: number
    readonly leaseMs: number
    readonly others: boolean
    readonly onEnded: (id: string) => void
    readonly onAnswer: (id: string, response: Response) => void
    readonly onMoved: (id: string, streamId: string) => void
  },
): SessionSharing => {
  const origin = crypto.randomUUID()
  const { idleMs, leaseMs } = options
  /** The record written (`replace`: only over one that exists); false when there was none. */
  const write = (entry: Shared, how: 'put' | 'replace'): Promise<boolean> => {
    const key = keyOf(entry.session)
    const since = performance.now()
    const record = recordOf(entry)
    return storeCall('sessions: write the session', () => (how === 'put' ? store.sessions.put(record, idleMs).then(() => true) : store.sessions.replace(record, idleMs))).then((exists) => {
      if (exists) Object.assign(entry, { sharedKey: key, sharedAt: Date.now() }, confirmed(entry, since))
      return exists
    })
  }
  const heard = (channel: string) => (m: BusMessage) => {
    if (!isObject(m) || m.origin === origin || typeof m.session !== 'string') return
    if (channel === channels.sessions) {
      if (typeof m.stream === 'string') options.onMoved(m.session, m.stream)
      else options.onEnded(m.session)
    }
    else if (isObject(m.response)) options.onAnswer(m.session, m.response as unknown as Response)
  }
  for (const channel of [channels.sessions, channels.answers]) store.bus.subscribe(channel, heard(channel)).catch(report)
  const lookup = (id: string): Promise<SessionRecord | undefined> => storeCall('sessions: read the session', () => store.sessions.get(id))
  const keep = (entry: Shared): Promise<boolean> | undefined => {
    const now = Date.now()
    const before = entry.sharedAt
    if (before !== undefined && now - before < idleMs / 4) return undefined
    // marked before the write, so that the requests meanwhile do not write too; put back when it fails
    entry.sharedAt = now
    const since = performance.now()
    return storeCall('sessions: keep the session alive', () => store.sessions.touch(entry.id, idleMs)).then(
      (exists) => {
        if (exists) Object.assign(entry, confirmed(entry, since))
        return exists
      },
      (e: unknown) => {
        if (entry.sharedAt === now) entry.sharedAt = before
        throw e
      },
    )
  }
  const read = (entry: Shared): Promise<boolean> => {
    const since = performance.now()
    return lookup(entry.id).then((record) => {
      if (record !== undefined) Object.assign(entry, confirmed(entry, since))
      return record !== undefined
    })
  }
  return {
    share: (entry) => write(entry, 'put').then(() => undefined),
    // on a store others use, a plain put could bring back a record deleted meanwhile
    changed: (entry) => (entry.sharedKey === keyOf(entry.session) ? Promise.resolve(true) : write(entry, options.others ? 'replace' : 'put').catch((e: unknown) => (report(e), true))),
    lookup,
    keep,
    // a touch answers whether the record exists as a read does: one store call either way
    confirm: (entry) => keep(entry) ?? read(entry),
    trusted: (entry) => entry.confirmedAt !== undefined && performance.now() - entry.confirmedAt < leaseMs,
    outlive: (since) => until(since + leaseMs * 1.05),
    // the record goes first: once DELETE is answered no replica finds it; the bus only hurries the replicas that hold the session
    ended: async (id) => {
      await storeCall('sessions: delete the session', () => store.sessions.delete(id))
      storeCall('sessions: tell the replicas', () => store.bus.publish(channels.sessions, { origin, session: id })).catch(report)
    },
    moved: (id, streamId) => {
      storeCall('sessions: tell the replicas', () => store.bus.publish(channels.sessions, { origin, session: id, stream: streamId })).catch(report)
    },
    answer: (id, response) => {
      storeCall('sessions: route an answer', () => store.bus.publish(channels.answers, { origin, session: id, response: response as unknown as BusMessage })).catch(report)
    },
  }
}

// ---------------------------------------------------------------------------------------
// functions

/** The record of a session, as another replica needs it. */
export const recordOf = (entry: Shared): SessionRecord => {
  const s = entry.session
  return {
    id: entry.id,
    owner: entry.owner,
    protocolVersion: s.protocolVersion,
    clientInfo: s.clientInfo,
    clientCapabilities: s.clientCapabilities,
    initialized: s.initialized,
    identity: s.identity,
    logLevel: s.logLevel,
    subscriptions: [...(s.resourceSubscriptions ?? [])],
  }
}

/** Fills a fresh session with what its record says. */
export const restore = (session: Session, record: SessionRecord): void => {
  session.protocolVersion = record.protocolVersion
  session.clientInfo = record.clientInfo
  session.clientCapabilities = record.clientCapabilities
  session.initialized = record.initialized
  session.logLevel = record.logLevel
  session.identity = record.identity
  session.resourceSubscriptions = record.subscriptions.length === 0 ? undefined : new Set(record.subscriptions)
}

/** The `confirmedAt` of an entry the store showed in a call begun at `since` (never moved back). */
const confirmed = (entry: Shared, since: number): Pick<Shared, 'confirmedAt'> => ({ confirmedAt: Math.max(entry.confirmedAt ?? since, since) })

/** Resolves once `performance.now()` has reached `deadline`: a timer alone may fire early, by the time its loop turn began. */
const until = async (deadline: number): Promise<void> => {
  for (let left = deadline - performance.now(); left > 0; left = deadline - performance.now()) await new Promise((resolve) => setTimeout(resolve, Math.ceil(left)))
}

/** Reports a store failure that costs other replicas a fresh view, when the request at hand has its answer already. */
export const report = (e: unknown): void => {
  console.error(`emcp: ${e instanceof Error ? e.message : String(e)}`)
}

// ---------------------------------------------------------------------------------------
// internals

/** The fields that change after initialize; the identity by subject and roles (a request with auth brings a fresh object each time); the resource subscriptions. */
const keyOf = (s: Session): string =>
  `${s.initialized ? 1 : 0}|${s.logLevel ?? ''}|${s.identity === undefined ? '' : JSON.stringify([s.identity.subject, s.identity.roles])}|${JSON.stringify([...(s.resourceSubscriptions ?? [])])}`
