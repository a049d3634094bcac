/**
 * `oauth()`: the bearer-token verifier of an OAuth 2.1 resource server. JWT access tokens are
 * checked with `jose` against the issuer's JWKS (found by RFC 8414 / OpenID discovery, cached,
 * fetched at most once per cool-down whatever the outcome): signature, an algorithm
 * allow-list (asymmetric only), `iss`, `aud` naming this resource (RFC 8707), `exp` and `nbf`
 * with a small clock skew. Opaque tokens go to the issuer's introspection endpoint (RFC 7662)
 * when introspection is configured. Nothing in a token chooses a URL: `jku`, `x5u` and `kid`
 * only select among the keys of the configured issuer.
 *
 * @example
 * import { oauth } from 'emcp/oauth'
 * const auth = oauth({ issuer: 'https://id.example.com', audience: 'https://mcp.example.com/mcp' })
 * const r = await auth.check('eyJhbGciOiJFUzI1NiIs...')
 * // Right({ subject: 'alice', roles: [], scopes: ['calc:read'], claims: { ... } })
 * // or Left({ error: 'invalid_token', description: 'the token was issued for another resource' })
 */
import * as E from 'fp-ts/lib/Either.js'
import type { Identity } from '../server/session.js'
import { audienceIncludes, identityOf } from './claims.js'
import { discover, type AuthServerMetadata } from './discovery.js'
import { defaultMaxBytes } from './fetch-json.js'
import { introspector, type Claims } from './introspection.js'
import { jwksCache, type KeySource } from './jwks.js'
import { bearerChallenge, canonicalResource, metadataPath, metadataUrl, protectedResourceMetadata, withoutTrailingSlashes, type ProtectedResourceMetadata } from './resource-metadata.js'

// ---------------------------------------------------------------------------------------
// model

/** How tokens are verified. */
export interface OAuthOptions {
  /** The authorization server's issuer identifier (exactly as its metadata states it). */
  readonly issuer: string
  /**
   * What a token's `aud` must name (one of): first this MCP endpoint's canonical URL (RFC 8707;
   * published as the metadata's `resource`), then any other identifier your identity provider
   * puts in `aud` for this API (an Entra application ID, Okta's `api://default`).
   */
  readonly audience: string | ReadonlyArray<string>
  /** Accepted signature algorithms (default: the asymmetric ones; never `none` or HMAC unless listed). */
  readonly algorithms?: ReadonlyArray<string>
  /** Seconds of clock difference tolerated on `exp`, `nbf` and `iat` (default 30). */
  readonly clockToleranceSec?: number
  /** The scopes this server uses, published in its resource metadata. */
  readonly scopesSupported?: ReadonlyArray<string>
  /** Opaque tokens: the resource server's credentials at the issuer (the endpoint comes from discovery unless given). */
  readonly introspection?: { readonly clientId: string; readonly clientSecret: string; readonly endpoint?: string; readonly ttlMs?: number }
  /** The JWKS URL, when the issuer publishes no metadata. */
  readonly jwksUri?: string
  /** Least time between two JWKS fetches, failed or not (default 30 s); also the Retry-After while the keys cannot be fetched. */
  readonly jwksCooldownMs?: number
  /** Time limit of each request to the issuer, its body included (default 5 s). */
  readonly timeoutMs?: number
  /** Larger answers of the issuer (metadata, JWKS, introspection) are refused unread past this many bytes (default 1 MiB). */
  readonly maxResponseBytes?: number
  /** Longer tokens are refused unread (default 8 KiB). */
  readonly maxTokenLength?: number
}

/** Why a token was refused: a bad token (401), or the issuer could not be consulted. */
export interface TokenRefusal {
  readonly error: 'invalid_token' | 'temporarily_unavailable'
  readonly description: string
  /** `temporarily_unavailable`: seconds until the issuer will be asked again (the answer's Retry-After). */
  readonly retryAfterSec?: number
}

