/**
 * Both eras against the built eras example (examples/eras.ts): the official 2026 client
 * (@modelcontextprotocol/client 2.4.0) negotiates 2026-07-28 over stdio and HTTP and drives
 * an input_required round trip through its own elicitation handler, next to the 1.32.2 client
 * on the same example; then two server processes behind a round-robin proxy of this test,
 * where the retry of a 2026 call lands on the other process and succeeds.
 */
import { createServer, request as httpRequest, type IncomingMessage, type Server as NodeServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Client as Client2026, StreamableHTTPClientTransport as Http2026 } from '@modelcontextprotocol/client'
import { StdioClientTransport as Stdio2026 } from '@modelcontextprotocol/client/stdio'
import { Client as Client2025 } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport as Http2025 } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js'
import { connectStdio, emcpBin, example, spawnListening, stop, texts, until, type Listening } from './children.js'

const script = example('eras')

/** A 2026 client that answers elicitation forms with `name`, counting the questions. */
const modernClient = (name = 'Ada') => {
  const client = new Client2026({ name: 'emcp-interop-2026', version: '0.0.0' }, { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: 'auto' } })
  const asked: string[] = []
  client.setRequestHandler('elicitation/create', async (req) => {
    asked.push(String((req.params as { message?: unknown }).message))
    return { action: 'accept', content: { name } }
  })
  return { client, asked }
}

/** A 1.32.2 client that answers elicitation forms with `name`. */
const legacyClient = (name = 'Lin') => {
  const client = new Client2025({ name: 'emcp-interop-2025', version: '0.0.0' }, { capabilities: { elicitation: { form: {} } } })
  client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content: { name } }))
  return client
}

/** Opens a subscription to eras://notes, adds a note, and returns what arrived and how the subscription was acknowledged. */
const listenToNotes = async (client: Client2026) => {
  const updates: string[] = []
  client.setNotificationHandler('notifications/resources/updated', (n) => {
    updates.push(n.params.uri)
  })
  const sub = await client.listen({ resourceSubscriptions: ['eras://notes'], promptsListChanged: true })
  await client.callTool({ name: 'note', arguments: { text: 'first' } })
  await until(() => updates.length > 0, 'notifications/resources/updated on the subscription')
  await sub.close()
  return { updates, honoured: sub.honoredFilter, closed: await sub.closed }
}

