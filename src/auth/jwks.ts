/**
 * The issuer's signing keys (its JWKS), kept for the verifier. The set is fetched through the
 * bounded `fetchJson` (a time limit, a size limit, every failure as data), kept for `maxAgeMs`,
 * and fetched again early only for a `kid` it does not hold. Whatever the outcome, a success,
 * an HTTP 500, a timeout or garbage, at most one fetch starts per cool-down, and concurrent
 * requests share the fetch in flight: a down or rate-limiting identity provider is not hit once
 * per request. While no usable keys are known, a token is not refused as invalid: the answer
 * is `temporarily_unavailable` with the seconds until the next fetch may start. Only the first
 * 100 keys of a set are used: real sets hold a handful, and each candidate may cost a
 * signature check.
 *
 * @example
 * import * as jose from 'jose'
 * import { jwksCache } from './jwks.js'
 * const keys = jwksCache({ uri: 'https://id.example.com/jwks', cooldownMs: 30_000, timeoutMs: 5000, maxBytes: 1 << 20 })
 * const getKey = await keys(jose, 'k1')
 * // Right(getKey for jose.jwtVerify) or Left({ description: 'https://id.example.com/jwks answered HTTP 500', retryAfterSec: 30 })
 */
import * as E from 'fp-ts/lib/Either.js'
import type { JSONWebKeySet, JWTVerifyGetKey } from 'jose'
import { isObject } from '../util/json-object.js'
import { fetchJson } from './fetch-json.js'

// ---------------------------------------------------------------------------------------
// model

/** Where the keys are and how they are fetched. */
export interface JwksOptions {
  readonly uri: string
  /** Least time between two fetches, whatever the outcome of the first. */
  readonly cooldownMs: number
  readonly timeoutMs: number
  /** Larger answers are refused. */
  readonly maxBytes: number
  /** How long a fetched set is used before it is fetched again (default 10 minutes). */
  readonly maxAgeMs?: number
  /** The fetch to use (default: the global one). */
  readonly fetch?: typeof globalThis.fetch
  /** The clock (default `Date.now`). */
  readonly now?: () => number
}

/** Why no keys can be given now, and when to ask again. */
export interface KeysUnavailable {
  readonly description: string
  readonly retryAfterSec: number
}

/** What `jose` offers that the cache needs: the module itself, loaded by the verifier. */
type Jose = Pick<typeof import('jose'), 'createLocalJWKSet'>

/** The keys for a token whose header names `kid` (undefined: none named). */
export type KeySource = (jose: Jose, kid: string | undefined) => Promise<E.Either<KeysUnavailable, JWTVerifyGetKey>>

/** A fetched set: the key getter and the `kid`s it holds. */
interface KeySet {
  readonly getKey: JWTVerifyGetKey
  readonly kids: ReadonlySet<string>
  readonly fetchedAt: number
}

/** Keys of a set used at most. */
const maxKeys = 100

// ---------------------------------------------------------------------------------------
// functions

/** The key source of one JWKS URL. */
export const jwksCache = (o: JwksOptions): KeySource => {
  const now = o.now ?? Date.now
  const maxAgeMs = o.maxAgeMs ?? 600_000
  const state: { set?: KeySet; attemptAt?: number; failure?: string; inFlight?: Promise<void> } = {}

  const wanted = (kid: string | undefined): boolean =>
    state.set === undefined || now() - state.set.fetchedAt >= maxAgeMs || (kid !== undefined && !state.set.kids.has(kid))
  const allowed = (): boolean => state.attemptAt === undefined || now() - state.attemptAt >= o.cooldownMs
  const retryAfterSec = (): number => Math.max(1, Math.ceil(((state.attemptAt ?? now()) + o.cooldownMs - now()) / 1000))

  const refresh = (jose: Jose): Promise<void> => {
    state.attemptAt = now()
    const run = fetchKeys(jose, o)
      .catch((e: unknown) => E.left(`${o.uri} could not be read: ${e instanceof Error ? e.message : String(e)}`))
      .then((r) => {
        if (E.isLeft(r)) state.failure = r.left
        else {
          delete state.failure
          state.set = { ...r.right, fetchedAt: now() }
        }
      })
    state.inFlight = run.finally(() => delete state.inFlight)
    return state.inFlight
  }

  return async (jose, kid) => {
    if (state.inFlight !== undefined) await state.inFlight
    else if (wanted(kid) && allowed()) await refresh(jose)
    const set = state.set
    if (set === undefined) return E.left({ description: state.failure ?? `no keys from ${o.uri} yet`, retryAfterSec: retryAfterSec() })
    // an unknown kid while the issuer fails may be a key it rotated in: not the token's fault
    if (kid !== undefined && !set.kids.has(kid) && state.failure !== undefined) return E.left({ description: state.failure, retryAfterSec: retryAfterSec() })
    return E.right(set.getKey)
  }
}

/** One fetch of the set: a Left says what went wrong. */
const fetchKeys = async (jose: Jose, o: JwksOptions): Promise<E.Either<string, Omit<KeySet, 'fetchedAt'>>> => {
  const r = await fetchJson(o.uri, { timeoutMs: o.timeoutMs, maxBytes: o.maxBytes, ...(o.fetch === undefined ? {} : { fetch: o.fetch }) })
  if (E.isLeft(r)) return r
  if (r.right.status !== 200) return E.left(`${o.uri} answered HTTP ${r.right.status}`)
  const body = r.right.body
  if (!isObject(body) || !Array.isArray(body.keys)) return E.left(`${o.uri} answered something that is not a JWKS`)
  const keys = (body.keys as unknown[]).slice(0, maxKeys)
  try {
    const getKey = jose.createLocalJWKSet({ keys } as JSONWebKeySet)
    const kids = new Set(keys.flatMap((k) => (isObject(k) && typeof k.kid === 'string' ? [k.kid] : [])))
    return E.right({ getKey, kids })
  } catch (e) {
    return E.left(`${o.uri} answered a JWKS jose refuses: ${e instanceof Error ? e.message : String(e)}`)
  }
}
