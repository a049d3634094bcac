/**
 * `emcp/workers` on a real workerd (no `nodejs_compat`), the everything example bundled with
 * esbuild (platform neutral) and served with its sessions in Durable Objects kept in memory:
 * a session is named by its object's id, ends on DELETE (404 from then on, never revived by
 * an initialize that names it), forged or malformed ids answer 404 without reaching an
 * object, two calls in flight on one session get their own progress on their own streams
 * (workerd has no AsyncLocalStorage: the request id routes them), the Host guard runs in
 * the object, and what names no session is served by the Worker statelessly (2026-07-28,
 * a 2025-11-25 ping), the body read to find an initialize bounded as the chain's is; the
 * official SDK 1.x client answers sampling and gets a call's logs there. A session outlives
 * its object (workerd restarted on disk storage), and a Worker without its binding says so.
 * The conformance counts and the SDK v2 client run in test/transport/runtimes.test.ts.
 */
import { execFile } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { CreateMessageRequestSchema, LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bundleFor } from '../support/fetch-bundle.js'
import { runtimeBinary, startRuntime, type Running } from '../support/runtimes.js'

const installed = runtimeBinary('workerd') !== undefined
if (!installed) {
  if (process.env.CI === 'true') it('workerd is installed (CI=true needs it)', () => expect(runtimeBinary('workerd')).toBeDefined())
  else console.warn('emcp/workers tests SKIPPED: node_modules/.bin/workerd is not installed')
}

/** curl's status code for a request. */
const curl = (args: ReadonlyArray<string>): Promise<string> =>
  new Promise((resolve, reject) => execFile('curl', ['-s', '-o', '/dev/null', '-w', '%{http_code}', ...args], (e, out) => (e ? reject(e) : resolve(out))))

const json = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }
const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } }

