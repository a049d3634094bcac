/**
 * Bearer-token authentication: the token of `Authorization: Bearer <token>` goes to the
 * verifier, and the identity it gives rides on the request (`req.identity`) to the session
 * the server sees. A token it does not accept, a malformed header, or (when required) no
 * token at all gets 401 with a `WWW-Authenticate` challenge, before the body is read. On the
 * way back, a 403 for a tool whose scopes the token lacks gets its `insufficient_scope`
 * challenge, naming the scopes the caller holds and those it needs, so that a client asking
 * for exactly that set steps up without losing what it had. The needed scopes are always
 * named in full; held ones are left out only past 8 KiB, so that the header stays readable.
 *
 * @example
 * import { bearer } from './auth.js'
 * const step = bearer({ verify: (token) => (token === 'secret' ? { subject: 'alice', roles: ['admin'] } : undefined), required: true })
 */
import type { Identity } from '../../server/session.js'
import { isScopeToken } from '../../util/scope-token.js'
import type { BearerAuth, HttpMiddleware, HttpReply } from './model.js'
import { refuse } from './reply.js'

// ---------------------------------------------------------------------------------------
// constructors

/** The step that names the caller of each request, or refuses it with 401. */
export const bearer = (auth: BearerAuth): HttpMiddleware => {
  const realm = auth.realm ?? 'mcp'
  const challenge = (error?: 'invalid_request' | 'invalid_token'): HttpReply =>
    refuse(401, `Unauthorized: ${error === undefined ? 'a bearer token is required' : 'the bearer token was not accepted'}`, {
      'www-authenticate': auth.challenge?.(error) ?? `Bearer realm="${realm}"${error === undefined ? '' : `, error="${error}"`}`,
    })
  /** The identity of a header's token (undefined: anonymous), or the 401 that refuses it. */
  const identify = async (header: string | undefined): Promise<Identity | undefined | HttpReply> => {
    if (header === undefined) return auth.required === true ? challenge() : undefined
    const m = /^Bearer\s+(\S+)\s*$/i.exec(header)
    if (m === null) return challenge('invalid_request')
    try {
      if (auth.check === undefined) return (await auth.verify(m[1] as string)) ?? challenge('invalid_token')
      const checked = await auth.check(m[1] as string)
      if (checked._tag === 'Right') return checked.right
      return checked.left.error === 'temporarily_unavailable'
        ? // what failed on the way to the issuer is the operator's business, not the client's
          refuse(503, 'Service Unavailable: the authorization server could not be consulted to check the token; try again later', { 'retry-after': String(checked.left.retryAfterSec ?? 5) })
        : challenge('invalid_token')
    } catch {
      return challenge('invalid_token')
    }
  }
  /** The 403's challenge: the scopes held and those needed. */
  const stepUp = (reply: HttpReply, needed: ReadonlyArray<string>, caller: Identity | undefined): HttpReply => {
    const scope = stepUpScopes(caller?.scopes ?? [], needed)
    const header = auth.challenge?.('insufficient_scope', scope) ?? `Bearer realm="${realm}", error="insufficient_scope", scope="${scope.join(' ')}"`
    return { ...reply, headers: { ...reply.headers, 'www-authenticate': header } }
  }
  return async (req, next) => {
    const caller = await identify(req.header('authorization'))
    if (caller !== undefined && 'status' in caller) return caller
    req.identity = caller
    const reply = await next(req)
    return reply.insufficientScope === undefined ? reply : stepUp(reply, reply.insufficientScope, caller)
  }
}

/** The most characters of held scopes a step-up challenge repeats: clients read response headers of 16 KiB at most (Node's default). */
const maxHeldScopeChars = 8192

/** The scopes a step-up asks for: those held (valid names, within the budget), then every one needed. */
const stepUpScopes = (held: ReadonlyArray<string>, needed: ReadonlyArray<string>): ReadonlyArray<string> => {
  const want = new Set(needed.filter(isScopeToken))
  const kept: string[] = []
  let budget = maxHeldScopeChars
  for (const s of new Set(held)) {
    if (want.has(s) || !isScopeToken(s) || s.length + 1 > budget) continue
    budget -= s.length + 1
    kept.push(s)
  }
  return [...kept, ...want]
}
