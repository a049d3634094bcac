import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { request as httpRequest } from 'node:http'
import type { AddressInfo } from 'node:net'
import { emcp, mcpServer, resource, resources } from '../../../src/index.js'
import { serveHttp, toFetchHandler, type RunningHttp } from '../../../src/transport/http.js'
import { until } from '../../interop/children.js'

// ---------------------------------------------------------------------------------------
// fixtures

const echo = emcp({
  name: 'echo',
  description: 'Echo the text.',
  input: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
})
const version = emcp({ name: 'version', description: 'The revision this request was served at.', input: { type: 'object' } })

const server = mcpServer([echo, version], { name: 'http-test', version: '1' }).implement({
  echo: ({ text }) => text,
  version: (_a, ctx) => ctx.session.protocolVersion,
})

const ping = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' })
const json = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }

const callBody = (name: string, args: object, id = 1): string =>
  JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } })

/** A raw HTTP request, for headers fetch will not let us set (Host) or leave out. */
const raw = (
  port: number,
  options: { method?: string; path?: string; headers?: Record<string, string>; body?: string },
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> =>
  new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port, method: options.method ?? 'POST', path: options.path ?? '/mcp', headers: options.headers, timeout: 5000 },
      (res) => {
        let body = ''
        res.setEncoding('utf8')
        res.on('data', (c: string) => (body += c))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }))
      },
    )
    req.on('timeout', () => req.destroy(new Error('timed out')))
    req.on('error', reject)
    req.end(options.body)
  })

// ---------------------------------------------------------------------------------------
// the Node server