describe.skipIf(!installed)('emcp/workers: sessions in Durable Objects on workerd', () => {
  let server: Running
  const post = (body: unknown, headers: Record<string, string> = {}): Promise<Response> =>
    fetch(server.url, { method: 'POST', headers: { ...json, ...headers }, body: typeof body === 'string' ? body : JSON.stringify(body) })
  /** A new initialized session's id. */
  const open = async (): Promise<string> => {
    const res = await post(initialize)
    expect(res.status).toBe(200)
    const id = res.headers.get('mcp-session-id') as string
    await res.text()
    const done = await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, { 'mcp-session-id': id, 'mcp-protocol-version': '2025-11-25' })
    expect(done.status).toBe(202)
    return id
  }
  const ping = (id: string): Promise<Response> => post({ jsonrpc: '2.0', id: 2, method: 'ping' }, { 'mcp-session-id': id, 'mcp-protocol-version': '2025-11-25' })

  beforeAll(async () => {
    const bundle = await bundleFor('worker-sessions')
    expect(bundle.nodeImports).toEqual([])
    server = await startRuntime('workerd', bundle.file, ['MCP_SESSIONS=durable:McpSession'])
  }, 120_000)

  afterAll(async () => {
    await server?.stop()
  })

  it('names a session by its object, serves it, and answers 404 once it is deleted, even to an initialize naming it', async () => {
    const id = await open()
    expect(id).toMatch(/^[0-9a-f]{64}$/)
    expect((await ping(id)).status).toBe(200)
    const other = await open()
    expect(other).not.toBe(id)
    const deleted = await fetch(server.url, { method: 'DELETE', headers: { 'mcp-session-id': id, 'mcp-protocol-version': '2025-11-25' } })
    expect(deleted.status).toBeLessThan(300)
    const after = await ping(id)
    expect(after.status).toBe(404)
    expect(await after.json()).toMatchObject({ error: { message: expect.stringMatching(/session does not exist or has ended/) } })
    expect((await post(initialize, { 'mcp-session-id': id })).status).toBe(404)
    expect((await fetch(server.url, { headers: { accept: 'text/event-stream', 'mcp-session-id': id } })).status).toBe(404)
    // the other session goes on
    expect((await ping(other)).status).toBe(200)
  }, 60_000)

  it('answers 404 to ids the namespace never made, without reaching an object', async () => {
    for (const forged of ['abc', 'a'.repeat(64), '0'.repeat(64), 'x'.repeat(129), 'x'.repeat(5000), '%00', '../../mcp']) {
      const res = await ping(forged)
      expect(res.status, forged.slice(0, 20)).toBe(404)
      expect(await res.json()).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: expect.any(Number) } })
    }
  }, 60_000)

  it('sends each call its own progress on its own stream, two calls in flight on one session', async () => {
    const id = await open()
    const call = (n: number, token: string): Promise<string> =>
      post(
        { jsonrpc: '2.0', id: n, method: 'tools/call', params: { name: 'test_tool_with_progress', arguments: {}, _meta: { progressToken: token } } },
        { 'mcp-session-id': id, 'mcp-protocol-version': '2025-11-25' },
      ).then((r) => {
        expect(r.headers.get('content-type')).toMatch(/text\/event-stream/)
        return r.text()
      })
    const [a, b] = await Promise.all([call(10, 'token-a'), call(11, 'token-b')])
    const events = (text: string): ReadonlyArray<{ readonly id?: number; readonly method?: string; readonly params?: { readonly progressToken?: string; readonly progress?: number } }> =>
      [...text.matchAll(/^data: (.+)$/gm)].map((m) => m[1] as string).filter((d) => d.startsWith('{')).map((d) => JSON.parse(d))
    for (const [text, n, token] of [[a, 10, 'token-a'], [b, 11, 'token-b']] as const) {
      const got = events(text)
      expect(got.filter((e) => e.method === 'notifications/progress').map((e) => [e.params?.progressToken, e.params?.progress])).toEqual([
        [token, 0],
        [token, 50],
        [token, 100],
      ])
      expect(got.at(-1)).toMatchObject({ id: n, result: { content: [{ text: `progress token: ${token}` }] } })
    }
  }, 60_000)

  it('serves the official SDK 1.x client: sampling, logs on the call\'s stream, the session ended by DELETE', async () => {
    const client = new Client({ name: 'workers-v1', version: '0.0.0' }, { capabilities: { sampling: {} } })
    client.setRequestHandler(CreateMessageRequestSchema, async (req) => ({
      role: 'assistant',
      model: 'test-model',
      content: { type: 'text', text: `echo of ${JSON.stringify(req.params.messages[0]?.content)}` },
    }))
    const logs: string[] = []
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
      logs.push(String(n.params.data))
    })
    const transport = new StreamableHTTPClientTransport(new URL(server.url))
    await client.connect(transport)
    const id = transport.sessionId as string
    expect(id).toMatch(/^[0-9a-f]{64}$/)
    const sampled = await client.callTool({ name: 'test_sampling', arguments: { prompt: 'hello' } })
    expect(JSON.stringify(sampled.content)).toMatch(/LLM response: echo of .*hello/)
    await client.callTool({ name: 'test_tool_with_logging', arguments: {} })
    expect(logs).toEqual(['Tool execution started', 'Tool processing data', 'Tool execution completed'])
    await transport.terminateSession()
    await client.close()
    expect((await ping(id)).status).toBe(404)
  }, 60_000)

  it('keeps the Host guard in the object', async () => {
    const id = await open()
    expect((await ping(id)).status).toBe(200)
    // a browser page of another site (DNS rebinding): its Origin is refused by the object's own chain
    const res = await fetch(server.url, { method: 'POST', headers: { ...json, 'mcp-session-id': id, 'mcp-protocol-version': '2025-11-25', origin: 'https://evil.example' }, body: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'ping' }) })
    expect(res.status).toBe(403)
  }, 60_000)

  it('serves what names no session in the Worker: 2026-07-28, a 2025-11-25 ping, and refuses what the chain refuses', async () => {
    const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} }
    const discover = await post({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: meta } }, { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'server/discover' })
    expect(discover.status).toBe(200)
    expect(discover.headers.get('mcp-session-id')).toBeNull()
    expect(await discover.json()).toMatchObject({ id: 1, result: { resultType: 'complete' } })
    const legacy = await post({ jsonrpc: '2.0', id: 2, method: 'ping' })
    expect(legacy.status).toBe(200)
    expect(await legacy.json()).toMatchObject({ id: 2, result: {} })
    expect((await post('{"jsonrpc":"2.0","id":3,"method":"initialize"')).status).toBe(400)
    // curl reads an answer that comes before the whole body went out (workerd does not read the rest)
    const dir = await mkdtemp(join(tmpdir(), 'emcp-workers-'))
    try {
      const file = join(dir, 'big.json')
      await writeFile(file, `{"jsonrpc":"2.0","id":4,"method":"initialize","params":{"pad":"${'x'.repeat(5 * 1024 * 1024)}"}}`)
      for (const chunked of [false, true]) {
        const status = await curl([...(chunked ? ['-H', 'transfer-encoding: chunked'] : []), '-H', 'content-type: application/json', '-H', 'accept: application/json, text/event-stream', '--data-binary', `@${file}`, server.url])
        expect(status, chunked ? 'chunked' : 'with Content-Length').toBe('413')
      }
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  }, 60_000)
})

