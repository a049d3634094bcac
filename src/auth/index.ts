/**
 * `emcp/oauth`: emcp as an OAuth 2.1 resource server. `oauth()` verifies access tokens (JWTs
 * against the issuer's keys, opaque tokens by introspection); the metadata and challenge
 * helpers say where clients find the authorization server. Needs the optional peer `jose`.
 *
 * @example
 * import { metadataUrl, oauth, protectedResourceMetadata } from 'emcp/oauth'
 * const resource = 'https://mcp.example.com/mcp'
 * const auth = oauth({ issuer: 'https://id.example.com', audience: resource, scopesSupported: ['calc:read'] })
 * const prm = protectedResourceMetadata({ resource, authorizationServers: [auth.issuer], scopesSupported: auth.scopesSupported })
 * metadataUrl(resource) // 'https://mcp.example.com/.well-known/oauth-protected-resource/mcp'
 */
export { audienceIncludes, identityOf, scopesOf } from './claims.js'
export { discover, discoveryUrls, type AuthServerMetadata } from './discovery.js'
export { introspector, type IntrospectionOptions } from './introspection.js'
export { defaultAlgorithms, oauth, type OAuth, type OAuthOptions, type TokenRefusal } from './oauth.js'
export {
  bearerChallenge,
  canonicalResource,
  metadataPath,
  metadataUrl,
  protectedResourceMetadata,
  type Challenge,
  type ProtectedResourceMetadata,
  type ResourceMetadataOptions,
} from './resource-metadata.js'