/** A verifier: `verify` is what `serveHttp`'s `auth` option calls; `check` says why a token was refused. */
export interface OAuth {
  readonly issuer: string
  readonly audience: ReadonlyArray<string>
  readonly scopesSupported: ReadonlyArray<string>
  readonly check: (token: string) => Promise<E.Either<TokenRefusal, Identity>>
  readonly verify: (token: string) => Promise<Identity | undefined>
  /** Requests without a token are refused (401): true. */
  readonly required: true
  /** The 401 challenge: `Bearer resource_metadata="…"`, with the error and the scopes this server uses. */
  readonly challenge: (error: 'invalid_request' | 'invalid_token' | 'insufficient_scope' | undefined, scope?: ReadonlyArray<string>) => string
  /** The Protected Resource Metadata of the first audience, at its path-inserted and root well-known paths. */
  readonly documents: ReadonlyArray<{ readonly path: string; readonly body: ProtectedResourceMetadata }>
  /** Runs discovery now (it otherwise runs on the first token); a Left says why it failed. */
  readonly ready: () => Promise<E.Either<string, AuthServerMetadata>>
}

/** Signature algorithms accepted by default. */
export const defaultAlgorithms: ReadonlyArray<string> = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA', 'Ed25519']

// ---------------------------------------------------------------------------------------
// functions

/** The verifier of tokens from `o.issuer` for `o.audience`. */
export const oauth = (o: OAuthOptions): OAuth => {
  const given = typeof o.audience === 'string' ? [o.audience] : [...o.audience]
  if (given.length === 0) throw new Error('oauth: audience names no resource')
  // each resource as configured and in its canonical form (RFC 8707), which is what clients ask
  // tokens for; the first must be this endpoint's URL, later ones may be a provider's own identifier
  const audience = [...new Set(given.flatMap((a, i) => (i === 0 || /^https?:/i.test(a) ? [canonicalOrThrow(a), a] : [identifierOrThrow(a)])))]
  const timeoutMs = o.timeoutMs ?? 5000
  const maxBytes = o.maxResponseBytes ?? defaultMaxBytes
  const metadata = metadataOnce(o.issuer, { timeoutMs, maxBytes }, o.jwksUri)
  const keys = lazyKeys(metadata, { cooldownMs: o.jwksCooldownMs ?? 30_000, timeoutMs, maxBytes })
  const introspect = o.introspection === undefined ? undefined : lazyIntrospector(o, metadata.get, audience, { timeoutMs, maxBytes })
  const resource = audience[0] as string
  const scopesSupported = [...(o.scopesSupported ?? [])]
  const prm = protectedResourceMetadata({ resource, authorizationServers: [o.issuer], scopesSupported })
  const resourcePath = withoutTrailingSlashes(new URL(resource).pathname)
  const refuse = (error: TokenRefusal['error'], description: string): E.Either<TokenRefusal, Identity> => E.left({ error, description })
  const unavailable = (description: string, retryAfterSec: number): E.Either<TokenRefusal, Identity> => E.left({ error: 'temporarily_unavailable', description, retryAfterSec })

  const checkJwt = async (jose: Jose, token: string): Promise<E.Either<TokenRefusal, Identity>> => {
    // a token that names another issuer or resource, or has expired, is refused before any key is fetched
    const early = unverifiedRefusal(jose, token, o.issuer, audience, o.clockToleranceSec ?? 30)
    if (early !== undefined) return E.left(early)
    const kid = jose.decodeProtectedHeader(token).kid
    const getKey = await keys(jose, typeof kid === 'string' ? kid : undefined)
    if (E.isLeft(getKey)) return unavailable(getKey.left.description, getKey.left.retryAfterSec)
    try {
      const { payload } = await jose.jwtVerify(token, getKey.right, {
        issuer: o.issuer,
        audience,
        algorithms: [...(o.algorithms ?? defaultAlgorithms)],
        clockTolerance: o.clockToleranceSec ?? 30,
        requiredClaims: ['exp'],
      })
      return identified(payload)
    } catch (e) {
      return E.left(jwtRefusal(jose.errors, e))
    }
  }
  const check = async (token: string): Promise<E.Either<TokenRefusal, Identity>> => {
    const jose = await loadJose()
    if (typeof token !== 'string' || token === '') return refuse('invalid_token', 'no token')
    if (token.length > (o.maxTokenLength ?? 8192)) return refuse('invalid_token', 'the token is too long')
    if (looksLikeJwt(jose, token)) return checkJwt(jose, token)
    if (introspect === undefined) return refuse('invalid_token', 'the token is not a JWT and introspection is not configured')
    const claims = await introspect(token)
    if (E.isLeft(claims)) return refuse(claims.left.startsWith('the token') ? 'invalid_token' : 'temporarily_unavailable', claims.left)
    return identified(claims.right)
  }
  return {
    issuer: o.issuer,
    audience,
    scopesSupported,
    check,
    verify: async (token) => {
      const r = await check(token)
      return E.isRight(r) ? r.right : undefined
    },
    required: true,
    challenge: (error, scope = scopesSupported) =>
      bearerChallenge({ resourceMetadata: metadataUrl(resource), ...(error === undefined ? {} : { error }), ...(scope.length === 0 ? {} : { scope }) }),
    documents: [...new Set([metadataPath(resourcePath), metadataPath('')])].map((path) => ({ path, body: prm })),
    ready: metadata.get,
  }
}

