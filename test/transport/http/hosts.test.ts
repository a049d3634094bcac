/**
 * The Host guard parses the header strictly: a name, a dotted address or a bracketed IPv6
 * address, then an optional port of digits, nothing else. Driven over real sockets with
 * Node's http client (fetch sends the URL's host whatever it is told), through
 * toFetchHandler with fetch's own Request objects (the way Deno, Bun or workerd hand one
 * over, Host header included), and through the parser itself.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { request as httpRequest } from 'node:http'
import { emcp, mcpServer } from '../../../src/index.js'
import { serveHttp, toFetchHandler, type RunningHttp } from '../../../src/transport/http.js'
import { parseHost } from '../../../src/transport/http/hosts.js'

// ---------------------------------------------------------------------------------------
// fixtures

const echo = emcp({ name: 'echo', description: 'Echo the text.', input: { type: 'object', properties: { text: { type: 'string' } } } })
const server = mcpServer([echo], { name: 'hosts-test', version: '1' }).implement({ echo: ({ text }) => text ?? '' })

const ping = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' })
const json = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }

/** A POST over a real socket with the Host header given verbatim. */
const raw = (port: number, host: string): Promise<{ status: number; body: string }> =>
  new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, method: 'POST', path: '/mcp', headers: { ...json, host }, timeout: 5000 }, (res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (c: string) => (body += c))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }))
    })
    req.on('timeout', () => req.destroy(new Error('timed out')))
    req.on('error', reject)
    req.end(ping)
  })

// each one names a loopback host somewhere, and is not a Host header
const malformed = [
  '[::1]evil.com',
  '[::1].evil.com:80',
  '127.0.0.1:4500@evil',
  'localhost:80@evil.example',
  'evil.example@localhost',
  'localhost/evil',
  'localhost?x=1',
  'localhost#x',
  'localhost:abc',
  'localhost:',
  'localhost:65536',
  'localhost:80:80',
  'local host',
  '127.0.0.1 evil',
  '[::1',
  '[::1]:',
  '[::1]:80x',
  '[fe80::1%25lo]',
  '[::1]:80]',
  '%6cocalhost',
  'localhost..',
  '.localhost',
  `${'a'.repeat(64)}.localhost`,
]

// ---------------------------------------------------------------------------------------
// over real sockets

describe('hosts: the Host guard of serveHttp, over a real socket', () => {
  let loopback: RunningHttp
  let listed: RunningHttp
  beforeAll(async () => {
    loopback = await serveHttp(server, { port: 0 })
    listed = await serveHttp(server, { port: 0, allowedHosts: ['mcp.example.com', 'ops.example.com:8443'] })
  })
  afterAll(async () => {
    await Promise.all([loopback.close(), listed.close()])
  })

  it.each(malformed)('refuses the Host %j with 403, naming it as malformed', async (host) => {
    const res = await raw(loopback.port, host)
    expect(res.status).toBe(403)
    expect(JSON.parse(res.body).error.message).toContain('is not a valid Host header')
  })

  it.each(['localhost', 'LocalHost:3000', '127.0.0.1', '127.0.0.1:9', '[::1]', '[::1]:80', '[0:0:0:0:0:0:0:1]:8080'])(
    'still accepts the loopback Host %j',
    async (host) => {
      const res = await raw(loopback.port, host)
      expect(res.status).toBe(200)
      expect(JSON.parse(res.body)).toEqual({ jsonrpc: '2.0', id: 1, result: {} })
    },
  )

  it('answers fetch on the loopback names it dials (the Host fetch sends is the URL\'s)', async () => {
    for (const url of [loopback.url, `http://localhost:${loopback.port}/mcp`]) {
      const res = await fetch(url, { method: 'POST', headers: json, body: ping })
      expect(res.status, url).toBe(200)
      expect(await res.json()).toEqual({ jsonrpc: '2.0', id: 1, result: {} })
    }
  })

  it('matches allowedHosts on the parsed name, so a listed name with junk after it is refused', async () => {
    for (const host of ['mcp.example.com', 'MCP.example.com:443', 'ops.example.com:8443'])
      expect((await raw(listed.port, host)).status, host).toBe(200)
    for (const host of ['mcp.example.com:80@evil.example', 'mcp.example.com.evil.example', 'ops.example.com', 'ops.example.com:9443', 'mcp.example.com/x'])
      expect((await raw(listed.port, host)).status, host).toBe(403)
  })

  it('refuses a Host of 8000 characters at once, and still serves the next request', async () => {
    const res = await raw(loopback.port, `${'a.'.repeat(4000)}localhost`)
    expect(res.status).toBe(403)
    expect(JSON.parse(res.body).error.message.length).toBeLessThan(250)
    expect((await raw(loopback.port, 'localhost')).status).toBe(200)
  })
})

// ---------------------------------------------------------------------------------------
// fetch's Request objects

describe('hosts: the Host guard of toFetchHandler', () => {
  const handler = toFetchHandler(server)
  const post = (host: string) => handler(new Request('http://127.0.0.1:3000/mcp', { method: 'POST', headers: { ...json, host }, body: ping }))

  it.each(malformed)('refuses the Host header %j with 403', async (host) => {
    const res = await post(host)
    expect(res.status).toBe(403)
    expect((await res.json()).error.message).toContain('is not a valid Host header')
  })

  it('accepts a loopback Host header', async () => {
    const res = await post('[::1]:3000')
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ jsonrpc: '2.0', id: 1, result: {} })
  })
})

// ---------------------------------------------------------------------------------------
// the parser

describe('hosts: parseHost', () => {
  it('takes a Host apart into a lower-cased name and the port', () => {
    expect(parseHost('Example.COM:8443')).toEqual({ name: 'example.com', port: '8443' })
    expect(parseHost('my_host-1.internal')).toEqual({ name: 'my_host-1.internal', port: undefined })
    expect(parseHost('[0:0::1]:80')).toEqual({ name: '[::1]', port: '80' })
    expect(parseHost('[::ffff:127.0.0.1]')).toEqual({ name: '[::ffff:7f00:1]', port: undefined })
  })

  it.each(malformed)('refuses %j', (host) => {
    expect(parseHost(host)).toBeUndefined()
  })

  it('keeps to DNS lengths: 63 a label, 253 a name', () => {
    const label = 'a'.repeat(63)
    const name = [label, label, label, 'a'.repeat(61)].join('.')
    expect(name).toHaveLength(253)
    expect(parseHost(name)?.name).toBe(name)
    expect(parseHost(`${name}.`)?.name).toBe(`${name}.`)
    expect(parseHost(`${name}a`)).toBeUndefined()
  })
})
