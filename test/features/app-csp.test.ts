/**
 * The policy and `allow` list built for an MCP App from its `_meta.ui` (src/features/app-csp.ts):
 * the extension's construction, origins only, and the round trip through the sandbox route's path.
 */
import { describe, expect, it } from 'vitest'
import { allowAttribute, appPolicy, cleanCsp, cspProblems, decodeCsp, encodeCsp } from '../../src/features/app-csp.js'

describe('app policy', () => {
  it('is restrictive by default and adds each declared origin to its directives', () => {
    expect(appPolicy()).toBe(
      "default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; connect-src 'none'; img-src 'self' data:; font-src 'self'; media-src 'self' data:; frame-src 'none'; object-src 'none'; base-uri 'self'; form-action 'none'; frame-ancestors 'self'",
    )
    const policy = appPolicy({ connectDomains: ['wss://rt.example.com'], resourceDomains: ['https://cdn.example.com'], frameDomains: ['https://www.youtube.com'], baseUriDomains: ['https://base.example'] })
    expect(policy).toContain('connect-src wss://rt.example.com;')
    expect(policy).toContain("img-src 'self' data: https://cdn.example.com;")
    expect(policy).toContain('frame-src https://www.youtube.com;')
    expect(policy).toContain('base-uri https://base.example;')
  })

  it('refuses sources that are not origins, and keeps only the good ones when cleaned', () => {
    const csp = { connectDomains: ['https://ok.example', "'unsafe-eval'", 'https://x.example; script-src *', '*', 'javascript:alert(1)'], frameDomains: 'https://a.example' }
    expect(cspProblems(csp)).toHaveLength(5)
    expect(() => appPolicy(csp as never)).toThrow(TypeError)
    expect(cleanCsp(csp)).toEqual({ connectDomains: ['https://ok.example'] })
  })

  it('round-trips through a path segment, and refuses a bad one', () => {
    const csp = { connectDomains: ['https://api.example.com:8443'], resourceDomains: ['https://*.example.com'] }
    expect(decodeCsp(encodeCsp(csp))).toEqual(csp)
    expect(decodeCsp('')).toEqual({})
    expect(decodeCsp('not/base64')).toMatch(/base64url/)
    expect(decodeCsp(encodeCsp({ connectDomains: ['*'] } as never))).toMatch(/is not an origin/)
  })

  it('maps permissions onto the iframe allow attribute', () => {
    expect(allowAttribute({ camera: {}, clipboardWrite: {} })).toBe('camera; clipboard-write')
    expect(allowAttribute({ microphone: true })).toBe('')
    expect(allowAttribute(undefined)).toBe('')
  })
})
