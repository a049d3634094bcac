import { describe, expect, it } from 'vitest'
import * as t from 'io-ts'
import {
  DateFromISOString,
  emcp,
  inMemoryClient,
  InputRequiredError,
  mcpServer,
  RpcCallError,
  text,
  toolError,
  ToolCallError,
  type ToolContext,
} from '../../src/index.js'

const divide = emcp({
  name: 'divide',
  description: 'Divide a by b.',
  input: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] },
  output: { type: 'object', properties: { quotient: { type: 'number' } }, required: ['quotient'] },
})
const greet = emcp({
  name: 'greet',
  description: 'Greet someone.',
  input: { type: 'object', properties: { who: { type: 'string' } }, required: ['who'] },
})
const shift = emcp({
  name: 'shift',
  description: 'Shift a date by some hours.',
  input: t.type({ at: DateFromISOString, hours: t.number }),
  output: t.type({ at: DateFromISOString }),
})
const whoami = emcp({ name: 'whoami', description: 'Report the session.', input: { type: 'object' } })

const contexts: ToolContext[] = []

const server = mcpServer([divide, greet, shift, whoami], { name: 'client-test', version: '1' }, { pageSize: 3 }).implement({
  divide: ({ a, b }) => (b === 0 ? toolError('division by zero') : { quotient: a / b }),
  greet: ({ who }) => [text(`hello ${who}`)],
  shift: ({ at, hours }) => ({ at: new Date(at.getTime() + hours * 3_600_000) }),
  whoami: (_args, ctx) => {
    contexts.push(ctx)
    return JSON.stringify({ version: ctx.session.protocolVersion, client: ctx.session.clientInfo, initialized: ctx.session.initialized })
  },
})

describe('client: call', () => {
  it('resolves to the typed structured output', async () => {
    const out = await inMemoryClient(server).call('divide', { a: 9, b: 3 })
    expect(out).toEqual({ quotient: 3 })
  })

  it('resolves to the whole CallToolResult for a tool without an output schema', async () => {
    expect(await inMemoryClient(server).call('greet', { who: 'Ada' })).toEqual({ content: [{ type: 'text', text: 'hello Ada' }] })
  })

  it('encodes codec arguments for the wire and decodes the codec output', async () => {
    const out = await inMemoryClient(server).call('shift', { at: new Date('2025-01-01T22:00:00Z'), hours: 3 })
    expect(out.at).toBeInstanceOf(Date)
    expect(out.at.toISOString()).toBe('2025-01-02T01:00:00.000Z')
  })

  it('rejects with ToolCallError, carrying the result, when the tool answers isError', async () => {
    const err = await inMemoryClient(server).call('divide', { a: 1, b: 0 }).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(ToolCallError)
    expect((err as ToolCallError).message).toBe('division by zero')
    expect((err as ToolCallError).result).toEqual({ content: [{ type: 'text', text: 'division by zero' }], isError: true })
  })

  it('rejects with ToolCallError naming the failing paths of invalid arguments', async () => {
    const err = await inMemoryClient(server).call('divide', { a: 'x' } as any).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(ToolCallError)
    expect((err as Error).message).toContain('/a: must be number')
    expect((err as Error).message).toContain('/b: is required')
  })

  it('rejects with RpcCallError and code -32602 for an unknown tool', async () => {
    const err = await inMemoryClient(server).call('nope' as 'greet', { who: 'x' }).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(RpcCallError)
    expect((err as RpcCallError).code).toBe(-32602)
    expect((err as RpcCallError).message).toContain('nope')
  })
})

describe('client: callResult', () => {
  it('resolves to an isError result instead of rejecting', async () => {
    expect(await inMemoryClient(server).callResult('divide', { a: 1, b: 0 })).toEqual({
      content: [{ type: 'text', text: 'division by zero' }],
      isError: true,
    })
  })

  it('resolves to structuredContent and its text for a structured tool', async () => {
    expect(await inMemoryClient(server).callResult('divide', { a: 1, b: 4 })).toEqual({
      content: [{ type: 'text', text: '{"quotient":0.25}' }],
      structuredContent: { quotient: 0.25 },
    })
  })
})

describe('client: request, ping, list', () => {
  it('rejects with RpcCallError carrying the code of a protocol error', async () => {
    const err = await inMemoryClient(server).request('resources/list').catch((e: unknown) => e)
    expect(err).toBeInstanceOf(RpcCallError)
    expect((err as RpcCallError).code).toBe(-32601)
    expect((err as RpcCallError).name).toBe('RpcCallError')
  })

  it('resolves a raw request to its result', async () => {
    expect(await inMemoryClient(server).request('ping')).toEqual({})
  })

  it('pings', async () => {
    await expect(inMemoryClient(server).ping()).resolves.toBeUndefined()
  })

  it('lists every tool, following the pages to the end', async () => {
    const tools = await inMemoryClient(server).list()
    expect(tools.map((t) => t.name)).toEqual(['divide', 'greet', 'shift', 'whoami'])
    expect(tools[0]?.outputSchema).toEqual(divide.outputSchema)
  })
})

