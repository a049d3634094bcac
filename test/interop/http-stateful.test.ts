/**
 * The official SDK client (@modelcontextprotocol/sdk 1.x, StreamableHTTPClientTransport)
 * against stateful Streamable HTTP: the built conformance server (examples/everything.ts,
 * `PORT=<free> node dist/examples/everything.js`) as a child process on 127.0.0.1, and an
 * in-process server for what needs the server's hand (adding a tool). Checks the session id,
 * progress, logging, sampling and elicitation over the POST streams, list_changed over the
 * GET stream, and DELETE through terminateSession.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  LoggingMessageNotificationSchema,
  ToolListChangedNotificationSchema,
  type CreateMessageRequest,
  type ElicitRequest,
  type ElicitResult,
  type LoggingMessageNotification,
  type Progress,
} from '@modelcontextprotocol/sdk/types.js'
import { emcp, mcpServer } from '../../src/index.js'
import { serveHttp, type RunningHttp } from '../../src/transport/http.js'
import { delay, example, spawnListening, stop, texts, until, type Listening } from './children.js'

// ---------------------------------------------------------------------------------------
// helpers


/** One HTTP exchange as the client's transport made it. */
interface Exchange {
  readonly method: string
  readonly sessionId: string | null
  readonly lastEventId: string | null
  readonly body: string | undefined
  status?: number
  contentType?: string | null
}

/** A fetch that records what the transport sends and what it gets back. */
const recordingFetch = (log: Exchange[]) => async (url: string | URL, init?: RequestInit): Promise<Response> => {
  const headers = new Headers(init?.headers)
  const exchange: Exchange = {
    method: init?.method ?? 'GET',
    sessionId: headers.get('mcp-session-id'),
    lastEventId: headers.get('last-event-id'),
    body: typeof init?.body === 'string' ? init.body : undefined,
  }
  log.push(exchange)
  const res = await fetch(url, init)
  exchange.status = res.status
  exchange.contentType = res.headers.get('content-type')
  return res
}

/** `PORT=<port> node dist/examples/everything.js`, once it prints its URL. */
const startEverything = (): Promise<Listening> => spawnListening(example('everything'), () => [], (port) => ({ PORT: String(port) }))

type Log = LoggingMessageNotification['params']
type ElicitAnswer = (request: ElicitRequest) => ElicitResult

const MODEL = 'interop-stateful-model'

// ---------------------------------------------------------------------------------------
// the conformance server as a child process

