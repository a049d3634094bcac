/**
 * `connect` (src/client/connect.ts) driven for real: a server value in memory and the same
 * server over Streamable HTTP on 127.0.0.1, each in both eras: typed calls, io-ts codecs
 * applied both ways, a 2025 server's wrapped array unwrapped, elicitation answered by the
 * callback (a server request in 2025, an input_required round in 2026), sampling and roots,
 * progress, cancellation, list_changed, prompts and resources, errors as data.
 */
import * as t from 'io-ts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DateFromISOString, emcp, mcpServer, prompt, prompts, resource, resources } from '../../src/index.js'
import { connect, RpcCallError, ToolCallError } from '../../src/client/index.js'
import { serveHttp } from '../../src/transport/http.js'

const add = emcp({
  name: 'add',
  description: 'Add two numbers.',
  input: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'], additionalProperties: false },
  output: { type: 'object', properties: { sum: { type: 'number' } }, required: ['sum'] },
})
const addDays = emcp({ name: 'add_days', description: 'Days later.', input: t.type({ date: DateFromISOString, days: t.number }), output: t.type({ date: DateFromISOString }) })
const primes = emcp({
  name: 'primes',
  description: 'Primes below a bound.',
  input: { type: 'object', properties: { below: { type: 'integer' } }, required: ['below'] },
  output: { type: 'array', items: { type: 'integer' } },
})
const greet = emcp({ name: 'greet', description: 'Asks a name.', input: { type: 'object' }, output: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } })
const ask = emcp({ name: 'ask', description: 'Samples the model.', input: { type: 'object' } })
const where = emcp({ name: 'where', description: 'Lists roots.', input: { type: 'object' } })
const count = emcp({ name: 'count', description: 'Reports progress.', input: { type: 'object', properties: { to: { type: 'integer' } }, required: ['to'] } })
const wait = emcp({ name: 'wait', description: 'Waits until cancelled.', input: { type: 'object' } })
const fail = emcp({ name: 'fail', description: 'Always fails.', input: { type: 'object' } })

const hello = prompt({ name: 'hello', description: 'Say hello.', arguments: { who: { required: true } }, get: ({ who }) => `Hello ${who}` })
const nameForm = { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } as const
const cancelled: string[] = []

const build = () =>
  mcpServer([add, addDays, primes, greet, ask, where, count, wait, fail], { name: 'client-test', version: '1.0.0' }, {
    features: [
      prompts([hello]),
      resources([resource({ uri: 'test://about', name: 'about', mimeType: 'text/plain', read: () => 'about text' })]),
    ],
  }).implement({
    add: ({ a, b }) => ({ sum: a + b }),
    add_days: ({ date, days }) => ({ date: new Date(date.getTime() + days * 86_400_000) }),
    primes: ({ below }) => [2, 3, 5, 7, 11, 13].filter((p) => p < below),
    greet: async (_a, ctx) => {
      const answer = await ctx.elicit({ message: 'Your name?', requestedSchema: nameForm })
      return { text: answer.action === 'accept' ? `Hi ${answer.content.name}` : 'Hi stranger' }
    },
    ask: async (_a, ctx) => {
      const r = await ctx.sample({ messages: [{ role: 'user', content: { type: 'text', text: 'capital of France?' } }], maxTokens: 10 })
      const block = Array.isArray(r.content) ? r.content[0] : r.content
      return block?.type === 'text' ? block.text : '?'
    },
    where: async (_a, ctx) => (await ctx.roots()).map((r) => r.uri).join(','),
    count: async ({ to }, ctx) => {
      for (let i = 1; i <= to; i++) await ctx.progress(i, to, `step ${i}`)
      return `counted to ${to}`
    },
    wait: (_a, ctx) =>
      new Promise<string>((resolve) => {
        ctx.signal.addEventListener('abort', () => {
          cancelled.push('wait')
          resolve('stopped')
        })
      }),
    fail: () => {
      throw new Error('it broke')
    },
  })

const server = build()
let http: Awaited<ReturnType<typeof serveHttp>>
beforeAll(async () => {
  http = await serveHttp(build(), { port: 0, sessions: true })
})
afterAll(async () => {
  await http.close()
})

const callbacks = {
  elicit: async () => ({ action: 'accept' as const, content: { name: 'Ada' } }),
  sample: async () => ({ role: 'assistant' as const, content: { type: 'text' as const, text: 'Paris' }, model: 'test-model' }),
  roots: [{ uri: 'file:///home/ada/project', name: 'project' }],
}

const targets = [
  ['in memory', () => server],
  ['HTTP', () => http.url],
] as const