describe('client: the session it opens', () => {
  it('initializes once with its options before the first request, then sends notifications/initialized', async () => {
    contexts.length = 0
    const c = inMemoryClient(server, { protocolVersion: '2025-06-18', clientInfo: { name: 'tester', version: '9' } })
    const [a, b] = await Promise.all([c.callResult('whoami', {}), c.callResult('whoami', {})])
    const seen = [a, b].map((r) => JSON.parse((r.content[0] as { text: string }).text))
    for (const s of seen) expect(s).toEqual({ version: '2025-06-18', client: { name: 'tester', version: '9' }, initialized: true })
    // one session for the client, distinct request ids for each call
    expect(contexts).toHaveLength(2)
    expect(contexts[0]?.session).toBe(contexts[1]?.session)
    expect(contexts[0]?.requestId).not.toBe(contexts[1]?.requestId)
  })

  it('negotiates down to the latest version when asked for one the server does not speak', async () => {
    const r = await inMemoryClient(server, { protocolVersion: '2000-01-01' }).callResult('whoami', {})
    expect(JSON.parse((r.content[0] as { text: string }).text).version).toBe('2025-11-25')
  })
})

describe('client: arguments travel as JSON would carry them', () => {
  it('leaves the caller’s object untouched when the server fills in schema defaults', async () => {
    const repeat = emcp({
      name: 'repeat',
      description: 'Repeats a word.',
      input: { type: 'object', properties: { word: { type: 'string' }, times: { type: 'integer', default: 2 } }, required: ['word'] },
    })
    const server = mcpServer([repeat], { name: 'r', version: '1' }).implement({ repeat: ({ word, times }) => word.repeat(times) })
    // `times` has a default: the typed client lets the caller leave it out, the handler gets it
    const args = Object.freeze({ word: 'ab' })
    const result = await inMemoryClient(server).callResult('repeat', args)
    expect(result.content).toEqual([text('abab')])
    expect(args).toEqual({ word: 'ab' })
    expect((await inMemoryClient(server).call('repeat', { word: 'c', times: 3 })).content).toEqual([text('ccc')])
  })
})

describe('client: 2026-07-28', () => {
  const ask = emcp({
    name: 'ask',
    description: 'Asks the user a name, then lists roots.',
    input: { type: 'object' },
    output: { type: 'object', properties: { name: { type: 'string' }, roots: { type: 'integer' } }, required: ['name', 'roots'] },
  })
  const evens = emcp({ name: 'evens', description: 'Even numbers.', input: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] }, output: { type: 'array', items: { type: 'integer' } } })
  const server = mcpServer([ask, evens], { name: 'q', version: '1' }).implement({
    ask: async (_args, ctx) => {
      const r = await ctx.elicit({ message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } })
      const roots = await ctx.roots()
      return { name: r.action === 'accept' ? r.content.name : '?', roots: roots.length }
    },
    evens: ({ n }) => Array.from({ length: n }, (_, i) => 2 * i),
  })

  it('sends no initialize, answers input_required through `answer` and retries until the result is complete', async () => {
    const asked: string[] = []
    const c = inMemoryClient(server, {
      protocolVersion: '2026-07-28',
      capabilities: { elicitation: { form: {} }, roots: {} },
      answer: ({ method }) => {
        asked.push(method)
        return method === 'roots/list' ? { roots: [{ uri: 'file:///a' }, { uri: 'file:///b' }] } : { action: 'accept', content: { name: 'Ann' } }
      },
    })
    expect(await c.call('ask', {})).toEqual({ name: 'Ann', roots: 2 })
    expect(asked).toEqual(['elicitation/create', 'roots/list'])
    expect(((await c.request('tools/list')) as { resultType: string }).resultType).toBe('complete')
  })

  it('gets a non-object structured result as it is (a 2025-11-25 client gets it unwrapped from { result } too)', async () => {
    expect(await inMemoryClient(server, { protocolVersion: '2026-07-28' }).call('evens', { n: 3 })).toEqual([0, 2, 4])
    expect(await inMemoryClient(server).call('evens', { n: 3 })).toEqual([0, 2, 4])
    expect((await inMemoryClient(server).callResult('evens', { n: 2 })).structuredContent).toEqual({ result: [0, 2] })
  })

  it('without `answer`, input_required rejects with InputRequiredError carrying the questions', async () => {
    const c = inMemoryClient(server, { protocolVersion: '2026-07-28', capabilities: { elicitation: { form: {} }, roots: {} } })
    const e = await c.call('ask', {}).catch((x: unknown) => x)
    expect(e).toBeInstanceOf(InputRequiredError)
    expect(Object.values((e as InputRequiredError).result.inputRequests as object).map((q: { method: string }) => q.method)).toEqual(['elicitation/create'])
  })
})
