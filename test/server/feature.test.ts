import { describe, expect, it } from 'vitest'
import * as E from 'fp-ts/lib/Either.js'
import type * as O from 'fp-ts/lib/Option.js'
import { emcp, encode, inMemoryClient, mcpServer, newSession, type FeatureFactory, type Reply } from '../../src/index.js'

const noop = emcp({ name: 'noop', description: 'Does nothing.', input: { type: 'object' } })

describe('feature: methods and capabilities beside tools', () => {
  const released: unknown[] = []
  const hello: FeatureFactory = () => ({
    capabilities: { experimental: { hello: {} } },
    methods: {
      'hello/say': (req) => E.right({ text: `hello ${String(req.params?.who ?? 'world')}` }),
      'hello/fail': () => E.left({ _tag: 'InvalidParams', message: 'no' }),
      'hello/later': async () => E.right({ later: true }),
    },
    release: (s) => released.push(s),
  })
  const server = mcpServer([noop], { name: 'h', version: '1' }, { features: [hello] }).implement({ noop: () => 'ok' })

  it('answers the feature’s methods, now or later, with results or errors as data', async () => {
    const client = inMemoryClient(server)
    expect(await client.request('hello/say', { who: 'Ada' })).toEqual({ text: 'hello Ada' })
    expect(await client.request('hello/later')).toEqual({ later: true })
    await expect(client.request('hello/fail')).rejects.toMatchObject({ code: -32602, message: 'no' })
  })

  it('merges the feature’s capabilities into the initialize result', async () => {
    const out = await server.dispatch({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } } }, newSession())()
    const m = JSON.parse(encode((out as O.Some<Reply>).value)) as { result: { capabilities: Record<string, unknown> } }
    expect(m.result.capabilities).toEqual({ experimental: { hello: {} }, tools: { listChanged: true }, logging: {} })
  })

  it('merges the extensions and experimental maps of several features, not only the last one’s', async () => {
    const one: FeatureFactory = () => ({ capabilities: { extensions: { 'com.example/one': {} }, experimental: { a: {} } }, methods: {} })
    const two: FeatureFactory = () => ({ capabilities: { extensions: { 'com.example/two': { v: 2 } }, experimental: { b: {} } }, methods: {} })
    const both = mcpServer([noop], { name: 'h', version: '1' }, { features: [one, two] }).implement({ noop: () => 'ok' })
    const out = await both.dispatch({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } } }, newSession())()
    const m = JSON.parse(encode((out as O.Some<Reply>).value)) as { result: { capabilities: Record<string, unknown> } }
    expect(m.result.capabilities).toMatchObject({ extensions: { 'com.example/one': {}, 'com.example/two': { v: 2 } }, experimental: { a: {}, b: {} } })
  })

  it('lets the feature forget a released session', () => {
    const s = newSession()
    server.release(s)
    expect(released).toContain(s)
  })
})

describe('feature: completion/complete through the features that own the reference', () => {
  const cities = ['Oslo', 'Osaka', 'Ottawa', 'Paris']
  const prompts: FeatureFactory = () => ({
    capabilities: { prompts: {} },
    methods: {},
    complete: (r) => (r.ref.type === 'ref/prompt' && r.ref.name === 'trip' ? { values: cities.filter((c) => c.startsWith(r.argument.value)) } : undefined),
  })
  const many: FeatureFactory = () => ({
    capabilities: {},
    methods: {},
    complete: async (r) => (r.ref.type === 'ref/resource' ? { values: Array.from({ length: 150 }, (_, i) => `v${i}`) } : undefined),
  })
  const server = mcpServer([noop], { name: 'c', version: '1' }, { features: [prompts, many] }).implement({ noop: () => 'ok' })
  const client = inMemoryClient(server)

  it('declares completions and answers from the feature that owns the prompt', async () => {
    expect(await client.request('completion/complete', { ref: { type: 'ref/prompt', name: 'trip' }, argument: { name: 'city', value: 'O' } })).toEqual({
      completion: { values: ['Oslo', 'Osaka', 'Ottawa'] },
    })
  })

  it('caps the values at 100 with the total and hasMore (MCP: maximum 100 items)', async () => {
    const r = (await client.request('completion/complete', { ref: { type: 'ref/resource', uri: 'file:///{x}' }, argument: { name: 'x', value: '' } })) as {
      completion: { values: string[]; total: number; hasMore: boolean }
    }
    expect(r.completion.values).toHaveLength(100)
    expect(r.completion).toMatchObject({ total: 150, hasMore: true })
  })

  it('refuses an unknown reference or malformed params with -32602', async () => {
    await expect(client.request('completion/complete', { ref: { type: 'ref/prompt', name: 'nope' }, argument: { name: 'a', value: '' } })).rejects.toMatchObject({ code: -32602 })
    await expect(client.request('completion/complete', { ref: { type: 'ref/other' }, argument: { name: 'a', value: '' } })).rejects.toMatchObject({ code: -32602 })
  })
})

describe('feature: the server keeps its own methods', () => {
  it('refuses a feature that answers a method the server answers itself', () => {
    const rogue: FeatureFactory = () => ({ capabilities: {}, methods: { 'tools/list': () => E.right({ tools: [] }) } })
    expect(() => mcpServer([noop], { name: 'r', version: '1' }, { features: [rogue] }).implement({ noop: () => 'ok' })).toThrow(
      /a feature cannot answer tools\/list/,
    )
  })
})