describe.each(targets)('connect %s', (_label, target) => {
  describe.each(['2025-11-25', '2026-07-28'])('at %s', (protocolVersion) => {
    const open = () => connect(target() as string, { contracts: server, prompts: [hello], protocolVersion, ...callbacks })

    it('speaks the era asked for, calls with types and codecs, unwraps non-object results', async () => {
      await using c = await open()
      expect(c.protocolVersion()).toBe(protocolVersion)
      expect(c.serverInfo()).toMatchObject({ name: 'client-test', version: '1.0.0' })
      expect(await c.call('add', { a: 2, b: 3 })).toEqual({ sum: 5 })
      const later = await c.call('add_days', { date: new Date('2025-01-01T00:00:00Z'), days: 2 })
      expect(later.date).toBeInstanceOf(Date)
      expect(later.date.toISOString()).toBe('2025-01-03T00:00:00.000Z')
      expect(await c.call('primes', { below: 8 })).toEqual([2, 3, 5, 7])
      expect((await c.list()).map((tool) => tool.name)).toEqual(['add', 'add_days', 'primes', 'greet', 'ask', 'where', 'count', 'wait', 'fail'])
    })

    it('answers elicitation, sampling and roots through the callbacks', async () => {
      await using c = await open()
      expect(await c.call('greet', {})).toEqual({ text: 'Hi Ada' })
      expect((await c.call('ask', {})).content).toEqual([{ type: 'text', text: 'Paris' }])
      expect((await c.call('where', {})).content).toEqual([{ type: 'text', text: 'file:///home/ada/project' }])
    })

    it('reports progress, renders prompts, reads resources', async () => {
      await using c = await open()
      const seen: number[] = []
      await c.call('count', { to: 3 }, { onProgress: (p) => seen.push(p.progress) })
      expect(seen).toEqual([1, 2, 3])
      expect((await c.prompts.list()).map((p) => p.name)).toEqual(['hello'])
      expect((await c.prompts.get('hello', { who: 'Bo' })).messages[0]?.content).toMatchObject({ type: 'text', text: 'Hello Bo' })
      expect((await c.resources.list()).map((r) => r.uri)).toEqual(['test://about'])
      expect(await c.resources.read('test://about')).toEqual([{ uri: 'test://about', mimeType: 'text/plain', text: 'about text' }])
    })

    it('rejects tool errors and protocol errors as data, and cancels through an AbortSignal', async () => {
      await using c = await open()
      const failed = await c.call('fail', {}).catch((e: unknown) => e)
      expect(failed).toBeInstanceOf(ToolCallError)
      expect((failed as ToolCallError).message).toMatch(/it broke/)
      expect((await c.callResult('fail', {})).isError).toBe(true)
      const unknown = await c.call('nope' as 'add', { a: 1, b: 2 }).catch((e: unknown) => e)
      expect(unknown).toBeInstanceOf(RpcCallError)
      expect((unknown as RpcCallError).code).toBe(-32602)
      const controller = new AbortController()
      const pending = c.call('wait', {}, { signal: controller.signal })
      controller.abort(new Error('user stopped it'))
      await expect(pending).rejects.toThrow(/user stopped it/)
    })
  })
})

describe('connect without contracts', () => {
  it('is typed by the type argument and learns from tools/list which results are structured', async () => {
    await using c = await connect<typeof server>(http.url, { protocolVersion: '2026-07-28' })
    expect(await c.call('add', { a: 1, b: 1 })).toEqual({ sum: 2 })
    expect(await c.call('primes', { below: 4 })).toEqual([2, 3])
  })

  it('hears list_changed in both eras', async () => {
    const live = build()
    const running = await serveHttp(live, { port: 0, sessions: true })
    try {
      for (const protocolVersion of ['2025-11-25', '2026-07-28']) {
        let heard = 0
        let changed: () => void = () => {}
        const arrived = new Promise<void>((resolve) => {
          changed = resolve
        })
        await using c = await connect(running.url, { contracts: live, protocolVersion, onListChanged: { tools: () => (heard++, changed()) } })
        await c.ping()
        live.disableTool('fail')
        await arrived
        expect(heard).toBeGreaterThan(0)
        live.enableTool('fail')
      }
    } finally {
      await running.close()
    }
  })
})

describe('connect refuses what it cannot reach, saying why', () => {
  it('a URL that is not http(s), a stdio target without a command, contracts that are not a list', async () => {
    await expect(connect('ftp://127.0.0.1/mcp')).rejects.toThrow(/an MCP URL is http: or https:, not ftp:/)
    await expect(connect({ command: '' })).rejects.toThrow(/a stdio target needs a command/)
    await expect(connect(http.url, { contracts: { tools: 'add' } as never })).rejects.toThrow(/`contracts` is a server, a list of contracts/)
    await expect(connect({ command: process.execPath, args: ['-e', 'process.exit(3)'], stderr: 'ignore' }, { timeoutMs: 5_000 })).rejects.toThrow()
  })
})