describe('everything example over stateful Streamable HTTP, official SDK client', () => {
  let server: Awaited<ReturnType<typeof startEverything>>
  let client: Client
  let transport: StreamableHTTPClientTransport
  const exchanges: Exchange[] = []
  const logs: Log[] = []
  const samplingRequests: CreateMessageRequest[] = []
  const elicitRequests: ElicitRequest[] = []
  const clientErrors: Error[] = []
  let answerElicit: ElicitAnswer

  beforeAll(async () => {
    server = await startEverything()
    client = new Client({ name: 'emcp-interop-stateful', version: '0.0.0' }, { capabilities: { sampling: {}, elicitation: { form: {} } } })
    client.setRequestHandler(CreateMessageRequestSchema, async (request) => {
      samplingRequests.push(request)
      const first = request.params.messages[0]?.content
      const prompt = first !== undefined && !Array.isArray(first) && first.type === 'text' ? first.text : '?'
      return { role: 'assistant', content: { type: 'text', text: `an answer to "${prompt}"` }, model: MODEL, stopReason: 'endTurn' }
    })
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      elicitRequests.push(request)
      return answerElicit(request)
    })
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
      logs.push(n.params)
    })
    client.onerror = (e) => {
      clientErrors.push(e)
    }
    transport = new StreamableHTTPClientTransport(new URL(server.url), {
      fetch: recordingFetch(exchanges),
      // a lost stream is retried once, soon, so that nothing outlives the test
      reconnectionOptions: { initialReconnectionDelay: 50, maxReconnectionDelay: 100, reconnectionDelayGrowFactor: 1, maxRetries: 1 },
    })
    await client.connect(transport)
  })

  afterAll(async () => {
    await client?.close().catch(() => {})
    if (server !== undefined) await stop(server.child, server.exited, 'SIGTERM')
  })

  beforeEach(() => {
    answerElicit = () => ({ action: 'cancel' })
  })

  it('gets a session id on initialize and sends it with every later request', async () => {
    const sid = transport.sessionId
    expect(sid).toMatch(/^[\x21-\x7e]+$/)
    await client.listTools()
    const [init, ...later] = exchanges
    expect(init).toMatchObject({ method: 'POST', sessionId: null, status: 200, contentType: 'application/json' })
    expect(init?.body).toContain('"initialize"')
    expect(later.length).toBeGreaterThan(0)
    for (const e of later) expect(e.sessionId).toBe(sid)
  })

  it('opens the standalone GET stream after notifications/initialized', async () => {
    await until(() => exchanges.some((e) => e.method === 'GET' && e.status !== undefined), 'the GET stream')
    const get = exchanges.find((e) => e.method === 'GET')
    expect(get).toMatchObject({ sessionId: transport.sessionId, status: 200, contentType: 'text/event-stream' })
    expect(client.getServerCapabilities()).toMatchObject({ tools: { listChanged: true }, logging: {} })
  })

  it('progress: notifications reach onprogress, increasing, from the POST stream of the call', async () => {
    const seen: Progress[] = []
    const errorsBefore = clientErrors.length
    const from = exchanges.length
    const r = await client.callTool({ name: 'test_tool_with_progress', arguments: {} }, undefined, { onprogress: (p) => seen.push(p) })
    expect(r.isError ?? false).toBe(false)
    expect(texts(r.content)[0]).toMatch(/^progress token: \S+/)
    const post = exchanges.slice(from).find((e) => e.method === 'POST' && (e.body ?? '').includes('test_tool_with_progress'))
    expect(post).toMatchObject({ status: 200, contentType: 'text/event-stream' })
    // the SDK may report the last one, written just before the response, as late
    // (modelcontextprotocol/typescript-sdk#2580): what arrived is a prefix of 0, 50, 100
    const late = clientErrors
      .slice(errorsBefore)
      .filter((e) => /unknown token/.test(e.message))
      .map((e) => (JSON.parse(/: (\{.*\})$/s.exec(e.message)?.[1] ?? '{}') as { params?: { progress?: number } }).params?.progress)
    const progress = seen.map((p) => p.progress)
    expect(progress.length).toBeGreaterThanOrEqual(2)
    expect([...progress, ...late]).toEqual([0, 50, 100])
    expect(seen.every((p) => p.total === 100)).toBe(true)
    expect(seen[0]?.message).toBe('Completed step 0 of 100')
  })

  it('logging: messages arrive after setLoggingLevel(info), and none above the level set later', async () => {
    await client.setLoggingLevel('info')
    const r = await client.callTool({ name: 'test_tool_with_logging', arguments: {} })
    expect(texts(r.content)).toEqual(['Tool with logging executed successfully'])
    await until(() => logs.length >= 3, 'three log messages')
    expect(logs.map((l) => [l.level, l.data])).toEqual([
      ['info', 'Tool execution started'],
      ['info', 'Tool processing data'],
      ['info', 'Tool execution completed'],
    ])
    await client.setLoggingLevel('warning')
    await client.callTool({ name: 'test_tool_with_logging', arguments: {} })
    await client.ping()
    await delay(20)
    expect(logs).toHaveLength(3)
  })

  it('sampling: the request reaches the client and its answer reaches the tool result', async () => {
    const r = await client.callTool({ name: 'test_sampling', arguments: { prompt: 'What is 2+2?' } })
    expect(r.isError ?? false).toBe(false)
    expect(texts(r.content)).toEqual(['LLM response: an answer to "What is 2+2?"'])
    expect(samplingRequests).toHaveLength(1)
    expect(samplingRequests[0]?.params).toMatchObject({ maxTokens: 100, messages: [{ role: 'user', content: { type: 'text', text: 'What is 2+2?' } }] })
  })

  it('elicitation: the form reaches the client and its answer reaches the tool result', async () => {
    answerElicit = () => ({ action: 'accept', content: { username: 'ada', email: 'ada@example.com' } })
    const r = await client.callTool({ name: 'test_elicitation', arguments: { message: 'Who are you?' } })
    expect(r.isError ?? false).toBe(false)
    expect(texts(r.content)).toEqual(['User response: action=accept, content={"username":"ada","email":"ada@example.com"}'])
    expect(elicitRequests).toHaveLength(1)
    const params = elicitRequests[0]?.params
    expect(params?.message).toBe('Who are you?')
    expect(params !== undefined && 'requestedSchema' in params ? params.requestedSchema : undefined).toMatchObject({
      type: 'object',
      required: ['username', 'email'],
    })
  })

  it('elicitation declined: the action reaches the tool result', async () => {
    answerElicit = () => ({ action: 'decline' })
    const r = await client.callTool({ name: 'test_elicitation', arguments: { message: 'Again?' } })
    expect(texts(r.content)).toEqual(['User response: action=decline, content={}'])
  })

  it('no client errors so far other than late progress', () => {
    expect(clientErrors.map((e) => e.message).filter((m) => !/unknown token/.test(m))).toEqual([])
  })

  it('terminateSession sends DELETE and ends the session: a later request with its id gets 404, the client fails', async () => {
    const sid = transport.sessionId as string
    const from = exchanges.length
    await transport.terminateSession()
    expect(exchanges.slice(from).find((e) => e.method === 'DELETE')).toMatchObject({ sessionId: sid, status: 200 })
    expect(transport.sessionId).toBeUndefined()
    const res = await fetch(server.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': sid },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    })
    expect(res.status).toBe(404)
    await res.text()
    // the SDK forgot the id after DELETE: the server refuses a request without one
    const before = exchanges.length
    await expect(client.listTools()).rejects.toThrow(/Streamable HTTP error/)
    expect(exchanges.slice(before).find((e) => e.method === 'POST')?.status).toBe(400)
  })

  it('the server stops cleanly on SIGTERM', async () => {
    await client.close()
    expect(await stop(server.child, server.exited, 'SIGTERM'), server.output()).toEqual({ code: 0, signal: null })
  })
})

