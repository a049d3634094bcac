import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { expect, test } from 'vitest'
import { emcp, mcpServer } from 'emcp'
import { serveHttp } from 'emcp/http'
import { oauth } from 'emcp/oauth'
import { behindOAuth } from '../support/oauth.js'

// oauth() as serveHttp's verifier today: tokens from a real OpenID provider, the official SDK client
const add = emcp({
  name: 'add',
  description: 'Adds.',
  input: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] },
  scopes: ['calc:read'],
})
const clear = emcp({ name: 'clear', description: 'Clears.', input: { type: 'object' }, scopes: ['calc:write'] })
const server = mcpServer([add, clear], { name: 'calc', version: '1' }).implement({
  add: ({ a, b }, ctx) => `${ctx.session.identity?.subject}: ${a + b}`,
  clear: () => 'cleared',
})

const auth = behindOAuth(server, ['calc:read', 'calc:write'])

const token = (resource: string, scope: string): Promise<string> => auth.token(scope, resource)
const connect = async (bearer: string | undefined, url: string): Promise<Client> => {
  const client = new Client({ name: 'sdk', version: '1' })
  await client.connect(new StreamableHTTPClientTransport(new URL(url), bearer === undefined ? {} : { requestInit: { headers: { authorization: `Bearer ${bearer}` } } }))
  return client
}

test('the SDK client calls with a token minted for the endpoint; scopes decide the tools it sees', async () => {
  expect(auth.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/)
  const readOnly = await connect(await token(auth.url, 'calc:read'), auth.url)
  expect((await readOnly.listTools()).tools.map((t) => t.name)).toEqual(['add'])
  expect(await readOnly.callTool({ name: 'add', arguments: { a: 2, b: 3 } })).toMatchObject({ content: [{ type: 'text', text: 'client:demo-client: 5' }] })
  await readOnly.close()
  const both = await connect(await token(auth.url, 'calc:read calc:write'), auth.url)
  expect((await both.listTools()).tools.map((t) => t.name)).toEqual(['add', 'clear'])
  await both.close()
  const writeOnly = await connect(await token(auth.url, 'calc:write'), auth.url)
  expect((await writeOnly.listTools()).tools.map((t) => t.name)).toEqual(['clear'])
  await writeOnly.close()
})

const ping = (bearer?: string): Promise<Response> =>
  fetch(auth.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...(bearer === undefined ? {} : { authorization: `Bearer ${bearer}` }) },
    body: '{"jsonrpc":"2.0","id":1,"method":"ping"}',
  })

test('the Protected Resource Metadata is served at the path-inserted and root well-known paths, to anyone', async () => {
  const origin = new URL(auth.url).origin
  const expected = { resource: auth.url, authorization_servers: [auth.issuer], scopes_supported: ['calc:read', 'calc:write'], bearer_methods_supported: ['header'] }
  for (const path of ['/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-protected-resource']) {
    const r = await fetch(origin + path)
    expect(r.status).toBe(200)
    expect(r.headers.get('access-control-allow-origin')).toBe('*')
    expect(await r.json()).toEqual(expected)
  }
  expect((await fetch(`${origin}/.well-known/oauth-protected-resource/mcp`, { method: 'POST' })).status).toBe(405)
  expect((await fetch(`${origin}/.well-known/oauth-protected-resource/other`)).status).toBe(404)
})

test('no token, or a token for another resource, is refused with 401 pointing to the metadata', async () => {
  const metadata = `resource_metadata="${new URL(auth.url).origin}/.well-known/oauth-protected-resource/mcp"`
  const none = await ping()
  expect(none.status).toBe(401)
  expect(none.headers.get('www-authenticate')).toBe(`Bearer scope="calc:read calc:write", ${metadata}`)
  const foreign = await ping(await token('http://127.0.0.1:9/elsewhere', 'calc:read'))
  expect(foreign.status).toBe(401)
  expect(foreign.headers.get('www-authenticate')).toBe(`Bearer error="invalid_token", scope="calc:read calc:write", ${metadata}`)
  await expect(connect(await token('http://127.0.0.1:9/elsewhere', 'calc:read'), auth.url)).rejects.toThrow(/401|Unauthorized/)
  expect((await ping(await token(auth.url, 'calc:read'))).status).toBe(200)
})