describe('http: serveHttp', () => {
  let running: RunningHttp

  beforeAll(async () => {
    running = await serveHttp(server, { port: 0, maxBodyBytes: 1024 })
  })
  afterAll(async () => {
    await running.close()
  })

  const post = (body: string, headers: Record<string, string> = json, path = '/mcp') =>
    fetch(`http://127.0.0.1:${running.port}${path}`, { method: 'POST', headers, body })

  it('binds 127.0.0.1 by default and reports the endpoint URL', () => {
    const address = running.server.address() as AddressInfo
    expect(address.address).toBe('127.0.0.1')
    expect(address.port).toBe(running.port)
    expect(running.port).toBeGreaterThan(0)
    expect(running.url).toBe(`http://127.0.0.1:${running.port}/mcp`)
  })

  it('answers a POSTed request with 200 and the JSON response', async () => {
    const res = await post(callBody('echo', { text: 'over http' }, 'abc' as unknown as number))
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/json')
    expect(await res.json()).toEqual({ jsonrpc: '2.0', id: 'abc', result: { content: [{ type: 'text', text: 'over http' }] } })
  })

  it('answers initialize with 200', async () => {
    const res = await post(
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } } }),
    )
    expect(res.status).toBe(200)
    expect((await res.json()).result.protocolVersion).toBe('2025-11-25')
  })

  it('answers a notification with 202 and no body (MCP: the server MUST return 202 Accepted with no body)', async () => {
    const res = await post(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }))
    expect(res.status).toBe(202)
    expect(await res.text()).toBe('')
  })

  it('answers a JSON-RPC response from the client with 202 and no body', async () => {
    const res = await post(JSON.stringify({ jsonrpc: '2.0', id: 4, result: {} }))
    expect(res.status).toBe(202)
    expect(await res.text()).toBe('')
  })

  it.each(['GET', 'DELETE', 'PUT', 'PATCH'])('answers %s with 405 and Allow: POST, OPTIONS', async (method) => {
    const res = await fetch(running.url, { method, headers: { accept: 'application/json, text/event-stream' } })
    expect(res.status).toBe(405)
    expect(res.headers.get('allow')).toBe('POST, OPTIONS')
    await res.text()
  })

  it.each(['text/html', 'text/event-stream', 'application/xml'])('answers Accept: %s (no JSON) with 406', async (accept) => {
    const res = await post(ping, { 'content-type': 'application/json', accept })
    expect(res.status).toBe(406)
    await res.text()
  })

  it.each(['*/*', 'application/*', 'text/event-stream, application/json;q=0.9'])('accepts Accept: %s', async (accept) => {
    const res = await post(ping, { 'content-type': 'application/json', accept })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ jsonrpc: '2.0', id: 1, result: {} })
  })

  it('accepts a request without an Accept header', async () => {
    const res = await raw(running.port, { headers: { 'content-type': 'application/json' }, body: ping })
    expect(res.status).toBe(200)
    expect(JSON.parse(res.body)).toEqual({ jsonrpc: '2.0', id: 1, result: {} })
  })

  it.each(['text/plain', 'application/x-www-form-urlencoded', 'application/jsonp'])('answers Content-Type: %s with 415', async (type) => {
    const res = await post(ping, { 'content-type': type, accept: 'application/json' })
    expect(res.status).toBe(415)
    await res.text()
  })

  it('answers a missing Content-Type with 415', async () => {
    const res = await raw(running.port, { headers: { accept: 'application/json' }, body: ping })
    expect(res.status).toBe(415)
  })

  it('accepts Content-Type: application/json with a charset', async () => {
    const res = await post(ping, { 'content-type': 'application/json; charset=utf-8', accept: 'application/json' })
    expect(res.status).toBe(200)
    await res.text()
  })

  it('answers a body over maxBodyBytes with 413', async () => {
    const res = await raw(running.port, { headers: json, body: callBody('echo', { text: 'x'.repeat(2000) }) })
    expect(res.status).toBe(413)
    expect(JSON.parse(res.body).error.message).toContain('1024 bytes')
  })

  it('answers a chunked body that grows over maxBodyBytes with 413', async () => {
    const res = await new Promise<number>((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port: running.port, method: 'POST', path: '/mcp', headers: { ...json, 'transfer-encoding': 'chunked' } }, (r) => {
        r.resume()
        resolve(r.statusCode ?? 0)
      })
      req.on('error', reject)
      req.write('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"')
      req.write('y'.repeat(600))
      req.write('y'.repeat(600))
      req.end('"}}}')
    })
    expect(res).toBe(413)
  })

  it('still serves after refusing a large body', async () => {
    const res = await post(ping)
    expect(res.status).toBe(200)
    await res.text()
  })

  it('answers an unsupported MCP-Protocol-Version with 400 (MCP: the server MUST respond with 400 Bad Request)', async () => {
    const res = await post(ping, { ...json, 'mcp-protocol-version': '1999-01-01' })
    expect(res.status).toBe(400)
    const body = await res.json()
    expect(body.error.message).toContain('1999-01-01')
  })

  it.each(['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'])('serves MCP-Protocol-Version %s at that revision', async (v) => {
    const res = await post(callBody('version', {}), { ...json, 'mcp-protocol-version': v })
    expect(res.status).toBe(200)
    expect((await res.json()).result.content[0].text).toBe(v)
  })

  it('assumes 2025-03-26 without MCP-Protocol-Version (MCP: the server SHOULD assume 2025-03-26)', async () => {
    const res = await post(callBody('version', {}))
    expect((await res.json()).result.content[0].text).toBe('2025-03-26')
  })

  it('answers a foreign Origin with 403 (MCP: if the Origin header is present and invalid, servers MUST respond with 403)', async () => {
    const res = await post(ping, { ...json, origin: 'https://evil.example' })
    expect(res.status).toBe(403)
    const body = await res.json()
    expect(body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32000 } })
    expect(body.error.message).toContain('evil.example')
  })

  it.each(['http://localhost:5173', 'http://127.0.0.1', 'https://[::1]:8443'])('accepts the loopback Origin %s', async (origin) => {
    const res = await post(ping, { ...json, origin })
    expect(res.status).toBe(200)
    await res.text()
  })

  it.each(['null', 'file://', 'not a url'])('answers the Origin %j with 403', async (origin) => {
    const res = await post(ping, { ...json, origin })
    expect(res.status).toBe(403)
    await res.text()
  })

  it('answers a Host that is not allowed with 403 (DNS rebinding protection)', async () => {
    const res = await raw(running.port, { headers: { ...json, host: 'evil.example' }, body: ping })
    expect(res.status).toBe(403)
    expect(JSON.parse(res.body).error.message).toContain('evil.example')
  })

  it.each(['localhost', 'localhost:1234', '127.0.0.1:9', '[::1]:80'])('accepts the loopback Host %s', async (host) => {
    const res = await raw(running.port, { headers: { ...json, host }, body: ping })
    expect(res.status).toBe(200)
  })

  it('refuses before reading anything: a foreign Host gets 403 even for GET', async () => {
    const res = await raw(running.port, { method: 'GET', headers: { host: 'evil.example' } })
    expect(res.status).toBe(403)
  })

  it('answers other paths with 404, and serves its path with a query string', async () => {
    const other = await post(ping, json, '/other')
    expect(other.status).toBe(404)
    await other.text()
    const root = await post(ping, json, '/')
    expect(root.status).toBe(404)
    await root.text()
    const query = await post(ping, json, '/mcp?x=1')
    expect(query.status).toBe(200)
    await query.text()
  })

  it('answers a parse error with 400 and -32700, id null', async () => {
    const res = await post('{"jsonrpc": "2.0", "id": 1,')
    expect(res.status).toBe(400)
    const body = await res.json()
    expect(body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } })
  })

  it('answers a batch with 400 and -32600, id null, at 2025-06-18 and later (batches were removed)', async () => {
    for (const v of ['2025-06-18', '2025-11-25']) {
      const res = await post(`[${ping}]`, { ...json, 'mcp-protocol-version': v })
      expect(res.status).toBe(400)
      expect(await res.json()).toMatchObject({ id: null, error: { code: -32600 } })
    }
  })

  it('answers a batch with an array at 2025-03-26, the revision assumed without MCP-Protocol-Version', async () => {
    const notification = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })
    const res = await post(`[${ping},${notification},${callBody('echo', { text: 'b' }, 2)}]`)
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual([
      { jsonrpc: '2.0', id: 1, result: {} },
      { jsonrpc: '2.0', id: 2, result: { content: [{ type: 'text', text: 'b' }] } },
    ])
    const onlyNotifications = await post(`[${notification}]`, { ...json, 'mcp-protocol-version': '2025-03-26' })
    expect(onlyNotifications.status).toBe(202)
  })

  it('answers an addressed JSON-RPC error (unknown method) with 200 and the error', async () => {
    const res = await post(JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'nope' }))
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({ id: 7, error: { code: -32601 } })
  })

  it('answers many concurrent requests, each with its own id', async () => {
    const replies = await Promise.all(
      Array.from({ length: 30 }, (_, i) => post(callBody('echo', { text: `n${i}` }, i)).then((r) => r.json())),
    )
    replies.forEach((r, i) => {
      expect(r.id).toBe(i)
      expect(r.result.content[0].text).toBe(`n${i}`)
    })
  })
})

