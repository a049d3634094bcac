/**
 * OAuth scopes on what a server offers (tools, prompts, resources, resource templates): which
 * of a thing's scopes the caller's token lacks, and the refusal a request for it gets
 * (-32003 `insufficient_scope`, which an HTTP transport answers with 403 and a Bearer
 * challenge naming the scopes).
 *
 * @example
 * import { missingScopes } from './scopes.js'
 * missingScopes({ scopes: ['docs:read'] }, { identity: { subject: 'a', roles: [], scopes: [] } }) // ['docs:read']
 */
import { insufficientScope, type RpcError } from '../protocol/jsonrpc.js'
import type { Session } from './session.js'

// ---------------------------------------------------------------------------------------
// model

/** Anything that may declare scopes: a caller's token must grant all of them to see and use it. */
export interface Scoped {
  readonly scopes?: ReadonlyArray<string>
}

// ---------------------------------------------------------------------------------------
// functions

/** Whether a thing declares scopes. */
export const isScoped = (t: Scoped): boolean => t.scopes !== undefined && t.scopes.length > 0

/** The scopes of a thing the session's identity does not hold (all of them for an anonymous caller). */
export const missingScopes = (t: Scoped, session: Pick<Readonly<Session>, 'identity'>): ReadonlyArray<string> => {
  if (!isScoped(t)) return none
  const held = session.identity?.scopes ?? none
  return (t.scopes as ReadonlyArray<string>).filter((s) => !held.includes(s))
}

/** Whether the session's identity holds every scope the thing declares. */
export const scopesHeld = (t: Scoped, session: Pick<Readonly<Session>, 'identity'>): boolean => missingScopes(t, session).length === 0

/** The refusal of a request for `what` (e.g. `prompt review`) when the caller lacks some of its scopes; undefined when it holds them. */
export const scopeRefusal = (what: string, t: Scoped, session: Pick<Readonly<Session>, 'identity'>): RpcError | undefined => {
  const missing = missingScopes(t, session)
  return missing.length === 0 ? undefined : insufficientScope(`Forbidden: ${what} needs the scope ${missing.join(' ')}`, t.scopes ?? missing)
}

/**
 * Checks declared scopes where something is defined: a list of RFC 6749 scope tokens
 * (printable ASCII without space, `"` or `\`), so that a typo fails at start-up rather than
 * hiding the thing from every caller.
 */
export const checkScopes = (what: string, scopes: unknown): void => {
  if (scopes === undefined) return
  if (!Array.isArray(scopes) || !scopes.every((s) => typeof s === 'string' && scopeToken.test(s)))
    throw new TypeError(`emcp: ${what}: scopes must be a list of OAuth scope names (printable ASCII, no space, quote or backslash), got ${JSON.stringify(scopes)?.slice(0, 200)}`)
}

// ---------------------------------------------------------------------------------------
// internals

const none: ReadonlyArray<string> = []

/** RFC 6749 §3.3: scope-token = 1*( %x21 / %x23-5B / %x5D-7E ). */
const scopeToken = /^[\x21\x23-\x5B\x5D-\x7E]+$/
