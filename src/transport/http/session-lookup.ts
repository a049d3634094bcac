/**
 * How a stateful endpoint's registry meets the shared store for the sessions it holds: `find`
 * gives the entry held here (on a store other replicas may use, once the store showed its
 * record within `leaseMs`, else after asking it now) or one rebuilt from the record another
 * replica wrote; `keepAlive` touches a record when due; `changed` writes a change over a
 * record that still exists; `endEverywhere` deletes the record, ends the session here, and
 * answers once no replica may still trust the record (see sessions.ts for why).
 *
 * @example
 * import { storeSide } from './session-lookup.js'
 * const side = storeSide(server, sharing, { entries, get, end, admit }, made, true)
 * const entry = await side.find(sessionId) // undefined once the session was deleted anywhere
 */
import type { ProtocolVersion } from '../../protocol/versions.js'
import type { Server } from '../../server/server.js'
import type { Identity } from '../../server/session.js'
import type { SessionRecord } from '../../stores/store.js'
import { freshRuns } from '../../util/fresh-runs.js'
import type { Admission } from './admission.js'
import type { Fixed, HttpSession } from './session-entry.js'
import { report, restore, type SessionSharing } from './shared-sessions.js'

// ---------------------------------------------------------------------------------------
// model

/** What `made` makes: a session's entry, with its own outbound. */
export type Made = (protocolVersion: ProtocolVersion, from: { readonly identity?: Identity; readonly address?: string }, fixed?: Fixed) => HttpSession

/** The registry's table of the sessions it holds, as `storeSide` uses it. */
export interface HeldSessions {
  readonly entries: ReadonlyMap<string, HttpSession>
  /** The entry of an id, its last use set to now. */
  readonly get: (id: string) => HttpSession | undefined
  /** Ends a session here; false when it was not held. */
  readonly end: (id: string) => boolean
  /** Admits an entry within the limits. */
  readonly admit: (entry: HttpSession) => Admission
}

/** A session another replica admitted that this one has no room to take over: 503, the client may try again (or reach another replica). */
export class SessionsFull extends Error {
  constructor(readonly limit: Exclude<Admission, 'admitted'>) {
    super(`Service Unavailable: this replica has no room to take the session over (${limit === 'full' ? 'too many sessions are open' : 'its caller has too many sessions'}); try again later`)
    this.name = 'SessionsFull'
  }
}

// ---------------------------------------------------------------------------------------
// constructors

/**
 * The registry's sessions as the store has them: `find` gives the entry held here (on a store
 * others use, once the store showed its record within `leaseMs`, else asked now) or one
 * rebuilt from another replica's record; `keepAlive` touches a record when due; `changed`
 * writes a change; `endEverywhere` deletes the record, then ends the session here.
 */
export const storeSide = (
  server: Server,
  sharing: SessionSharing,
  table: HeldSessions,
  made: Made,
  confirming: boolean,
) => {
  const { entries, get, end, admit } = table
  /** Ends the entry here if it is still the one held for its id. */
  const endHeld = (e: HttpSession): void => {
    if (entries.get(e.id) === e) end(e.id)
  }
  /**
   * The session as the store has it now: the entry held here once its record is confirmed
   * (ended here when the record is gone), else one rebuilt from the record another replica
   * wrote. Shared by the requests that ask before it begins, never by a later one (whose
   * DELETE elsewhere may have been answered meanwhile).
   */
  const fresh = freshRuns(async (id: string): Promise<HttpSession | undefined> => {
    const held = entries.get(id)
    if (held === undefined) {
      const since = performance.now()
      const record = await sharing.lookup(id)
      return record === undefined || entries.has(id) ? entries.get(id) : rebuilt(server, id, record, made, admit, since)
    }
    const exists = await sharing.confirm(held)
    // ended meanwhile (the bus, idle time, eviction): as unknown
    if (entries.get(id) !== held) return undefined
    if (!exists) end(id)
    return exists ? held : undefined
  })
  /** Touches the record when that is due, waiting for nothing; on a store others use, a session whose record is gone ends here. */
  const keepAlive = (e: HttpSession): void =>
    void sharing.keep(e)?.then((exists) => {
      if (!exists && confirming) endHeld(e)
    }, report)
  return {
    find: (id: string): Promise<HttpSession | undefined> => {
      const entry = get(id)
      if (entry === undefined || (confirming && !sharing.trusted(entry))) return fresh(id)
      keepAlive(entry)
      return Promise.resolve(entry)
    },
    keepAlive,
    changed: (entry: HttpSession): Promise<void> =>
      sharing.changed(entry).then((exists) => {
        if (!exists) endHeld(entry)
      }),
    endEverywhere: async (id: string): Promise<boolean> => {
      if (!entries.has(id)) return false
      // the record first: a replica asked after the answer finds it gone; a failure leaves the session whole
      await sharing.ended(id)
      const deleted = performance.now()
      end(id)
      // a replica that trusts what the store showed before the delete stops trusting it before the answer
      if (confirming) await sharing.outlive(deleted)
      return true
    },
  }
}

// ---------------------------------------------------------------------------------------
// internals

/** A session rebuilt from another replica's record (read in a store call begun at `since`) and admitted here; a replica at its limits cannot take it over, but the session exists: 503 (`SessionsFull`), not 404. */
const rebuilt = (
  server: Server,
  id: string,
  record: SessionRecord,
  made: Made,
  admit: (entry: HttpSession) => Admission,
  since: number,
): HttpSession => {
  const entry = made(record.protocolVersion as ProtocolVersion, { identity: record.identity }, { id, owner: record.owner, idPrefix: `emcp-${crypto.randomUUID().slice(0, 8)}-` })
  restore(entry.session, record)
  entry.sharedKey = undefined
  entry.sharedAt = Date.now()
  entry.confirmedAt = since
  const admitted = admit(entry)
  if (admitted !== 'admitted') throw new SessionsFull(admitted)
  if (entry.session.initialized || entry.session.clientCapabilities !== undefined) server.hub.add(entry.session)
  return entry
}
