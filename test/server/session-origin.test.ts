/**
 * Where a session comes from, as middleware sees it: `session.transport` ('memory', 'stdio',
 * 'http') and `session.id`, the MCP session id where the transport issued one (stateful
 * HTTP, the `MCP-Session-Id` the client holds), undefined elsewhere; for both eras.
 */
import { PassThrough } from 'node:stream'
import { afterAll, describe, expect, it } from 'vitest'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { emcp, inMemoryClient, mcpServer, newSession, type Middleware, type Session } from '../../src/index.js'
import { serveHttp, type RunningHttp } from '../../src/transport/http.js'
import { startStdio } from '../../src/transport/stdio.js'

const ping = emcp({ name: 'hello', description: 'Says hello.', input: { type: 'object' } })

/** A server whose middleware records the session of every request. */
const recorded = () => {
  const seen: Array<{ readonly method: string; readonly id: string | undefined; readonly transport: Session['transport'] }> = []
  const record: Middleware = {
    request: (req, next) => {
      seen.push({ method: req.method, id: req.session.id, transport: req.session.transport })
      return next()
    },
  }
  const server = mcpServer([ping], { name: 'origin', version: '1' }, { middleware: [record] }).implement({ hello: () => 'hi' })
  return { server, seen }
}

const modernMeta = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
}

describe('session.transport and session.id', () => {
  const running: RunningHttp[] = []
  afterAll(async () => {
    for (const r of running) await r.close()
  })

  it('a session made by hand has neither; newSession takes them', () => {
    const s = newSession()
    expect([s.id, s.transport]).toEqual([undefined, undefined])
    const t = newSession('2025-11-25', undefined, { transport: 'http', id: 'abc' })
    expect([t.id, t.transport]).toEqual(['abc', 'http'])
  })

  it('the in-memory client: memory, no id, in both eras', async () => {
    const { server, seen } = recorded()
    await inMemoryClient(server).call('hello', {})
    await inMemoryClient(server, { protocolVersion: '2026-07-28' }).call('hello', {})
    expect(seen.map((s) => [s.method, s.transport, s.id])).toEqual([
      ['initialize', 'memory', undefined],
      ['tools/call', 'memory', undefined],
      ['tools/call', 'memory', undefined],
    ])
  })

  it('stdio: stdio, no id (the pipe is the conversation)', async () => {
    const { server, seen } = recorded()
    const input = new PassThrough()
    const output = new PassThrough()
    output.resume()
    const served = startStdio(server, { input, output, handleSignals: false, redirectConsole: false })
    input.end(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' })}\n${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: { _meta: modernMeta } })}\n`)
    await served.done
    expect(seen).toEqual([
      { method: 'ping', transport: 'stdio', id: undefined },
      { method: 'tools/list', transport: 'stdio', id: undefined },
    ])
  })

  it('stateful HTTP: http, and the id is the MCP-Session-Id the SDK client holds', async () => {
    const { server, seen } = recorded()
    const r = await serveHttp(server, { port: 0, sessions: true, handleSignals: false })
    running.push(r)
    const transport = new StreamableHTTPClientTransport(new URL(r.url))
    const client = new Client({ name: 'origin-test', version: '1' })
    await client.connect(transport)
    await client.callTool({ name: 'hello', arguments: {} })
    const sessionId = transport.sessionId
    await client.close()
    expect(typeof sessionId).toBe('string')
    expect(seen.map((s) => [s.method, s.transport, s.id])).toEqual([
      ['initialize', 'http', sessionId],
      ['tools/call', 'http', sessionId],
    ])
  })

  it('stateless HTTP and 2026-07-28 over HTTP: http, no id', async () => {
    const { server, seen } = recorded()
    const r = await serveHttp(server, { port: 0, handleSignals: false })
    running.push(r)
    const post = (body: object, headers: Record<string, string>) =>
      fetch(r.url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, body: JSON.stringify(body) })
    expect((await post({ jsonrpc: '2.0', id: 1, method: 'ping' }, { 'mcp-protocol-version': '2025-11-25' })).status).toBe(200)
    const modern = await post({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: { _meta: modernMeta } }, { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' })
    expect(modern.status).toBe(200)
    expect(seen).toEqual([
      { method: 'ping', transport: 'http', id: undefined },
      { method: 'tools/list', transport: 'http', id: undefined },
    ])
  })
})