describe('http: a stateless endpoint has no channel back', () => {
  const watched = resources([resource({ uri: 'test://watched', name: 'watched', read: () => 'now' })], { subscribe: true })
  const watching = mcpServer([echo], { name: 'watching', version: '1' }, { features: [watched] }).implement({ echo: ({ text }) => text })
  const initialize = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } })
  const subscribe = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'resources/subscribe', params: { uri: 'test://watched' } })
  let stateless: RunningHttp
  let stateful: RunningHttp

  beforeAll(async () => {
    stateless = await serveHttp(watching, { port: 0 })
    stateful = await serveHttp(watching, { port: 0, sessions: true })
  })
  afterAll(async () => {
    await stateless.close()
    await stateful.close()
  })

  it('initialize offers no list_changed and no resource subscriptions statelessly (no notification could reach the client); a session offers both', async () => {
    const one = await raw(stateless.port, { headers: { ...json, host: '127.0.0.1' }, body: initialize })
    expect(one.status).toBe(200)
    const offered = JSON.parse(one.body).result
    expect(offered.capabilities.resources).toEqual({})
    expect(offered.capabilities.tools).toEqual({})
    expect(offered).toMatchObject({ protocolVersion: '2025-11-25', serverInfo: { name: 'watching', version: '1' } })
    const session = await raw(stateful.port, { headers: { ...json, host: '127.0.0.1' }, body: initialize })
    expect(JSON.parse(session.body).result.capabilities.resources).toEqual({ subscribe: true, listChanged: true })
  })

  it('a malformed initialize still gets its error, under its id', async () => {
    const r = await raw(stateless.port, { headers: { ...json, host: '127.0.0.1' }, body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'initialize', params: {} }) })
    expect(JSON.parse(r.body)).toMatchObject({ id: 9, error: { code: -32602 } })
  })

  it('resources/subscribe gets -32601 statelessly instead of an acknowledgement for updates that never arrive; reading still works', async () => {
    const r = await raw(stateless.port, { headers: { ...json, host: '127.0.0.1', 'mcp-protocol-version': '2025-11-25' }, body: subscribe })
    expect(r.status).toBe(200)
    expect(JSON.parse(r.body)).toMatchObject({ id: 2, error: { code: -32601, message: expect.stringContaining('stateless') } })
    const read = await raw(stateless.port, {
      headers: { ...json, host: '127.0.0.1', 'mcp-protocol-version': '2025-11-25' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'resources/read', params: { uri: 'test://watched' } }),
    })
    expect(JSON.parse(read.body).result.contents[0].text).toBe('now')
  })
})

