import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, test } from 'vitest'
import { bearerChallenge, canonicalResource, discoveryUrls, metadataUrl, protectedResourceMetadata } from 'emcp/oauth'

describe('resource URLs (RFC 8707, RFC 9728)', () => {
  test('the canonical resource: lower-case scheme and host, no trailing slash, no fragment', () => {
    expect(canonicalResource('HTTPS://MCP.Example.com/mcp/')).toEqual(E.right('https://mcp.example.com/mcp'))
    expect(canonicalResource('http://127.0.0.1:3000/')).toEqual(E.right('http://127.0.0.1:3000'))
    expect(canonicalResource('https://mcp.example.com/mcp#x')).toEqual(E.left('the resource https://mcp.example.com/mcp#x must not have a fragment'))
    expect(E.isLeft(canonicalResource('/mcp'))).toBe(true)
    expect(E.isLeft(canonicalResource('ftp://example.com/mcp'))).toBe(true)
    expect(E.isLeft(canonicalResource('https://user:pw@example.com/mcp'))).toBe(true)
  })

  test('the metadata URL inserts the well-known path before the resource path', () => {
    expect(metadataUrl('https://mcp.example.com/mcp')).toBe('https://mcp.example.com/.well-known/oauth-protected-resource/mcp')
    expect(metadataUrl('https://mcp.example.com')).toBe('https://mcp.example.com/.well-known/oauth-protected-resource')
    expect(metadataUrl('http://127.0.0.1:3000/a/b/')).toBe('http://127.0.0.1:3000/.well-known/oauth-protected-resource/a/b')
  })

  test('the document has the RFC 9728 member names, and omits what is not known', () => {
    expect(protectedResourceMetadata({ resource: 'https://m/mcp', authorizationServers: ['https://as'], scopesSupported: ['a', 'b'] })).toEqual({
      resource: 'https://m/mcp',
      authorization_servers: ['https://as'],
      scopes_supported: ['a', 'b'],
      bearer_methods_supported: ['header'],
    })
    expect(protectedResourceMetadata({ resource: 'https://m/mcp', authorizationServers: [] })).not.toHaveProperty('scopes_supported')
  })
})

describe('challenges (RFC 6750)', () => {
  test('401 and 403 challenges point to the metadata; client text cannot break the header', () => {
    const resourceMetadata = 'https://m/.well-known/oauth-protected-resource/mcp'
    expect(bearerChallenge({ resourceMetadata })).toBe(`Bearer resource_metadata="${resourceMetadata}"`)
    expect(bearerChallenge({ resourceMetadata, error: 'insufficient_scope', scope: ['calc:write'] })).toBe(
      `Bearer error="insufficient_scope", scope="calc:write", resource_metadata="${resourceMetadata}"`,
    )
    const h = bearerChallenge({ resourceMetadata, error: 'invalid_token', description: 'bad "token"\r\nSet-Cookie: x' + 'y'.repeat(500) })
    expect(h).not.toMatch(/[\r\n]/)
    expect(h).toContain('error_description="bad ?token???Set-Cookie: x')
    expect(h.length).toBeLessThan(400)
  })
})

describe('authorization server discovery URLs', () => {
  test('RFC 8414 inserted, then OpenID appended, then OpenID inserted', () => {
    expect(discoveryUrls('https://id.example.com')).toEqual([
      'https://id.example.com/.well-known/oauth-authorization-server',
      'https://id.example.com/.well-known/openid-configuration',
    ])
    expect(discoveryUrls('https://id.example.com/tenant/')).toEqual([
      'https://id.example.com/.well-known/oauth-authorization-server/tenant',
      'https://id.example.com/tenant/.well-known/openid-configuration',
      'https://id.example.com/.well-known/openid-configuration/tenant',
    ])
  })
})