describe('eras example over stdio', () => {
  it('the 2026 client negotiates 2026-07-28 (server/discover) and completes an input_required round trip through its elicitation handler', async () => {
    const { client, asked } = modernClient()
    await client.connect(new Stdio2026({ command: process.execPath, args: [script], stderr: 'pipe' }))
    try {
      expect(client.getProtocolEra()).toBe('modern')
      expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28')
      expect(client.getServerVersion()).toMatchObject({ name: 'eras', version: '1.0.0' })
      expect(client.getInstructions()).toMatch(/greet/)
      const { tools } = await client.listTools()
      expect(tools.map((t) => t.name)).toEqual(['greet', 'forecast', 'era', 'primes', 'note'])
      expect(tools.find((t) => t.name === 'primes')?.outputSchema).toEqual({ type: 'array', items: { type: 'integer' } })
      // a structured result that is not an object, validated by the client against that schema
      const small = await client.callTool({ name: 'primes', arguments: { below: 12 } })
      expect(small.structuredContent).toEqual([2, 3, 5, 7, 11])
      const eraResult = await client.callTool({ name: 'era', arguments: {} })
      expect(eraResult.structuredContent).toEqual({ protocolVersion: '2026-07-28' })
      const greeting = await client.callTool({ name: 'greet', arguments: { greeting: 'Hi' } })
      expect(greeting.isError).not.toBe(true)
      expect((greeting.structuredContent as { greeting: string }).greeting).toBe('Hi, Ada!')
      expect(asked).toEqual(['What is your name?'])
      const about = await client.readResource({ uri: 'eras://about' })
      expect(about.contents[0]).toMatchObject({ text: 'Served to both protocol eras.' })
      const chat = await client.getPrompt({ name: 'weather_chat', arguments: { region: 'eu-north' } })
      expect(chat.messages[0]?.content).toMatchObject({ text: 'How is the weather in eu-north?' })
      // subscriptions/listen: acknowledged with what the server honours, then the updates opted in to
      const heard = await listenToNotes(client)
      expect(heard.honoured).toEqual({ resourceSubscriptions: ['eras://notes'], promptsListChanged: true })
      expect(heard.updates).toEqual(['eras://notes'])
      expect(heard.closed).toBe('local')
    } finally {
      await client.close()
    }
  })

  it('the 1.32.2 client on the same example speaks 2025-11-25, and the same greet handler asks it with a real elicitation request', async () => {
    const c = await connectStdio(script, [], {}, legacyClient())
    try {
      expect(c.client.getServerVersion()).toMatchObject({ name: 'eras' })
      const eraResult = await c.client.callTool({ name: 'era', arguments: {} })
      expect(eraResult.structuredContent).toEqual({ protocolVersion: '2025-11-25' })
      const greeting = await c.client.callTool({ name: 'greet', arguments: {} })
      expect((greeting.structuredContent as { greeting: string }).greeting).toBe('Hello, Lin!')
      // the same tool for a 2025-11-25 client: an object schema and result, wrapped
      const { tools } = await c.client.listTools()
      expect(tools.find((t) => t.name === 'primes')?.outputSchema).toEqual({
        type: 'object',
        properties: { result: { type: 'array', items: { type: 'integer' } } },
        required: ['result'],
      })
      const small = await c.client.callTool({ name: 'primes', arguments: { below: 12 } })
      expect(small.structuredContent).toEqual({ result: [2, 3, 5, 7, 11] })
    } finally {
      await c.dispose()
    }
  })
})

/** The eras example over HTTP, served directly or through `emcp proxy` (an HTTP front on the example over HTTP). */
const httpFronts = [
  { name: 'directly', start: async (): Promise<Listening[]> => [await spawnListening(script, (port) => ['--http', '--port', String(port)])] },
  {
    name: 'through emcp proxy',
    start: async (): Promise<Listening[]> => {
      const upstream = await spawnListening(script, (port) => ['--http', '--port', String(port)])
      return [await spawnListening(emcpBin, (port) => ['proxy', upstream.url, '--http', '--port', String(port)]), upstream]
    },
  },
] as const

describe.each(httpFronts)('eras example over HTTP, $name', ({ start }) => {
  let server: Listening
  let started: Listening[] = []
  beforeAll(async () => {
    started = await start()
    server = started[0] as Listening
  })
  afterAll(async () => {
    for (const s of started) await stop(s.child, s.exited)
  })

  it('the 2026 client: discover, lists with caching hints, x-mcp-header mirrored and checked, input_required round trip', async () => {
    const { client, asked } = modernClient('Bo')
    await client.connect(new Http2026(new URL(server.url)))
    try {
      expect(client.getProtocolEra()).toBe('modern')
      const { tools } = await client.listTools()
      expect(tools).toHaveLength(5)
      const sunny = await client.callTool({ name: 'forecast', arguments: { region: 'eu-north', days: 3 } })
      expect(texts(sunny.content)).toEqual(['eu-north: sunny for 3 days'])
      const greeting = await client.callTool({ name: 'greet', arguments: {} })
      expect((greeting.structuredContent as { greeting: string }).greeting).toBe('Hello, Bo!')
      expect(asked).toHaveLength(1)
      const heard = await listenToNotes(client)
      expect(heard.updates).toEqual(['eras://notes'])
    } finally {
      await client.close()
    }
  })

  it('the 1.32.2 client on the same endpoint: a 2025-11-25 session, elicitation on its stream', async () => {
    const client = legacyClient('Kim')
    const transport = new Http2025(new URL(server.url))
    await client.connect(transport)
    try {
      expect(transport.sessionId).toBeDefined()
      const greeting = await client.callTool({ name: 'greet', arguments: {} })
      expect((greeting.structuredContent as { greeting: string }).greeting).toBe('Hello, Kim!')
    } finally {
      await client.close()
    }
  })

  it('a raw 2026 request whose Mcp-Param-Region does not match the body is refused with 400 and -32020', async () => {
    const r = await fetch(server.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'tools/call',
        'mcp-name': 'forecast',
        'mcp-param-region': 'us-east',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'forecast', arguments: { region: 'eu-north' }, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } },
      }),
    })
    expect(r.status).toBe(400)
    expect(((await r.json()) as { error: { code: number } }).error.code).toBe(-32020)
  })
})

