/**
 * `connect`'s auth option (src/client/auth.ts) against a real OpenID provider (the demo
 * authorization server, oidc-provider) and emcp's resource server: a bearer token; client
 * credentials; and the authorization code flow with PKCE, discovery and dynamic client
 * registration through a pluggable provider, finished by `authorize` without a browser.
 */
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthClientProvider, OAuthTokens } from '@modelcontextprotocol/client'
import { describe, expect, it } from 'vitest'
import { connect } from '../../src/client/index.js'
import { emcp, mcpServer } from '../../src/index.js'
import { behindOAuth, browse } from '../support/oauth.js'

const whoami = emcp({ name: 'whoami', description: 'The caller and its scopes.', input: { type: 'object' }, output: { type: 'object', properties: { who: { type: 'string' } }, required: ['who'] } })
const server = mcpServer([whoami], { name: 'who', version: '1' }).implement({
  whoami: (_a, ctx) => ({ who: `${ctx.session.identity?.subject} ${ctx.session.identity?.scopes?.join(' ')}` }),
})
const auth = behindOAuth(server, ['calc:read'])

/** A provider that keeps in memory what the SDK hands it, as an app would keep it in a store. */
class MemoryProvider implements OAuthClientProvider {
  info: OAuthClientInformationMixed | undefined
  saved: OAuthTokens | undefined
  verifier = ''
  readonly redirectUrl = 'http://127.0.0.1:1/callback'
  get clientMetadata(): OAuthClientMetadata {
    return { client_name: 'emcp client test', redirect_uris: [this.redirectUrl], grant_types: ['authorization_code'], response_types: ['code'], token_endpoint_auth_method: 'none' }
  }
  clientInformation() {
    return this.info
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.info = info
  }
  tokens() {
    return this.saved
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens
  }
  redirectToAuthorization() {
    // a desktop app opens the browser here; `authorize` below plays the user
  }
  saveCodeVerifier(v: string) {
    this.verifier = v
  }
  codeVerifier() {
    return this.verifier
  }
}

describe('connect with auth', () => {
  it('a bearer token, fixed or asked for before each request; none: refused with 401', async () => {
    const token = await auth.token('calc:read')
    await using fixed = await connect(auth.url, { contracts: server, auth: { bearer: token } })
    expect(await fixed.call('whoami', {})).toEqual({ who: 'client:demo-client calc:read' })
    let asked = 0
    await using dynamic = await connect(auth.url, { contracts: server, auth: { bearer: () => (asked++, token) } })
    await dynamic.call('whoami', {})
    expect(asked).toBeGreaterThan(0)
    await expect(connect(auth.url, { contracts: server })).rejects.toThrow()
  })

  it('client credentials: a token for this resource, fetched by the client', async () => {
    await using c = await connect(auth.url, { contracts: server, auth: { clientCredentials: { clientId: 'demo-client', clientSecret: 'demo-secret', scope: 'calc:read', expectedIssuer: auth.issuer } } })
    expect(await c.call('whoami', {})).toEqual({ who: 'client:demo-client calc:read' })
  })

  it('authorization code with PKCE: discovery, dynamic registration, the user sent to authorize, then the call', async () => {
    const provider = new MemoryProvider()
    const sentTo: URL[] = []
    await using c = await connect(auth.url, {
      contracts: server,
      auth: {
        oauth: provider,
        authorize: async (url) => {
          sentTo.push(url)
          return browse(url, provider.redirectUrl)
        },
      },
    })
    // registered by itself (RFC 7591) and sent once to the issuer's authorization endpoint, with PKCE and the resource
    expect(provider.info?.client_id).toEqual(expect.any(String))
    expect(sentTo).toHaveLength(1)
    expect(sentTo[0]?.origin).toBe(auth.issuer)
    expect(sentTo[0]?.searchParams.get('code_challenge_method')).toBe('S256')
    expect(sentTo[0]?.searchParams.get('resource')).toBe(auth.url)
    expect(await c.call('whoami', {})).toEqual({ who: 'demo-user calc:read' })
  })

  it('without authorize, the provider alone: connect rejects as the SDK does, and the app finishes the flow itself', async () => {
    const provider = new MemoryProvider()
    await expect(connect(auth.url, { contracts: server, auth: { oauth: provider } })).rejects.toThrow(/nauthorized/)
  })
})
