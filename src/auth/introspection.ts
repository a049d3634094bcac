/**
 * Opaque access tokens checked by the authorization server's introspection endpoint
 * (RFC 7662), with a short cache. A client sending many tokens must not turn the resource
 * server into a flood against its authorization server: answers (active or not) are cached
 * by the token's SHA-256, concurrent checks of one token share one request, and at most
 * `maxInFlight` requests run at once (beyond that a token is refused, not queued).
 *
 * @example
 * import { introspector } from './introspection.js'
 * const check = introspector({ endpoint: 'https://id.example.com/token/introspection', clientId: 'rs', clientSecret: 's3cret', issuer: 'https://id.example.com', audience: ['https://mcp.example.com/mcp'] })
 * await check('2YotnFZFEjr1zCsicMWpAA') // Right({ active: true, sub: 'alice', scope: 'calc:read', ... }) or Left('the token is not active')
 */
import { createHash } from 'node:crypto'
import * as E from 'fp-ts/lib/Either.js'
import { audienceIncludes } from './claims.js'
import { fetchJson } from './fetch-json.js'

// ---------------------------------------------------------------------------------------
// model

/** How tokens are introspected. */
export interface IntrospectionOptions {
  readonly endpoint: string
  /** The resource server's own client credentials at the authorization server (client_secret_basic). */
  readonly clientId: string
  readonly clientSecret: string
  /** The expected `iss`, when the answer carries one. */
  readonly issuer: string
  /** The answer's `aud` must name one of these. */
  readonly audience: ReadonlyArray<string>
  /** How long an answer is reused (default 30 s; never past the token's `exp`). */
  readonly ttlMs?: number
  /** Cached answers kept at most (default 10,000; the oldest go first). */
  readonly maxEntries?: number
  /** Requests to the endpoint at once (default 16). */
  readonly maxInFlight?: number
  readonly timeoutMs?: number
  /** Larger answers are refused unread (default 1 MiB). */
  readonly maxBytes?: number
  /** Seconds of clock difference tolerated on `exp` and `nbf` (default 30). */
  readonly clockToleranceSec?: number
  readonly fetch?: typeof globalThis.fetch
}

/** Claims of an active token, as the endpoint gave them. */
export type Claims = { readonly [key: string]: unknown }

/** A cached answer and until when it holds (ms since the epoch). */
interface Entry {
  readonly answer: E.Either<string, Claims>
  readonly until: number
}

// ---------------------------------------------------------------------------------------
// functions

/** A checker of opaque tokens against `o.endpoint`. */
export const introspector = (o: IntrospectionOptions): ((token: string) => Promise<E.Either<string, Claims>>) => {
  const ttl = o.ttlMs ?? 30_000
  const maxEntries = o.maxEntries ?? 10_000
  const maxInFlight = o.maxInFlight ?? 16
  const skew = (o.clockToleranceSec ?? 30) * 1000
  const cache = new Map<string, Entry>()
  const pending = new Map<string, Promise<E.Either<string, Claims>>>()
  const authorization = `Basic ${Buffer.from(`${encodeURIComponent(o.clientId)}:${encodeURIComponent(o.clientSecret)}`).toString('base64')}`

  const ask = async (token: string): Promise<E.Either<string, Claims>> => {
    const r = await fetchJson(o.endpoint, {
      method: 'POST',
      timeoutMs: o.timeoutMs ?? 5000,
      ...(o.maxBytes === undefined ? {} : { maxBytes: o.maxBytes }),
      headers: { authorization, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token, token_type_hint: 'access_token' }).toString(),
      ...(o.fetch === undefined ? {} : { fetch: o.fetch }),
    })
    if (E.isLeft(r)) return r
    if (r.right.status !== 200) return E.left(`the introspection endpoint answered HTTP ${r.right.status}`)
    return checkAnswer(r.right.body, o, skew)
  }
  const remember = (key: string, answer: E.Either<string, Claims>): void => {
    const exp = E.isRight(answer) && typeof answer.right['exp'] === 'number' ? (answer.right['exp'] as number) * 1000 : Infinity
    if (cache.size >= maxEntries) cache.delete(cache.keys().next().value as string)
    // a refusal for a reason on our side (timeout, busy) is not remembered
    if (E.isRight(answer) || answer.left.startsWith('the token')) cache.set(key, { answer, until: Math.min(Date.now() + ttl, exp) })
  }
  return async (token) => {
    const key = createHash('sha256').update(token).digest('base64url')
    const hit = cache.get(key)
    if (hit !== undefined && hit.until > Date.now()) return hit.answer
    if (hit !== undefined) cache.delete(key)
    const shared = pending.get(key)
    if (shared !== undefined) return shared
    if (pending.size >= maxInFlight) return E.left(`introspection busy: ${maxInFlight} checks already in flight`)
    const p = ask(token)
      .catch((e: unknown) => E.left<string, Claims>(`the introspection endpoint could not be consulted: ${e instanceof Error ? e.message : String(e)}`))
      .then((answer) => {
        pending.delete(key)
        remember(key, answer)
        return answer
      })
    pending.set(key, p)
    return p
  }
}

/** The claims of an answer that says the token is active, for this resource, now. */
const checkAnswer = (body: unknown, o: IntrospectionOptions, skewMs: number): E.Either<string, Claims> => {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return E.left('the introspection answer is not a JSON object')
  const c = body as Claims
  if (c['active'] !== true) return E.left('the token is not active')
  if (c['iss'] !== undefined && c['iss'] !== o.issuer) return E.left('the token was issued by another issuer')
  if (!audienceIncludes(c['aud'], o.audience)) return E.left('the token was issued for another resource')
  const now = Date.now()
  if (typeof c['exp'] === 'number' && c['exp'] * 1000 + skewMs < now) return E.left('the token has expired')
  if (typeof c['nbf'] === 'number' && c['nbf'] * 1000 - skewMs > now) return E.left('the token is not valid yet')
  return E.right(c)
}
