/**
 * The resource server's side of MCP authorization that needs no network: the Protected
 * Resource Metadata document (RFC 9728) and where it is served, the canonical resource URL
 * tokens must be issued for (RFC 8707), and the `WWW-Authenticate` challenges of 401 and 403
 * answers (RFC 6750), which point clients to the metadata.
 *
 * @example
 * import { bearerChallenge, metadataUrl, protectedResourceMetadata } from './resource-metadata.js'
 * metadataUrl('https://mcp.example.com/mcp') // 'https://mcp.example.com/.well-known/oauth-protected-resource/mcp'
 * protectedResourceMetadata({ resource: 'https://mcp.example.com/mcp', authorizationServers: ['https://id.example.com'], scopesSupported: ['calc:read'] })
 * bearerChallenge({ resourceMetadata: metadataUrl('https://mcp.example.com/mcp'), error: 'insufficient_scope', scope: ['calc:write'] })
 * // 'Bearer error="insufficient_scope", scope="calc:write", resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp"'
 */
import * as E from 'fp-ts/lib/Either.js'
import { isScopeToken } from '../util/scope-token.js'

// ---------------------------------------------------------------------------------------
// model

/** What a Protected Resource Metadata document says (RFC 9728 §2), in emcp's words. */
export interface ResourceMetadataOptions {
  /** The canonical URL of the MCP endpoint: what tokens' `aud` must name. */
  readonly resource: string
  /** Issuer identifiers of the authorization servers that mint tokens for it. */
  readonly authorizationServers: ReadonlyArray<string>
  /** The scopes the server's tools, prompts and resources ask for. */
  readonly scopesSupported?: ReadonlyArray<string>
  /** A human-readable name of the resource. */
  readonly resourceName?: string
  /** A page for developers. */
  readonly resourceDocumentation?: string
}

/** The document as served, with RFC 9728's member names. */
export interface ProtectedResourceMetadata {
  readonly resource: string
  readonly authorization_servers: ReadonlyArray<string>
  readonly scopes_supported?: ReadonlyArray<string>
  readonly bearer_methods_supported: ReadonlyArray<'header'>
  readonly resource_name?: string
  readonly resource_documentation?: string
}

/** The parts of a Bearer challenge (RFC 6750 §3, RFC 9728 §5.1). */
export interface Challenge {
  /** Where the client finds the Protected Resource Metadata. */
  readonly resourceMetadata: string
  /** Absent: no token was sent. */
  readonly error?: 'invalid_request' | 'invalid_token' | 'insufficient_scope'
  /** For people, not parsed by clients; clipped and stripped of quotes. */
  readonly description?: string
  /** The scopes the request needs (insufficient_scope), or those to ask for first (401); never clipped, and only valid scope names (RFC 6749 §3.3) are written. */
  readonly scope?: ReadonlyArray<string>
}

// ---------------------------------------------------------------------------------------
// functions

/**
 * The canonical form of a resource URL (RFC 8707 §2, as MCP uses it): an absolute http(s)
 * URL without fragment, the scheme and host lower case, no trailing slash after a path.
 * A Left names what is wrong with it.
 */
export const canonicalResource = (url: string): E.Either<string, string> => {
  let u: URL
  try {
    u = new URL(url)
  } catch {
    return E.left(`the resource ${JSON.stringify(url.slice(0, 200))} is not an absolute URL`)
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') return E.left(`the resource ${u.href} is not an http or https URL`)
  if (u.hash !== '' || url.includes('#')) return E.left(`the resource ${u.href} must not have a fragment`)
  if (u.username !== '' || u.password !== '') return E.left('the resource must not carry credentials')
  const path = withoutTrailingSlashes(u.pathname)
  return E.right(`${u.protocol}//${u.host}${path}${u.search}`)
}

/** Where the metadata of `resource` is served: the well-known path inserted before the resource's path (RFC 9728 §3.1). */
export const metadataUrl = (resource: string): string => {
  const u = new URL(resource)
  const path = withoutTrailingSlashes(u.pathname)
  return `${u.protocol}//${u.host}${metadataPath(path)}${u.search}`
}

/** The well-known path for a resource whose URL path is `resourcePath` ('' or '/mcp'). */
export const metadataPath = (resourcePath: string): string => `/.well-known/oauth-protected-resource${resourcePath === '/' ? '' : resourcePath}`

/** The Protected Resource Metadata document. */
export const protectedResourceMetadata = (o: ResourceMetadataOptions): ProtectedResourceMetadata => ({
  resource: o.resource,
  authorization_servers: [...o.authorizationServers],
  ...(o.scopesSupported === undefined || o.scopesSupported.length === 0 ? {} : { scopes_supported: [...o.scopesSupported] }),
  bearer_methods_supported: ['header'],
  ...(o.resourceName === undefined ? {} : { resource_name: o.resourceName }),
  ...(o.resourceDocumentation === undefined ? {} : { resource_documentation: o.resourceDocumentation }),
})

/** The `WWW-Authenticate` value of a challenge. */
export const bearerChallenge = (c: Challenge): string => {
  const parts: string[] = []
  if (c.error !== undefined) parts.push(`error="${c.error}"`)
  if (c.description !== undefined) parts.push(`error_description="${quotable(c.description)}"`)
  // clipping the list would drop the very scope a step-up needs: a name that cannot be quoted is left out instead
  const scope = (c.scope ?? []).filter(isScopeToken)
  if (scope.length > 0) parts.push(`scope="${scope.join(' ')}"`)
  parts.push(`resource_metadata="${quotable(c.resourceMetadata)}"`)
  return `Bearer ${parts.join(', ')}`
}

/** A URL path without its trailing slashes ('/' gives ''): a loop, where `/\/+$/` would be quadratic on many slashes. */
export const withoutTrailingSlashes = (path: string): string => {
  let end = path.length
  while (end > 0 && path.charCodeAt(end - 1) === 0x2f) end--
  return path.slice(0, end)
}

/** Text safe inside a quoted-string of a header: printable ASCII without `"` and `\`, at most 200 characters. */
const quotable = (s: string): string => s.replace(/[^\x20-\x7e]|["\\]/g, '?').slice(0, 200)
