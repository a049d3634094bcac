/**
 * User middleware through the public API: before and after every request, answering in the
 * server's place (an error, a tool result), mapping errors, passing other arguments on,
 * hiding and refusing tools, in both eras, over the in-memory client and real HTTP; and the
 * two examples of docs/middleware.md (a rate limit, a log line per call).
 */
import * as E from 'fp-ts/lib/Either.js'
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest'
import {
  emcp,
  errorCodes,
  inMemoryClient,
  mcpServer,
  newSession,
  rpcError,
  RpcCallError,
  type Middleware,
  type RequestInfo,
  type Session,
  type ToolCallInfo,
} from '../../src/index.js'
import { serveHttp, type RunningHttp } from '../../src/transport/http.js'
import { limited, logCalls, rateLimit } from '../../examples/middleware.js'

const add = emcp({
  name: 'add',
  description: 'Add two numbers.',
  input: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'], additionalProperties: false },
  output: { type: 'object', properties: { sum: { type: 'number' } }, required: ['sum'] },
  annotations: { readOnlyHint: true },
  _meta: { team: 'maths' },
})
const boom = emcp({ name: 'boom', description: 'Always fails.', input: { type: 'object' } })
const ask = emcp({ name: 'ask', description: 'Asks the user for a name.', input: { type: 'object' } })

