/**
 * The 2026-07-28 adapter through the public dispatcher: requests whose `_meta` names the
 * revision, beside 2025-11-25 conversations on the same server value. Test names quote the
 * specification's MUSTs.
 */
import { describe, expect, it } from 'vitest'
import * as O from 'fp-ts/lib/Option.js'
import {
  emcp,
  encode,
  mcpServer,
  newSession,
  outbound,
  prompt,
  prompts,
  resource,
  resources,
  type Server,
  type ServerMessage,
  type ServerOptions,
  type Session,
} from '../../../src/index.js'

const V = '2026-07-28'
const envelope = (extra: Record<string, unknown> = {}) => ({
  'io.modelcontextprotocol/protocolVersion': V,
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'test-client', version: '1.0.0' },
  ...extra,
})

const echo = emcp({
  name: 'echo',
  description: 'Echo the text.',
  input: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
})
const chatty = emcp({ name: 'chatty', description: 'Logs at three levels.', input: { type: 'object' } })
const readme = resource({ uri: 'docs://readme', name: 'readme', read: () => '# Hello' })
const docs = resources([readme], { subscribe: true })
const greet = prompt({ name: 'greet', description: 'Greet.', get: () => 'Hello' })

const serverWith = (options: ServerOptions = {}): Server =>
  mcpServer([echo, chatty], { name: 'dual', version: '3.1.4' }, { instructions: 'Be brief.', features: [docs, prompts([greet])], ...options }).implement({
    echo: ({ text }) => text,
    chatty: (_args, ctx) => {
      ctx.log('debug', 'd')
      ctx.log('info', 'i')
      ctx.log('error', 'e')
      return 'done'
    },
  }) as unknown as Server

let id = 1
/** A session with a channel that records what the server sends on its own. */
const recording = (): { session: Session; sent: ServerMessage[] } => {
  const sent: ServerMessage[] = []
  return { session: newSession(undefined, outbound((m) => sent.push(m))), sent }
}

const send = async (server: Server, method: string, params: Record<string, unknown> = {}, session: Session = newSession()) => {
  const out = await server.dispatch({ jsonrpc: '2.0', id: id++, method, params }, session)()
  if (O.isNone(out)) throw new Error(`no answer to ${method}`)
  return JSON.parse(encode(out.value)) as { id: unknown; result?: any; error?: { code: number; message: string; data?: any } }
}
const modern = (server: Server, method: string, params: Record<string, unknown> = {}, session?: Session, meta: Record<string, unknown> = {}) =>
  send(server, method, { ...params, _meta: envelope(meta) }, session)

describe('2026-07-28: server/discover', () => {
  it('Servers MUST implement server/discover: supported versions, capabilities, serverInfo and instructions', async () => {
    const m = await modern(serverWith(), 'server/discover')
    expect(m.result.resultType).toBe('complete')
    expect(m.result.supportedVersions).toEqual(['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'])
    expect(m.result.capabilities.tools).toEqual({ listChanged: true })
    expect(m.result.capabilities.resources).toEqual({ subscribe: true, listChanged: true })
    expect(m.result.instructions).toBe('Be brief.')
    expect(m.result._meta['io.modelcontextprotocol/serverInfo']).toEqual({ name: 'dual', version: '3.1.4' })
    expect(m.result.ttlMs).toBe(0)
    expect(m.result.cacheScope).toBe('private')
  })

  it('needs no initialize first: any request is answered on its own', async () => {
    const m = await modern(serverWith(), 'tools/call', { name: 'echo', arguments: { text: 'hi' } })
    expect(m.result).toMatchObject({ resultType: 'complete', content: [{ type: 'text', text: 'hi' }] })
  })
})

