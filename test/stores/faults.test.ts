/**
 * The fault shape of the shared store, through HTTP: a store whose every call rejects (down),
 * or never answers (hung). Requests that need it get 503 with a JSON-RPC error -32004 naming
 * what failed, within a bound and never hanging; stateless 2026-07-28 calls that need no
 * shared state go on, and do not touch the store at all.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { emcp, mcpServer, tasks, type Server, type SharedStore } from '../../src/index.js'
import { serveHttp, type RunningHttp } from '../../src/transport/http.js'

/** A store that is down (every call rejects) or hung (no call ever answers), counting the calls made. */
const brokenStore = (mode: 'down' | 'hung') => {
  let calls = 0
  const fail = (): Promise<never> => {
    calls++
    return mode === 'down' ? Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:6379 (the test store is down)')) : new Promise<never>(() => undefined)
  }
  const store: SharedStore = {
    kind: `broken-${mode}`,
    sessions: { put: fail, replace: fail, get: fail, touch: fail, delete: fail },
    events: { prime: fail, append: fail, after: fail, forget: fail },
    bus: { publish: fail, subscribe: fail },
    tasks: { put: fail, get: fail, delete: fail },
    close: () => Promise.resolve(),
  }
  return { store, calls: () => calls }
}

const add = emcp({ name: 'add', description: 'Add.', input: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] } })
const serverOn = (store: SharedStore): Server =>
  mcpServer([add], { name: 'faulty', version: '1' }, { store, features: [tasks()] }).implement({ add: ({ a, b }) => String(a + b) }) as unknown as Server

const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, body: JSON.stringify(body) })
const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } } }
const modern = (method: string, params: Record<string, unknown>, name: string) =>
  [
    { jsonrpc: '2.0', id: 2, method, params: { ...params, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': { extensions: { 'io.modelcontextprotocol/tasks': {} } } } } },
    { 'mcp-protocol-version': '2026-07-28', 'mcp-method': method, 'mcp-name': name },
  ] as const

describe('shared store down: every call rejects', () => {
  const broken = brokenStore('down')
  let http: RunningHttp
  beforeAll(async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined)
    http = await serveHttp(serverOn(broken.store), { port: 0, handleSignals: false, sessions: true })
  })
  afterAll(async () => {
    await http.close()
    vi.restoreAllMocks()
  })

  it('a 2025-11-25 initialize gets 503 with -32004 naming what failed (no session id is given out)', async () => {
    const r = await post(http.url, initialize)
    expect(r.status).toBe(503)
    expect(r.headers.get('mcp-session-id')).toBeNull()
    const body = await r.json()
    expect(body.error.code).toBe(-32004)
    expect(body.error.message).toMatch(/^Service Unavailable: the shared store failed \(sessions: write the session\): connect ECONNREFUSED .*try again later$/)
  })

  it('a request for a session this replica does not hold gets 503 (it cannot ask the store), not 404', async () => {
    const r = await post(http.url, { jsonrpc: '2.0', id: 3, method: 'ping' }, { 'mcp-session-id': 'a-session-of-another-replica', 'mcp-protocol-version': '2025-11-25' })
    expect(r.status).toBe(503)
    expect((await r.json()).error).toMatchObject({ code: -32004, message: expect.stringMatching(/sessions: read the session/) })
  })

  it('tasks/get of a task this replica does not run gets 503 with -32004', async () => {
    const [body, headers] = modern('tasks/get', { taskId: 'elsewhere' }, 'elsewhere')
    const r = await post(http.url, body, headers)
    expect(r.status).toBe(503)
    expect((await r.json()).error).toMatchObject({ code: -32004, message: expect.stringMatching(/tasks\/get: read the task/) })
  })

  it('a stateless 2026-07-28 call that needs no shared state goes on, without touching the store', async () => {
    const before = broken.calls()
    const [body, headers] = modern('tools/call', { name: 'add', arguments: { a: 2, b: 3 } }, 'add')
    const r = await post(http.url, body, headers)
    expect(r.status).toBe(200)
    const text = await r.text()
    expect(text).toContain('"text":"5"')
    expect(broken.calls()).toBe(before)
  })
})

describe('shared store hung: no call ever answers', () => {
  const broken = brokenStore('hung')
  let http: RunningHttp
  beforeAll(async () => {
    http = await serveHttp(serverOn(broken.store), { port: 0, handleSignals: false, sessions: true })
  })
  afterAll(async () => {
    await http.close()
  })

  it('an initialize is answered 503 once the store call times out: no request hangs past it', async () => {
    const r = await post(http.url, initialize)
    expect(r.status).toBe(503)
    expect((await r.json()).error.message).toMatch(/sessions: write the session\): no answer within 5000 ms/)
  })
})
