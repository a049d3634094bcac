/**
 * A caller's identity from the claims of a verified token: a JWT access token's payload
 * (RFC 9068) or an introspection answer (RFC 7662). The subject is `sub` (a machine client's
 * token may name only `client_id`); scopes come from `scope` (a space-separated string) or
 * `scp` (a string or a list, as some providers write it); roles from a `roles` list.
 *
 * @example
 * import { identityOf, scopesOf } from './claims.js'
 * scopesOf({ scope: 'calc:read calc:write' }) // ['calc:read', 'calc:write']
 * identityOf({ sub: 'alice', scope: 'calc:read', roles: ['staff'] })
 * // Right({ subject: 'alice', roles: ['staff'], scopes: ['calc:read'], claims: { ... } })
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
  const sub = claims['sub']
  const clientId = claims['client_id']
  const subject = typeof sub === 'string' && sub !== '' ? sub : typeof clientId === 'string' && clientId !== '' ? clientId : undefined
  if (subject === undefined) return E.left('the token names no subject (neither sub nor client_id)')
  const roles = Array.isArray(claims['roles']) ? (claims['roles'] as unknown[]).filter((r): r is string => typeof r === 'string') : []
  return E.right({ subject, roles, scopes: scopesOf(claims), claims })
}

/** Whether an `aud` claim (a string or a list) names `audience`. */
export const audienceIncludes = (aud: unknown, audience: ReadonlyArray<string>): boolean =>
  typeof aud === 'string' ? audience.includes(aud) : Array.isArray(aud) && aud.some((a) => typeof a === 'string' && audience.includes(a))
