/**
 * Trace context is client input: a huge, malformed or oddly typed `traceparent`,
 * `tracestate` or `_meta` is ignored (the request starts a trace of its own) and the request
 * is answered as usual; the getter reads only its three keys, own string values within their
 * bounds; a propagator that throws costs the request nothing.
 */
import { describe, expect, it } from 'vitest'
import { emcp, inMemoryClient, mcpServer } from '../../src/index.js'
import { otel, type OtelOptions } from '../../src/otel/index.js'
import { maxLengths, metaCarrier, metaGetter } from '../../src/otel/carrier.js'
import { only, parent, telemetry } from './telemetry.js'

const add = emcp({
  name: 'add',
  description: 'Add two numbers.',
  input: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] },
})
const serverWith = (options: OtelOptions) =>
  mcpServer([add], { name: 'hostile', version: '1' }, { middleware: [otel(options)] }).implement({ add: ({ a, b }) => String(a + b) })

const huge = 'x'.repeat(4 * 1024 * 1024)
const hostileMetas: ReadonlyArray<readonly [string, unknown]> = [
  ['a 4 MB traceparent', { traceparent: huge }],
  ['a valid traceparent padded past its bound', { traceparent: parent.traceparent + '-'.repeat(600) }],
  ['a malformed traceparent', { traceparent: '00-zzzz-00f067aa0ba902b7-01' }],
  ['an all-zero trace id', { traceparent: '00-00000000000000000000000000000000-00f067aa0ba902b7-01' }],
  ['version ff', { traceparent: 'ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01' }],
  ['a number', { traceparent: 42 }],
  ['an array of strings', { traceparent: [parent.traceparent] }],
  ['an object', { traceparent: { toString: parent.traceparent } }],
  ['a 4 MB tracestate beside no traceparent', { tracestate: huge }],
  ['_meta as an array', [parent.traceparent]],
  ['_meta as a string', 'traceparent'],
  ['_meta null', null],
  ['the key in another case', { TraceParent: parent.traceparent }],
  ['the key in the prototype only', JSON.parse(`{"__proto__": {"traceparent": "${parent.traceparent}"}}`)],
]

describe('emcp/otel: hostile trace context', () => {
  it.each(hostileMetas)('%s: ignored, a trace of its own, the request answered', async (_name, meta) => {
    for (const era of [{}, { protocolVersion: '2026-07-28' }]) {
      const t = telemetry()
      const client = inMemoryClient(serverWith(t.options), era)
      const params = { name: 'add', arguments: { a: 1, b: 2 }, ...(era.protocolVersion === undefined ? { _meta: meta } : {}) }
      // 2026-07-28 requests need their _meta to be an object: there the hostile values go inside it
      const modernParams = { name: 'add', arguments: { a: 1, b: 2 }, _meta: typeof meta === 'object' && meta !== null && !Array.isArray(meta) ? meta : { traceparent: meta } }
      expect(await client.request('tools/call', era.protocolVersion === undefined ? params : modernParams)).toMatchObject({ content: [{ text: '3' }] })
      const span = only(t.spans(), 'tools/call add')
      expect(span.parentSpanContext).toBeUndefined()
      expect(span.spanContext().traceId).not.toBe(parent.traceId)
    }
  })

  it('a huge tracestate beside a valid traceparent is dropped; the parent stays', async () => {
    const t = telemetry()
    await inMemoryClient(serverWith(t.options)).request('tools/call', { name: 'add', arguments: { a: 1, b: 2 }, _meta: { traceparent: parent.traceparent, tracestate: huge } })
    const span = only(t.spans(), 'tools/call add')
    expect(span.spanContext().traceId).toBe(parent.traceId)
    expect(span.spanContext().traceState).toBeUndefined()
  })

  it('a huge tool name is answered and recorded without it', async () => {
    const t = telemetry()
    await expect(inMemoryClient(serverWith(t.options)).request('tools/call', { name: huge, arguments: {} })).rejects.toMatchObject({ code: -32602 })
    const [span] = t.spans().filter((s) => s.attributes['mcp.method.name'] === 'tools/call')
    expect(span?.name).toBe('tools/call')
    expect(span?.attributes['gen_ai.tool.name']).toBeUndefined()
    expect(span?.attributes['error.type']).toBe('-32602')
  })

  it('a propagator that throws: the request is answered, without a parent', async () => {
    const t = telemetry()
    const throwing: OtelOptions['propagator'] = {
      extract: () => {
        throw new Error('propagator failure')
      },
    }
    const client = inMemoryClient(serverWith({ ...t.options, propagator: throwing }))
    expect(await client.request('tools/call', { name: 'add', arguments: { a: 2, b: 2 }, _meta: { traceparent: parent.traceparent } })).toMatchObject({ content: [{ text: '4' }] })
    expect(only(t.spans(), 'tools/call add').parentSpanContext).toBeUndefined()
  })
})

describe('the _meta getter', () => {
  const meta = { traceparent: parent.traceparent, tracestate: parent.tracestate, baggage: 'k=v', other: 'x', long: 'y'.repeat(10) }
  it('offers only the propagated keys, never the carrier\'s own', () => {
    expect(metaGetter.keys(meta)).toEqual(['traceparent', 'tracestate', 'baggage'])
  })
  it('reads own string values within their bounds, and nothing else', () => {
    expect(metaGetter.get(meta, 'traceparent')).toBe(parent.traceparent)
    expect(metaGetter.get(meta, 'baggage')).toBe('k=v')
    expect(metaGetter.get(meta, 'other')).toBeUndefined()
    expect(metaGetter.get({ tracestate: 'a'.repeat(maxLengths.tracestate ?? 0) }, 'tracestate')).toHaveLength(512)
    expect(metaGetter.get({ tracestate: 'a'.repeat((maxLengths.tracestate ?? 0) + 1) }, 'tracestate')).toBeUndefined()
    expect(metaGetter.get({ traceparent: 1 }, 'traceparent')).toBeUndefined()
    expect(metaGetter.get(Object.create({ traceparent: parent.traceparent }) as { readonly [key: string]: unknown }, 'traceparent')).toBeUndefined()
  })
  it('finds the carrier only in an object _meta', () => {
    expect(metaCarrier({ _meta: meta })).toBe(meta)
    expect(metaCarrier({ _meta: [1] })).toBeUndefined()
    expect(metaCarrier({ _meta: 'x' })).toBeUndefined()
    expect(metaCarrier(undefined)).toBeUndefined()
  })
})
