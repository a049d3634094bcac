import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js'
import * as v2 from '@modelcontextprotocol/client'
import { expect, test } from 'vitest'
import { emcp, mcpServer } from 'emcp'
import { behindOAuth, browse } from '../support/oauth.js'

// the spec's whole flow with the official SDK client and a real OpenID provider, no manual step:
// 401 → Protected Resource Metadata → authorization server metadata → dynamic client registration
// → authorization code with PKCE (the demo server logs in and consents by itself) → token for the resource → call
const whoami = emcp({ name: 'whoami', description: 'The caller and its scopes.', input: { type: 'object' } })
const clear = emcp({ name: 'clear', description: 'Clears the memory.', input: { type: 'object' }, scopes: ['calc:write'] })
const server = mcpServer([whoami, clear], { name: 'who', version: '1' }).implement({
  whoami: (_a, ctx) => `${ctx.session.identity?.subject} ${ctx.session.identity?.scopes?.join(' ')}`,
  clear: () => 'cleared',
})

const auth = behindOAuth(server, ['calc:read'])

/** A browser-less OAuth client: it keeps what the SDK hands it and remembers where it was sent. */
class Recorder implements OAuthClientProvider {
  info: OAuthClientInformationMixed | undefined
  saved: OAuthTokens | undefined
  verifier = ''
  sentTo: URL | undefined
  readonly redirectUrl = 'http://127.0.0.1:1/callback'
  get clientMetadata(): OAuthClientMetadata {
    return { client_name: 'sdk test', redirect_uris: [this.redirectUrl], grant_types: ['authorization_code'], response_types: ['code'], token_endpoint_auth_method: 'none' }
  }
  clientInformation(): OAuthClientInformationMixed | undefined {
    return this.info
  }
  saveClientInformation(info: OAuthClientInformationMixed): void {
    this.info = info
  }
  tokens(): OAuthTokens | undefined {
    return this.saved
  }
  saveTokens(tokens: OAuthTokens): void {
    this.saved = tokens
  }
  redirectToAuthorization(url: URL): void {
    this.sentTo = url
  }
  saveCodeVerifier(v: string): void {
    this.verifier = v
  }
  codeVerifier(): string {
    return this.verifier
  }
}

test('the SDK client registers, gets a code with PKCE, a token for this resource, and calls', async () => {
  const provider = new Recorder()
  const first = new StreamableHTTPClientTransport(new URL(auth.url), { authProvider: provider })
  await expect(new Client({ name: 'sdk', version: '1' }).connect(first)).rejects.toBeInstanceOf(UnauthorizedError)
  // registered by itself (RFC 7591), and sent to the authorization endpoint with PKCE and the resource
  expect(provider.info?.client_id).toEqual(expect.any(String))
  const sentTo = provider.sentTo as URL
  expect(sentTo.origin).toBe(auth.issuer)
  expect(sentTo.searchParams.get('code_challenge_method')).toBe('S256')
  expect(sentTo.searchParams.get('resource')).toBe(auth.url)
  expect(sentTo.searchParams.get('scope')).toBe('calc:read')

  const callback = await browse(sentTo, provider.redirectUrl)
  // the authorization response names its issuer (RFC 9207)
  expect(callback.get('iss')).toBe(auth.issuer)
  await first.finishAuth(callback.get('code') as string)
  const client = new Client({ name: 'sdk', version: '1' })
  await client.connect(new StreamableHTTPClientTransport(new URL(auth.url), { authProvider: provider }))
  const r = await client.callTool({ name: 'whoami', arguments: {} })
  expect(r).toMatchObject({ content: [{ type: 'text', text: 'demo-user calc:read' }] })

  await client.close()
})

test('the v2 SDK client (@modelcontextprotocol/client) runs the same flow', async () => {
  const provider = new Recorder()
  const first = new v2.StreamableHTTPClientTransport(new URL(auth.url), { authProvider: provider })
  await expect(new v2.Client({ name: 'sdk2', version: '1' }).connect(first)).rejects.toBeInstanceOf(v2.UnauthorizedError)
  const sentTo = provider.sentTo as URL
  expect(sentTo.searchParams.get('code_challenge_method')).toBe('S256')
  expect(sentTo.searchParams.get('resource')).toBe(auth.url)
  await first.finishAuth(await browse(sentTo, provider.redirectUrl))
  const client = new v2.Client({ name: 'sdk2', version: '1' })
  await client.connect(new v2.StreamableHTTPClientTransport(new URL(auth.url), { authProvider: provider }))
  expect(await client.callTool({ name: 'whoami', arguments: {} })).toMatchObject({ content: [{ type: 'text', text: 'demo-user calc:read' }] })
  await client.close()
})

test('a pre-registered client steps up: 403 insufficient_scope names the scopes held and needed, the user is asked again', async () => {
  const provider = new Recorder()
  // registered beforehand, allowed both scopes; the 401 asks only for calc:read first
  provider.info = { client_id: 'demo-app' }
  const first = new StreamableHTTPClientTransport(new URL(auth.url), { authProvider: provider })
  const client = new Client({ name: 'sdk', version: '1' })
  await expect(client.connect(first)).rejects.toBeInstanceOf(UnauthorizedError)
  expect(provider.sentTo?.searchParams.get('scope')).toBe('calc:read')
  await first.finishAuth((await browse(provider.sentTo as URL, provider.redirectUrl)).get('code') as string)
  await client.connect(new StreamableHTTPClientTransport(new URL(auth.url), { authProvider: provider }))
  expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['whoami'])

  // the tool needs calc:write: the 403 names calc:read and calc:write, and the client asks the user for both
  provider.sentTo = undefined
  await expect(client.callTool({ name: 'clear', arguments: {} })).rejects.toBeInstanceOf(UnauthorizedError)
  const again = provider.sentTo as URL | undefined
  expect(again?.searchParams.get('scope')).toBe('calc:read calc:write')
  const stepUp = new StreamableHTTPClientTransport(new URL(auth.url), { authProvider: provider })
  await stepUp.finishAuth((await browse(again as URL, provider.redirectUrl)).get('code') as string)
  expect(provider.saved?.scope).toBe('calc:read calc:write')
  expect(await client.callTool({ name: 'clear', arguments: {} })).toMatchObject({ content: [{ type: 'text', text: 'cleared' }] })
  expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['whoami', 'clear'])
  await client.close()
})
