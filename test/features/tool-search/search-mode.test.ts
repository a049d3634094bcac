/**
 * Tool-search mode through the official SDK clients, over real sockets, in both eras: the
 * 1.32.2 client (2025-11-25) and the 2.4.0 client (2026-07-28) list the gateways and the
 * pinned tool, search, call through call_tool (with the tool's own validation, middleware,
 * scopes and authorization), and send hostile queries.
 */
import { Client as Client2026, StreamableHTTPClientTransport as Http2026 } from '@modelcontextprotocol/client'
import { Client as Client2025 } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport as Http2025 } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { emcp, mcpServer, type Identity } from 'emcp'
import { serveHttp, type RunningHttp } from 'emcp/http'

const add = emcp({
  name: 'add',
  description: 'Add two numbers.',
  input: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'], additionalProperties: false },
  output: { type: 'object', properties: { sum: { type: 'number' } }, required: ['sum'] },
  annotations: { readOnlyHint: true },
})
const greet = emcp({
  name: 'greet_person',
  description: 'Say hello to someone.\nA second line that search answers leave out.',
  input: { type: 'object', properties: { who: { type: 'string', title: 'Person name' } }, required: ['who'] },
})
const wipe = emcp({ name: 'wipe_memory', description: 'Erase the calculator memory.', input: { type: 'object' }, scopes: ['calc:write'] })
const audit = emcp({ name: 'audit_log', description: 'Read the audit log of the calculator.', input: { type: 'object' } })
const mine = emcp({
  name: 'my_orders',
  description: 'The orders of the caller.',
  input: { type: 'object', properties: { userId: { type: 'string' }, limit: { type: 'integer' } }, required: ['userId'], additionalProperties: false },
  claims: { userId: 'sub' },
})
const broken = emcp({ name: 'broken_total', description: 'A total that breaks its contract.', input: { type: 'object' }, output: { type: 'object', properties: { total: { type: 'number' } }, required: ['total'] } })
const squared = emcp({ name: 'square', description: 'Square of a number.', input: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] }, output: { type: 'number' } })

/** The tools the tool-call middleware saw, in order. */
const seen: string[] = []

const server = mcpServer([add, greet, wipe, audit, squared, mine, broken], { name: 'calc', version: '1.0.0' }, {
  toolSearch: { pinned: ['add'] },
  authorize: (tool, session) => tool.name !== 'audit_log' || session.identity?.roles.includes('admin') === true,
  middleware: [
    {
      toolCall: (call, next) => {
        seen.push(call.tool.name)
        return next()
      },
    },
  ],
}).implement({
  add: ({ a, b }) => ({ sum: a + b }),
  greet_person: ({ who }) => `hello ${who}`,
  wipe_memory: () => 'wiped',
  audit_log: () => 'nothing happened',
  square: ({ n }) => n * n,
  my_orders: ({ userId, limit }) => `orders of ${userId} (${limit ?? 'all'})`,
  // a JavaScript caller's mistake the compiler would refuse: the result is checked at run time too
  broken_total: () => ({ total: 'many' }) as never,
})

const identities: { readonly [token: string]: Identity } = {
  writer: { subject: 'wendy', roles: [], scopes: ['calc:write'], claims: { sub: 'wendy' } },
  admin: { subject: 'ada', roles: ['admin'], scopes: [] },
}

let running: RunningHttp
beforeAll(async () => {
  running = await serveHttp(server, { port: 0, auth: { verify: (token) => identities[token] } })
})
afterAll(async () => {
  await running?.close()
})

/** What the tests need of either client. */
interface Caller {
  readonly era: string
  readonly listTools: () => Promise<{ tools: Array<{ name: string; outputSchema?: unknown }> }>
  readonly callTool: (name: string, args: Record<string, unknown>) => Promise<{ content?: unknown; structuredContent?: any; isError?: boolean }>
  readonly close: () => Promise<void>
}

const headers = (token?: string): RequestInit => ({ headers: token === undefined ? {} : { authorization: `Bearer ${token}` } })

const clients: ReadonlyArray<readonly [string, (token?: string) => Promise<Caller>]> = [
  [
    'SDK 1.32.2 (2025-11-25)',
    async (token) => {
      const c = new Client2025({ name: 'v1', version: '1' })
      await c.connect(new Http2025(new URL(running.url), { requestInit: headers(token) }))
      return { era: '2025-11-25', listTools: () => c.listTools(), callTool: (name, args) => c.callTool({ name, arguments: args }) as never, close: () => c.close() }
    },
  ],
  [
    'SDK 2.4.0 (2026-07-28)',
    async (token) => {
      const c = new Client2026({ name: 'v2', version: '1' }, { versionNegotiation: { mode: 'auto' } })
      await c.connect(new Http2026(new URL(running.url), { requestInit: headers(token) }))
      expect(c.getNegotiatedProtocolVersion()).toBe('2026-07-28')
      return { era: '2026-07-28', listTools: () => c.listTools() as never, callTool: (name, args) => c.callTool({ name, arguments: args }) as never, close: () => c.close() }
    },
  ],
]

