/**
 * The HTTP chain through the public API (`emcp/http`): your own steps with `use` (routes
 * beside the endpoint, a 401 with its own headers), the chain's one error exit, and the body
 * read once however many steps look at it.
 */
import { afterAll, describe, expect, it } from 'vitest'
import { emcp, mcpServer } from '../../../src/index.js'
import { httpCore, serveHttp, toFetchHandler, type HttpMiddleware, type RunningHttp } from '../../../src/transport/http.js'

// ---------------------------------------------------------------------------------------
// fixtures

const add = emcp({
  name: 'add',
  description: 'Add two numbers.',
  input: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] },
})
const server = mcpServer([add], { name: 'chain', version: '1' }).implement({ add: ({ a, b }) => String(a + b) })

const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }
const ping = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' })

/** A route beside the endpoint: a metadata document, as an OAuth resource server publishes. */
const metadata: HttpMiddleware = (req, next) =>
  req.method === 'GET' && req.path === '/.well-known/oauth-protected-resource'
    ? Promise.resolve({ status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ resource: 'http://127.0.0.1/mcp' }) })
    : next(req)

/** A gate of one's own: a 401 with a challenge that names the metadata. */
const gate: HttpMiddleware = (req, next) =>
  req.header('x-key') === 'k'
    ? next(req)
    : Promise.resolve({ status: 401, headers: { 'www-authenticate': 'Bearer resource_metadata="http://127.0.0.1/.well-known/oauth-protected-resource"' }, body: '' })

// ---------------------------------------------------------------------------------------
// tests

describe('http chain: your own steps (use), fetch handler', () => {
  const handler = toFetchHandler(server, { use: [metadata, gate] })

  it('serves a route beside the endpoint, before the gate and without a body', async () => {
    const res = await handler(new Request('http://127.0.0.1/.well-known/oauth-protected-resource'))
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ resource: 'http://127.0.0.1/mcp' })
  })

  it('lets a step answer 401 with its own headers; the guards before it still run', async () => {
    const res = await handler(new Request('http://127.0.0.1/mcp', { method: 'POST', headers, body: ping }))
    expect(res.status).toBe(401)
    expect(res.headers.get('www-authenticate')).toMatch(/resource_metadata=/)
    const rebound = await handler(new Request('http://evil.example/mcp', { method: 'POST', headers: { ...headers, 'x-key': 'k' }, body: ping }))
    expect(rebound.status).toBe(403)
  })

  it('passes what the steps let through to the endpoint', async () => {
    const res = await handler(new Request('http://127.0.0.1/mcp', { method: 'POST', headers: { ...headers, 'x-key': 'k' }, body: ping }))
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ jsonrpc: '2.0', id: 1, result: {} })
  })

  it('answers a step that throws with 500 and a clipped message, and goes on serving', async () => {
    const broken = toFetchHandler(server, { use: [() => { throw new Error(`broken ${'x'.repeat(10_000)}`) }] })
    const res = await broken(new Request('http://127.0.0.1/mcp', { method: 'POST', headers, body: ping }))
    expect(res.status).toBe(500)
    const body = await res.json()
    expect(body.error.message).toMatch(/^Internal Server Error: broken x+… \(10007 characters\)$/)
    expect(body.error.message.length).toBeLessThan(200)
  })
})

describe('http chain: your own steps (use), Node server', () => {
  let running: RunningHttp
  afterAll(async () => {
    await running.close()
  })

  it('routes a path beside /mcp that would otherwise get 404, and serves /mcp as before', async () => {
    running = await serveHttp(server, { port: 0, handleSignals: false, use: [metadata] })
    const base = running.url.replace('/mcp', '')
    const doc = await fetch(`${base}/.well-known/oauth-protected-resource`)
    expect(doc.status).toBe(200)
    expect(await doc.json()).toEqual({ resource: 'http://127.0.0.1/mcp' })
    const other = await fetch(`${base}/elsewhere`)
    expect(other.status).toBe(404)
    await other.text()
    const call = await fetch(running.url, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'add', arguments: { a: 1, b: 2 } } }) })
    expect(call.status).toBe(200)
    expect((await call.json()).result.content).toEqual([{ type: 'text', text: '3' }])
  })
})

describe('http chain: the body is read once', () => {
  it('reads it once through httpCore, for a request that every step looks at (2025 and 2026 eras served)', async () => {
    const core = httpCore(server)
    let reads = 0
    const head = { method: 'POST', header: (n: string) => ({ host: '127.0.0.1', ...headers })[n] }
    const reply = await core(head, async () => {
      reads++
      return { text: ping }
    })
    expect(reply.status).toBe(200)
    expect(reads).toBe(1)
  })
})
