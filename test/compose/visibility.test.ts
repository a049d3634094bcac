import { describe, expect, it } from 'vitest'
import {
  emcp,
  inMemoryClient,
  mcpServer,
  mount,
  mounted,
  newSession,
  outbound,
  prompt,
  prompts,
  resource,
  resources,
  resourceTemplate,
  type ServerMessage,
  type Session,
} from '../../src/index.js'

const status = emcp({ name: 'status', description: 'Status.', input: { type: 'object' }, tags: ['public'] })
const restart = emcp({ name: 'restart', description: 'Restart.', input: { type: 'object' }, tags: ['admin'] })
const beta = emcp({ name: 'beta', description: 'Beta.', input: { type: 'object' }, tags: ['public', 'beta'] })
const ops = mcpServer([status, restart, beta], { name: 'ops', version: '1' }, {
  features: [
    prompts([prompt({ name: 'incident', description: 'An incident.', tags: ['admin'], get: () => 'incident' }), prompt({ name: 'hello', description: 'Hi.', get: () => 'hi' })]),
    resources([resource({ uri: 'ops://secrets', name: 'secrets', tags: ['admin'], read: () => 's3cret' }), resource({ uri: 'ops://motd', name: 'motd', read: () => 'hi' })]),
  ],
}).implement({ status: () => 'ok', restart: () => 'restarted', beta: () => 'beta' })

const info = { name: 'w', version: '1' }
const names = async (s: Session, server: { dispatch: (m: unknown, s: Session) => () => Promise<unknown> }, method = 'tools/list', key = 'tools'): Promise<string[]> => {
  const out = (await server.dispatch({ jsonrpc: '2.0', id: 1, method, params: {} }, s)()) as { value: { result: { [k: string]: { name: string }[] } } }
  return JSON.parse(JSON.stringify(out.value.result))[key].map((e: { name: string }) => e.name)
}
const call = async (server: { dispatch: (m: unknown, s: Session) => () => Promise<unknown> }, s: Session, method: string, params: unknown) =>
  JSON.parse(JSON.stringify(await server.dispatch({ jsonrpc: '2.0', id: 2, method, params }, s)())).value as { result?: unknown; error?: { code: number; message: string } }
const admin = (): Session => {
  const s = newSession()
  s.identity = { subject: 'root', roles: ['admin'], scopes: ['ops:admin'] }
  return s
}

describe('visibility: tags', () => {
  it('lists tags in _meta', async () => {
    const listed = await inMemoryClient(ops).list()
    expect(listed.find((t) => t.name === 'restart')?._meta).toEqual({ 'emcp/tags': ['admin'] })
  })

  it('include and exclude at the mount level hide tools, prompts and resources, and refuse their call, get and read', async () => {
    const w = mount([mounted(ops, 'ops', { exclude: ['admin'] })], info)
    const s = newSession()
    expect(await names(s, w)).toEqual(['ops_status', 'ops_beta'])
    expect(await names(s, w, 'prompts/list', 'prompts')).toEqual(['ops_hello'])
    expect(await names(s, w, 'resources/list', 'resources')).toEqual(['ops_motd'])
    expect((await call(w, s, 'tools/call', { name: 'ops_restart', arguments: {} })).error).toMatchObject({ code: -32602, message: 'Unknown tool: ops_restart' })
    expect((await call(w, s, 'prompts/get', { name: 'ops_incident' })).error?.code).toBe(-32602)
    expect((await call(w, s, 'resources/read', { uri: 'ops://secrets' })).error?.code).toBe(-32002)
    expect((await call(w, s, 'resources/read', { uri: 'ops://motd' })).result).toBeDefined()
  })

  it('include and exclude at the server level combine with the part level', async () => {
    const w = mount([mounted(ops, '', { include: ['public'] })], info, { exclude: ['beta'] })
    expect(await names(newSession(), w)).toEqual(['status'])
  })

  it('refuses tags that are not a list of strings', () => {
    expect(() => mount([ops], info, { include: ['ok', 3 as never] })).toThrow('tags must be a list of 1-128 character strings')
    expect(() => mcpServer([{ ...status, tags: 'admin' } as never], info)).toThrow('tags must be a list')
  })
})

describe('visibility: enabled(ctx)', () => {
  it('sees the client info, capabilities, identity and scopes per request; what is hidden cannot be called', async () => {
    const asked: string[] = []
    const w = mount([ops], info, {
      enabled: (ctx) => {
        asked.push(`${ctx.kind}:${ctx.name}:${ctx.clientInfo?.name ?? '-'}`)
        return !ctx.tags.includes('admin') || ctx.scopes.includes('ops:admin')
      },
    })
    const anon = newSession()
    anon.clientInfo = { name: 'cli', version: '1' }
    expect(await names(anon, w)).toEqual(['status', 'beta'])
    expect(asked).toContain('tool:restart:cli')
    expect(await names(admin(), w)).toEqual(['status', 'restart', 'beta'])
    expect((await call(w, anon, 'tools/call', { name: 'restart', arguments: {} })).error?.code).toBe(-32602)
    expect((await call(w, admin(), 'tools/call', { name: 'restart', arguments: {} })).result).toMatchObject({ content: [{ text: 'restarted' }] })
    expect(await names(anon, w, 'prompts/list', 'prompts')).toEqual(['hello'])
    expect(await names(admin(), w, 'prompts/list', 'prompts')).toEqual(['incident', 'hello'])
  })

  it('serves the pages of one view from its cache: the same entries, the same page object', async () => {
    const w = mount([ops], info, { enabled: (ctx) => !ctx.tags.includes('admin') || ctx.scopes.includes('ops:admin') })
    const page = async (s: Session) => ((await w.dispatch({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }, s)()) as { value: { result: unknown } }).value.result
    const [a, b, c] = [await page(newSession()), await page(newSession()), await page(admin())]
    expect(a).toBe(b)
    expect(a).not.toBe(c)
    expect(await page(admin())).toBe(c)
  })
})

