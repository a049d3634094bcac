import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { emcp, mcpServer, type Identity } from '../../../src/index.js'
import { serveHttp, type RunningHttp } from '../../../src/transport/http.js'

// who am I, and a tool only for the role "staff"
const whoami = emcp({ name: 'whoami', description: 'The caller.', input: { type: 'object' } })
const secret = emcp({ name: 'secret', description: 'Staff only.', input: { type: 'object' } })
const server = mcpServer([whoami, secret], { name: 'auth-test', version: '1' }, {
  authorize: (tool, session) => tool.name !== 'secret' || (session.identity?.roles.includes('staff') ?? false),
}).implement({
  whoami: (_a, ctx) => ctx.session.identity?.subject ?? 'anonymous',
  secret: () => '42',
})
const tokens: Record<string, Identity> = {
  'tok-ann': { subject: 'ann', roles: ['staff'] },
  'tok-bob': { subject: 'bob', roles: [] },
}
const verify = async (token: string): Promise<Identity | undefined> => tokens[token]

const headers = (token?: string, extra: Record<string, string> = {}): Record<string, string> => ({
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
  ...extra,
})
const rpc = (method: string, params: object, id = 1): string => JSON.stringify({ jsonrpc: '2.0', id, method, params })
const initialize = rpc('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } })

describe('http: bearer-token verifier (stateless)', () => {
  let running: RunningHttp
  beforeAll(async () => {
    running = await serveHttp(server, { port: 0, auth: { verify } })
  })
  afterAll(() => running.close())

  const post = (body: string, token?: string) => fetch(running.url, { method: 'POST', headers: headers(token), body })

  it('puts the verified identity on the session', async () => {
    const r = await (await post(rpc('tools/call', { name: 'whoami', arguments: {} }), 'tok-ann')).json()
    expect(r.result.content[0].text).toBe('ann')
    const anon = await (await post(rpc('tools/call', { name: 'whoami', arguments: {} }))).json()
    expect(anon.result.content[0].text).toBe('anonymous')
  })

  it('answers a token the verifier refuses with 401 and a Bearer challenge', async () => {
    const r = await post(rpc('ping', {}), 'forged')
    expect(r.status).toBe(401)
    expect(r.headers.get('www-authenticate')).toBe('Bearer realm="mcp", error="invalid_token"')
    const basic = await fetch(running.url, { method: 'POST', headers: { ...headers(), authorization: 'Basic eDp5' }, body: rpc('ping', {}) })
    expect(basic.status).toBe(401)
  })

  it('lists and calls a role-guarded tool only for a caller with the role', async () => {
    const list = async (token?: string) =>
      ((await (await post(rpc('tools/list', {}), token)).json()).result.tools as { name: string }[]).map((t) => t.name)
    expect(await list('tok-ann')).toEqual(['whoami', 'secret'])
    expect(await list('tok-bob')).toEqual(['whoami'])
    expect(await list()).toEqual(['whoami'])
    const refused = await (await post(rpc('tools/call', { name: 'secret', arguments: {} }), 'tok-bob')).json()
    expect(refused.error.code).toBe(-32003)
    expect(refused.error.message).toMatch(/bob may not call tool secret/)
  })
})

describe('http: bearer-token verifier (required, stateful)', () => {
  let running: RunningHttp
  beforeAll(async () => {
    running = await serveHttp(server, { port: 0, sessions: true, auth: { verify, required: true, realm: 'shop' } })
  })
  afterAll(() => running.close())

  it('refuses a request without a token with 401', async () => {
    const r = await fetch(running.url, { method: 'POST', headers: headers(), body: initialize })
    expect(r.status).toBe(401)
    expect(r.headers.get('www-authenticate')).toBe('Bearer realm="shop"')
  })

  it('keeps a session to the subject that opened it: another subject gets 403', async () => {
    const init = await fetch(running.url, { method: 'POST', headers: headers('tok-ann'), body: initialize })
    expect(init.status).toBe(200)
    const sid = init.headers.get('mcp-session-id') as string
    const own = await fetch(running.url, { method: 'POST', headers: headers('tok-ann', { 'mcp-session-id': sid }), body: rpc('ping', {}, 2) })
    expect(own.status).toBe(200)
    const other = await fetch(running.url, { method: 'POST', headers: headers('tok-bob', { 'mcp-session-id': sid }), body: rpc('ping', {}, 3) })
    expect(other.status).toBe(403)
    const del = await fetch(running.url, { method: 'DELETE', headers: headers('tok-bob', { 'mcp-session-id': sid }) })
    expect(del.status).toBe(403)
  })
})

describe('http: bearer-token verifier (2026-07-28 requests)', () => {
  let running: RunningHttp
  beforeAll(async () => {
    running = await serveHttp(server, { port: 0, auth: { verify } })
  })
  afterAll(() => running.close())

  const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} }
  const modern = (method: string, params: object, token?: string, name?: string) =>
    fetch(running.url, {
      method: 'POST',
      headers: headers(token, { 'mcp-protocol-version': '2026-07-28', 'mcp-method': method, ...(name === undefined ? {} : { 'mcp-name': name }) }),
      body: JSON.stringify({ jsonrpc: '2.0', id: 9, method, params: { ...params, _meta: meta } }),
    })

  it('carries the identity into each request’s own session, for authorize and for handlers', async () => {
    const who = await (await modern('tools/call', { name: 'whoami', arguments: {} }, 'tok-ann', 'whoami')).json()
    expect(who.result.content[0].text).toBe('ann')
    const listAnn = await (await modern('tools/list', {}, 'tok-ann')).json()
    expect(listAnn.result.tools.map((t: { name: string }) => t.name)).toEqual(['whoami', 'secret'])
    const listAnon = await (await modern('tools/list', {})).json()
    expect(listAnon.result.tools.map((t: { name: string }) => t.name)).toEqual(['whoami'])
    expect((await modern('tools/list', {}, 'forged')).status).toBe(401)
  })
})