describe('http: the drain deadline', () => {
  it('aborts the signals of stateless calls still running when drainTimeoutMs passes, and resolves', async () => {
    let reason: unknown
    let started = false
    const hang = emcp({ name: 'hang', description: 'Runs until aborted.', input: { type: 'object' } })
    const hanging = mcpServer([hang], { name: 'hang', version: '1' }, { callTimeoutMs: 0 }).implement({
      hang: (_a, ctx) =>
        new Promise<string>((resolve) => {
          started = true
          ctx.signal.addEventListener('abort', () => {
            reason = ctx.signal.reason
            resolve('aborted')
          })
        }),
    })
    const running = await serveHttp(hanging, { port: 0, handleSignals: false, drainTimeoutMs: 100 })
    const call = raw(running.port, { headers: { ...json, host: '127.0.0.1' }, body: callBody('hang', {}) }).catch((e: unknown) => e)
    await until(() => started, 'the call to start', 15_000)
    // the call never ends by itself: only the drain deadline can end the drain (else the test times out)
    await running.drain()
    expect(reason).toMatchObject({ name: 'AbortError', message: 'the session ended' })
    await call
  })
})

describe('http: serveHttp options', () => {
  const opened: RunningHttp[] = []
  afterAll(async () => {
    await Promise.all(opened.map((r) => r.close()))
  })
  const open = async (options: Parameters<typeof serveHttp>[1]) => {
    const r = await serveHttp(server, { port: 0, ...options })
    opened.push(r)
    return r
  }

  it('allows exactly the allowedHosts (with or without port), and no longer the loopback names', async () => {
    const r = await open({ allowedHosts: ['mcp.example.com'] })
    expect((await raw(r.port, { headers: { ...json, host: 'mcp.example.com' }, body: ping })).status).toBe(200)
    expect((await raw(r.port, { headers: { ...json, host: 'MCP.example.com:8443' }, body: ping })).status).toBe(200)
    expect((await raw(r.port, { headers: { ...json, host: 'other.example.com' }, body: ping })).status).toBe(403)
    expect((await raw(r.port, { headers: { ...json, host: `127.0.0.1:${r.port}` }, body: ping })).status).toBe(403)
  })

  it('allows exactly the allowedOrigins', async () => {
    const r = await open({ allowedOrigins: ['https://app.example.com'] })
    const post = (origin: string) => fetch(r.url, { method: 'POST', headers: { ...json, origin }, body: ping })
    const ok = await post('https://app.example.com')
    expect(ok.status).toBe(200)
    await ok.text()
    const foreign = await post('https://evil.example')
    expect(foreign.status).toBe(403)
    await foreign.text()
    const loopback = await post('http://localhost:3000')
    expect(loopback.status).toBe(403)
    await loopback.text()
  })

  it('matches allowedOrigins exactly: another port or scheme of an allowed origin is another origin', async () => {
    const r = await open({ allowedOrigins: ['https://app.example.com'] })
    for (const origin of ['https://app.example.com:8443', 'http://app.example.com', 'https://app.example.com.evil.example']) {
      const res = await fetch(r.url, { method: 'POST', headers: { ...json, origin }, body: ping })
      expect(res.status, origin).toBe(403)
      await res.text()
    }
  })

  it('accepts any Host and Origin with dnsRebindingProtection: false', async () => {
    const r = await open({ dnsRebindingProtection: false })
    const res = await raw(r.port, { headers: { ...json, host: 'evil.example', origin: 'https://evil.example' }, body: ping })
    expect(res.status).toBe(200)
    expect(JSON.parse(res.body)).toEqual({ jsonrpc: '2.0', id: 1, result: {} })
  })

  it('serves the path given', async () => {
    const r = await open({ path: '/rpc' })
    expect(r.url).toBe(`http://127.0.0.1:${r.port}/rpc`)
    const ok = await fetch(r.url, { method: 'POST', headers: json, body: ping })
    expect(ok.status).toBe(200)
    await ok.text()
    const old = await fetch(`http://127.0.0.1:${r.port}/mcp`, { method: 'POST', headers: json, body: ping })
    expect(old.status).toBe(404)
    await old.text()
  })

  it('rejects when the port is taken', async () => {
    const r = await open({})
    await expect(serveHttp(server, { port: r.port })).rejects.toThrow(/EADDRINUSE/)
  })

  it('close() stops accepting connections', async () => {
    const r = await serveHttp(server, { port: 0 })
    const ok = await fetch(r.url, { method: 'POST', headers: json, body: ping })
    await ok.text()
    await r.close()
    expect(r.server.listening).toBe(false)
    await expect(raw(r.port, { headers: json, body: ping })).rejects.toThrow()
  })
})

