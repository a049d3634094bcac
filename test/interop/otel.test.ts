/**
 * examples/otel.ts as a user runs it: the built example over stdio, driven by the official
 * SDK client, prints the span of each request with the SDK's console exporter (on stderr:
 * stdout carries only JSON-RPC), parented by the client's `_meta.traceparent`.
 */
import { describe, expect, it } from 'vitest'
import { connectStdio, example, until } from './children.js'

const traceId = '4bf92f3577b34da6a3ce929d0e0e4736'
const traceparent = `00-${traceId}-00f067aa0ba902b7-01`

describe('examples/otel.ts over stdio, official SDK client', () => {
  it('answers, and prints the tools/call span with its attributes and the client\'s trace id', async () => {
    const c = await connectStdio(example('otel'), ['--stdio'])
    try {
      const r = await c.client.callTool({ name: 'add', arguments: { a: 2, b: 3 }, _meta: { traceparent } })
      expect(r.structuredContent).toEqual({ sum: 5 })
      await until(() => c.output().includes("name: 'tools/call add'"), 'the tools/call span on stderr')
      const printed = c.output().slice(c.output().indexOf("name: 'tools/call add'") - 400)
      expect(printed).toContain(`traceId: '${traceId}'`)
      expect(printed).toContain(`parentSpanContext: {`)
      expect(printed).toContain(`'gen_ai.tool.name': 'add'`)
      expect(printed).toContain(`'gen_ai.operation.name': 'execute_tool'`)
      expect(printed).toContain(`'network.transport': 'pipe'`)
      expect(c.output()).toContain("name: 'initialize'")
    } finally {
      await c.dispose()
    }
  })
})
