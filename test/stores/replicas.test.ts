/**
 * Replicas in one process: two servers, each with its own HTTP listener on 127.0.0.1 and its
 * own tasks feature, share ONE memory store, as N processes would share Redis or PostgreSQL.
 * A 2025-11-25 session initialized on A is served on B (the official SDK 1.x client, its
 * requests alternating between the two) and ended everywhere by DELETE; an elicitation answer
 * that reaches B resolves the call waiting on A; a task created on A is polled and cancelled
 * on B, and a finished one is still read on B once A's own task memory is gone; a
 * subscriptions/listen stream on B hears a list_changed caused on A.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js'
import { emcp, mcpServer, memoryStore, resource, resources, tasks, type Server, type SharedStore, type TasksFeature } from '../../src/index.js'
import { serveHttp, type RunningHttp } from '../../src/transport/http.js'
import { parseSse } from '../support/sse.js'

const add = emcp({
  name: 'add',
  description: 'Add two numbers.',
  input: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] },
})
const askName = emcp({ name: 'ask_name', description: 'Asks the user for a name.', input: { type: 'object' } })
const later = emcp({ name: 'ask_later', description: 'Waits for its gate, then asks the user for a name.', input: { type: 'object', properties: { gate: { type: 'string' } }, required: ['gate'] }, taskSupport: 'optional' })
const slow = emcp({ name: 'slow', description: 'Waits for its gate or its cancellation.', input: { type: 'object', properties: { gate: { type: 'string' } }, required: ['gate'] }, taskSupport: 'optional' })

const gates = new Map<string, () => void>()
const aborted: string[] = []

/** One replica: its own server value and tasks feature, over the shared store. */
const replica = (store: SharedStore) => {
  const feature: TasksFeature = tasks({ ttlMs: 600_000 })
  const docs = resources([resource({ uri: 'docs://readme', name: 'readme', read: () => 'Read me.' })], { subscribe: true })
  const server = mcpServer([add, askName, slow, later], { name: 'replica', version: '1' }, { store, features: [feature, docs] }).implement({
    add: ({ a, b }) => String(a + b),
    ask_name: async (_args, ctx) => {
      const r = await ctx.elicit({ message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } })
      return r.action === 'accept' ? `hello ${String(r.content.name)}` : 'nobody'
    },
    ask_later: async ({ gate }, ctx) => {
      await new Promise<void>((resolve) => gates.set(gate, resolve))
      const r = await ctx.elicit({ message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } })
      return r.action === 'accept' ? `later, ${String(r.content.name)}` : 'nobody'
    },
    slow: ({ gate }, ctx) =>
      new Promise<string>((resolve, reject) => {
        gates.set(gate, () => resolve(`opened ${gate}`))
        ctx.signal.addEventListener('abort', () => (aborted.push(gate), reject(new Error('cancelled'))), { once: true })
      }),
  }) as unknown as Server
  return { server, feature, docs }
}

const V = '2026-07-28'
const tasksCaps = { elicitation: { form: {} }, extensions: { 'io.modelcontextprotocol/tasks': {} } }
const meta = { 'io.modelcontextprotocol/protocolVersion': V, 'io.modelcontextprotocol/clientCapabilities': tasksCaps }
let nextId = 1

/** A 2026-07-28 request to one replica: its response, from a JSON or an SSE answer. */
const rpc = async (url: string, method: string, params: Record<string, unknown>): Promise<{ status: number; body: any }> => {
  const id = nextId++
  const r = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': V,
      'mcp-method': method,
      ...(typeof (params.name ?? params.taskId) === 'string' ? { 'mcp-name': String(params.name ?? params.taskId) } : {}),
    },
    body: JSON.stringify({ jsonrpc: '2.0', id, method, params: { ...params, _meta: meta } }),
  })
  const text = await r.text()
  if (!(r.headers.get('content-type') ?? '').startsWith('text/event-stream')) return { status: r.status, body: JSON.parse(text) }
  const answers = parseSse(text).flatMap((e) => (e.data === undefined || e.data === '' ? [] : [JSON.parse(e.data)]))
  return { status: r.status, body: answers.find((m) => m.id === id) }
}

/** Reads SSE messages off a response as they come, until one passes `done`. */
const readUntil = async (r: Response, done: (m: any) => boolean): Promise<any[]> => {
  const reader = (r.body as ReadableStream<Uint8Array>).getReader()
  const decoder = new TextDecoder()
  const seen: any[] = []
  let text = ''
  for (;;) {
    const { done: ended, value } = await reader.read()
    if (ended) return seen
    text += decoder.decode(value, { stream: true })
    const end = text.lastIndexOf('\n\n')
    if (end === -1) continue
    for (const e of parseSse(text.slice(0, end + 2))) if (e.data !== undefined && e.data !== '') seen.push(JSON.parse(e.data))
    text = text.slice(end + 2)
    if (seen.some(done)) {
      await reader.cancel()
      return seen
    }
  }
}

