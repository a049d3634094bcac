/**
 * Streamable HTTP under 2026-07-28 through the Web-standard handler: headers that mirror the
 * body (400 with -32020 when they do not), `x-mcp-header` parameters, no sessions, status
 * codes of the modern errors, SSE answers, and `subscriptions/listen`. Test names quote the
 * specification's MUSTs.
 */
import { describe, expect, it } from 'vitest'
import { emcp, mcpServer, type Server } from '../../../src/index.js'
import { serveHttp, toFetchHandler } from '../../../src/transport/http.js'
import { parseSse } from '../../support/sse.js'
import { until } from '../../interop/children.js'

const V = '2026-07-28'
const meta = (extra: Record<string, unknown> = {}) => ({
  'io.modelcontextprotocol/protocolVersion': V,
  'io.modelcontextprotocol/clientCapabilities': {},
  ...extra,
})

const sql = emcp({
  name: 'execute_sql',
  description: 'Run a query in a region.',
  input: {
    type: 'object',
    properties: {
      region: { type: 'string', 'x-mcp-header': 'Region' },
      shard: { type: 'integer', 'x-mcp-header': 'Shard' },
      dry: { type: 'boolean', 'x-mcp-header': 'Dry' },
      query: { type: 'string' },
    },
    required: ['query'],
  },
})
const talk = emcp({ name: 'talk', description: 'Logs, then answers.', input: { type: 'object' } })
const hold = emcp({ name: 'hold', description: 'Waits until cancelled.', input: { type: 'object' } })
const held: string[] = []

const build = (sessions = false, keepAliveMs?: number) => {
  const server = mcpServer([sql, talk, hold], { name: 'h26', version: '1.0.0' }).implement({
    execute_sql: ({ region, query }) => `${region ?? 'anywhere'}: ${query}`,
    talk: async (_a, ctx) => {
      ctx.log('info', 'thinking')
      await new Promise((r) => setTimeout(r, 5))
      return 'said'
    },
    hold: async (_a, ctx) => {
      ctx.log('info', 'holding')
      await new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve(), { once: true }))
      held.push(String(ctx.signal.reason))
      return 'released'
    },
  }) as unknown as Server
  return { server, handler: toFetchHandler(server, { sessions, keepAliveMs }) }
}

let id = 1
const post = (handler: (r: Request) => Promise<Response>, body: unknown, headers: Record<string, string | undefined>, signal?: AbortSignal) =>
  handler(
    new Request('http://127.0.0.1/mcp', {
      method: 'POST',
      body: JSON.stringify(body),
      signal,
      headers: Object.fromEntries(
        Object.entries({ 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }).filter(([, v]) => v !== undefined),
      ) as Record<string, string>,
    }),
  )

const callSql = (handler: (r: Request) => Promise<Response>, args: Record<string, unknown>, headers: Record<string, string | undefined> = {}) =>
  post(
    handler,
    { jsonrpc: '2.0', id: id++, method: 'tools/call', params: { name: 'execute_sql', arguments: args, _meta: meta() } },
    { 'mcp-protocol-version': V, 'mcp-method': 'tools/call', 'mcp-name': 'execute_sql', ...headers },
  )

