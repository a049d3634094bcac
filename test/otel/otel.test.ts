/**
 * emcp/otel through the public API, over the in-memory client in both eras, recorded by a
 * real OpenTelemetry SDK (in-memory span exporter, pull metric reader): span names, kinds and
 * every attribute of the MCP semantic conventions, the parent from `params._meta.traceparent`,
 * `error.type` for a JSON-RPC error and for an `isError` tool result, prompts and resources,
 * the 2026-07-28 `input_required` retry and a call that becomes a task, and the duration
 * histogram. Hostile trace context is test/otel/hostile.test.ts; HTTP and stdio are
 * test/otel/transports.test.ts.
 */
import { SpanKind, SpanStatusCode } from '@opentelemetry/api'
import { describe, expect, it } from 'vitest'
import { emcp, inMemoryClient, mcpServer, newSession, prompt, prompts, resource, resources, tasks, type ToolContext } from '../../src/index.js'
import { durationBuckets, otel, type OtelOptions } from '../../src/otel/index.js'
import { only, parent, telemetry } from './telemetry.js'

const add = emcp({
  name: 'add',
  description: 'Add two numbers.',
  input: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'], additionalProperties: false },
  output: { type: 'object', properties: { sum: { type: 'number' } }, required: ['sum'] },
})
const boom = emcp({ name: 'boom', description: 'Always fails.', input: { type: 'object' } })
const ask = emcp({ name: 'ask', description: 'Asks the user for a name.', input: { type: 'object' } })
const slow = emcp({ name: 'slow', description: 'Waits for the test to let it finish.', input: { type: 'object' }, taskSupport: 'optional' })

const greet = prompt({ name: 'greet', description: 'Greets someone.', arguments: { who: { description: 'Whom', required: true } }, get: ({ who }) => `Say hello to ${who}.` })
const readme = resource({ uri: 'docs://readme', name: 'readme', read: () => 'Read me.' })