describe('2026-07-28: the request envelope', () => {
  it('a server that does not implement the requested version MUST respond with UnsupportedProtocolVersionError listing the versions it supports', async () => {
    const m = await modern(serverWith(), 'tools/list', {}, undefined, { 'io.modelcontextprotocol/protocolVersion': '2099-01-01' })
    expect(m.error?.code).toBe(-32022)
    expect(m.error?.data).toEqual({ supported: ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'], requested: '2099-01-01' })
  })

  it('a request missing a required field (clientCapabilities) is malformed: the server MUST reject it with -32602', async () => {
    const m = await send(serverWith(), 'tools/list', { _meta: { 'io.modelcontextprotocol/protocolVersion': V } })
    expect(m.error?.code).toBe(-32602)
    expect(m.error?.message).toMatch(/clientCapabilities/)
  })

  it('an unrecognised log level SHOULD be rejected with -32602', async () => {
    const m = await modern(serverWith(), 'tools/list', {}, undefined, { 'io.modelcontextprotocol/logLevel': 'loud' })
    expect(m.error?.code).toBe(-32602)
  })

  it('the result MUST include a resultType field, and carries the serverInfo in _meta', async () => {
    for (const [method, params] of [
      ['tools/list', {}],
      ['prompts/list', {}],
      ['prompts/get', { name: 'greet' }],
      ['resources/list', {}],
      ['resources/templates/list', {}],
      ['resources/read', { uri: 'docs://readme' }],
    ] as const) {
      const m = await modern(serverWith(), method, params)
      expect(m.result.resultType, method).toBe('complete')
      expect(m.result._meta['io.modelcontextprotocol/serverInfo'], method).toEqual({ name: 'dual', version: '3.1.4' })
    }
  })

  it.each(['ping', 'logging/setLevel', 'initialize', 'resources/subscribe'])('%s is not part of 2026-07-28: -32601', async (method) => {
    const m = await modern(serverWith(), method, { level: 'info', uri: 'docs://readme', protocolVersion: V })
    expect(m.error?.code).toBe(-32601)
  })
})

describe('2026-07-28: resultType', () => {
  it('a result that names its own resultType (an extension such as tasks: "task") keeps it, without caching hints', async () => {
    const task = emcp({ name: 'later', description: 'Answers with a task handle.', input: { type: 'object' } })
    const server = mcpServer([task], { name: 't', version: '1' }).implement({
      later: () => ({ content: [], resultType: 'task', task: { taskId: 't-1', status: 'working' } }) as never,
    }) as unknown as Server
    const m = await modern(server, 'tools/call', { name: 'later', arguments: {} })
    expect(m.result).toMatchObject({ resultType: 'task', task: { taskId: 't-1' }, _meta: { 'io.modelcontextprotocol/serverInfo': { name: 't', version: '1' } } })
  })
})

describe('2026-07-28: caching hints', () => {
  it('Servers MUST include caching hints (ttlMs >= 0, cacheScope) on tools/list, prompts/list, resources/list, resources/templates/list and resources/read', async () => {
    const server = serverWith({ cache: { ttlMs: 60_000, cacheScope: 'public', methods: { 'resources/read': { ttlMs: 0, cacheScope: 'private' } } } })
    for (const method of ['tools/list', 'prompts/list', 'resources/list', 'resources/templates/list'])
      expect((await modern(server, method)).result, method).toMatchObject({ ttlMs: 60_000, cacheScope: 'public' })
    expect((await modern(server, 'resources/read', { uri: 'docs://readme' })).result).toMatchObject({ ttlMs: 0, cacheScope: 'private' })
    expect((await modern(server, 'tools/call', { name: 'echo', arguments: { text: 'x' } })).result.ttlMs).toBeUndefined()
  })

  it('refuses hints that are not hints', () => {
    expect(() => serverWith({ cache: { ttlMs: -1 } })).toThrow(/ttlMs/)
    expect(() => serverWith({ cache: { methods: { 'tools/call': {} } as never } })).toThrow(/tools\/call/)
  })
})

describe('2026-07-28: errors', () => {
  it('a resource that is not there is -32602 in 2026-07-28 and -32002 for a 2025-11-25 client', async () => {
    const server = serverWith()
    expect((await modern(server, 'resources/read', { uri: 'docs://nothing' })).error?.code).toBe(-32602)
    const s = newSession()
    await send(server, 'initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } }, s)
    expect((await send(server, 'resources/read', { uri: 'docs://nothing' }, s)).error?.code).toBe(-32002)
  })
})

describe('2026-07-28: logging', () => {
  it('the server MUST NOT emit notifications/message for a request that does not include io.modelcontextprotocol/logLevel', async () => {
    const { session, sent } = recording()
    await modern(serverWith(), 'tools/call', { name: 'chatty', arguments: {} }, session)
    expect(sent).toEqual([])
  })

  it('with a level in _meta, sends the messages at or above it, for that request only', async () => {
    const { session, sent } = recording()
    await modern(serverWith(), 'tools/call', { name: 'chatty', arguments: {} }, session, { 'io.modelcontextprotocol/logLevel': 'info' })
    expect(sent.map((m) => (m as unknown as { params: { level: string } }).params.level)).toEqual(['info', 'error'])
  })
})

describe('both eras on one server value', () => {
  it('initialize still opens a 2025-11-25 conversation, whose results carry no resultType', async () => {
    const server = serverWith()
    const s = newSession()
    const init = await send(server, 'initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } }, s)
    expect(init.result.protocolVersion).toBe('2025-11-25')
    const list = await send(server, 'tools/list', {}, s)
    expect(list.result.resultType).toBeUndefined()
    expect(list.result.ttlMs).toBeUndefined()
    // and a 2026 request on the same connection is served the 2026 way
    const m = await modern(server, 'tools/list', {}, s)
    expect(m.result.resultType).toBe('complete')
    expect((await send(server, 'ping', {}, s)).result).toEqual({})
  })

  it('a server pinned to 2026-07-28 refuses initialize, naming the versions it supports', async () => {
    const server = serverWith({ eras: ['2026-07-28'] })
    const m = await send(server, 'initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } })
    expect(m.error?.code).toBe(-32022)
    expect(m.error?.data.supported).toEqual(['2026-07-28'])
    expect((await modern(server, 'server/discover')).result.supportedVersions).toEqual(['2026-07-28'])
  })

  it('a server pinned to 2025-11-25 knows nothing of server/discover (a dual-era client then falls back to initialize)', async () => {
    const server = serverWith({ eras: ['2025-11-25'] })
    expect((await modern(server, 'server/discover')).error?.code).toBe(-32601)
    expect(() => serverWith({ eras: [] })).toThrow(/eras/)
  })
})

describe('2026-07-28: subscriptions/listen', () => {
  it('acknowledges first, sends only the notifications opted in to, tagged with the subscription id, and ends on cancellation', async () => {
    const server = serverWith()
    const { session, sent } = recording()
    const listening = server.dispatch(
      { jsonrpc: '2.0', id: 'sub-1', method: 'subscriptions/listen', params: { _meta: envelope(), notifications: { toolsListChanged: true, promptsListChanged: true, resourceSubscriptions: ['docs://readme'] } } },
      session,
    )()
    await new Promise((r) => setImmediate(r))
    expect(sent[0]).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/subscriptions/acknowledged',
      params: expect.objectContaining({ _meta: { 'io.modelcontextprotocol/subscriptionId': 'sub-1' } }),
    })
    const acked = (sent[0] as unknown as { params: { notifications: Record<string, unknown> } }).params.notifications
    expect(acked.toolsListChanged).toBe(true)
    expect(acked.resourceSubscriptions).toEqual(['docs://readme'])
    server.disableTool('chatty')
    docs.updated('docs://readme')
    docs.updated('docs://other')
    docs.listChanged()
    expect(sent.slice(1)).toEqual([
      { jsonrpc: '2.0', method: 'notifications/tools/list_changed', params: { _meta: { 'io.modelcontextprotocol/subscriptionId': 'sub-1' } } },
      { jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: 'docs://readme', _meta: { 'io.modelcontextprotocol/subscriptionId': 'sub-1' } } },
    ])
    await server.dispatch({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'sub-1' } }, session)()
    expect(O.isNone(await listening)).toBe(true)
    server.enableTool('chatty')
    expect(sent).toHaveLength(3)
  })

  it('ends gracefully with a result carrying the subscription id when the channel closes', async () => {
    const server = serverWith()
    const { session } = recording()
    const listening = server.dispatch({ jsonrpc: '2.0', id: 7, method: 'subscriptions/listen', params: { _meta: envelope(), notifications: {} } }, session)()
    await new Promise((r) => setImmediate(r))
    session.outbound?.close('shutting down')
    const out = O.toUndefined(await listening) as { result: any }
    expect(out.result).toMatchObject({ resultType: 'complete', _meta: { 'io.modelcontextprotocol/subscriptionId': 7 } })
  })
})