describe('2026-07-28 HTTP: standard request headers', () => {
  const { handler } = build()

  it('answers a request whose headers match its body', async () => {
    const r = await callSql(handler, { region: 'us-west1', query: 'SELECT 1' }, { 'mcp-param-region': 'us-west1' })
    expect(r.status).toBe(200)
    const body = await r.json()
    expect(body.result).toMatchObject({ resultType: 'complete', content: [{ type: 'text', text: 'us-west1: SELECT 1' }] })
  })

  it.each([
    ['a missing Mcp-Method', { 'mcp-method': undefined }],
    ['an Mcp-Method that differs from the body', { 'mcp-method': 'tools/list' }],
    ['a missing Mcp-Name on tools/call', { 'mcp-name': undefined }],
    ['an Mcp-Name that differs from params.name', { 'mcp-name': 'drop_tables' }],
    ['an MCP-Protocol-Version that differs from _meta', { 'mcp-protocol-version': '2025-11-25' }],
    ['a missing MCP-Protocol-Version', { 'mcp-protocol-version': undefined }],
  ])('servers MUST reject %s with 400 Bad Request and -32020 (HeaderMismatch)', async (_what, headers) => {
    const r = await callSql(handler, { query: 'SELECT 1' }, headers)
    expect(r.status).toBe(400)
    expect((await r.json()).error.code).toBe(-32020)
  })

  it('servers MUST decode an encoded Mcp-Name (=?base64?...?=) before comparing it to the body', async () => {
    const r = await callSql(handler, { query: 'SELECT 1' }, { 'mcp-name': `=?base64?${Buffer.from('execute_sql').toString('base64')}?=` })
    expect(r.status).toBe(200)
  })

  it('Mcp-Name mirrors params.taskId for tasks/get (the tasks extension)', async () => {
    const r = await post(
      handler,
      { jsonrpc: '2.0', id: id++, method: 'tasks/get', params: { taskId: 't-1', _meta: meta() } },
      { 'mcp-protocol-version': V, 'mcp-method': 'tasks/get' },
    )
    expect(r.status).toBe(400)
    expect((await r.json()).error).toMatchObject({ code: -32020, message: expect.stringMatching(/Mcp-Name/) })
  })

  it('Mcp-Name mirrors params.uri for resources/read', async () => {
    const r = await post(
      handler,
      { jsonrpc: '2.0', id: id++, method: 'resources/read', params: { uri: 'a://b', _meta: meta() } },
      { 'mcp-protocol-version': V, 'mcp-method': 'resources/read', 'mcp-name': 'a://c' },
    )
    expect(r.status).toBe(400)
    expect((await r.json()).error.message).toMatch(/uri/)
  })
})

describe('2026-07-28 HTTP: x-mcp-header parameters', () => {
  const { handler } = build()
  const reject = async (args: Record<string, unknown>, headers: Record<string, string>) => {
    const r = await callSql(handler, { query: 'q', ...args }, headers)
    expect(r.status).toBe(400)
    return ((await r.json()) as { error: { code: number; message: string } }).error
  }

  it('a value in the body whose header is missing: the server MUST reject the request', async () => {
    expect((await reject({ region: 'eu' }, {})).code).toBe(-32020)
  })

  it('servers MUST validate that header values, after decoding, match the body', async () => {
    expect((await reject({ region: 'eu' }, { 'mcp-param-region': 'us' })).message).toMatch(/Mcp-Param-Region/)
    const ok = await callSql(handler, { region: 'Hello, 世界', query: 'q' }, { 'mcp-param-region': `=?base64?${Buffer.from('Hello, 世界').toString('base64')}?=` })
    expect(ok.status).toBe(200)
  })

  it('integers compare as numbers (42.0 and 42 are equal), booleans as true/false', async () => {
    expect((await callSql(handler, { shard: 42, dry: true, query: 'q' }, { 'mcp-param-shard': '42.0', 'mcp-param-dry': 'true' })).status).toBe(200)
    expect((await reject({ shard: 42 }, { 'mcp-param-shard': '43' })).code).toBe(-32020)
    expect((await reject({ dry: false }, { 'mcp-param-dry': 'true' })).code).toBe(-32020)
  })

  it('a null or absent parameter: the server MUST NOT expect the header (and one sent anyway does not match)', async () => {
    expect((await callSql(handler, { region: null, query: 'q' })).status).toBe(200)
    expect((await reject({}, { 'mcp-param-region': 'eu' })).code).toBe(-32020)
  })

  it('servers MUST reject a recognised Mcp-Param header with invalid characters', async () => {
    expect((await reject({ region: 'eu' }, { 'mcp-param-region': '=?base64?not base64!?=' })).message).toMatch(/invalid/)
  })

  it('refuses to build a tool whose x-mcp-header annotations are invalid', () => {
    const bad = (properties: Record<string, unknown>) =>
      mcpServer([emcp({ name: 'bad', description: 'Bad.', input: { type: 'object', properties } as { readonly type: 'object' } })], { name: 'b', version: '1' }).implement({ bad: () => 'x' } as never)
    expect(() => bad({ n: { type: 'number', 'x-mcp-header': 'N' } })).toThrow(/string, integer or boolean/)
    expect(() => bad({ a: { type: 'string', 'x-mcp-header': 'Same' }, b: { type: 'string', 'x-mcp-header': 'same' } })).toThrow(/used twice/)
    expect(() => bad({ a: { type: 'string', 'x-mcp-header': 'with space' } })).toThrow(/HTTP token/)
    expect(() => bad({ a: { type: 'array', items: { type: 'string', 'x-mcp-header': 'Item' } } })).toThrow(/reached through "properties" alone/)
    expect(() => bad({ a: { type: 'object', properties: { b: { type: 'string', 'x-mcp-header': 'Nested' } } } })).not.toThrow()
  })
})

