/**
 * emcp/otel with the process's own OpenTelemetry setup: `otel()` with no options uses the
 * global tracer and meter providers and the global propagator; with a context manager (the
 * AsyncLocalStorage one a Node SDK installs), a handler's own spans are children of the
 * request's span, and an ambient span (an HTTP server span, say) becomes a link when
 * `_meta` names another parent, or the parent when it names none.
 */
import { context, metrics, propagation, trace } from '@opentelemetry/api'
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks'
import { W3CTraceContextPropagator } from '@opentelemetry/core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { emcp, inMemoryClient, mcpServer } from '../../src/index.js'
import { otel } from '../../src/otel/index.js'
import { only, parent, telemetry } from './telemetry.js'

const work = emcp({ name: 'work', description: 'Does traced work.', input: { type: 'object' } })

describe('emcp/otel with the global OpenTelemetry API', () => {
  const t = telemetry()
  beforeAll(() => {
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable())
    trace.setGlobalTracerProvider(t.tracerProvider)
    metrics.setGlobalMeterProvider(t.meterProvider)
    propagation.setGlobalPropagator(new W3CTraceContextPropagator())
  })
  afterAll(() => {
    context.disable()
    trace.disable()
    metrics.disable()
    propagation.disable()
  })

  // built after the globals are set: otel() reads the providers when it is called
  const serverOf = () =>
    mcpServer([work], { name: 'global', version: '1' }, { middleware: [otel()] }).implement({
      work: async () => {
        // a handler's own span, from the global tracer, in the active context
        const span = trace.getTracer('handler').startSpan('inner work')
        await Promise.resolve()
        span.end()
        return 'done'
      },
    })

  it('otel() with no options records to the global providers, with the global propagator', async () => {
    t.exporter.reset()
    await inMemoryClient(serverOf()).request('tools/call', { name: 'work', arguments: {}, _meta: { traceparent: parent.traceparent } })
    const span = only(t.spans(), 'tools/call work')
    expect(span.spanContext().traceId).toBe(parent.traceId)
    expect((await t.duration())?.points.some((p) => p.attributes['gen_ai.tool.name'] === 'work')).toBe(true)
  })

  it("a handler's spans are children of the request's span", async () => {
    t.exporter.reset()
    await inMemoryClient(serverOf()).request('tools/call', { name: 'work', arguments: {} })
    const request = only(t.spans(), 'tools/call work')
    const inner = only(t.spans(), 'inner work')
    expect(inner.parentSpanContext?.spanId).toBe(request.spanContext().spanId)
    expect(inner.spanContext().traceId).toBe(request.spanContext().traceId)
  })

  it('an ambient span: the parent without _meta trace context, a link with it', async () => {
    t.exporter.reset()
    const server = serverOf()
    const ambient = trace.getTracer('transport').startSpan('POST /mcp')
    await context.with(trace.setSpan(context.active(), ambient), async () => {
      const client = inMemoryClient(server, { protocolVersion: '2026-07-28' })
      await client.request('tools/call', { name: 'work', arguments: {} })
      await client.request('tools/call', { name: 'work', arguments: {}, _meta: { traceparent: parent.traceparent } })
    })
    ambient.end()
    const [plain, remote] = t.spans().filter((s) => s.name === 'tools/call work')
    expect(plain?.parentSpanContext?.spanId).toBe(ambient.spanContext().spanId)
    expect(plain?.links).toEqual([])
    expect(remote?.parentSpanContext?.spanId).toBe(parent.spanId)
    expect(remote?.links.map((l) => l.context.spanId)).toEqual([ambient.spanContext().spanId])
  })
})
