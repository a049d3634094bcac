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
import { scopesProblem } from '../util/scope-token.js'

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

/** Checks declared scopes where a prompt or resource is defined (tools: in the tool list); throws a TypeError naming `what`. */
export const checkScopes = (what: string, scopes: unknown): void => {
  const problem = scopesProblem(scopes)
  if (problem !== undefined) throw new TypeError(`emcp: ${what}: ${problem}`)
}

// ---------------------------------------------------------------------------------------
// internals

const none: ReadonlyArray<string> = []