describe('2026-07-28 HTTP: statelessness and status codes', () => {
  it('needs no session even in stateful mode: an Mcp-Session-Id is ignored and none is minted', async () => {
    const { handler } = build(true)
    const r = await callSql(handler, { query: 'q' }, { 'mcp-session-id': 'made-up' })
    expect(r.status).toBe(200)
    expect(r.headers.get('mcp-session-id')).toBeNull()
  })

  it('a version the server does not implement: 400 and UnsupportedProtocolVersionError listing the supported versions', async () => {
    const { handler } = build()
    const r = await post(
      handler,
      { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: meta({ 'io.modelcontextprotocol/protocolVersion': '2099-01-01' }) } },
      { 'mcp-protocol-version': '2099-01-01', 'mcp-method': 'tools/list' },
    )
    expect(r.status).toBe(400)
    const body = await r.json()
    expect(body.error.code).toBe(-32022)
    expect(body.error.data.supported).toContain('2026-07-28')
  })

  it('a method the server does not implement: 404 and -32601', async () => {
    const { handler } = build()
    const r = await post(handler, { jsonrpc: '2.0', id: 1, method: 'nope/nothing', params: { _meta: meta() } }, { 'mcp-protocol-version': V, 'mcp-method': 'nope/nothing' })
    expect(r.status).toBe(404)
    expect((await r.json()).error.code).toBe(-32601)
  })

  it('a request missing a required _meta field: -32602 and on HTTP the status MUST be 400', async () => {
    const { handler } = build()
    const r = await post(
      handler,
      { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': V } } },
      { 'mcp-protocol-version': V, 'mcp-method': 'tools/list' },
    )
    expect(r.status).toBe(400)
    expect((await r.json()).error.code).toBe(-32602)
    const bare = await post(handler, { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} }, { 'mcp-protocol-version': V, 'mcp-method': 'tools/list' })
    expect(bare.status).toBe(400)
    expect((await bare.json()).error.code).toBe(-32602)
  })

  it('a 2025-11-25 client on the same endpoint is served as before', async () => {
    const { handler } = build()
    const r = await post(
      handler,
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } } },
      {},
    )
    expect((await r.json()).result.protocolVersion).toBe('2025-11-25')
  })
})

/** Reads SSE events off a response as they come. */
const events = (r: Response) => {
  const reader = (r.body as ReadableStream<Uint8Array>).getReader()
  const decoder = new TextDecoder()
  let text = ''
  const seen: unknown[] = []
  return {
    next: async (count: number): Promise<unknown[]> => {
      while (seen.length < count) {
        const { done, value } = await reader.read()
        if (done) break
        text += decoder.decode(value, { stream: true })
        const end = text.lastIndexOf('\n\n')
        if (end === -1) continue
        for (const e of parseSse(text.slice(0, end + 2))) if (e.data !== undefined && e.data !== '') seen.push(JSON.parse(e.data))
        text = text.slice(end + 2)
      }
      return seen.splice(0, count)
    },
    cancel: () => reader.cancel(),
  }
}