// ---------------------------------------------------------------------------------------
// an in-process server: the GET stream carries what the server sends on its own

describe('stateful serveHttp in process, official SDK client: notifications on the GET stream', () => {
  const ping = emcp({ name: 'ping_tool', description: 'Answer pong.', input: { type: 'object' } })
  const server = mcpServer([ping], { name: 'in-process', version: '1' }).implement({ ping_tool: () => 'pong' })
  let running: RunningHttp
  let client: Client
  let transport: StreamableHTTPClientTransport
  const exchanges: Exchange[] = []
  let changes = 0

  beforeAll(async () => {
    running = await serveHttp(server, { port: 0, sessions: true })
    client = new Client({ name: 'emcp-interop-stateful', version: '0.0.0' })
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      changes++
    })
    transport = new StreamableHTTPClientTransport(new URL(running.url), {
      fetch: recordingFetch(exchanges),
      reconnectionOptions: { initialReconnectionDelay: 50, maxReconnectionDelay: 100, reconnectionDelayGrowFactor: 1, maxRetries: 1 },
    })
    await client.connect(transport)
  })

  afterAll(async () => {
    await client?.close().catch(() => {})
    await running?.close()
  })

  it('tools/list_changed reaches the client when a tool is added, and the new tool is listed', async () => {
    await until(() => exchanges.some((e) => e.method === 'GET' && e.status === 200), 'the GET stream')
    server.addTool(emcp({ name: 'late_tool', description: 'Added later.', input: { type: 'object' } }), () => 'late')
    await until(() => changes === 1, 'notifications/tools/list_changed')
    const { tools } = await client.listTools()
    expect(tools.map((t) => t.name)).toEqual(['ping_tool', 'late_tool'])
    const r = await client.callTool({ name: 'late_tool', arguments: {} })
    expect(texts(r.content)).toEqual(['late'])
  })

  it('terminateSession ends the session on the server', async () => {
    const sid = transport.sessionId as string
    expect(sid).toMatch(/^[\x21-\x7e]+$/)
    await transport.terminateSession()
    const res = await fetch(running.url, { method: 'DELETE', headers: { 'mcp-session-id': sid } })
    expect(res.status).toBe(404)
    await res.text()
  })
})
