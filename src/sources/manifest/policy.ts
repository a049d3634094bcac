/**
 * A tool's execution policy, read from either key that names it: emcp's own
 * `_meta["emcp/policy"]` or SEMOSS's `_meta.SMSS_MCP_EXECUTION` (read in any case, as SEMOSS
 * reads it). An unknown value, or two keys that disagree, is a problem naming the key: a
 * manifest whose policy cannot be read is never served.
 *
 * @example
 * import { readPolicy } from './policy.js'
 * readPolicy({ SMSS_MCP_EXECUTION: 'ASK' })                                  // Right('ask')
 * readPolicy({ 'emcp/policy': 'auto', SMSS_MCP_EXECUTION: 'disabled' })       // Left([{ path: '/_meta', message: '…disagree…' }])
 */
import * as E from 'fp-ts/lib/Either.js'
import { metaKeys, policies, type Policy } from './manifest.js'
import { semossKeys } from './semoss.js'

/** What is wrong with a policy: where (a pointer into the tool entry) and why. */
export interface PolicyProblem {
  readonly path: string
  readonly message: string
}

/** The policy an entry's `_meta` gives (`auto` when it gives none), or every problem with it. */
export const readPolicy = (meta: { readonly [key: string]: unknown } | undefined): E.Either<ReadonlyArray<PolicyProblem>, Policy> => {
  const problems: PolicyProblem[] = []
  const own = meta?.[metaKeys.policy]
  const ownPolicy = own === undefined ? undefined : asPolicy(own)
  if (own !== undefined && ownPolicy === undefined)
    problems.push({ path: `/_meta/${metaKeys.policy}`, message: `the policy must be one of ${policies.join(', ')} (found ${JSON.stringify(own)})` })
  const smss = meta?.[semossKeys.execution]
  const smssPolicy = typeof smss === 'string' ? asPolicy(smss.toLowerCase()) : undefined
  if (smss !== undefined && smssPolicy === undefined)
    problems.push({
      path: `/_meta/${semossKeys.execution}`,
      message: `unknown execution policy ${JSON.stringify(smss)}: ${semossKeys.execution} must be one of ${policies.join(', ')}`,
    })
  if (ownPolicy !== undefined && smssPolicy !== undefined && ownPolicy !== smssPolicy)
    problems.push({
      path: '/_meta',
      message: `${metaKeys.policy} says "${ownPolicy}" but ${semossKeys.execution} says ${JSON.stringify(smss)}: the two policies disagree; keep one, or make them the same`,
    })
  return problems.length > 0 ? E.left(problems) : E.right(ownPolicy ?? smssPolicy ?? 'auto')
}

/**
 * The policy of a tool or manifest entry, from either key; `auto` when it names none. A
 * policy that cannot be read (an unknown value, two that disagree) counts as `disabled`:
 * `readManifest` refuses such an entry, and anything else asking errs on the safe side.
 */
export const policyOf = (tool: { readonly _meta?: { readonly [key: string]: unknown } | undefined }): Policy => {
  const read = readPolicy(tool._meta)
  return E.isRight(read) ? read.right : 'disabled'
}

const asPolicy = (u: unknown): Policy | undefined => (policies as ReadonlyArray<unknown>).includes(u) ? (u as Policy) : undefined