/** Polls `tasks/get` on one replica, as a client does, until the task has `status`; the task then. */
const polledOn = async (url: string, taskId: string, status: string): Promise<any> => {
  let seen: any
  await vi.waitFor(
    async () => {
      seen = (await rpc(url, 'tasks/get', { taskId })).body.result
      expect(seen?.status).toBe(status)
    },
    { timeout: 30_000, interval: 10 },
  )
  return seen
}

describe('replicas sharing one memory store', () => {
  const store = memoryStore()
  const a = replica(store)
  const b = replica(store)
  let httpA: RunningHttp
  let httpB: RunningHttp
  beforeAll(async () => {
    httpA = await serveHttp(a.server, { port: 0, handleSignals: false, sessions: true })
    httpB = await serveHttp(b.server, { port: 0, handleSignals: false, sessions: true })
  })
  afterAll(async () => {
    await httpA.close()
    await httpB.close()
    await store.close()
  })

  /** A fetch that sends each request to the replica `route` picks, and counts who served what. */
  const routed = (route: (init: RequestInit | undefined, n: number) => 'a' | 'b') => {
    const served: Array<{ replica: 'a' | 'b'; method: string; body: string; status: number }> = []
    let n = 0
    const f = async (url: string | URL, init?: RequestInit): Promise<Response> => {
      const to = route(init, n++)
      const target = new URL(String(url))
      const base = new URL(to === 'a' ? httpA.url : httpB.url)
      target.host = base.host
      const res = await fetch(target, init)
      served.push({ replica: to, method: init?.method ?? 'GET', body: typeof init?.body === 'string' ? init.body : '', status: res.status })
      return res
    }
    return { fetch: f as typeof fetch, served }
  }

  it('a 2025-11-25 session initialized on A serves requests on B, and DELETE on either ends it everywhere', async () => {
    const { fetch: f, served } = routed((_init, n) => (n % 2 === 0 ? 'a' : 'b'))
    const transport = new StreamableHTTPClientTransport(new URL(httpA.url), { fetch: f })
    const client = new Client({ name: 'alternating', version: '1' })
    await client.connect(transport)
    const sid = transport.sessionId as string
    expect(sid).toBeTruthy()
    for (let i = 0; i < 4; i++) expect((await client.callTool({ name: 'add', arguments: { a: i, b: 1 } })).content).toEqual([{ type: 'text', text: String(i + 1) }])
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['add', 'ask_name', 'slow', 'ask_later'])
    const withSession = served.filter((s) => s.method === 'POST' && !s.body.includes('"initialize"'))
    expect(served.find((s) => s.body.includes('"initialize"'))?.replica).toBe('a')
    expect(withSession.some((s) => s.replica === 'b' && s.body.includes('tools/call'))).toBe(true)
    expect(withSession.every((s) => s.status === 200 || s.status === 202)).toBe(true)
    await transport.terminateSession()
    for (const url of [httpA.url, httpB.url]) {
      const r = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': sid, 'mcp-protocol-version': '2025-11-25' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
      })
      expect(r.status).toBe(404)
    }
    await client.close()
  })

  it('an elicitation answer that reaches B resolves the call waiting on A', async () => {
    // requests to A, except the client's answers (JSON-RPC responses), which go to B
    const { fetch: f, served } = routed((init) => (typeof init?.body === 'string' && /"result"\s*:/.test(init.body) ? 'b' : 'a'))
    const transport = new StreamableHTTPClientTransport(new URL(httpA.url), { fetch: f })
    const client = new Client({ name: 'elicited', version: '1' }, { capabilities: { elicitation: {} } })
    client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content: { name: 'Ada' } }))
    await client.connect(transport)
    const r = await client.callTool({ name: 'ask_name', arguments: {} })
    expect(r.content).toEqual([{ type: 'text', text: 'hello Ada' }])
    const answer = served.find((s) => /"result"\s*:/.test(s.body))
    expect(answer).toMatchObject({ replica: 'b', status: 202 })
    expect(served.find((s) => s.body.includes('"tools/call"'))?.replica).toBe('a')
    await transport.terminateSession()
    await client.close()
  })

  it('a task created on A is polled and cancelled on B (its work on A is aborted)', async () => {
    const created = await rpc(httpA.url, 'tools/call', { name: 'slow', arguments: { gate: 'cancel-me' } })
    expect(created.body.result).toMatchObject({ resultType: 'task', status: 'working' })
    const taskId = created.body.result.taskId as string
    // B does not run it: what it answers comes from the shared store
    expect(b.feature.store.get(taskId)).toBeUndefined()
    const polled = await rpc(httpB.url, 'tasks/get', { taskId })
    expect(polled.body).toMatchObject({ result: { resultType: 'complete', taskId, status: 'working' } })
    expect((await rpc(httpB.url, 'tasks/cancel', { taskId })).body.result).toMatchObject({ resultType: 'complete' })
    expect(aborted).toContain('cancel-me')
    expect((await rpc(httpB.url, 'tasks/get', { taskId })).body.result).toMatchObject({ taskId, status: 'cancelled' })
    expect((await rpc(httpA.url, 'tasks/get', { taskId })).body.result).toMatchObject({ taskId, status: 'cancelled' })
  })

  it('a task finished on A is read on B with its result after A has forgotten every task it ran', async () => {
    const created = await rpc(httpA.url, 'tools/call', { name: 'slow', arguments: { gate: 'finish-me' } })
    const taskId = created.body.result.taskId as string
    gates.get('finish-me')?.()
    // the handler settles on A's next turns: poll B until the record says so, as a client does
    const seen = await polledOn(httpB.url, taskId, 'completed')
    expect(seen).toMatchObject({ taskId, status: 'completed', result: { content: [{ type: 'text', text: 'opened finish-me' }] } })
    // A's own task memory goes (as in a restart): the record in the shared store remains
    a.feature.store.close()
    expect(a.feature.store.get(taskId)).toBeUndefined()
    expect((await rpc(httpB.url, 'tasks/get', { taskId })).body.result).toMatchObject({ taskId, status: 'completed', result: { content: [{ text: 'opened finish-me' }] } })
    expect((await rpc(httpA.url, 'tasks/get', { taskId })).body.result).toMatchObject({ taskId, status: 'completed' })
  })

  it('a task created on A that asks the user is answered on B (tasks/update), and completes on A', async () => {
    const created = await rpc(httpA.url, 'tools/call', { name: 'ask_later', arguments: { gate: 'ask-me' } })
    const taskId = created.body.result.taskId as string
    gates.get('ask-me')?.()
    const asking = await polledOn(httpB.url, taskId, 'input_required')
    const [key] = Object.keys(asking.inputRequests)
    expect(asking.inputRequests[key as string]).toMatchObject({ method: 'elicitation/create', params: { message: 'Name?' } })
    expect((await rpc(httpB.url, 'tasks/update', { taskId, inputResponses: { [key as string]: { action: 'accept', content: { name: 'Ada' } } } })).body.result).toMatchObject({ resultType: 'complete' })
    expect(await polledOn(httpB.url, taskId, 'completed')).toMatchObject({ result: { content: [{ type: 'text', text: 'later, Ada' }] } })
  })

  it('a task whose replica is gone (its record left in the store, no replica runs it) is ended by a cancel on B, or an answer on B, each saying why', async () => {
    // what a replica that died mid-task leaves behind: its tasks' records, and no one to run them
    const at = new Date().toISOString()
    const left = { createdAt: at, lastUpdatedAt: at, ttlMs: 600_000, pollIntervalMs: 1000 }
    await store.tasks.put({ taskId: 'orphan-working', status: 'working', ...left }, 600_000)
    await store.tasks.put({ taskId: 'orphan-asking', status: 'input_required', inputRequests: { 'input-1': { method: 'elicitation/create', params: { message: 'Name?' } } }, ...left }, 600_000)
    await store.tasks.put({ taskId: 'orphan-done', status: 'completed', result: { content: [] }, ...left }, 600_000)
    expect((await rpc(httpB.url, 'tasks/cancel', { taskId: 'orphan-working' })).body.result).toMatchObject({ resultType: 'complete' })
    const cancelled = (await rpc(httpA.url, 'tasks/get', { taskId: 'orphan-working' })).body.result
    expect(cancelled).toMatchObject({ status: 'cancelled', statusMessage: 'cancelled by the client; the server process that ran this task stopped before the task ended, so its work had stopped already' })
    expect(Date.parse(cancelled.lastUpdatedAt)).toBeGreaterThanOrEqual(Date.parse(at))
    expect((await rpc(httpB.url, 'tasks/update', { taskId: 'orphan-asking', inputResponses: { 'input-1': { action: 'accept', content: { name: 'Ada' } } } })).body.result).toMatchObject({ resultType: 'complete' })
    const failed = (await rpc(httpA.url, 'tasks/get', { taskId: 'orphan-asking' })).body.result
    expect(failed).toMatchObject({ status: 'failed', error: { code: -32603, message: 'Internal error: the server process that ran this task stopped before the task ended; its answers cannot be delivered. Call the tool again' } })
    expect(failed.inputRequests).toBeUndefined()
    // an ended task needs no runner: a cancel changes nothing
    expect((await rpc(httpB.url, 'tasks/cancel', { taskId: 'orphan-done' })).body.result).toMatchObject({ resultType: 'complete' })
    expect((await rpc(httpB.url, 'tasks/get', { taskId: 'orphan-done' })).body.result).toMatchObject({ status: 'completed', lastUpdatedAt: at })
  }, 30_000)

  /** Opens a subscriptions/listen stream on B (an SSE answer), to be aborted by the test. */
  const listenOnB = async (id: string, notifications: object) => {
    const controller = new AbortController()
    const r = await fetch(httpB.url, {
      method: 'POST',
      signal: controller.signal,
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': V, 'mcp-method': 'subscriptions/listen' },
      body: JSON.stringify({ jsonrpc: '2.0', id, method: 'subscriptions/listen', params: { _meta: meta, notifications } }),
    })
    expect(r.headers.get('content-type')).toBe('text/event-stream')
    return { r, controller }
  }

  it('a subscriptions/listen stream on B hears the list_changed caused on A', async () => {
    const { r, controller } = await listenOnB('listen-b', { toolsListChanged: true })
    const heard = readUntil(r, (m) => m.method === 'notifications/tools/list_changed')
    // once B's stream is in B's hub, A changes its tool list
    for (let i = 0; i < 1000 && b.server.hub.size() === 0; i++) await new Promise((res) => setImmediate(res))
    expect(b.server.hub.size()).toBeGreaterThan(0)
    a.server.disableTool('add')
    const seen = await heard
    controller.abort()
    expect(seen[0]).toMatchObject({ method: 'notifications/subscriptions/acknowledged' })
    expect(seen.find((m) => m.method === 'notifications/tools/list_changed')).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/tools/list_changed',
      params: { _meta: { 'io.modelcontextprotocol/subscriptionId': 'listen-b' } },
    })
  })

  it('a subscriptions/listen stream on B subscribed to a resource hears the resources/updated caused on A, and not one of another resource', async () => {
    const { r, controller } = await listenOnB('listen-docs', { resourceSubscriptions: ['docs://readme'] })
    // once B acknowledges the subscription, A changes a resource of another URI, then the subscribed one
    const heard = readUntil(r, (m) => {
      if (m.method === 'notifications/subscriptions/acknowledged') {
        a.docs.updated('docs://other')
        a.docs.updated('docs://readme')
      }
      return m.method === 'notifications/resources/updated'
    })
    const seen = await heard
    controller.abort()
    expect(seen[0]).toMatchObject({ method: 'notifications/subscriptions/acknowledged' })
    expect(seen.filter((m) => m.method === 'notifications/resources/updated')).toEqual([
      { jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: 'docs://readme', _meta: { 'io.modelcontextprotocol/subscriptionId': 'listen-docs' } } },
    ])
  })

  it('with authentication, a session taken over on B stays bound to the subject that opened it on A (403 for another)', async () => {
    const verify = (token: string) => (token === 'alice-token' ? { subject: 'alice', roles: [] } : token === 'bob-token' ? { subject: 'bob', roles: [] } : undefined)
    const authA = await serveHttp(replica(store).server, { port: 0, handleSignals: false, sessions: true, auth: { verify } })
    const authB = await serveHttp(replica(store).server, { port: 0, handleSignals: false, sessions: true, auth: { verify } })
    try {
      const send = (url: string, token: string, body: unknown, sid?: string) =>
        fetch(url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            authorization: `Bearer ${token}`,
            'mcp-protocol-version': '2025-11-25',
            ...(sid === undefined ? {} : { 'mcp-session-id': sid }),
          },
          body: JSON.stringify(body),
        })
      const init = await send(authA.url, 'alice-token', { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'alice', version: '1' } } })
      expect(init.status).toBe(200)
      const sid = init.headers.get('mcp-session-id') as string
      expect((await send(authB.url, 'bob-token', { jsonrpc: '2.0', id: 2, method: 'ping' }, sid)).status).toBe(403)
      const ok = await send(authB.url, 'alice-token', { jsonrpc: '2.0', id: 3, method: 'ping' }, sid)
      expect(ok.status).toBe(200)
      expect(await ok.json()).toEqual({ jsonrpc: '2.0', id: 3, result: {} })
    } finally {
      await authA.close()
      await authB.close()
    }
  })
})
