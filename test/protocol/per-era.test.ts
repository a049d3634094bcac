/**
 * The same protocol behaviour asked of both eras through one server value: each case runs
 * once as a 2025-11-25 conversation (initialize first) and once as 2026-07-28 requests
 * (revision and capabilities in `_meta`); where the eras differ, the expectation says how.
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
  resourceTemplate,
  toolError,
  type Era,
  type Server,
  type ServerMessage,
  type Session,
} from '../../src/index.js'

const add = emcp({
  name: 'add',
  description: 'Add two numbers.',
  input: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'], additionalProperties: false },
  output: { type: 'object', properties: { sum: { type: 'number' } }, required: ['sum'] },
})
const fail = emcp({ name: 'fail', description: 'Fails on purpose.', input: { type: 'object' } })
const slow = emcp({ name: 'slow', description: 'Reports progress, then waits to be cancelled.', input: { type: 'object' } })
const tools = Array.from({ length: 5 }, (_, i) => emcp({ name: `t${i}`, description: `Tool ${i}.`, input: { type: 'object' } }))

const server = mcpServer([add, fail, slow, ...tools] as any, { name: 'both', version: '1.0.0' }, {
  pageSize: 3,
  features: [
    resources([
      resource({ uri: 'a://one', name: 'one', read: () => 'one' }),
      resourceTemplate({ uriTemplate: 'a://items/{id}', name: 'item', read: ({ id }) => (id === 'none' ? undefined : `item ${id}`), complete: { id: (v) => ['apple', 'avocado', 'banana'].filter((x) => x.startsWith(v)) } }),
    ]),
    prompts([prompt({ name: 'hi', description: 'Says hi.', arguments: { who: { required: true } }, get: ({ who }) => `hi ${who}` })]),
  ],
}).implement({
  add: ({ a, b }: { a: number; b: number }) => ({ sum: a + b }),
  fail: () => toolError('it failed'),
  slow: async (_args: unknown, ctx: any) => {
    ctx.progress(1, 2, 'half')
    await new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve(), { once: true }))
    return 'stopped'
  },
  ...Object.fromEntries(tools.map((t) => [t.name, () => t.name])),
} as any) as unknown as Server

let id = 1
/** A conversation in one era over a channel that records what the server sends on its own. */
const conversation = async (era: Era) => {
  const sent: ServerMessage[] = []
  const session: Session = newSession(undefined, outbound((m) => sent.push(m)))
  const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} }
  const withMeta = (params: Record<string, unknown>) =>
    era === '2026-07-28' ? { ...params, _meta: { ...meta, ...(params._meta as object | undefined) } } : params
  const send = (method: string, params: Record<string, unknown> = {}, requestId: number = id++) =>
    server.dispatch({ jsonrpc: '2.0', id: requestId, method, params: withMeta(params) }, session)()
  const ask = async (method: string, params: Record<string, unknown> = {}) => {
    const out = await send(method, params)
    if (O.isNone(out)) throw new Error(`no answer to ${method}`)
    return JSON.parse(encode(out.value)) as { result?: any; error?: { code: number; message: string; data?: any } }
  }
  if (era === '2025-11-25') await ask('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } })
  return { ask, send, sent, session }
}

describe.each<Era>(['2025-11-25', '2026-07-28'])('in %s', (era) => {
  const modern = era === '2026-07-28'

  it('tools/list pages through every tool with opaque cursors; a foreign cursor is -32602', async () => {
    const c = await conversation(era)
    const names: string[] = []
    let cursor: string | undefined
    do {
      const page = await c.ask('tools/list', cursor === undefined ? {} : { cursor })
      expect(page.result.resultType).toBe(modern ? 'complete' : undefined)
      names.push(...page.result.tools.map((t: { name: string }) => t.name))
      cursor = page.result.nextCursor
    } while (cursor !== undefined)
    expect(names).toEqual(['add', 'fail', 'slow', 't0', 't1', 't2', 't3', 't4'])
    expect((await c.ask('tools/list', { cursor: 'bogus' })).error?.code).toBe(-32602)
  })

  it('tools/call: a conforming structured result with the same JSON as text; invalid arguments and tool errors are isError results; an unknown tool is -32602', async () => {
    const c = await conversation(era)
    const ok = await c.ask('tools/call', { name: 'add', arguments: { a: 2, b: 3 } })
    expect(ok.result.structuredContent).toEqual({ sum: 5 })
    expect(JSON.parse(ok.result.content[0].text)).toEqual({ sum: 5 })
    const invalid = await c.ask('tools/call', { name: 'add', arguments: { a: 'two' } })
    expect(invalid.result.isError).toBe(true)
    expect(invalid.result.content[0].text).toMatch(/\/a: must be number/)
    expect(invalid.result.content[0].text).toMatch(/\/b: is required/)
    expect((await c.ask('tools/call', { name: 'fail', arguments: {} })).result).toMatchObject({ isError: true, content: [{ text: 'it failed' }] })
    expect((await c.ask('tools/call', { name: 'nope', arguments: {} })).error?.code).toBe(-32602)
  })

  it('progress goes to the caller while the call runs, and notifications/cancelled stops it with no answer', async () => {
    const c = await conversation(era)
    const pending = c.send('tools/call', { name: 'slow', arguments: {}, _meta: { progressToken: 'p1' } }, 9001)
    await new Promise((r) => setTimeout(r, 10))
    expect(c.sent).toEqual([{ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'p1', progress: 1, total: 2, message: 'half' } }])
    await server.dispatch({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 9001 } }, c.session)()
    expect(O.isNone(await pending)).toBe(true)
  })

  it('resources: read and template read; a URI nothing serves is -32002 in 2025-11-25 and -32602 in 2026-07-28', async () => {
    const c = await conversation(era)
    expect((await c.ask('resources/read', { uri: 'a://one' })).result.contents).toEqual([{ uri: 'a://one', text: 'one' }])
    expect((await c.ask('resources/read', { uri: 'a://items/7' })).result.contents).toEqual([{ uri: 'a://items/7', text: 'item 7' }])
    const missing = await c.ask('resources/read', { uri: 'a://items/none' })
    expect(missing.error?.code).toBe(modern ? -32602 : -32002)
    expect(missing.error?.data).toEqual({ uri: 'a://items/none' })
  })

  it('prompts/get fills the arguments; a missing required one is -32602', async () => {
    const c = await conversation(era)
    expect((await c.ask('prompts/get', { name: 'hi', arguments: { who: 'Jo' } })).result.messages[0].content.text).toBe('hi Jo')
    expect((await c.ask('prompts/get', { name: 'hi', arguments: {} })).error?.code).toBe(-32602)
  })

  it('completion/complete suggests values for a template variable', async () => {
    const c = await conversation(era)
    const m = await c.ask('completion/complete', { ref: { type: 'ref/resource', uri: 'a://items/{id}' }, argument: { name: 'id', value: 'a' } })
    expect(m.result.completion.values).toEqual(['apple', 'avocado'])
  })

  it(modern ? 'ping is not part of 2026-07-28 (-32601)' : 'ping answers {}', async () => {
    const c = await conversation(era)
    const m = await c.ask('ping')
    if (modern) expect(m.error?.code).toBe(-32601)
    else expect(m.result).toEqual({})
  })
})