/** A server traced with `options`; `release` lets the running `slow` call finish. */
const traced = (options: OtelOptions) => {
  const gate: { release: () => void; finished: Promise<void> } = { release: () => {}, finished: Promise.resolve() }
  const server = mcpServer([add, boom, ask, slow], { name: 'traced', version: '1' }, {
    middleware: [otel(options)],
    features: [prompts([greet]), resources([readme]), tasks()],
  }).implement({
    add: ({ a, b }) => ({ sum: a + b }),
    boom: (): string => {
      throw new Error('kaboom')
    },
    ask: async (_: unknown, ctx: ToolContext) => {
      const r = await ctx.elicit({ message: 'Your name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } })
      return r.action === 'accept' ? `hello ${String(r.content.name)}` : 'no name'
    },
    slow: () => {
      let done = (): void => {}
      gate.finished = new Promise<void>((resolve) => (done = resolve))
      return new Promise<string>((resolve) => {
        gate.release = () => {
          resolve('slow done')
          done()
        }
      })
    },
  })
  return { server, gate }
}

const withParent = { _meta: { traceparent: parent.traceparent, tracestate: parent.tracestate } }
const eras = [
  { era: '2025-11-25', client: {} },
  { era: '2026-07-28', client: { protocolVersion: '2026-07-28' } },
] as const

describe.each(eras)('emcp/otel spans, $era', ({ era, client: clientOptions }) => {
  it('tools/call: one SERVER span named "tools/call add", every attribute, parented by _meta.traceparent', async () => {
    const t = telemetry()
    const client = inMemoryClient(traced(t.options).server, clientOptions)
    expect(await client.request('tools/call', { name: 'add', arguments: { a: 1, b: 2 }, ...withParent })).toMatchObject({ structuredContent: { sum: 3 } })
    const span = only(t.spans(), 'tools/call add')
    expect(span.kind).toBe(SpanKind.SERVER)
    expect(span.attributes).toEqual({
      'mcp.method.name': 'tools/call',
      'gen_ai.tool.name': 'add',
      'gen_ai.operation.name': 'execute_tool',
      'jsonrpc.request.id': era === '2025-11-25' ? '2' : '1',
      'mcp.protocol.version': era,
    })
    expect(span.spanContext().traceId).toBe(parent.traceId)
    expect(span.parentSpanContext?.spanId).toBe(parent.spanId)
    expect(span.parentSpanContext?.isRemote).toBe(true)
    expect(span.spanContext().traceState?.serialize()).toBe(parent.tracestate)
    expect(span.status.code).toBe(SpanStatusCode.UNSET)
    expect(span.links).toEqual([])
    // the 2025-11-25 handshake is a request too, at the version it negotiated
    if (era === '2025-11-25') expect(only(t.spans(), 'initialize').attributes).toEqual({ 'mcp.method.name': 'initialize', 'jsonrpc.request.id': '1', 'mcp.protocol.version': era })
    // and so is its notifications/initialized, with a span of its own
    expect(t.spans().map((s) => s.name).sort()).toEqual(era === '2025-11-25' ? ['initialize', 'notifications/initialized', 'tools/call add'] : ['tools/call add'])
  })

  it('a request without trace context starts a trace of its own', async () => {
    const t = telemetry()
    await inMemoryClient(traced(t.options).server, clientOptions).request('tools/list')
    const span = only(t.spans(), 'tools/list')
    expect(span.parentSpanContext).toBeUndefined()
    expect(span.spanContext().traceId).not.toBe(parent.traceId)
    expect(span.attributes).toMatchObject({ 'mcp.method.name': 'tools/list', 'mcp.protocol.version': era })
    expect(span.attributes['gen_ai.operation.name']).toBeUndefined()
  })

  it('a JSON-RPC error: error.type and rpc.response.status_code are its code, the status ERROR with its message', async () => {
    const t = telemetry()
    const client = inMemoryClient(traced(t.options).server, clientOptions)
    await expect(client.request('tools/call', { name: 'nope', arguments: {} })).rejects.toMatchObject({ code: -32602 })
    const span = only(t.spans(), 'tools/call nope')
    expect(span.attributes).toMatchObject({ 'error.type': '-32602', 'rpc.response.status_code': '-32602', 'gen_ai.tool.name': 'nope' })
    expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: 'Unknown tool: nope' })
    await expect(client.request('no/such/method')).rejects.toMatchObject({ code: -32601 })
    expect(only(t.spans(), 'no/such/method').attributes).toMatchObject({ 'error.type': '-32601', 'rpc.response.status_code': '-32601' })
  })

  it('an isError tool result: error.type is tool_error, no status code, the status ERROR', async () => {
    const t = telemetry()
    const r = (await inMemoryClient(traced(t.options).server, clientOptions).request('tools/call', { name: 'boom', arguments: {} })) as { isError?: boolean }
    expect(r.isError).toBe(true)
    const span = only(t.spans(), 'tools/call boom')
    expect(span.attributes['error.type']).toBe('tool_error')
    expect(span.attributes['rpc.response.status_code']).toBeUndefined()
    expect(span.status.code).toBe(SpanStatusCode.ERROR)
  })

  it('prompts/get is named by its prompt; resources/read records the URI, in the name only when asked', async () => {
    const t = telemetry()
    const client = inMemoryClient(traced(t.options).server, clientOptions)
    await client.request('prompts/get', { name: 'greet', arguments: { who: 'Ada' } })
    await client.request('resources/read', { uri: 'docs://readme' })
    expect(only(t.spans(), 'prompts/get greet').attributes).toMatchObject({ 'mcp.method.name': 'prompts/get', 'gen_ai.prompt.name': 'greet' })
    expect(only(t.spans(), 'prompts/get greet').attributes['gen_ai.operation.name']).toBeUndefined()
    expect(only(t.spans(), 'resources/read').attributes).toMatchObject({ 'mcp.method.name': 'resources/read', 'mcp.resource.uri': 'docs://readme' })
    const u = telemetry()
    await inMemoryClient(traced({ ...u.options, resourceUriInSpanName: true }).server, clientOptions).request('resources/read', { uri: 'docs://readme' })
    expect(only(u.spans(), 'resources/read docs://readme').attributes['mcp.resource.uri']).toBe('docs://readme')
  })

  it('the duration histogram: seconds, the conventions\' buckets, one point per kind of request', async () => {
    const t = telemetry()
    const client = inMemoryClient(traced(t.options).server, clientOptions)
    await client.call('add', { a: 1, b: 2 })
    await client.call('add', { a: 2, b: 2 })
    await client.request('tools/call', { name: 'boom', arguments: {} })
    await expect(client.request('tools/call', { name: 'nope', arguments: {} })).rejects.toThrow()
    await expect(client.request('x/unknown-1')).rejects.toThrow()
    await expect(client.request('x/unknown-2')).rejects.toThrow()
    const d = await t.duration()
    expect(d?.metric.descriptor).toMatchObject({ name: 'mcp.server.operation.duration', unit: 's' })
    const point = (attrs: object) => d?.points.find((p) => JSON.stringify(p.attributes) === JSON.stringify(attrs))
    const base = { 'mcp.protocol.version': era }
    const addPoint = point({ 'mcp.method.name': 'tools/call', 'gen_ai.tool.name': 'add', 'gen_ai.operation.name': 'execute_tool', ...base })
    expect(addPoint?.count).toBe(2)
    expect(addPoint?.sum).toBeGreaterThanOrEqual(0)
    expect(point({ 'mcp.method.name': 'tools/call', 'gen_ai.tool.name': 'boom', 'gen_ai.operation.name': 'execute_tool', ...base, 'error.type': 'tool_error' })?.count).toBe(1)
    // a name the server does not have, or a method it does not answer, grows no series of its own
    expect(point({ 'mcp.method.name': 'tools/call', 'gen_ai.operation.name': 'execute_tool', ...base, 'error.type': '-32602', 'rpc.response.status_code': '-32602' })?.count).toBe(1)
    expect(point({ 'mcp.method.name': '_OTHER', ...base, 'error.type': '-32601', 'rpc.response.status_code': '-32601' })?.count).toBe(2)
    const buckets = d?.metric.dataPoints[0]?.value.buckets.boundaries
    expect(buckets).toEqual(durationBuckets)
    expect(durationBuckets).toEqual([0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300])
  })
})

