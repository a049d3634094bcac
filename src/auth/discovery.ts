/**
 * Authorization server metadata, found the ways MCP clients find it: RFC 8414's well-known
 * path inserted before the issuer's path, then OpenID Connect discovery appended to it, then
 * inserted. The document's `issuer` must be the configured issuer exactly (RFC 8414 §3.3),
 * so a document served for someone else is never used.
 *
 * @example
 * import { discover, discoveryUrls } from './discovery.js'
 * discoveryUrls('https://id.example.com/tenant')
 * // ['https://id.example.com/.well-known/oauth-authorization-server/tenant',
 * //  'https://id.example.com/tenant/.well-known/openid-configuration',
 * //  'https://id.example.com/.well-known/openid-configuration/tenant']
 * const meta = await discover('https://id.example.com', { timeoutMs: 5000 }) // Right({ issuer, jwks_uri, ... })
 */
import * as E from 'fp-ts/lib/Either.js'
import { fetchJson, type FetchJsonOptions } from './fetch-json.js'
import { withoutTrailingSlashes } from './resource-metadata.js'

// ---------------------------------------------------------------------------------------
// model

/** The members of the metadata the resource server uses. */
export interface AuthServerMetadata {
  readonly issuer: string
  readonly jwks_uri?: string
  readonly introspection_endpoint?: string
  readonly scopes_supported?: ReadonlyArray<string>
  readonly introspection_endpoint_auth_methods_supported?: ReadonlyArray<string>
}

// ---------------------------------------------------------------------------------------
// functions

/** The URLs tried, in order, for an issuer. */
export const discoveryUrls = (issuer: string): ReadonlyArray<string> => {
  const u = new URL(issuer)
  const path = withoutTrailingSlashes(u.pathname)
  const origin = `${u.protocol}//${u.host}`
  const urls = [`${origin}/.well-known/oauth-authorization-server${path}`, `${origin}${path}/.well-known/openid-configuration`]
  if (path !== '') urls.push(`${origin}/.well-known/openid-configuration${path}`)
  return urls
}

/** The issuer's metadata from the first URL that serves a valid document for it; a Left lists what each URL gave. */
export const discover = async (issuer: string, o: Pick<FetchJsonOptions, 'timeoutMs' | 'maxBytes' | 'fetch'>): Promise<E.Either<string, AuthServerMetadata>> => {
  const failures: string[] = []
  for (const url of discoveryUrls(issuer)) {
    const r = await fetchJson(url, o)
    if (E.isLeft(r)) {
      failures.push(r.left)
      continue
    }
    if (r.right.status !== 200) {
      failures.push(`${url} answered HTTP ${r.right.status}`)
      continue
    }
    const checked = checkMetadata(r.right.body, issuer)
    if (E.isRight(checked)) return checked
    failures.push(`${url}: ${checked.left}`)
  }
  return E.left(`no authorization server metadata for ${issuer}: ${failures.join('; ')}`)
}

/** The document, if it is one for `issuer`. */
const checkMetadata = (body: unknown, issuer: string): E.Either<string, AuthServerMetadata> => {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return E.left('not a JSON object')
  const doc = body as Record<string, unknown>
  if (doc['issuer'] !== issuer) return E.left(`its issuer is ${JSON.stringify(String(doc['issuer']).slice(0, 200))}, not ${issuer}`)
  const url = (k: string): string | undefined => (typeof doc[k] === 'string' && /^https?:\/\//.test(doc[k] as string) ? (doc[k] as string) : undefined)
  const strings = (k: string): ReadonlyArray<string> | undefined =>
    Array.isArray(doc[k]) && (doc[k] as unknown[]).every((s) => typeof s === 'string') ? (doc[k] as string[]) : undefined
  const jwks = url('jwks_uri')
  const introspection = url('introspection_endpoint')
  const scopes = strings('scopes_supported')
  const methods = strings('introspection_endpoint_auth_methods_supported')
  return E.right({
    issuer,
    ...(jwks === undefined ? {} : { jwks_uri: jwks }),
    ...(introspection === undefined ? {} : { introspection_endpoint: introspection }),
    ...(scopes === undefined ? {} : { scopes_supported: scopes }),
    ...(methods === undefined ? {} : { introspection_endpoint_auth_methods_supported: methods }),
  })
}
