/**
 * Who a request speaks for, as a short opaque key: what tasks are bound to (their creator)
 * and what a 2026-07-28 `requestState` is bound to (its caller). An authenticated caller is
 * its identity, the issuer and the subject of its token (two issuers may hand out the same
 * subject); without authentication, a 2025-11-25 session is its `MCP-Session-Id`; anything
 * else is nobody in particular (undefined). Keys are SHA-256 hashes: they name no user and
 * leak no session id to a shared store or a client-held state.
 *
 * @example
 * import { callerOf, ownerOf } from './principal.js'
 * const alice = { identity: { subject: 'alice', roles: [], claims: { iss: 'https://id.example' } } }
 * callerOf(alice)                               // 'u:…' (the same for every token of alice from that issuer)
 * ownerOf({ identity: undefined, id: 'f3c1' })  // 's:…' (the session)
 * ownerOf({ identity: undefined })              // undefined: an anonymous 2026-07-28 request
 */
import { base64url, utf8 } from '../util/bytes.js'
import { sha256 } from '../util/sha256.js'
import type { Identity, Session } from './session.js'

// ---------------------------------------------------------------------------------------
// functions

/** The key of an authenticated caller (issuer and subject); undefined for an anonymous one. */
export const callerOf = (session: Pick<Readonly<Session>, 'identity'>): string | undefined =>
  session.identity === undefined ? undefined : identityKey(session.identity)

/** The key of whoever a task created by this request belongs to: the caller, else the session, else undefined. */
export const ownerOf = (session: Pick<Readonly<Session>, 'identity' | 'id'>): string | undefined =>
  callerOf(session) ?? (session.id === undefined ? undefined : `s:${hash(['session', session.id])}`)

// ---------------------------------------------------------------------------------------
// internals

/** Keys already computed, by identity object: one hash per verified token, not one per use. */
const keys = new WeakMap<Identity, string>()

const identityKey = (identity: Identity): string => {
  const known = keys.get(identity)
  if (known !== undefined) return known
  const iss = identity.claims?.iss
  // the issuer takes part so that one subject from two trusted issuers stays two principals
  const key = `u:${hash(['identity', typeof iss === 'string' ? iss : null, identity.subject])}`
  keys.set(identity, key)
  return key
}

/** A hash of the parts, each unambiguous (JSON): no two lists of parts give the same text. */
const hash = (parts: ReadonlyArray<string | null>): string => base64url(sha256(utf8(JSON.stringify(parts))))