/** The canonical form of a configured resource; a configuration error throws at once. */
const canonicalOrThrow = (resource: string): string => {
  const c = canonicalResource(resource)
  if (E.isLeft(c)) throw new Error(`oauth: ${c.left}`)
  return c.right
}

/** A non-URL audience as given (a provider's identifier for this API); an empty one throws at once. */
const identifierOrThrow = (id: string): string => {
  if (typeof id !== 'string' || id.trim() === '') throw new Error('oauth: an audience is empty')
  return id
}

/** The `jose` module: an optional peer, loaded on the first token so that importing `emcp/oauth` needs nothing. */
type Jose = typeof import('jose')
const joseModule: { p?: Promise<Jose> } = {}
const loadJose = (): Promise<Jose> =>
  (joseModule.p ??= import('jose').catch((e: unknown) => {
    delete joseModule.p
    throw new Error(`emcp/oauth needs the package jose: install it (npm install jose). ${e instanceof Error ? e.message : String(e)}`)
  }))

/** Whether a token has the shape of a signed JWT (three segments, a header naming `alg`). */
const looksLikeJwt = (jose: Jose, token: string): boolean => {
  if (token.split('.').length !== 3) return false
  try {
    return typeof jose.decodeProtectedHeader(token).alg === 'string'
  } catch {
    return false
  }
}

/**
 * The refusal a JWT earns from the claims it states (another issuer, another resource,
 * expired), read before its signature is checked: refusing costs nothing, and such a token
 * never makes the server fetch keys. A claim it leaves out is not judged here: that waits
 * for the verified check, which requires them, as does everything accepted here.
 */
const unverifiedRefusal = (jose: Jose, token: string, issuer: string, audience: ReadonlyArray<string>, toleranceSec: number): TokenRefusal | undefined => {
  const invalid = (description: string): TokenRefusal => ({ error: 'invalid_token', description })
  let claims: Record<string, unknown>
  try {
    claims = jose.decodeJwt(token)
  } catch {
    return invalid('the token is not a valid JWT')
  }
  if (claims['iss'] !== undefined && claims['iss'] !== issuer) return invalid('the token was issued by another issuer')
  if (claims['aud'] !== undefined && !audienceIncludes(claims['aud'], audience)) return invalid('the token was issued for another resource')
  if (typeof claims['exp'] === 'number' && claims['exp'] + toleranceSec < Date.now() / 1000) return invalid('the token has expired')
  return undefined
}

/** The identity verified claims name; claims that name nobody make the token invalid. */
const identified = (claims: { readonly [key: string]: unknown }): E.Either<TokenRefusal, Identity> =>
  E.mapLeft((description: string): TokenRefusal => ({ error: 'invalid_token', description }))(identityOf(claims))

/** What the client is told about a JWT that did not verify. */
const jwtRefusal = (errors: Jose['errors'], e: unknown): TokenRefusal => {
  const invalid = (description: string): TokenRefusal => ({ error: 'invalid_token', description })
  if (e instanceof errors.JWTExpired) return invalid('the token has expired')
  if (e instanceof errors.JWTClaimValidationFailed)
    return invalid(e.claim === 'aud' ? 'the token was issued for another resource' : e.claim === 'iss' ? 'the token was issued by another issuer' : `the token's ${e.claim} claim is not acceptable`)
  if (e instanceof errors.JOSEAlgNotAllowed) return invalid('the token is signed with an algorithm this server does not accept')
  if (e instanceof errors.JWKSNoMatchingKey) return invalid('the token is signed with a key the issuer does not publish')
  if (e instanceof errors.JWSSignatureVerificationFailed) return invalid('the token signature does not verify')
  if (e instanceof errors.JWKSTimeout || (e instanceof Error && e.name === 'TypeError')) return { error: 'temporarily_unavailable', description: "the issuer's keys could not be fetched" }
  if (e instanceof errors.JOSEError) return invalid(`the token is not valid (${e.code})`)
  return invalid('the token is not valid')
}