const textOf = (r: { content?: unknown }): string => ((r.content as Array<{ text?: string }> | undefined) ?? []).map((b) => b.text ?? '').join('\n')

describe.each(clients)('tool search through the %s client', (_label, connect) => {
  let c: Caller
  beforeAll(async () => {
    c = await connect()
  })
  afterAll(async () => {
    await c?.close()
  })

  it('lists search_tools, call_tool and the pinned tool only', async () => {
    const { tools } = await c.listTools()
    expect(tools.map((t) => t.name)).toEqual(['search_tools', 'call_tool', 'add'])
    expect(tools[0]?.outputSchema).toMatchObject({ type: 'object', required: ['tools'] })
  })

  it('search_tools ranks the tools for a query, with one-line descriptions, as structured content and text', async () => {
    const r = await c.callTool('search_tools', { query: 'say hello to a person' })
    expect(r.isError).toBeFalsy()
    const hits = r.structuredContent.tools as Array<{ name: string; description: string; score: number }>
    expect(hits[0]).toMatchObject({ name: 'greet_person', description: 'Say hello to someone.' })
    expect(hits[0]?.score).toBeGreaterThan(0)
    expect(JSON.parse(textOf(r))).toEqual(r.structuredContent)
    const detailed = await c.callTool('search_tools', { query: 'sum of two numbers', limit: 1, details: true })
    expect(detailed.structuredContent.tools).toEqual([
      { name: 'add', description: 'Add two numbers.', score: expect.any(Number), inputSchema: add.inputSchema, outputSchema: add.outputSchema, annotations: { readOnlyHint: true } },
    ])
  })

  it('search_tools leaves out what the caller may not see: a tool needing a scope, a tool its authorization refuses', async () => {
    const r = await c.callTool('search_tools', { query: 'erase memory audit log calculator', limit: 50 })
    const names = (r.structuredContent.tools as Array<{ name: string }>).map((h) => h.name)
    expect(names).not.toContain('wipe_memory')
    expect(names).not.toContain('audit_log')
  })

  it('call_tool runs the named tool with its own validation and middleware, and answers its result', async () => {
    const before = seen.length
    const r = await c.callTool('call_tool', { name: 'add', arguments: { a: 2, b: 3 } })
    expect(r.structuredContent).toEqual({ sum: 5 })
    expect(seen.slice(before)).toEqual(['add'])
    const greeted = await c.callTool('call_tool', { name: 'greet_person', arguments: { who: 'Ada' } })
    expect(textOf(greeted)).toBe('hello Ada')
  })

  it('call_tool of a tool with a non-object output answers in the shape of the era', async () => {
    const r = await c.callTool('call_tool', { name: 'square', arguments: { n: 4 } })
    expect(r.structuredContent).toEqual(c.era === '2025-11-25' ? { result: 16 } : 16)
    const found = await c.callTool('search_tools', { query: 'square of a number', limit: 1, details: true })
    expect(found.structuredContent.tools[0].outputSchema).toMatchObject(c.era === '2025-11-25' ? { type: 'object', properties: { result: { type: 'number' } } } : { type: 'number' })
  })

  it('call_tool answers invalid arguments with an isError naming the tool and the path', async () => {
    const r = await c.callTool('call_tool', { name: 'add', arguments: { a: 'two', b: 3 } })
    expect(r.isError).toBe(true)
    expect(textOf(r)).toMatch(/^Invalid arguments for tool add: \/a: /)
    const own = await c.callTool('call_tool', { name: 'add', arguments: 'a=1' as never })
    expect(own.isError).toBe(true)
    expect(textOf(own)).toBe('Invalid arguments for tool call_tool: /arguments: must be an object')
    const flat = await c.callTool('call_tool', { name: 'add', a: 1 })
    expect(textOf(flat)).toMatch(/^Invalid arguments for tool call_tool: \(root\): unexpected property a/)
    const nameless = await c.callTool('call_tool', {})
    expect(textOf(nameless)).toMatch(/\/name: is required/)
  })

  it('call_tool of a name no tool has answers an isError with the nearest names', async () => {
    const r = await c.callTool('call_tool', { name: 'greet', arguments: {} })
    expect(r.isError).toBe(true)
    expect(textOf(r)).toBe('call_tool: no tool is named greet; the nearest: greet_person. Find tools with search_tools.')
    const typo = await c.callTool('call_tool', { name: 'ad', arguments: {} })
    expect(textOf(typo)).toMatch(/the nearest: add\b/)
    const self = await c.callTool('call_tool', { name: 'call_tool', arguments: { name: 'add' } })
    expect(textOf(self)).toMatch(/call_tool cannot call itself/)
  })

  it('call_tool refuses what the caller could not call directly: scopes and authorization, and the nearest names never reveal hidden tools', async () => {
    await expect(c.callTool('call_tool', { name: 'wipe_memory', arguments: {} })).rejects.toThrow(/calc:write/)
    await expect(c.callTool('call_tool', { name: 'audit_log', arguments: {} })).rejects.toThrow(/may not call tool audit_log/)
    const near = await c.callTool('call_tool', { name: 'audit_lo', arguments: {} })
    expect(textOf(near)).not.toMatch(/audit_log/)
  })

  it("call_tool checks the tool's result against its output schema, and refuses a claim-bound argument without a token to fill it", async () => {
    const r = await c.callTool('call_tool', { name: 'broken_total', arguments: {} })
    expect(r.isError).toBe(true)
    expect(textOf(r)).toMatch(/^Tool broken_total returned a result that does not match its output schema: \/total/)
    await expect(c.callTool('call_tool', { name: 'my_orders', arguments: {} })).rejects.toThrow(/sub/)
    const sent = await c.callTool('call_tool', { name: 'my_orders', arguments: { userId: 'mallory' } })
    expect(textOf(sent)).toMatch(/userId: filled from the caller's token; do not send it/)
  })

  it('a direct call of a tool search mode does not list still works', async () => {
    const r = await c.callTool('greet_person', { who: 'Lin' })
    expect(textOf(r)).toBe('hello Lin')
  })

  it('answers hostile queries with a clear isError or a well-formed empty answer', async () => {
    const huge = await c.callTool('search_tools', { query: 'add '.repeat(100_000) })
    expect(huge.isError).toBe(true)
    expect(textOf(huge)).toMatch(/^Invalid arguments for tool search_tools: \/query: /)
    expect(textOf(huge).length).toBeLessThan(1000)
    const empty = await c.callTool('search_tools', { query: '' })
    expect(empty.isError).toBe(true)
    // a word that starts with an object's inherited key and ends with a known part (`constructor` + `square`)
    const inherited = await c.callTool('search_tools', { query: 'constructorsquare' })
    expect(inherited.isError).toBeFalsy()
    expect(inherited.structuredContent).toEqual({ tools: [] })
    for (const query of ['¿Cuántos instantes? 数字 🚀 \u0000\u202e', '   ', '!!! ??? ...', 'the of a an']) {
      const r = await c.callTool('search_tools', { query })
      expect(r.isError).toBeFalsy()
      expect(r.structuredContent).toEqual({ tools: [] })
    }
    const accented = await c.callTool('search_tools', { query: 'Sày hèllo' })
    expect(accented.structuredContent.tools[0]?.name).toBe('greet_person')
    const limit = await c.callTool('search_tools', { query: 'number', limit: 51 })
    expect(textOf(limit)).toMatch(/\/limit: /)
  })

  it('answers hostile call_tool arguments without echoing them, and refuses what nests too deeply', async () => {
    const long = await c.callTool('call_tool', { name: 'x'.repeat(100_000), arguments: {} })
    expect(textOf(long)).toBe('Invalid arguments for tool call_tool: /name: must have 1 to 128 characters, not 100000')
    const typed = await c.callTool('search_tools', { query: { $gt: '' } as never })
    expect(typed.isError).toBe(true)
    const extra = await c.callTool('call_tool', { name: 'add', ['k'.repeat(50_000)]: 1 })
    expect(textOf(extra).length).toBeLessThan(400)
    let deep: unknown = {}
    for (let i = 0; i < 1000; i++) deep = { deep }
    await expect(c.callTool('call_tool', { name: 'add', arguments: deep as Record<string, unknown> })).rejects.toThrow(/nest|depth|deep/i)
    // and the server still answers
    expect((await c.callTool('call_tool', { name: 'add', arguments: { a: 1, b: 1 } })).structuredContent).toEqual({ sum: 2 })
  })
})

describe('tool search for an authenticated caller', () => {
  it.each(clients)('the %s client with a token of the scope and the role reaches those tools by search and call_tool', async (_label, connect) => {
    for (const [token, tool] of [['writer', 'wipe_memory'], ['admin', 'audit_log']] as const) {
      const c = await connect(token)
      try {
        const found = await c.callTool('search_tools', { query: tool.replace('_', ' ') })
        expect(found.structuredContent.tools[0]?.name).toBe(tool)
        const r = await c.callTool('call_tool', { name: tool, arguments: {} })
        expect(r.isError).toBeFalsy()
        if (token === 'writer') expect(textOf(await c.callTool('call_tool', { name: 'my_orders', arguments: { limit: 2 } }))).toBe('orders of wendy (2)')
      } finally {
        await c.close()
      }
    }
  })
})