describe('2026-07-28 HTTP: streams', () => {
  it('subscriptions/listen is one long-lived SSE stream: acknowledged first, then the notifications opted in to, tagged with the subscription id', async () => {
    const { server, handler } = build()
    const controller = new AbortController()
    const r = await post(
      handler,
      { jsonrpc: '2.0', id: 'listen-1', method: 'subscriptions/listen', params: { _meta: meta(), notifications: { toolsListChanged: true, promptsListChanged: true } } },
      { 'mcp-protocol-version': V, 'mcp-method': 'subscriptions/listen' },
      controller.signal,
    )
    expect(r.headers.get('content-type')).toBe('text/event-stream')
    const stream = events(r)
    const [ack] = await stream.next(1)
    expect(ack).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/subscriptions/acknowledged',
      params: { notifications: { toolsListChanged: true }, _meta: { 'io.modelcontextprotocol/subscriptionId': 'listen-1' } },
    })
    expect(server.hub.size()).toBe(1)
    server.disableTool('talk')
    expect(await stream.next(1)).toEqual([
      { jsonrpc: '2.0', method: 'notifications/tools/list_changed', params: { _meta: { 'io.modelcontextprotocol/subscriptionId': 'listen-1' } } },
    ])
    await stream.cancel()
    controller.abort()
    await until(() => server.hub.size() === 0, 'the subscription to leave the hub', 15_000)
  })

  it('a call asking for log messages is answered as an SSE stream: its notifications, then its response', async () => {
    const { handler } = build()
    const r = await post(
      handler,
      { jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'talk', arguments: {}, _meta: meta({ 'io.modelcontextprotocol/logLevel': 'info' }) } },
      { 'mcp-protocol-version': V, 'mcp-method': 'tools/call', 'mcp-name': 'talk' },
    )
    const raw = parseSse(await r.text())
    // 2026-07-28 streams cannot be resumed: no event ids, no priming event
    expect(raw.every((e) => e.id === undefined)).toBe(true)
    const all = raw.flatMap((e) => (e.data === undefined || e.data === '' ? [] : [JSON.parse(e.data)]))
    expect(all.map((m) => m.method ?? 'response')).toEqual(['notifications/message', 'response'])
    expect(all[1].result).toMatchObject({ resultType: 'complete', content: [{ text: 'said' }] })
  })
})

describe('2026-07-28 HTTP: keep-alive', () => {
  it('a quiet subscriptions/listen stream gets SSE comment lines, which carry no event', async () => {
    const { handler } = build(false, 20)
    const controller = new AbortController()
    const r = await post(
      handler,
      { jsonrpc: '2.0', id: 'k', method: 'subscriptions/listen', params: { _meta: meta(), notifications: {} } },
      { 'mcp-protocol-version': V, 'mcp-method': 'subscriptions/listen' },
      controller.signal,
    )
    const reader = (r.body as ReadableStream<Uint8Array>).getReader()
    let text = ''
    while (!text.includes(':\n\n')) text += new TextDecoder().decode((await reader.read()).value)
    expect(parseSse(text).filter((e) => e.data !== undefined).map((e) => JSON.parse(e.data as string).method)).toEqual(['notifications/subscriptions/acknowledged'])
    controller.abort()
    await reader.cancel().catch(() => {})
  })
})

describe('2026-07-28 HTTP: cancellation', () => {
  it('closing the SSE response stream MUST be treated by the server as cancellation of that request', async () => {
    const { handler } = build()
    const controller = new AbortController()
    const r = await post(
      handler,
      { jsonrpc: '2.0', id: 'h', method: 'tools/call', params: { name: 'hold', arguments: {}, _meta: meta({ 'io.modelcontextprotocol/logLevel': 'info' }) } },
      { 'mcp-protocol-version': V, 'mcp-method': 'tools/call', 'mcp-name': 'hold' },
      controller.signal,
    )
    const stream = events(r)
    expect(await stream.next(1)).toMatchObject([{ method: 'notifications/message', params: { data: 'holding' } }])
    controller.abort()
    await stream.cancel().catch(() => {})
    await until(() => held.length > 0, 'the handler to see the stream closed', 15_000)
    expect(held).toEqual(['the client closed the stream'])
  })
})

describe('2026-07-28 HTTP: shutdown', () => {
  it('when the server ends a subscription it SHOULD respond to subscriptions/listen with a completion result before closing the stream', async () => {
    const { server } = build()
    const running = await serveHttp(server, { port: 0 })
    const r = await fetch(running.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': V, 'mcp-method': 'subscriptions/listen' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 'bye', method: 'subscriptions/listen', params: { _meta: meta(), notifications: { toolsListChanged: true } } }),
    })
    const stream = events(r)
    expect(await stream.next(1)).toHaveLength(1)
    const closed = running.close()
    expect(await stream.next(1)).toEqual([
      {
        jsonrpc: '2.0',
        id: 'bye',
        result: { _meta: { 'io.modelcontextprotocol/subscriptionId': 'bye', 'io.modelcontextprotocol/serverInfo': { name: 'h26', version: '1.0.0' } }, resultType: 'complete' },
      },
    ])
    await closed
    expect(server.hub.size()).toBe(0)
  })
})