describe('visibility: per session', () => {
  it('disables and enables a tool for one session only, telling that session alone', async () => {
    const w = mount([mounted(ops, 'ops', { exclude: ['admin'] })], info)
    const heardA: ServerMessage[] = []
    const heardB: ServerMessage[] = []
    const a = newSession(undefined, outbound((m) => heardA.push(m)))
    const b = newSession(undefined, outbound((m) => heardB.push(m)))
    for (const s of [a, b]) await w.dispatch({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } }, s)()
    w.disableFor(a, 'ops_status')
    w.enableFor(a, 'ops_restart')
    expect(heardA.map((m) => m.method)).toEqual(['notifications/tools/list_changed', 'notifications/tools/list_changed'])
    expect(heardB).toEqual([])
    expect(await names(a, w)).toEqual(['ops_restart', 'ops_beta'])
    expect(await names(b, w)).toEqual(['ops_status', 'ops_beta'])
    expect((await call(w, a, 'tools/call', { name: 'ops_status', arguments: {} })).error?.code).toBe(-32602)
    expect((await call(w, a, 'tools/call', { name: 'ops_restart', arguments: {} })).result).toBeDefined()
    w.disableFor(a, 'ops_hello', 'prompt')
    expect(heardA.at(-1)?.method).toBe('notifications/prompts/list_changed')
    expect(await names(a, w, 'prompts/list', 'prompts')).toEqual([])
  })

  it('disableTool of the whole hides a tool from everyone and tells every client', async () => {
    const w = mount([ops], info)
    const heard: ServerMessage[] = []
    const s = newSession(undefined, outbound((m) => heard.push(m)))
    await w.dispatch({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } }, s)()
    w.disableTool('beta')
    expect(heard.map((m) => m.method)).toEqual(['notifications/tools/list_changed'])
    expect(await names(s, w)).toEqual(['status', 'restart'])
    expect(() => w.disableTool('nope' as never)).toThrow('no tool is named nope')
  })
})

describe('visibility: 2026-07-28 requests and templates', () => {
  it('enabled(ctx) sees the client info and capabilities a 2026-07-28 request declares in its _meta', async () => {
    const seenBy: string[] = []
    const w = mount([ops], info, {
      enabled: (ctx) => {
        seenBy.push(`${ctx.clientInfo?.name ?? '-'}:${ctx.clientCapabilities === undefined ? 'none' : 'caps'}`)
        return ctx.kind !== 'tool' || ctx.name === 'status'
      },
    })
    const c = inMemoryClient(w, { protocolVersion: '2026-07-28' })
    expect((await c.list()).map((t) => t.name)).toEqual(['status'])
    await expect(c.request('tools/call', { name: 'restart', arguments: {} })).rejects.toMatchObject({ code: -32602 })
    expect(seenBy.length).toBeGreaterThan(0)
    expect(seenBy.every((s) => s !== '-:none')).toBe(true)
  })

  it('a tagged template hides its URIs: not listed, not read, not completed', async () => {
    const docs = mcpServer([status], { name: 'docs', version: '1' }, {
      features: [resources([resourceTemplate({ uriTemplate: 'docs://secret/{id}', name: 'secret', tags: ['admin'], read: ({ id }) => `secret ${id}`, complete: { id: () => ['1', '2'] } })])],
    }).implement({ status: () => 'ok' })
    const w = mount([docs], info, { exclude: ['admin'] })
    const s = newSession()
    expect(await names(s, w, 'resources/templates/list', 'resourceTemplates')).toEqual([])
    expect((await call(w, s, 'resources/read', { uri: 'docs://secret/1' })).error?.code).toBe(-32002)
    const open = mount([docs], info)
    // a hidden template is completed as one that does not exist
    const hidden = await call(w, s, 'completion/complete', { ref: { type: 'ref/resource', uri: 'docs://secret/{id}' }, argument: { name: 'id', value: '' } })
    const missing = await call(open, s, 'completion/complete', { ref: { type: 'ref/resource', uri: 'docs://nope/{id}' }, argument: { name: 'id', value: '' } })
    expect(hidden.error?.code).toBe(-32602)
    expect(hidden.error?.message.replace('secret', 'nope')).toBe(missing.error?.message)
    expect((await call(open, s, 'resources/read', { uri: 'docs://secret/1' })).result).toMatchObject({ contents: [{ text: 'secret 1' }] })
    expect((await call(open, s, 'completion/complete', { ref: { type: 'ref/resource', uri: 'docs://secret/{id}' }, argument: { name: 'id', value: '' } })).result).toMatchObject({ completion: { values: ['1', '2'] } })
  })
})
