import { afterAll, beforeAll, expect, test } from 'vitest'
import { demoToken } from '../support/oauth.js'
import { example, spawnListening, stop, type Listening } from './children.js'

// examples/oauth.ts as its header promises, from the outside: what a shell with curl sees
let server: Listening
let issuer: string
beforeAll(async () => {
  server = await spawnListening(example('oauth'), (port) => ['--port', String(port)])
  issuer = `http://127.0.0.1:${Number(new URL(server.url).port) + 1}`
})
afterAll(async () => {
  const exit = await stop(server.child, server.exited)
  expect(exit).toEqual({ code: 0, signal: null })
})

const token = (scope: string, resource: string): Promise<string> => demoToken(issuer, resource, scope)
const call = (name: string, bearer?: string): Promise<Response> =>
  fetch(server.url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-11-25',
      ...(bearer === undefined ? {} : { authorization: `Bearer ${bearer}` }),
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: name === 'add' ? { a: 2, b: 3 } : {} } }),
  })

test('metadata, 401, a token for calc:read that adds, 403 on clear, 401 for another resource', async () => {
  const origin = new URL(server.url).origin
  const metadataUrl = `${origin}/.well-known/oauth-protected-resource/mcp`
  expect(server.output()).toContain(issuer)
  const prm = await fetch(metadataUrl)
  expect(await prm.json()).toEqual({ resource: server.url, authorization_servers: [issuer], scopes_supported: ['calc:read', 'calc:write'], bearer_methods_supported: ['header'] })
  const discovery = await fetch(`${issuer}/.well-known/openid-configuration`)
  expect(((await discovery.json()) as { issuer: string }).issuer).toBe(issuer)

  const anonymous = await call('add')
  expect(anonymous.status).toBe(401)
  expect(anonymous.headers.get('www-authenticate')).toContain(`resource_metadata="${metadataUrl}"`)

  const reader = await token('calc:read', server.url)
  const added = await call('add', reader)
  expect(added.status).toBe(200)
  expect(await added.json()).toMatchObject({ result: { structuredContent: { sum: 5 } } })
  const cleared = await call('clear', reader)
  expect(cleared.status).toBe(403)
  expect(cleared.headers.get('www-authenticate')).toBe(`Bearer error="insufficient_scope", scope="calc:read calc:write", resource_metadata="${metadataUrl}"`)
  const writer = await token('calc:write', server.url)
  expect(await (await call('clear', writer)).json()).toMatchObject({ result: { content: [{ type: 'text', text: 'forgot 1 sums' }] } })

  const elsewhere = await call('add', await token('calc:read', `${origin}/other`))
  expect(elsewhere.status).toBe(401)
  expect(elsewhere.headers.get('www-authenticate')).toContain('error="invalid_token"')
})
