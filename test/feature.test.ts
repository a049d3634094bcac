import { describe, expect, it } from 'vitest'
import * as E from 'fp-ts/lib/Either.js'
import type * as O from 'fp-ts/lib/Option.js'
import { emcp, encode, inMemoryClient, mcpServer, newSession, type FeatureFactory, type Reply } from '../src/index.js'

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

  it('lets the feature forget a released session', () => {
    const s = newSession()
    server.release(s)
    expect(released).toContain(s)
  })
})