describe('emcp/otel: notifications from the client', () => {
  it('one SERVER span each, named by its method, parented by its _meta trace context; a method no client sends is _OTHER in the metric', async () => {
    const t = telemetry()
    const { server } = traced(t.options)
    const session = newSession()
    session.protocolVersion = '2025-11-25'
    await server.dispatch({ jsonrpc: '2.0', method: 'notifications/initialized' }, session)()
    await server.dispatch({ jsonrpc: '2.0', method: 'notifications/roots/list_changed', params: withParent }, session)()
    await server.dispatch({ jsonrpc: '2.0', method: `notifications/${'x'.repeat(5000)}` }, session)()
    const initialized = only(t.spans(), 'notifications/initialized')
    expect(initialized.kind).toBe(SpanKind.SERVER)
    expect(initialized.attributes).toEqual({ 'mcp.method.name': 'notifications/initialized', 'mcp.protocol.version': '2025-11-25' })
    expect(initialized.status.code).toBe(SpanStatusCode.UNSET)
    expect(only(t.spans(), 'notifications/roots/list_changed').spanContext().traceId).toBe(parent.traceId)
    // a client's long method name is clipped in the span, and the metric keeps no series for it
    const odd = t.spans().find((s) => s.name.startsWith('notifications/xxx'))
    expect(odd?.name.length).toBeLessThan(1000)
    const d = await t.duration()
    expect(d?.points.map((p) => p.attributes['mcp.method.name']).sort()).toEqual(['_OTHER', 'notifications/initialized', 'notifications/roots/list_changed'])
  })
})

describe('emcp/otel: a middleware further in that throws', () => {
  it('the span records the exception, error.type _OTHER, the status ERROR; the client still gets an error', async () => {
    const t = telemetry()
    const failing = mcpServer([add], { name: 'failing', version: '1' }, {
      middleware: [
        otel(t.options),
        {
          request: (req, next) => {
            if (req.method === 'tools/call') throw new Error('inner failure')
            return next()
          },
        },
      ],
    }).implement({ add: ({ a, b }) => ({ sum: a + b }) })
    await expect(inMemoryClient(failing).call('add', { a: 1, b: 2 })).rejects.toMatchObject({ code: -32603 })
    const span = only(t.spans(), 'tools/call add')
    expect(span.attributes['error.type']).toBe('_OTHER')
    expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: 'inner failure' })
    expect(span.events.map((e) => [e.name, e.attributes?.['exception.message']])).toEqual([['exception', 'inner failure']])
    const d = await t.duration()
    expect(d?.points.find((p) => p.attributes['error.type'] === '_OTHER')?.attributes).toEqual({
      'mcp.method.name': 'tools/call',
      'gen_ai.operation.name': 'execute_tool',
      'mcp.protocol.version': '2025-11-25',
      'error.type': '_OTHER',
    })
  })
})

describe('emcp/otel: tool calls that take more than one request (2026-07-28)', () => {
  it('input_required and its retry: one span each, both children of the client\'s trace', async () => {
    const t = telemetry()
    const client = inMemoryClient(traced(t.options).server, {
      protocolVersion: '2026-07-28',
      capabilities: { elicitation: { form: {} } },
      answer: () => ({ action: 'accept', content: { name: 'Ada' } }),
    })
    expect(await client.request('tools/call', { name: 'ask', arguments: {}, ...withParent })).toMatchObject({ content: [{ text: 'hello Ada' }] })
    const spans = t.spans().filter((s) => s.name === 'tools/call ask')
    expect(spans).toHaveLength(2)
    for (const s of spans) {
      expect(s.spanContext().traceId).toBe(parent.traceId)
      expect(s.parentSpanContext?.spanId).toBe(parent.spanId)
      expect(s.attributes['gen_ai.operation.name']).toBe('execute_tool')
      expect(s.attributes['error.type']).toBeUndefined()
    }
  })

  it('a call that becomes a task: its span ends with the handoff; tasks/get has its own', async () => {
    const t = telemetry()
    const { server, gate } = traced(t.options)
    const client = inMemoryClient(server, { protocolVersion: '2026-07-28', capabilities: { extensions: { 'io.modelcontextprotocol/tasks': {} } } })
    const created = (await client.request('tools/call', { name: 'slow', arguments: {}, ...withParent })) as { resultType: string; taskId: string }
    expect(created.resultType).toBe('task')
    // the handler is still running, and the tools/call span is already recorded
    const call = only(t.spans(), 'tools/call slow')
    expect(call.attributes).toMatchObject({ 'gen_ai.tool.name': 'slow', 'gen_ai.operation.name': 'execute_tool' })
    expect(call.attributes['error.type']).toBeUndefined()
    gate.release()
    await gate.finished
    await client.request('tasks/get', { taskId: created.taskId, ...withParent })
    const get = only(t.spans(), 'tasks/get')
    expect(get.attributes).toMatchObject({ 'mcp.method.name': 'tasks/get', 'mcp.protocol.version': '2026-07-28' })
    expect(get.spanContext().traceId).toBe(parent.traceId)
  })
})
