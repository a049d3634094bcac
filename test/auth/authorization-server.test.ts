import * as E from 'fp-ts/lib/Either.js'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { oauth } from 'emcp/oauth'
import { startAuthorizationServer, type AuthorizationServer } from '../../examples/authorization-server.js'
import { demoToken } from '../support/oauth.js'

// the verifier against a real OpenID provider (oidc-provider): discovery, its JWKS, its introspection
let as: AuthorizationServer
beforeAll(async () => {
  as = await startAuthorizationServer()
})
afterAll(() => as.close())

const token = (resource: string, scope: string): Promise<string> => demoToken(as.issuer, resource, scope)

test('discovery finds the JWKS and the introspection endpoint', async () => {
  const m = await oauth({ issuer: as.issuer, audience: 'http://127.0.0.1:9/mcp' }).ready()
  expect(m).toEqual(E.right(expect.objectContaining({ issuer: as.issuer, jwks_uri: `${as.issuer}/jwks`, introspection_endpoint: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\//) })))
})

test('a JWT minted for this resource is accepted with its scopes; one minted for another resource is refused', async () => {
  const resource = 'http://127.0.0.1:9/mcp'
  const auth = oauth({ issuer: as.issuer, audience: resource })
  expect(await auth.verify(await token(resource, 'calc:read'))).toMatchObject({ subject: 'client:demo-client', scopes: ['calc:read'] })
  const foreign = await auth.check(await token('http://127.0.0.1:9/elsewhere', 'calc:read calc:write'))
  expect(foreign).toEqual(E.left({ error: 'invalid_token', description: 'the token was issued for another resource' }))
})

test('an opaque token is introspected with the resource server credentials', async () => {
  const resource = 'http://127.0.0.1:9/opaque'
  const opaque = await token(resource, 'calc:write')
  expect(opaque.split('.')).toHaveLength(1)
  const auth = oauth({ issuer: as.issuer, audience: resource, introspection: { clientId: 'mcp-server', clientSecret: 'mcp-secret' } })
  expect(await auth.verify(opaque)).toMatchObject({ subject: 'client:demo-client', scopes: ['calc:write'] })
  const wrongCredentials = oauth({ issuer: as.issuer, audience: resource, introspection: { clientId: 'mcp-server', clientSecret: 'wrong' } })
  expect(E.isLeft(await wrongCredentials.check(await token(resource, 'calc:read')))).toBe(true)
  const noIntrospection = oauth({ issuer: as.issuer, audience: resource })
  expect(await noIntrospection.verify(opaque)).toBeUndefined()
})