/** A round-robin proxy: each POST goes to the next backend; it records which one got each method. */
const roundRobin = async (backends: ReadonlyArray<string>) => {
  const log: Array<{ method: string; backend: number }> = []
  let next = 0
  const proxy: NodeServer = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const body = Buffer.concat(chunks)
      const backend = next++ % backends.length
      let method = req.method ?? ''
      try {
        method = (JSON.parse(body.toString()) as { method?: string }).method ?? method
      } catch {
        // not JSON: forwarded as it is
      }
      log.push({ method, backend })
      const target = new URL(backends[backend] as string)
      const headers = { ...req.headers, host: target.host }
      const upstream = httpRequest(target, { method: req.method, headers }, (up: IncomingMessage) => {
        res.writeHead(up.statusCode ?? 502, up.headers)
        up.pipe(res)
      })
      upstream.on('error', () => {
        res.writeHead(502)
        res.end()
      })
      upstream.end(body)
    })
  })
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/mcp`
  return { url, log, close: () => new Promise<void>((resolve) => proxy.close(() => resolve())) }
}

describe('two server processes behind a round-robin proxy', () => {
  const start = (key: string) => spawnListening(script, (port) => ['--http', '--port', String(port)], () => ({ EMCP_STATE_KEY: key }))

  it('a 2026 retry that lands on the other process succeeds when both share the requestState key', async () => {
    const key = 'shared key of the two processes'
    const [a, b] = await Promise.all([start(key), start(key)])
    const proxy = await roundRobin([a.url, b.url])
    const { client, asked } = modernClient('Eve')
    try {
      await client.connect(new Http2026(new URL(proxy.url)))
      const greeting = await client.callTool({ name: 'greet', arguments: {} })
      const calls = proxy.log.filter((l) => l.method === 'tools/call')
      expect(calls).toHaveLength(2)
      // the first attempt and the retry went to different processes
      expect(calls[0]?.backend).not.toBe(calls[1]?.backend)
      const finisher = calls[1]?.backend === 0 ? a : b
      expect(greeting.structuredContent).toEqual({ greeting: 'Hello, Eve!', pid: finisher.child.pid })
      expect(asked).toHaveLength(1)
    } finally {
      await client.close().catch(() => {})
      await proxy.close()
      await Promise.all([stop(a.child, a.exited), stop(b.child, b.exited)])
    }
  })

  it('processes with different keys refuse each other’s requestState with a clear error', async () => {
    const [a, b] = await Promise.all([start('first key, sixteen bytes+'), start('second key, sixteen bytes+')])
    const proxy = await roundRobin([a.url, b.url])
    const { client } = modernClient('Eve')
    try {
      await client.connect(new Http2026(new URL(proxy.url)))
      const outcome = await client.callTool({ name: 'greet', arguments: {} }).then(
        (r) => JSON.stringify(r),
        (e: unknown) => String(e),
      )
      expect(outcome).toMatch(/requestState was not issued by this server or has been altered/)
    } finally {
      await client.close().catch(() => {})
      await proxy.close()
      await Promise.all([stop(a.child, a.exited), stop(b.child, b.exited)])
    }
  })
})