// ---------------------------------------------------------------------------------------
// the Web-standard handler

describe('http: toFetchHandler', () => {
  const handler = toFetchHandler(server, { maxBodyBytes: 256 })
  const base = { host: '127.0.0.1:3000', ...json }

  const request = (init: RequestInit & { headers?: Record<string, string> }, url = 'http://127.0.0.1:3000/mcp') =>
    handler(new Request(url, { method: 'POST', ...init }))

  it('answers a POSTed request with 200 and the JSON response', async () => {
    const res = await request({ headers: base, body: ping })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/json')
    expect(await res.json()).toEqual({ jsonrpc: '2.0', id: 1, result: {} })
  })

  it('answers a notification with 202 and an empty body', async () => {
    const res = await request({ headers: base, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) })
    expect(res.status).toBe(202)
    expect(res.body).toBeNull()
  })

  it.each(['GET', 'DELETE', 'PUT'])('answers %s with 405 and Allow: POST, OPTIONS', async (method) => {
    const res = await handler(new Request('http://127.0.0.1:3000/mcp', { method, headers: base }))
    expect(res.status).toBe(405)
    expect(res.headers.get('allow')).toBe('POST, OPTIONS')
  })

  it('accepts a request without an Accept header, and answers Accept without JSON with 406', async () => {
    expect((await request({ headers: { host: 'localhost', 'content-type': 'application/json' }, body: ping })).status).toBe(200)
    expect((await request({ headers: { ...base, accept: 'text/plain' }, body: ping })).status).toBe(406)
    expect((await request({ headers: { ...base, accept: '*/*' }, body: ping })).status).toBe(200)
  })

  it('answers a non-JSON Content-Type with 415', async () => {
    expect((await request({ headers: { ...base, 'content-type': 'text/plain' }, body: ping })).status).toBe(415)
  })

  it('answers a body over maxBodyBytes with 413', async () => {
    expect((await request({ headers: base, body: callBody('echo', { text: 'x'.repeat(500) }) })).status).toBe(413)
  })

  it('answers a streamed body that grows over maxBodyBytes with 413', async () => {
    const chunk = new TextEncoder().encode('x'.repeat(100))
    let sent = 0
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ < 10) controller.enqueue(chunk)
        else controller.close()
      },
    })
    const res = await handler(new Request('http://127.0.0.1:3000/mcp', { method: 'POST', headers: base, body, duplex: 'half' } as RequestInit))
    expect(res.status).toBe(413)
    expect(sent).toBeLessThan(10)
  })

  it('answers an unsupported MCP-Protocol-Version with 400 and serves a supported one', async () => {
    expect((await request({ headers: { ...base, 'mcp-protocol-version': '2024-01-01' }, body: ping })).status).toBe(400)
    const res = await request({ headers: { ...base, 'mcp-protocol-version': '2025-06-18' }, body: callBody('version', {}) })
    expect((await res.json()).result.content[0].text).toBe('2025-06-18')
  })

  it('answers a foreign Origin and a foreign Host with 403, loopback ones with 200', async () => {
    expect((await request({ headers: { ...base, origin: 'https://evil.example' }, body: ping })).status).toBe(403)
    expect((await request({ headers: { ...base, host: 'evil.example' }, body: ping })).status).toBe(403)
    expect((await request({ headers: { ...base, origin: 'http://localhost:8080' }, body: ping })).status).toBe(200)
  })

  it('honours allowedHosts, allowedOrigins and dnsRebindingProtection: false', async () => {
    const listed = toFetchHandler(server, { allowedHosts: ['api.example.com'], allowedOrigins: ['https://ui.example.com'] })
    const ok = await listed(
      new Request('https://api.example.com/mcp', { method: 'POST', headers: { ...json, host: 'api.example.com', origin: 'https://ui.example.com' }, body: ping }),
    )
    expect(ok.status).toBe(200)
    const badOrigin = await listed(
      new Request('https://api.example.com/mcp', { method: 'POST', headers: { ...json, host: 'api.example.com', origin: 'https://evil.example' }, body: ping }),
    )
    expect(badOrigin.status).toBe(403)
    const open = toFetchHandler(server, { dnsRebindingProtection: false })
    const any = await open(new Request('https://evil.example/mcp', { method: 'POST', headers: { ...json, host: 'evil.example', origin: 'https://evil.example' }, body: ping }))
    expect(any.status).toBe(200)
  })

  it('answers a parse error with 400 and -32700, id null', async () => {
    const res = await request({ headers: base, body: 'not json' })
    expect(res.status).toBe(400)
    expect(await res.json()).toMatchObject({ id: null, error: { code: -32700 } })
  })
})

