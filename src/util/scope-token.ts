/**
 * OAuth scope names as RFC 6749 §3.3 defines them (`scope-token = 1*( %x21 / %x23-5B /
 * %x5D-7E )`: printable ASCII without space, `"` or `\`), and the problem with a declared
 * list of them. Shared by tools (checked in the tool list) and prompts and resources
 * (checked where they are defined), so that a typo fails at start-up rather than hiding the
 * thing from every caller.
 *
 * @example
 * import { scopesProblem } from './scope-token.js'
 * scopesProblem(['docs:read']) // undefined
 * scopesProblem(['two words']) // 'scopes must be a list of OAuth scope names (…), got ["two words"]'
 */

/** Whether `s` is one OAuth scope name. */
export const isScopeToken = (s: unknown): s is string => typeof s === 'string' && scopeToken.test(s)

/** What is wrong with a declared `scopes` value (undefined is fine: no scopes), or undefined when nothing is. */
export const scopesProblem = (scopes: unknown): string | undefined =>
  scopes === undefined || (Array.isArray(scopes) && scopes.every(isScopeToken))
    ? undefined
    : `scopes must be a list of OAuth scope names (printable ASCII, no space, quote or backslash), got ${JSON.stringify(scopes)?.slice(0, 200)}`

const scopeToken = /^[\x21\x23-\x5B\x5D-\x7E]+$/