test('the SDK client authorizes by itself with client credentials: 401, metadata, token for the resource, call', async () => {
  const { ClientCredentialsProvider } = await import('@modelcontextprotocol/sdk/client/auth-extensions.js')
  const authProvider = new ClientCredentialsProvider({ clientId: 'demo-client', clientSecret: 'demo-secret', scope: 'calc:read', expectedIssuer: auth.issuer })
  const client = new Client({ name: 'machine', version: '1' })
  expect(authProvider.tokens()).toBeUndefined()
  // no token at first: the 401 leads the transport to the metadata, the authorization server and back
  await client.connect(new StreamableHTTPClientTransport(new URL(auth.url), { authProvider }))
  expect(await client.callTool({ name: 'add', arguments: { a: 20, b: 22 } })).toMatchObject({ content: [{ type: 'text', text: 'client:demo-client: 42' }] })
  const granted = authProvider.tokens()
  expect(granted?.scope).toBe('calc:read')
  // the token was minted for this endpoint (RFC 8707), from what the metadata told the client
  const claims = JSON.parse(Buffer.from((granted?.access_token ?? '').split('.')[1] ?? '', 'base64url').toString()) as { aud?: unknown }
  expect(claims.aud).toBe(auth.url)
  await client.close()
})

test('the v2 SDK client authorizes by itself with client credentials', async () => {
  const v2 = await import('@modelcontextprotocol/client')
  const authProvider = new v2.ClientCredentialsProvider({ clientId: 'demo-client', clientSecret: 'demo-secret', scope: 'calc:read' })
  const client = new v2.Client({ name: 'machine2', version: '1' })
  await client.connect(new v2.StreamableHTTPClientTransport(new URL(auth.url), { authProvider }))
  expect(await client.callTool({ name: 'add', arguments: { a: 1, b: 1 } })).toMatchObject({ content: [{ type: 'text', text: 'client:demo-client: 2' }] })
  await client.close()
})

/** A tools/call of `name` with a bearer token, in the era given. */
const callWith = (bearer: string, name: string, era: '2025-11-25' | '2026-07-28'): Promise<Response> => {
  const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} }
  const modern = era === '2026-07-28'
  return fetch(auth.url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${bearer}`,
      'mcp-protocol-version': era,
      ...(modern ? { 'mcp-method': 'tools/call', 'mcp-name': name } : {}),
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name, arguments: {}, ...(modern ? { _meta: meta } : {}) } }),
  })
}

test('a call without the scope of its tool gets 403 insufficient_scope naming the scopes held and needed, in both eras', async () => {
  const readOnly = await token(auth.url, 'calc:read')
  const metadata = `resource_metadata="${new URL(auth.url).origin}/.well-known/oauth-protected-resource/mcp"`
  for (const era of ['2025-11-25', '2026-07-28'] as const) {
    const r = await callWith(readOnly, 'clear', era)
    expect(r.status).toBe(403)
    expect(r.headers.get('www-authenticate')).toBe(`Bearer error="insufficient_scope", scope="calc:read calc:write", ${metadata}`)
    const body = (await r.json()) as { id: number; error: { code: number; data: unknown } }
    expect(body).toMatchObject({ id: 7, error: { code: -32003, data: { error: 'insufficient_scope', scope: ['calc:write'] } } })
  }
  expect((await callWith(await token(auth.url, 'calc:write'), 'clear', '2026-07-28')).status).toBe(200)
})

test('when the issuer cannot be reached, a token is not refused as invalid: 503 with Retry-After', async () => {
  const unreachable = await serveHttp(server, { port: 0, auth: oauth({ issuer: 'http://127.0.0.1:9', audience: 'http://127.0.0.1:9/mcp', timeoutMs: 2000 }) })
  try {
    const b64 = (x: object): string => Buffer.from(JSON.stringify(x)).toString('base64url')
    const jwt = `${b64({ alg: 'ES256', kid: 'k' })}.${b64({ sub: 'a' })}.c2ln`
    const r = await fetch(unreachable.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${jwt}` },
      body: '{"jsonrpc":"2.0","id":1,"method":"ping"}',
    })
    expect(r.status).toBe(503)
    // when discovery is tried again: 5 s after a failure
    expect(r.headers.get('retry-after')).toMatch(/^[1-5]$/)
    expect(((await r.json()) as { error: { message: string } }).error.message).toBe('Service Unavailable: the authorization server could not be consulted to check the token; try again later')
  } finally {
    await unreachable.close()
  }
})