// ---------------------------------------------------------------------------------------
// browser clients

describe('http: CORS for browser clients', () => {
  const handler = toFetchHandler(server)
  const at = (init: RequestInit): Promise<Response> => handler(new Request('http://127.0.0.1:3000/mcp', init))

  it('answers a preflight from an allowed origin with 204, the methods and the requested headers', async () => {
    const res = await at({
      method: 'OPTIONS',
      headers: { origin: 'http://localhost:6274', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type, mcp-protocol-version' },
    })
    expect(res.status).toBe(204)
    expect(res.headers.get('access-control-allow-origin')).toBe('http://localhost:6274')
    expect(res.headers.get('access-control-allow-methods')).toContain('POST')
    expect(res.headers.get('access-control-allow-headers')).toBe('content-type, mcp-protocol-version')
  })

  it('names the allowed origin on a POST answer and exposes the MCP headers', async () => {
    const res = await at({ method: 'POST', headers: { ...json, origin: 'http://127.0.0.1:6274' }, body: ping })
    expect(res.status).toBe(200)
    expect(res.headers.get('access-control-allow-origin')).toBe('http://127.0.0.1:6274')
    expect(res.headers.get('access-control-expose-headers')).toContain('mcp-session-id')
    expect(res.headers.get('vary')).toBe('origin')
  })

  it('refuses a preflight from a foreign origin with 403 and no CORS headers', async () => {
    const res = await at({ method: 'OPTIONS', headers: { origin: 'https://evil.example' } })
    expect(res.status).toBe(403)
    expect(res.headers.get('access-control-allow-origin')).toBeNull()
  })

  it('sends no CORS headers without an Origin, or with cors: false', async () => {
    const plain = await at({ method: 'POST', headers: json, body: ping })
    expect(plain.headers.get('access-control-allow-origin')).toBeNull()
    const off = await toFetchHandler(server, { cors: false })(
      new Request('http://127.0.0.1:3000/mcp', { method: 'POST', headers: { ...json, origin: 'http://localhost:1' }, body: ping }),
    )
    expect(off.status).toBe(200)
    expect(off.headers.get('access-control-allow-origin')).toBeNull()
  })
})

describe('http: request details', () => {
  const handler = toFetchHandler(server)

  it('takes the host from the URL of a Request that has no Host header', async () => {
    const local = await handler(new Request('http://localhost:8080/mcp', { method: 'POST', headers: json, body: ping }))
    expect(local.status).toBe(200)
    const foreign = await handler(new Request('http://evil.example/mcp', { method: 'POST', headers: json, body: ping }))
    expect(foreign.status).toBe(403)
  })

  it('treats application/json;q=0 as not acceptable (406)', async () => {
    const res = await handler(
      new Request('http://127.0.0.1/mcp', { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json;q=0, text/html' }, body: ping }),
    )
    expect(res.status).toBe(406)
  })
})

describe('http: CORS stays closed where it must', () => {
  it('answers OPTIONS with 405 (Allow: POST) when cors is false', async () => {
    const res = await toFetchHandler(server, { cors: false })(new Request('http://127.0.0.1/mcp', { method: 'OPTIONS', headers: { origin: 'http://localhost:1' } }))
    expect(res.status).toBe(405)
    expect(res.headers.get('allow')).toBe('POST')
  })

  it('never names a foreign origin, even with dnsRebindingProtection off', async () => {
    const res = await toFetchHandler(server, { dnsRebindingProtection: false })(
      new Request('http://127.0.0.1/mcp', { method: 'POST', headers: { ...json, origin: 'https://evil.example' }, body: ping }),
    )
    expect(res.status).toBe(200)
    expect(res.headers.get('access-control-allow-origin')).toBeNull()
  })

  it('treats application/json;q=0 as refused even beside */*', async () => {
    const res = await toFetchHandler(server)(
      new Request('http://127.0.0.1/mcp', { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json;q=0, */*' }, body: ping }),
    )
    expect(res.status).toBe(406)
  })
})