/** How each request to the issuer is bounded. */
interface Bounds {
  readonly timeoutMs: number
  readonly maxBytes: number
}

/** Time after a failed discovery before it is tried again. */
const rediscoverAfterMs = 5000

/** The issuer's metadata, discovered once; a failure is kept for 5 s, then discovery runs again. */
const metadataOnce = (issuer: string, bounds: Bounds, jwksUri: string | undefined) => {
  const state: { result?: Promise<E.Either<string, AuthServerMetadata>>; failedAt?: number } = {}
  const discoverNow = async (): Promise<E.Either<string, AuthServerMetadata>> => {
    const found = await discover(issuer, bounds).catch((e: unknown) => E.left(`discovery failed: ${e instanceof Error ? e.message : String(e)}`))
    if (E.isRight(found) || jwksUri === undefined) return found
    // no metadata, but the keys are known: JWTs can still be checked
    return E.right<string, AuthServerMetadata>({ issuer, jwks_uri: jwksUri })
  }
  const get = (): Promise<E.Either<string, AuthServerMetadata>> => {
    if (state.result !== undefined && (state.failedAt === undefined || Date.now() - state.failedAt < rediscoverAfterMs)) return state.result
    delete state.failedAt
    const result = discoverNow().then((r) => {
      if (E.isLeft(r)) state.failedAt = Date.now()
      return r
    })
    state.result = result
    return result
  }
  /** Seconds until discovery runs again after a failure. */
  const retryAfterSec = (): number => Math.max(1, Math.ceil(((state.failedAt ?? Date.now()) + rediscoverAfterMs - Date.now()) / 1000))
  return { get, retryAfterSec }
}

/** The JWKS key source, made once the JWKS URL is known. */
const lazyKeys = (metadata: ReturnType<typeof metadataOnce>, o: Bounds & { readonly cooldownMs: number }): KeySource => {
  const made: { keys?: KeySource } = {}
  return async (jose, kid) => {
    if (made.keys === undefined) {
      const m = await metadata.get()
      if (E.isLeft(m)) return E.left({ description: m.left, retryAfterSec: metadata.retryAfterSec() })
      if (m.right.jwks_uri === undefined) return E.left({ description: `the issuer ${m.right.issuer} publishes no jwks_uri`, retryAfterSec: metadata.retryAfterSec() })
      made.keys ??= jwksCache({ uri: m.right.jwks_uri, ...o })
    }
    return made.keys(jose, kid)
  }
}

/** The introspection checker, made once the endpoint is known. */
const lazyIntrospector = (o: OAuthOptions, metadata: () => Promise<E.Either<string, AuthServerMetadata>>, audience: ReadonlyArray<string>, bounds: Bounds) => {
  const made: { check?: (token: string) => Promise<E.Either<string, Claims>> } = {}
  const creds = o.introspection as NonNullable<OAuthOptions['introspection']>
  return async (token: string): Promise<E.Either<string, Claims>> => {
    if (made.check === undefined) {
      const endpoint = creds.endpoint ?? (await metadata().then((m) => (E.isRight(m) ? m.right.introspection_endpoint : undefined)))
      if (endpoint === undefined) return E.left(`the issuer ${o.issuer} publishes no introspection_endpoint`)
      made.check ??= introspector({ endpoint, clientId: creds.clientId, clientSecret: creds.clientSecret, issuer: o.issuer, audience, ...bounds, ...(creds.ttlMs === undefined ? {} : { ttlMs: creds.ttlMs }), ...(o.clockToleranceSec === undefined ? {} : { clockToleranceSec: o.clockToleranceSec }) })
    }
    return made.check(token)
  }
}