const handlers = {
  add: ({ a, b }: { a: number; b: number }) => ({ sum: a + b }),
  boom: (): string => {
    throw new Error('kaboom')
  },
  ask: async (_: unknown, ctx: import('../../src/index.js').ToolContext) => {
    const r = await ctx.elicit({ message: 'Your name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } })
    return r.action === 'accept' ? `hello ${r.content.name}` : 'no name'
  },
}
const serverWith = (middleware: ReadonlyArray<Middleware>) => mcpServer([add, boom, ask], { name: 'mw', version: '1' }, { middleware }).implement(handlers)

const modern = '2026-07-28'
const elicits = { elicitation: { form: {} } }

describe('middleware: requests', () => {
  it('runs before and after every request, the first of the list outermost, and sees method, params and session', async () => {
    const seen: string[] = []
    const trace = (name: string): Middleware => ({
      request: async (req, next) => {
        seen.push(`${name} before ${req.method} ${JSON.stringify(req.params?.name ?? null)} ${req.session.clientInfo?.name ?? '-'} ${req.session.protocolVersion}`)
        const out = await next()
        seen.push(`${name} after ${req.method} ${E.isRight(out) ? 'ok' : out.left._tag}`)
        return out
      },
    })
    const client = inMemoryClient(serverWith([trace('outer'), trace('inner')]), { clientInfo: { name: 'tester', version: '1' } })
    expect(await client.call('add', { a: 1, b: 2 })).toEqual({ sum: 3 })
    expect(seen.slice(-4)).toEqual([
      'outer before tools/call "add" tester 2025-11-25',
      'inner before tools/call "add" tester 2025-11-25',
      'inner after tools/call ok',
      'outer after tools/call ok',
    ])
    await expect(client.request('nope/nothing')).rejects.toThrow(/Method not found/)
    expect(seen.slice(-2)).toEqual(['inner after nope/nothing MethodNotFound', 'outer after nope/nothing MethodNotFound'])
  })

  it('answers in the server’s place with a JSON-RPC error, and the handler does not run', async () => {
    let ran = 0
    const server = mcpServer([add], { name: 'mw', version: '1' }, {
      middleware: [{ request: (req, next) => (req.method === 'tools/call' ? E.left(rpcError('Forbidden', 'closed for maintenance', { until: 'noon' })) : next()) }],
    }).implement({ add: ({ a, b }) => (ran++, { sum: a + b }) })
    const error = await inMemoryClient(server).call('add', { a: 1, b: 2 }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(RpcCallError)
    expect(error).toMatchObject({ code: errorCodes.Forbidden, message: 'closed for maintenance', data: { until: 'noon' } })
    expect(ran).toBe(0)
    // the same in 2026-07-28, where the answer still goes through that era's envelope
    const modernError = await inMemoryClient(server, { protocolVersion: modern }).call('add', { a: 1, b: 2 }).catch((e: unknown) => e)
    expect(modernError).toMatchObject({ code: errorCodes.Forbidden, message: 'closed for maintenance' })
    expect(ran).toBe(0)
  })

  it('maps errors: a Left from the server, and a handler that throws below it', async () => {
    const mapping: Middleware = {
      request: async (_req, next) => {
        const out = await next().catch((e: unknown) => E.left(rpcError('InternalError', `mapped: ${String(e)}`)))
        return E.isLeft(out) && out.left._tag === 'MethodNotFound' ? E.left(rpcError('InvalidRequest', `renamed: ${out.left.message}`)) : out
      },
    }
    const throwing = () => ({ capabilities: {}, methods: { 'x/throw': () => Promise.reject(new Error('deep')) } })
    const server = mcpServer([add], { name: 'mw', version: '1' }, { middleware: [mapping], features: [throwing] }).implement({ add: ({ a, b }) => ({ sum: a + b }) })
    const client = inMemoryClient(server)
    await expect(client.request('x/none')).rejects.toMatchObject({ code: errorCodes.InvalidRequest, message: 'renamed: Method not found: x/none' })
    await expect(client.request('x/throw')).rejects.toMatchObject({ code: errorCodes.InternalError, message: 'mapped: Error: deep' })
  })

  it('wraps 2026-07-28 requests with the request’s own revision and capabilities, server/discover included', async () => {
    const seen: Array<[string, string, unknown]> = []
    const server = serverWith([{ request: (req, next) => (seen.push([req.method, req.session.protocolVersion, req.session.clientCapabilities]), next()) }])
    const client = inMemoryClient(server, { protocolVersion: modern, capabilities: elicits })
    await client.request('server/discover')
    expect(await client.call('add', { a: 2, b: 2 })).toEqual({ sum: 4 })
    expect(seen).toEqual([
      ['server/discover', modern, elicits],
      ['tools/call', modern, elicits],
    ])
  })

  it('refuses a second call of next', async () => {
    const twice: Middleware = { request: async (_req, next) => (await next(), next()) }
    await expect(inMemoryClient(serverWith([twice])).ping()).rejects.toThrow(/called next\(\) twice/)
  })
})

describe('middleware: tool calls', () => {
  it('sees the tool’s contract and the arguments, and answers with a tool result in the handler’s place', async () => {
    const calls: ToolCallInfo[] = []
    const cache: Middleware = {
      toolCall: (call, next) => {
        calls.push(call)
        return call.tool.annotations?.readOnlyHint === true && call.arguments.a === 0 ? E.right({ content: [{ type: 'text', text: 'cached' }] }) : next()
      },
    }
    const client = inMemoryClient(serverWith([cache]))
    expect(await client.callResult('add', { a: 0, b: 5 })).toEqual({ content: [{ type: 'text', text: 'cached' }] })
    expect(await client.call('add', { a: 1, b: 5 })).toEqual({ sum: 6 })
    expect(calls.map((c) => [c.tool.name, c.tool._meta, c.arguments, c.method])).toEqual([
      ['add', { team: 'maths' }, { a: 0, b: 5 }, 'tools/call'],
      ['add', { team: 'maths' }, { a: 1, b: 5 }, 'tools/call'],
    ])
  })

  it('passes other arguments on, which the input schema still checks', async () => {
    const double: Middleware = { toolCall: (call, next) => next({ ...call.arguments, b: Number(call.arguments.b) * 2 }) }
    const client = inMemoryClient(serverWith([double]))
    expect(await client.call('add', { a: 1, b: 2 })).toEqual({ sum: 5 })
    const smuggle: Middleware = { toolCall: (call, next) => next({ ...call.arguments, extra: true }) }
    const refused = await inMemoryClient(serverWith([smuggle])).callResult('add', { a: 1, b: 2 })
    expect(refused.isError).toBe(true)
    expect(JSON.stringify(refused.content)).toMatch(/Invalid arguments for tool add/)
  })

  it('sees a failed call as an isError result, and may turn it into a JSON-RPC error', async () => {
    const strict: Middleware = {
      toolCall: async (call, next) => {
        const out = await next()
        return E.isRight(out) && out.right.isError === true ? E.left(rpcError('InternalError', `${call.tool.name} failed`)) : out
      },
    }
    await expect(inMemoryClient(serverWith([strict])).callResult('boom', {})).rejects.toMatchObject({ code: errorCodes.InternalError, message: 'boom failed' })
  })

  it('runs inside the request middleware, and not for unknown tools', async () => {
    const order: string[] = []
    const server = serverWith([
      { request: async (req, next) => (order.push(`request ${req.method}`), next()) },
      { toolCall: async (call, next) => (order.push(`toolCall ${call.tool.name}`), next()) },
    ])
    const client = inMemoryClient(server)
    await client.call('add', { a: 1, b: 1 })
    await expect(client.request('tools/call', { name: 'missing', arguments: {} })).rejects.toMatchObject({ code: -32602 })
    expect(order).toEqual(['request initialize', 'request tools/call', 'toolCall add', 'request tools/call'])
  })

  it('sees a 2026-07-28 question to the client as an input_required result, and the retry as the final one', async () => {
    const outcomes: unknown[] = []
    const requests: unknown[] = []
    const server = serverWith([
      { request: async (_req, next) => (await next().then((o) => (requests.push(E.isRight(o) ? o.right : o), o))) },
      { toolCall: async (_call, next) => (await next().then((o) => (outcomes.push(E.isRight(o) ? o.right : o), o))) },
    ])
    const client = inMemoryClient(server, { protocolVersion: modern, capabilities: elicits, answer: () => ({ action: 'accept', content: { name: 'Ada' } }) })
    expect(await client.callResult('ask', {})).toMatchObject({ content: [{ type: 'text', text: 'hello Ada' }] })
    expect(outcomes).toHaveLength(2)
    expect(outcomes[0]).toMatchObject({ resultType: 'input_required', inputRequests: { 'input-0': { method: 'elicitation/create' } } })
    expect(outcomes[1]).toMatchObject({ content: [{ type: 'text', text: 'hello Ada' }] })
    // the request hook sees the same, before the era's envelope is added
    expect(requests).toEqual(outcomes)
  })

  it('authorize hides a tool from a session’s tools/list and refuses its calls (-32003)', async () => {
    const adminsOnly: Middleware = { authorize: (tool, session) => tool.name !== 'boom' || session.identity?.roles.includes('admin') === true }
    const server = serverWith([adminsOnly])
    const as = (roles: string[]): Session => Object.assign(newSession(), { identity: { subject: 'x', roles } })
    const names = async (s: Session) => {
      const out = await server.dispatch({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, s)()
      return (JSON.parse(JSON.stringify(out)).value.result.tools as { name: string }[]).map((t) => t.name)
    }
    expect(await names(as([]))).toEqual(['add', 'ask'])
    expect(await names(as(['admin']))).toEqual(['add', 'boom', 'ask'])
    const out = await server.dispatch({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'boom', arguments: {} } }, as([]))()
    expect(JSON.parse(JSON.stringify(out)).value.error).toEqual({ code: errorCodes.Forbidden, message: 'Forbidden: x may not call tool boom' })
  })

  it('server.use adds a middleware inside the others, typing the tool as one of the server’s own', async () => {
    const order: string[] = []
    const server = mcpServer([add, boom], { name: 'typed', version: '1' }, { middleware: [{ toolCall: (_c, next) => (order.push('option'), next()) }] }).implement({
      add: ({ a, b }) => ({ sum: a + b }),
      boom: () => 'no',
    })
    const same = server.use({
      toolCall: (call, next) => {
        expectTypeOf(call.tool.name).toEqualTypeOf<'add' | 'boom'>()
        order.push(`use ${call.tool.name}`)
        return next()
      },
    })
    expect(same).toBe(server)
    expect(await inMemoryClient(server).call('add', { a: 1, b: 1 })).toEqual({ sum: 2 })
    expect(order).toEqual(['option', 'use add'])
    expectTypeOf<RequestInfo['session']>().toEqualTypeOf<Readonly<Session>>()
  })
})

describe('middleware: notifications', () => {
  it('shows every notification to each notification hook after the bookkeeping; one that throws is logged and the rest go on', async () => {
    const seen: string[] = []
    const logged: string[] = []
    const error = console.error
    console.error = (line: string) => void logged.push(line)
    try {
      const server = serverWith([
        { notification: () => {
          throw new Error('observer down')
        } },
        { notification: (n) => void seen.push(`${n.method} ${JSON.stringify(n.params ?? null)} ${n.session.initialized}`) },
      ])
      const session = newSession()
      const out = await server.dispatch({ jsonrpc: '2.0', method: 'notifications/initialized' }, session)()
      expect(out._tag).toBe('None')
      await server.dispatch({ jsonrpc: '2.0', method: 'notifications/whatever', params: { a: 1 } }, session)()
      // a notification is never answered, and the server still answers requests
      expect(JSON.parse(JSON.stringify(await server.dispatch({ jsonrpc: '2.0', id: 1, method: 'ping' }, session)())).value).toEqual({ jsonrpc: '2.0', id: 1, result: {} })
      expect(seen).toEqual(['notifications/initialized null true', 'notifications/whatever {"a":1} true'])
      expect(logged).toHaveLength(2)
      expect(logged[0]).toMatch(/middleware notification step 1 threw on notifications\/initialized: observer down/)
    } finally {
      console.error = error
    }
  })

  it('sees the official SDK client’s initialized and cancelled notifications over an HTTP session', async () => {
    const { Client } = await import('@modelcontextprotocol/sdk/client/index.js')
    const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js')
    const notes: Array<{ method: string; session: string | undefined; requestId: unknown }> = []
    let cancelled!: () => void
    const heard = new Promise<void>((resolve) => (cancelled = resolve))
    const watch: Middleware = {
      notification: (n) => {
        notes.push({ method: n.method, session: n.session.id, requestId: n.params?.requestId })
        if (n.method === 'notifications/cancelled') cancelled()
      },
    }
    let running!: () => void
    const started = new Promise<void>((resolve) => (running = resolve))
    const slow = emcp({ name: 'slow', description: 'Waits for its cancellation.', input: { type: 'object' } })
    const server = mcpServer([slow], { name: 'notes', version: '1' }, { middleware: [watch] }).implement({
      slow: (_args, ctx) => {
        running()
        return new Promise<string>((resolve) => ctx.signal.addEventListener('abort', () => resolve('stopped')))
      },
    })
    const http = await serveHttp(server, { port: 0, sessions: true, handleSignals: false })
    const client = new Client({ name: 'sdk', version: '1' })
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(http.url)))
      const abort = new AbortController()
      const call = client.callTool({ name: 'slow', arguments: {} }, undefined, { signal: abort.signal }).catch((e: unknown) => e)
      await started
      abort.abort('enough')
      await call
      await heard
      expect(notes[0]).toMatchObject({ method: 'notifications/initialized' })
      expect(notes.at(-1)).toMatchObject({ method: 'notifications/cancelled' })
      expect(typeof notes[0]?.session).toBe('string')
      expect(notes.every((n) => n.session === notes[0]?.session)).toBe(true)
    } finally {
      await client.close()
      await http.close()
    }
  })
})

