import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { expect, test } from 'vitest'
import { emcp, mcpServer, prompt, prompts, resource, resources, resourceTemplate } from 'emcp'
import { behindOAuth } from '../support/oauth.js'

// scopes on prompts and resources over HTTP with tokens from a real OpenID provider: the
// official SDK client's lists, and the 403 step-up challenge in both eras
const summary = prompt({ name: 'summary', description: 'Reads.', get: () => 'summarise', scopes: ['calc:read'] })
const wipe = prompt({ name: 'wipe', description: 'Writes.', get: () => 'wipe it', scopes: ['calc:write'] })
const log = resource({ uri: 'calc://log', name: 'log', read: () => '1 + 1 = 2', scopes: ['calc:read'] })
const memory = resource({ uri: 'calc://memory', name: 'memory', read: () => '0', scopes: ['calc:write'] })
const slots = resourceTemplate({ uriTemplate: 'calc://slots/{n}', name: 'slot', read: ({ n }) => `slot ${n}`, scopes: ['calc:write'] })
const noop = emcp({ name: 'noop', description: 'Does nothing.', input: { type: 'object' } })
const server = mcpServer([noop], { name: 'calc', version: '1' }, { features: [prompts([summary, wipe]), resources([log, memory, slots])] }).implement({ noop: () => 'ok' })

const auth = behindOAuth(server, ['calc:read', 'calc:write'])

const token = (scope: string): Promise<string> => auth.token(scope)
const connect = async (bearer: string): Promise<Client> => {
  const client = new Client({ name: 'sdk', version: '1' })
  await client.connect(new StreamableHTTPClientTransport(new URL(auth.url), { requestInit: { headers: { authorization: `Bearer ${bearer}` } } }))
  return client
}

test('the SDK client sees only the prompts, resources and templates its token’s scopes cover, and gets them', async () => {
  const reader = await connect(await token('calc:read'))
  expect((await reader.listPrompts()).prompts.map((p) => p.name)).toEqual(['summary'])
  expect((await reader.listResources()).resources.map((r) => r.uri)).toEqual(['calc://log'])
  expect((await reader.listResourceTemplates()).resourceTemplates).toEqual([])
  expect(await reader.readResource({ uri: 'calc://log' })).toMatchObject({ contents: [{ text: '1 + 1 = 2' }] })
  expect(await reader.getPrompt({ name: 'summary' })).toMatchObject({ messages: [{ content: { text: 'summarise' } }] })
  await expect(reader.readResource({ uri: 'calc://memory' })).rejects.toThrow(/calc:write/)
  await reader.close()
  const both = await connect(await token('calc:read calc:write'))
  expect((await both.listPrompts()).prompts.map((p) => p.name)).toEqual(['summary', 'wipe'])
  expect((await both.listResources()).resources.map((r) => r.uri)).toEqual(['calc://log', 'calc://memory'])
  expect((await both.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate)).toEqual(['calc://slots/{n}'])
  expect(await both.readResource({ uri: 'calc://slots/3' })).toMatchObject({ contents: [{ text: 'slot 3' }] })
  await both.close()
})

test('the v2 SDK client sees the same filtered lists', async () => {
  const v2 = await import('@modelcontextprotocol/client')
  const client = new v2.Client({ name: 'sdk2', version: '1' })
  const bearer = await token('calc:write')
  await client.connect(new v2.StreamableHTTPClientTransport(new URL(auth.url), { requestInit: { headers: { authorization: `Bearer ${bearer}` } } }))
  expect((await client.listPrompts()).prompts.map((p) => p.name)).toEqual(['wipe'])
  expect((await client.listResources()).resources.map((r) => r.uri)).toEqual(['calc://memory'])
  expect((await client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate)).toEqual(['calc://slots/{n}'])
  await expect(client.getPrompt({ name: 'summary' })).rejects.toThrow(/calc:read/)
  await client.close()
})

/** One request with a bearer token, in the era given. */
const request = (bearer: string, method: 'prompts/get' | 'resources/read', params: { name: string } | { uri: string }, era: '2025-11-25' | '2026-07-28'): Promise<Response> => {
  const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} }
  const modern = era === '2026-07-28'
  return fetch(auth.url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${bearer}`,
      'mcp-protocol-version': era,
      ...(modern ? { 'mcp-method': method, 'mcp-name': 'name' in params ? params.name : params.uri } : {}),
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 9, method, params: { ...params, ...(modern ? { _meta: meta } : {}) } }),
  })
}

test('prompts/get and resources/read without the scope get 403 insufficient_scope naming the scopes held and needed, in both eras', async () => {
  const reader = await token('calc:read')
  const metadata = `resource_metadata="${new URL(auth.url).origin}/.well-known/oauth-protected-resource/mcp"`
  const asks = [
    ['prompts/get', { name: 'wipe' }],
    ['resources/read', { uri: 'calc://memory' }],
    ['resources/read', { uri: 'calc://slots/1' }],
  ] as const
  for (const era of ['2025-11-25', '2026-07-28'] as const)
    for (const [method, params] of asks) {
      const r = await request(reader, method, params, era)
      expect(r.status, `${era} ${method} ${JSON.stringify(params)}`).toBe(403)
      expect(r.headers.get('www-authenticate')).toBe(`Bearer error="insufficient_scope", scope="calc:read calc:write", ${metadata}`)
      expect(await r.json()).toMatchObject({ id: 9, error: { code: -32003, data: { error: 'insufficient_scope', scope: ['calc:write'] } } })
    }
  const writer = await token('calc:write')
  for (const era of ['2025-11-25', '2026-07-28'] as const) {
    expect((await request(writer, 'resources/read', { uri: 'calc://memory' }, era)).status).toBe(200)
    expect((await request(writer, 'prompts/get', { name: 'wipe' }, era)).status).toBe(200)
  }
})