describe.skipIf(!installed)('emcp/workers: a session outlives its object (storage on disk, workerd restarted)', () => {
  let dir: string
  let bundle: string
  let server: Running | undefined
  const start = async (): Promise<Running> => (server = await startRuntime('workerd', bundle, ['MCP_SESSIONS=durable:McpSession'], { durableDir: dir }))
  const post = (url: string, id: string, body: unknown): Promise<Response> =>
    fetch(url, { method: 'POST', headers: { ...json, 'mcp-session-id': id, 'mcp-protocol-version': '2025-11-25' }, body: JSON.stringify(body) })
  const open = async (url: string): Promise<string> => {
    const res = await fetch(url, { method: 'POST', headers: json, body: JSON.stringify(initialize) })
    const id = res.headers.get('mcp-session-id') as string
    await res.text()
    expect((await post(url, id, { jsonrpc: '2.0', method: 'notifications/initialized' })).status).toBe(202)
    return id
  }
  const logsOf = async (url: string, id: string): Promise<number> => {
    const res = await post(url, id, { jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'test_tool_with_logging', arguments: {} } })
    expect(res.status).toBe(200)
    const text = await res.text()
    expect(text).toMatch(/Tool with logging executed successfully/)
    return [...text.matchAll(/notifications\/message/g)].length
  }

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'emcp-durable-'))
    bundle = (await bundleFor('worker-sessions')).file
  }, 120_000)

  afterAll(async () => {
    await server?.stop()
    await rm(dir, { recursive: true, force: true })
  })

  it('serves the session again after a restart, with its log level, and never a deleted one', async () => {
    const first = await start()
    const quiet = await open(first.url)
    const chatty = await open(first.url)
    const doomed = await open(first.url)
    expect((await post(first.url, quiet, { jsonrpc: '2.0', id: 2, method: 'logging/setLevel', params: { level: 'error' } })).status).toBe(200)
    expect(await logsOf(first.url, quiet)).toBe(0)
    expect((await fetch(first.url, { method: 'DELETE', headers: { 'mcp-session-id': doomed, 'mcp-protocol-version': '2025-11-25' } })).status).toBeLessThan(300)
    await first.stop()

    // a new process: every object is new, only their storage is left
    const second = await start()
    expect((await post(second.url, quiet, { jsonrpc: '2.0', id: 3, method: 'ping' })).status).toBe(200)
    expect(await logsOf(second.url, quiet)).toBe(0)
    expect(await logsOf(second.url, chatty)).toBe(3)
    expect((await post(second.url, doomed, { jsonrpc: '2.0', id: 4, method: 'ping' })).status).toBe(404)
  }, 120_000)
})

describe.skipIf(!installed)('emcp/workers: a Worker deployed without its Durable Object binding', () => {
  let server: Running | undefined
  afterAll(async () => {
    await server?.stop()
  })

  it('answers an initialize with a 500 naming the missing binding, and serves the rest', async () => {
    server = await startRuntime('workerd', (await bundleFor('worker-sessions')).file, ['REQUEST_STATE_KEYS=a key of sixteen bytes or more'])
    const res = await fetch(server.url, { method: 'POST', headers: json, body: JSON.stringify(initialize) })
    expect(res.status).toBe(500)
    expect(await res.text()).toMatch(/env\.MCP_SESSIONS is not a Durable Object namespace/)
    const ping = await fetch(server.url, { method: 'POST', headers: json, body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' }) })
    expect(ping.status).toBe(200)
  }, 120_000)
})
