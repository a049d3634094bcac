/**
 * A caller's identity from the claims of a verified token: a JWT access token's payload
 * (RFC 9068) or an introspection answer (RFC 7662). Users and machine clients live in two
 * namespaces, so that a client registered as `alice` is never taken for the user `alice`: a
 * token with no `sub`, or whose `sub` is its own `client_id` (RFC 9068 §2.2, client
 * credentials), names the client `client:<client_id>`; any other token names the user `sub`,
 * written `user:<sub>` when it would otherwise begin with `client:` or `user:`. Scopes come
 * from `scope` (a space-separated string) or `scp` (a string or a list, as some providers
 * write it); roles from a `roles` list.
 *
 * @example
 * import { identityOf, scopesOf } from './claims.js'
 * scopesOf({ scope: 'calc:read calc:write' }) // ['calc:read', 'calc:write']
 * identityOf({ sub: 'alice', scope: 'calc:read', roles: ['staff'] })
 * // Right({ subject: 'alice', roles: ['staff'], scopes: ['calc:read'], claims: { ... } })
 * identityOf({ client_id: 'alice' }) // Right({ subject: 'client:alice', roles: [], scopes: [], claims: { ... } })
 */
import * as E from 'fp-ts/lib/Either.js'
import type { Identity } from '../server/session.js'

/** The scopes a claim set grants. */
export const scopesOf = (claims: { readonly [key: string]: unknown }): ReadonlyArray<string> => {
  const words = (s: string): string[] => s.split(' ').filter((w) => w !== '')
  const scope = claims['scope']
  if (typeof scope === 'string') return words(scope)
  const scp = claims['scp']
  if (typeof scp === 'string') return words(scp)
  if (Array.isArray(scp)) return scp.filter((s): s is string => typeof s === 'string')
  return []
}

/** The identity a claim set names; a Left when it names nobody. */
export const identityOf = (claims: { readonly [key: string]: unknown }): E.Either<string, Identity> => {
  const subject = subjectOf(claims['sub'], claims['client_id'])
  if (subject === undefined) return E.left('the token names no subject (neither sub nor client_id)')
  const roles = Array.isArray(claims['roles']) ? (claims['roles'] as unknown[]).filter((r): r is string => typeof r === 'string') : []
  return E.right({ subject, roles, scopes: scopesOf(claims), claims })
}

/** The subject of a token: the machine client `client:<id>`, or the user `sub` kept apart from that namespace. */
const subjectOf = (sub: unknown, clientId: unknown): string | undefined => {
  const user = typeof sub === 'string' && sub !== '' ? sub : undefined
  const client = typeof clientId === 'string' && clientId !== '' ? clientId : undefined
  if (client !== undefined && (user === undefined || user === client)) return `client:${client}`
  if (user === undefined) return undefined
  // a user whose sub looks like a client's subject (or like an escaped one) is escaped itself: the two never meet
  return user.startsWith('client:') || user.startsWith('user:') ? `user:${user}` : user
}

/** Whether an `aud` claim (a string or a list) names `audience`. */
export const audienceIncludes = (aud: unknown, audience: ReadonlyArray<string>): boolean =>
  typeof aud === 'string' ? audience.includes(aud) : Array.isArray(aud) && aud.some((a) => typeof a === 'string' && audience.includes(a))