describe('middleware: the examples', () => {
  it('rateLimit refuses a caller past its limit within a window, counts callers apart, and forgets at the next window', async () => {
    const clock = { t: 0 }
    const server = mcpServer([add], { name: 'rl', version: '1' }, { middleware: [rateLimit({ limit: 2, windowMs: 1000, now: () => clock.t })] }).implement({
      add: ({ a, b }) => ({ sum: a + b }),
    })
    const ann = inMemoryClient(server)
    await ann.call('add', { a: 1, b: 1 }) // initialize was the first request of this client
    const refused = await ann.call('add', { a: 1, b: 1 }).catch((e: unknown) => e)
    expect(refused).toMatchObject({ code: -32000, data: { retryAfterMs: 1000 } })
    expect((refused as Error).message).toMatch(/Too many requests: 2 per 1000 ms for anonymous/)
    // another caller has a count of its own
    const bob = Object.assign(newSession(), { identity: { subject: 'bob', roles: [] } })
    const ping = async () => JSON.parse(JSON.stringify(await server.dispatch({ jsonrpc: '2.0', id: 9, method: 'ping' }, bob)())).value
    expect(await ping()).toEqual({ jsonrpc: '2.0', id: 9, result: {} })
    expect(await ping()).toEqual({ jsonrpc: '2.0', id: 9, result: {} })
    expect((await ping()).error).toMatchObject({ code: -32000, message: expect.stringMatching(/for bob/) })
    clock.t = 1000
    expect(await ann.call('add', { a: 2, b: 2 })).toEqual({ sum: 4 })
  })

  it('logCalls writes one line per call with the caller, the tool, how it ended and how long it took', async () => {
    const lines: string[] = []
    const client = inMemoryClient(serverWith([logCalls((l) => lines.push(l))]))
    await client.call('add', { a: 1, b: 2 })
    await client.callResult('boom', {})
    await client.request('tools/call', { name: 'add', arguments: { a: 'x' } })
    expect(lines).toHaveLength(3)
    expect(lines[0]).toMatch(/^\d{4}-\d\d-\d\dT\S+Z anonymous tools\/call add ok \d+\.\d ms$/)
    expect(lines[1]).toMatch(/ anonymous tools\/call boom failed /)
    expect(lines[2]).toMatch(/ tools\/call add failed /)
  })

  describe('over HTTP (stateless, both eras)', () => {
    let running: RunningHttp
    beforeAll(async () => {
      running = await serveHttp(limited, { port: 0 })
    })
    afterAll(() => running.close())

    const post = async (body: object, extra: Record<string, string> = {}) =>
      (await fetch(running.url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...extra }, body: JSON.stringify(body) })).json()

    it('the example server answers through its middleware in both eras', async () => {
      const legacy = await post({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'add', arguments: { a: 1, b: 2 } } }, { 'mcp-protocol-version': '2025-11-25' })
      expect(legacy.result.structuredContent).toEqual({ sum: 3 })
      const meta = { 'io.modelcontextprotocol/protocolVersion': modern, 'io.modelcontextprotocol/clientCapabilities': {} }
      const r = await post(
        { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'add', arguments: { a: 2, b: 2 }, _meta: meta } },
        { 'mcp-protocol-version': modern, 'mcp-method': 'tools/call', 'mcp-name': 'add' },
      )
      expect(r.result).toMatchObject({ resultType: 'complete', structuredContent: { sum: 4 } })
    })
  })
})
