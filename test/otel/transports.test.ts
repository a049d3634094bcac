/**
 * emcp/otel over real transports with the official SDK clients: stateful Streamable HTTP
 * with @modelcontextprotocol/sdk 1.32.2 (2025-11-25: `network.transport` tcp, the session id
 * hashed, never raw), HTTP with @modelcontextprotocol/client 2.4.0 speaking 2026-07-28 (no
 * session id in that era), and stdio (`pipe`).
 */
import { createHash, createHmac } from 'node:crypto'
import { PassThrough } from 'node:stream'
import { afterAll, describe, expect, it } from 'vitest'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { Client as Client2026, StreamableHTTPClientTransport as Http2026 } from '@modelcontextprotocol/client'
import { emcp, mcpServer } from '../../src/index.js'
import { serveHttp, type RunningHttp } from '../../src/transport/http.js'
import { startStdio } from '../../src/transport/stdio.js'
import { otel, type OtelOptions } from '../../src/otel/index.js'
import { only, parent, telemetry } from './telemetry.js'

const add = emcp({
  name: 'add',
  description: 'Add two numbers.',
  input: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] },
})
const serverWith = (options: OtelOptions) =>
  mcpServer([add], { name: 'otel-http', version: '1' }, { middleware: [otel(options)] }).implement({ add: ({ a, b }) => String(a + b) })

describe('emcp/otel over real transports', () => {
  const running: RunningHttp[] = []
  afterAll(async () => {
    for (const r of running) await r.close()
  })

  it('stateful HTTP, SDK 1.x client: tcp, http, the SHA-256 of the session id, the parent from _meta', async () => {
    const t = telemetry()
    const r = await serveHttp(serverWith(t.options), { port: 0, sessions: true, handleSignals: false })
    running.push(r)
    const transport = new StreamableHTTPClientTransport(new URL(r.url))
    const client = new Client({ name: 'otel-test', version: '1' })
    await client.connect(transport)
    const sessionId = transport.sessionId ?? ''
    try {
      const out = await client.callTool({ name: 'add', arguments: { a: 1, b: 2 }, _meta: { traceparent: parent.traceparent } })
      expect(out.content).toEqual([{ type: 'text', text: '3' }])
    } finally {
      await client.close()
    }
    expect(sessionId).not.toBe('')
    const span = only(t.spans(), 'tools/call add')
    const hashed = createHash('sha256').update(sessionId).digest('hex')
    expect(span.attributes).toEqual({
      'mcp.method.name': 'tools/call',
      'gen_ai.tool.name': 'add',
      'gen_ai.operation.name': 'execute_tool',
      'jsonrpc.request.id': '1',
      'mcp.session.id': hashed,
      'mcp.protocol.version': '2025-11-25',
      'network.transport': 'tcp',
      'network.protocol.name': 'http',
    })
    // the raw id, which lets anyone post into the session, appears nowhere
    for (const s of t.spans()) expect(JSON.stringify(s.attributes)).not.toContain(sessionId)
    expect(span.spanContext().traceId).toBe(parent.traceId)
    expect(only(t.spans(), 'initialize').attributes['mcp.session.id']).toBe(hashed)
    // the client's notifications/initialized has a span of its own in the same session
    expect(only(t.spans(), 'notifications/initialized').attributes).toEqual({
      'mcp.method.name': 'notifications/initialized',
      'mcp.session.id': hashed,
      'mcp.protocol.version': '2025-11-25',
      'network.transport': 'tcp',
      'network.protocol.name': 'http',
    })
    // the metric has no per-session series
    const d = await t.duration()
    expect(d?.points.every((p) => p.attributes['mcp.session.id'] === undefined && p.attributes['jsonrpc.request.id'] === undefined)).toBe(true)
    expect(d?.points.find((p) => p.attributes['gen_ai.tool.name'] === 'add')?.attributes).toEqual({
      'mcp.method.name': 'tools/call',
      'gen_ai.tool.name': 'add',
      'gen_ai.operation.name': 'execute_tool',
      'mcp.protocol.version': '2025-11-25',
      'network.transport': 'tcp',
      'network.protocol.name': 'http',
    })
  })

  it('a keyed hash of the session id when one is given', async () => {
    const t = telemetry()
    const hmac = (id: string): string => createHmac('sha256', 'test-secret').update(id).digest('hex')
    const r = await serveHttp(serverWith({ ...t.options, hashSessionId: hmac }), { port: 0, sessions: true, handleSignals: false })
    running.push(r)
    const transport = new StreamableHTTPClientTransport(new URL(r.url))
    const client = new Client({ name: 'otel-test', version: '1' })
    await client.connect(transport)
    const sessionId = transport.sessionId ?? ''
    await client.close()
    expect(only(t.spans(), 'initialize').attributes['mcp.session.id']).toBe(hmac(sessionId))
  })

  it('2026-07-28 over HTTP, SDK 2.x client: tcp, no session id, the parent from _meta', async () => {
    const t = telemetry()
    const r = await serveHttp(serverWith(t.options), { port: 0, handleSignals: false })
    running.push(r)
    const client = new Client2026({ name: 'otel-2026', version: '1' }, { versionNegotiation: { mode: 'auto' } })
    await client.connect(new Http2026(new URL(r.url)))
    try {
      expect(client.getProtocolEra()).toBe('modern')
      const out = await client.callTool({ name: 'add', arguments: { a: 2, b: 3 }, _meta: { traceparent: parent.traceparent } })
      expect(out.content).toEqual([{ type: 'text', text: '5' }])
    } finally {
      await client.close()
    }
    const span = only(t.spans(), 'tools/call add')
    expect(span.attributes).toMatchObject({
      'mcp.method.name': 'tools/call',
      'gen_ai.tool.name': 'add',
      'mcp.protocol.version': '2026-07-28',
      'network.transport': 'tcp',
      'network.protocol.name': 'http',
    })
    expect(span.attributes['mcp.session.id']).toBeUndefined()
    expect(span.spanContext().traceId).toBe(parent.traceId)
  })

  it('stdio: pipe, no session id', async () => {
    const t = telemetry()
    const input = new PassThrough()
    const output = new PassThrough()
    output.resume()
    const served = startStdio(serverWith(t.options), { input, output, handleSignals: false, redirectConsole: false })
    const call = { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'add', arguments: { a: 1, b: 1 }, _meta: { traceparent: parent.traceparent } } }
    input.end(`${JSON.stringify(call)}\n`)
    await served.done
    const span = only(t.spans(), 'tools/call add')
    expect(span.attributes).toMatchObject({ 'network.transport': 'pipe', 'jsonrpc.request.id': '7' })
    expect(span.attributes['network.protocol.name']).toBeUndefined()
    expect(span.attributes['mcp.session.id']).toBeUndefined()
    expect(span.parentSpanContext?.spanId).toBe(parent.spanId)
  })
})
