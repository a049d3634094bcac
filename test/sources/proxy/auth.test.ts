/**
 * emcp/proxy to an upstream behind OAuth (emcp's resource server, the demo authorization
 * server of examples/authorization-server.ts, both on 127.0.0.1): with client credentials the
 * proxy discovers the authorization server from the upstream's 401 and gets its own token;
 * with a bearer token it sends that; without either it cannot start, and says so.
 */
import { describe, expect, it } from 'vitest'
import { emcp, inMemoryClient, mcpServer } from '../../../src/index.js'
import { proxy } from '../../../src/sources/proxy/index.js'
import { behindOAuth } from '../../support/oauth.js'

const whoami = emcp({ name: 'whoami', description: 'Who is calling.', input: { type: 'object' }, scopes: ['calc:read'] })
const server = mcpServer([whoami], { name: 'guarded', version: '1' }).implement({ whoami: (_args, ctx) => ctx.session.identity?.subject ?? 'nobody' })
const auth = behindOAuth(server, ['calc:read'])

describe('an upstream behind OAuth', () => {
  it('client credentials: the proxy gets a token from the authorization server the upstream names', async () => {
    const p = await proxy({ url: auth.url }, { auth: { clientCredentials: { clientId: 'demo-client', clientSecret: 'demo-secret', scope: 'calc:read', issuer: auth.issuer } } })
    try {
      expect(await inMemoryClient(p).callResult('whoami', {})).toEqual({ content: [{ type: 'text', text: 'client:demo-client' }] })
    } finally {
      await p.close()
    }
  })

  it('a bearer token, fixed or from a function called per request', async () => {
    const token = await auth.token('calc:read')
    let asked = 0
    for (const bearer of [token, () => (asked++, token)]) {
      const p = await proxy({ url: auth.url }, { auth: { bearer } })
      try {
        expect(await inMemoryClient(p).callResult('whoami', {})).toEqual({ content: [{ type: 'text', text: 'client:demo-client' }] })
      } finally {
        await p.close()
      }
    }
    expect(asked).toBeGreaterThan(0)
  })

  it('no credentials, or wrong ones: the proxy does not start, and the reason names the upstream', async () => {
    await expect(proxy({ url: auth.url })).rejects.toThrow(/^the upstream MCP server http:\/\/127\.0\.0\.1:\d+\/mcp cannot be reached: .*(401|[Uu]nauthori[sz]ed)/)
    await expect(proxy({ url: auth.url }, { auth: { clientCredentials: { clientId: 'demo-client', clientSecret: 'wrong', issuer: auth.issuer } } })).rejects.toThrow(/cannot be reached/)
  })
})
