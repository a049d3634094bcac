/**
 * Claim-bound arguments on each call: the arguments a contract's `claims` names are filled
 * from the caller's token (`session.identity.claims`), after checking that the client did
 * not send them and that each claim fits its argument's schema. The claim always wins and
 * nothing is silently dropped: a client-sent value is refused as an invalid argument (an
 * `isError` result, as for any argument the listed schema does not allow, SEP-1303), and a
 * call whose token lacks a claim, or has one the schema refuses, is refused as forbidden
 * (-32003): that is the token's fault, not the arguments'.
 *
 * @example
 * import { bindClaims } from './claims.js'
 * // bindClaims(orders, { limit: 5 }, session) // Right({ limit: 5, userId: 'alice' }) for a token whose sub is alice
 */
import * as E from 'fp-ts/lib/Either.js'
import { claimAt, type ClaimPath } from '../contract/claims.js'
import { errorMessage } from '../contract/content.js'
import type { AnyTool } from '../contract/emcp.js'
import { rpcError, type RpcError } from '../protocol/jsonrpc.js'
import { formatIssues, validatorOf, type JsonSchema, type Validator } from '../schema/schema.js'
import type { Session } from './session.js'

// ---------------------------------------------------------------------------------------
// model

/** Arguments of a call, as an object. */
export type Args = { readonly [argument: string]: unknown }

// ---------------------------------------------------------------------------------------
// functions

/** The arguments with the claim-bound ones filled from the caller's token, or (Left) the answer the call gets instead. */
export const bindClaims = (tool: AnyTool, args: Args, session: Pick<Readonly<Session>, 'identity'>): E.Either<E.Either<RpcError, unknown>, Args> => {
  const claims = tool.claims
  if (claims === undefined) return E.right(args)
  const bound = Object.keys(claims)
  const sent = bound.filter((a) => Object.hasOwn(args, a))
  if (sent.length > 0)
    return E.left(
      E.right(errorMessage(`Invalid arguments for tool ${tool.name}: ${sent.map((a) => `${a}: filled from the caller's token; do not send it`).join('; ')}`)),
    )
  const filled: Record<string, unknown> = { ...args }
  for (const argument of bound) {
    const path = claims[argument] as ClaimPath
    const claim = shown(path)
    const forbidden = (why: string): E.Either<E.Either<RpcError, unknown>, Args> =>
      E.left(E.left(rpcError('Forbidden', `Forbidden: tool ${tool.name} takes ${argument} from the token claim ${claim}, ${why}`, { argument, claim: path })))
    if (session.identity === undefined) return forbidden('and the call carries no token')
    const value = claimAt(session.identity.claims, path)
    // a null claim is no claim: it must not become a SQL NULL or a JSON null the schema happens to allow
    if (value === undefined || value === null) return forbidden('which the caller’s token does not have')
    const fits = checkerOf(tool, argument).decode({ [argument]: value })
    if (E.isLeft(fits)) return forbidden(`which does not fit the argument’s schema: ${formatIssues(fits.left)}`)
    filled[argument] = (fits.right as Args)[argument]
  }
  return E.right(filled)
}

// ---------------------------------------------------------------------------------------
// internals

const shown = (path: ClaimPath): string => (typeof path === 'string' ? path : path.join('.'))

/** Per tool and argument, a validator of `{ argument: value }` against the argument's own schema (with the root's definitions, for references); compiled once, on first use. */
const checkers = new WeakMap<AnyTool, Map<string, Validator>>()
const checkerOf = (tool: AnyTool, argument: string): Validator => {
  let byArgument = checkers.get(tool)
  if (byArgument === undefined) checkers.set(tool, (byArgument = new Map()))
  let v = byArgument.get(argument)
  if (v === undefined) {
    const whole = tool.wholeInputSchema ?? tool.inputSchema
    const property = (whole.properties as { readonly [key: string]: JsonSchema })[argument]
    const definitions = Object.fromEntries(['$defs', 'definitions', '$schema'].filter((k) => whole[k] !== undefined).map((k) => [k, whole[k]]))
    byArgument.set(argument, (v = validatorOf({ ...definitions, type: 'object', properties: { [argument]: property }, required: [argument] })))
  }
  return v
}
