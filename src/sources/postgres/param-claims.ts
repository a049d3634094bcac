/**
 * `@param_claim` on a routine or a `.sql` file: which of its parameters are filled from
 * claims of the caller's token, as the `claims` of the tool made from it (keyed by input
 * property, the way `emcp`'s contracts name them). A claim naming no parameter, or a
 * parameter the comment already resolves (`name = ...`), keeps the tool from being served.
 *
 * @example
 * import { annotations } from './annotations.js'
 * import { paramClaims } from './param-claims.js'
 * const a = annotations('@mcp Orders.\n@param_claim _user_id sub', 'orders')
 * paramClaims(a, ['_user_id', '_limit'], ['user_id', 'limit'], new Map()) // { claims: { user_id: 'sub' } }
 */
import type { ClaimMap } from '../../contract/claims.js'
import type { Annotations } from './annotations.js'
import { indexOfName } from './resolved.js'

/** The tool's `claims` (none: `{}`), or why the tool cannot be served. */
export const paramClaims = (
  a: Pick<Annotations, 'claims' | 'refusals'>,
  names: ReadonlyArray<string>,
  props: ReadonlyArray<string>,
  resolved: ReadonlyMap<number, string>,
): { readonly claims?: ClaimMap } | string => {
  if (a.refusals.length > 0) return a.refusals.join('; ')
  if (a.claims.size === 0) return {}
  const claims: Record<string, ClaimMap[string]> = {}
  for (const [param, path] of a.claims) {
    const i = indexOfName(param, names)
    if (i === -1) return `@param_claim names ${param}, which is not one of its parameters`
    if (resolved.has(i)) return `@param_claim names ${param}, which the comment also resolves (${names[i]} = ...)`
    claims[props[i] as string] = path
  }
  return { claims }
}
