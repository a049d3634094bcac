import { describe, expect, it } from 'vitest'
import * as O from 'fp-ts/lib/Option.js'
import { calculator } from '../../examples/calculator.js'
import { emcp, encode, mcpServer, newSession, supportedVersions, type AnyTool, type Server, type Session } from '../../src/index.js'

describe('server: tools/call', () => {
  it('answers add(2, 3) with structuredContent.sum === 5 and the same JSON as text', async () => {
    const out = await calculator.dispatch(
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'add', arguments: { a: 2, b: 3 } } },
      newSession(),
    )()
    expect(O.isSome(out)).toBe(true)
    const m = O.toUndefined(out) as { result: { structuredContent: { sum: number }; content: { text: string }[] } }
    expect(m.result.structuredContent.sum).toBe(5)
    expect(JSON.parse(m.result.content[0]!.text)).toEqual({ sum: 5 })
  })
})

// ---------------------------------------------------------------------------------------
// the dispatcher around the tools: initialize, ping, tools/list, routing, notifications

const tool = (name: string): AnyTool => emcp({ name: name as string, description: `Tool ${name}.`, input: { type: 'object' } })

const five = [tool('e'), tool('a'), tool('d'), tool('b'), tool('c')]

const serverOf = (pageSize?: number, instructions?: string) =>
  mcpServer(five as any, { name: 'five', version: '2.0.0' }, { pageSize, instructions }).implement(
    Object.fromEntries(five.map((t) => [t.name, () => t.name])) as any,
  )

const paged = serverOf(2)
const unpaged = serverOf()

let id = 100

/** Sends one request through the dispatcher; the answer as a client would read it off the wire. */
const ask = async (
  server: Server,
  method: string,
  params?: unknown,
  session: Session = newSession(),
) => {
  const out = await server.dispatch({ jsonrpc: '2.0', id: id++, method, ...(params === undefined ? {} : { params }) }, session)()
  if (O.isNone(out)) throw new Error(`no answer to ${method}`)
  return JSON.parse(encode(out.value)) as {
    id: unknown
    result?: any
    error?: { code: number; message: string }
  }
}

describe('server: initialize', () => {
  it.each(['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'])(
    'echoes the supported version %s (MCP: if the server supports the requested version, it MUST respond with the same version)',
    async (version) => {
      const session = newSession()
      const m = await ask(calculator, 'initialize', { protocolVersion: version, capabilities: {}, clientInfo: { name: 'c', version: '1' } }, session)
      expect(m.result.protocolVersion).toBe(version)
      expect(session.protocolVersion).toBe(version)
    },
  )

  it('answers an unsupported version with its latest, 2025-11-25 (MCP: otherwise it MUST respond with another version it supports)', async () => {
    const m = await ask(calculator, 'initialize', { protocolVersion: '1999-01-01', capabilities: {}, clientInfo: { name: 'c', version: '1' } })
    expect(m.result.protocolVersion).toBe('2025-11-25')
    expect(supportedVersions).toContain(m.result.protocolVersion)
  })

  it('sends serverInfo, capabilities and instructions', async () => {
    const m = await ask(calculator, 'initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } })
    expect(m.result).toEqual({
      protocolVersion: '2025-11-25',
      capabilities: { tools: { listChanged: true }, logging: {} },
      serverInfo: { name: 'calculator', version: '1.0.0', title: 'Calculator' },
      instructions: 'Use add for sums, add_days for calendar arithmetic, echo to test the connection.',
    })
  })

  it('carries every serverInfo field given and leaves out the undefined ones and absent instructions', async () => {
    const s = mcpServer([tool('x')] as any, {
      name: 'full',
      version: '3',
      title: undefined,
      description: 'A server.',
      icons: [{ src: 'https://example.com/i.png' }],
      websiteUrl: 'https://example.com',
    }).implement({ x: () => 'x' } as any)
    const m = await ask(s, 'initialize', { protocolVersion: '2025-11-25' })
    expect(m.result.serverInfo).toEqual({
      name: 'full',
      version: '3',
      description: 'A server.',
      icons: [{ src: 'https://example.com/i.png' }],
      websiteUrl: 'https://example.com',
    })
    expect('instructions' in m.result).toBe(false)
  })

  it('records the client in the session', async () => {
    const session = newSession()
    await ask(calculator, 'initialize', { protocolVersion: '2025-06-18', capabilities: { sampling: {} }, clientInfo: { name: 'inspector', version: '0.9' } }, session)
    expect(session.clientInfo).toEqual({ name: 'inspector', version: '0.9' })
    expect(session.clientCapabilities).toEqual({ sampling: {} })
    expect(session.initialized).toBe(false)
    const none = await calculator.dispatch({ jsonrpc: '2.0', method: 'notifications/initialized' }, session)()
    expect(O.isNone(none)).toBe(true)
    expect(session.initialized).toBe(true)
  })

  it.each([[undefined], [{}], [{ protocolVersion: 20250618 }]])('answers params %j without a string protocolVersion with -32602', async (params) => {
    const m = await ask(calculator, 'initialize', params)
    expect(m.error?.code).toBe(-32602)
  })
})

describe('server: ping', () => {
  it('answers ping with an empty result (MCP: the receiver MUST respond promptly with an empty response)', async () => {
    const m = await ask(calculator, 'ping')
    expect(m).toEqual({ jsonrpc: '2.0', id: m.id, result: {} })
  })

  it('answers ping before initialize', async () => {
    expect((await ask(calculator, 'ping', undefined, newSession())).result).toEqual({})
  })
})

describe('server: tools/list', () => {
  it('lists every tool in the order given, in one page without nextCursor by default', async () => {
    const m = await ask(unpaged, 'tools/list')
    expect(m.result.tools.map((t: { name: string }) => t.name)).toEqual(['e', 'a', 'd', 'b', 'c'])
    expect('nextCursor' in m.result).toBe(false)
  })

  it('lists the wire fields of a tool and never its schema slots', async () => {
    const m = await ask(calculator, 'tools/list')
    const add = m.result.tools[0]
    expect(add).toEqual({
      name: 'add',
      title: 'Add',
      description: 'Add two numbers and return their sum.',
      inputSchema: {
        type: 'object',
        properties: { a: { type: 'number', description: 'First addend' }, b: { type: 'number', description: 'Second addend' } },
        required: ['a', 'b'],
        additionalProperties: false,
      },
      outputSchema: { type: 'object', properties: { sum: { type: 'number' } }, required: ['sum'], additionalProperties: false },
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    })
    const echo = m.result.tools[1]
    expect('outputSchema' in echo).toBe(false)
    expect('input' in echo || 'output' in echo).toBe(false)
  })

  it('lists the schemas derived from io-ts codecs', async () => {
    const m = await ask(calculator, 'tools/list')
    const addDays = m.result.tools.find((t: { name: string }) => t.name === 'add_days')
    expect(addDays.inputSchema).toEqual({
      type: 'object',
      properties: { date: { type: 'string', format: 'date-time' }, days: { type: 'integer' } },
      required: ['date', 'days'],
    })
    expect(addDays.outputSchema.properties.weekday.enum).toContain('Monday')
  })

  it('pages with pageSize and follows nextCursor to the end, where the chain stops', async () => {
    const names: string[][] = []
    let cursor: string | undefined
    let pages = 0
    do {
      const m = await ask(paged, 'tools/list', cursor === undefined ? undefined : { cursor })
      names.push(m.result.tools.map((t: { name: string }) => t.name))
      cursor = m.result.nextCursor
      expect(cursor === undefined || typeof cursor === 'string').toBe(true)
      pages++
    } while (cursor !== undefined && pages < 10)
    expect(names).toEqual([['e', 'a'], ['d', 'b'], ['c']])
  })

  it('answers the same page to the same cursor (cursors are stable)', async () => {
    const first = await ask(paged, 'tools/list')
    const a = await ask(paged, 'tools/list', { cursor: first.result.nextCursor })
    const b = await ask(paged, 'tools/list', { cursor: first.result.nextCursor })
    expect(a.result).toEqual(b.result)
  })

  it('treats empty params like no params', async () => {
    expect((await ask(paged, 'tools/list', {})).result.tools).toHaveLength(2)
  })

  it('has no nextCursor when pageSize equals the number of tools', async () => {
    const m = await ask(serverOf(5), 'tools/list')
    expect(m.result.tools).toHaveLength(5)
    expect('nextCursor' in m.result).toBe(false)
  })

  it.each([['garbage'], [''], ['ZW1jcC1wYWdlOjA'], [7], [null], [{}]])('answers the invalid cursor %j with -32602', async (cursor) => {
    const m = await ask(paged, 'tools/list', { cursor })
    expect(m.error?.code).toBe(-32602)
  })

  it('answers a cursor past the end with -32602', async () => {
    // walk a server with five pages to its last cursor, then give it to a server with three
    const fine = serverOf(1)
    let cursor: string | undefined
    for (let i = 0; i < 4; i++) cursor = (await ask(fine, 'tools/list', cursor === undefined ? undefined : { cursor })).result.nextCursor
    expect(typeof cursor).toBe('string')
    expect((await ask(fine, 'tools/list', { cursor })).result.tools.map((t: { name: string }) => t.name)).toEqual(['c'])
    expect((await ask(paged, 'tools/list', { cursor })).error?.code).toBe(-32602)
  })
})

describe('server: routing and notifications', () => {
  it('never answers a notification (MCP: the receiver MUST NOT send a response)', async () => {
    for (const method of ['notifications/initialized', 'notifications/cancelled', 'notifications/unknown', 'tools/list', 'ping']) {
      const out = await calculator.dispatch({ jsonrpc: '2.0', method, params: { requestId: 1 } }, newSession())()
      expect(O.isNone(out)).toBe(true)
    }
  })

  it('never answers a response from the peer', async () => {
    expect(O.isNone(await calculator.dispatch({ jsonrpc: '2.0', id: 1, result: {} }, newSession())())).toBe(true)
  })

  it('answers a request whose method is a notifications/* method with -32600', async () => {
    const m = await ask(calculator, 'notifications/initialized')
    expect(m.error?.code).toBe(-32600)
  })

  it.each(['resources/list', 'prompts/list', 'nope', 'tools/unknown'])('answers the unknown method %s with -32601', async (method) => {
    const m = await ask(calculator, method)
    expect(m.error?.code).toBe(-32601)
    expect(m.error?.message).toContain(method)
  })

  it('answers with the id of the request, string or number', async () => {
    for (const rid of ['abc', 0, -3, 'x'.repeat(50)]) {
      const out = await calculator.dispatch({ jsonrpc: '2.0', id: rid, method: 'ping' }, newSession())()
      expect(O.toUndefined(out)).toEqual({ jsonrpc: '2.0', id: rid, result: {} })
    }
  })

  it('answers JSON text through dispatchText, and nothing for a notification', async () => {
    const out = await calculator.dispatchText('{"jsonrpc":"2.0","id":9,"method":"ping"}', newSession())()
    expect(O.toUndefined(out)).toBe('{"jsonrpc":"2.0","id":9,"result":{}}')
    expect(O.isNone(await calculator.dispatchText('{"jsonrpc":"2.0","method":"notifications/initialized"}', newSession())())).toBe(true)
  })

  it('answers JSON text through answerText at once when the handler is synchronous, through a promise when it is not', async () => {
    const now = emcp({ name: 'now', description: 'Answers at once.', input: { type: 'object' } })
    const later = emcp({ name: 'later', description: 'Answers after a turn.', input: { type: 'object' } })
    const s = mcpServer([now, later], { name: 'sync', version: '1' }).implement({ now: () => 'now', later: async () => 'later' })
    const call = (id: number, name: string) => JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: {} } })
    const sync = s.answerText(call(1, 'now'), newSession())
    expect(sync).not.toBeInstanceOf(Promise)
    expect(JSON.parse(O.toUndefined(sync as O.Option<string>) ?? 'null').result.content[0].text).toBe('now')
    const async = s.answerText(call(2, 'later'), newSession())
    expect(async).toBeInstanceOf(Promise)
    expect(JSON.parse(O.toUndefined(await async) ?? 'null').result.content[0].text).toBe('later')
    // a syntax error and a notification are answered at once too
    expect(O.toUndefined(s.answerText('{"jsonrpc":', newSession()) as O.Option<string>)).toMatch(/"id":null,"error":\{"code":-32700/)
    expect(O.isNone(s.answerText('{"jsonrpc":"2.0","method":"notifications/initialized"}', newSession()) as O.Option<string>)).toBe(true)
  })

  it('answers tools/call before initialize (stateless use), with the assumed session', async () => {
    const m = await ask(calculator, 'tools/call', { name: 'echo', arguments: { text: 'hi' } })
    expect(m.result).toEqual({ content: [{ type: 'text', text: 'hi' }] })
  })

  it('exposes its tools in the order given, its info and its options', () => {
    expect(calculator.tools.map((t) => t.name)).toEqual(['add', 'echo', 'add_days'])
    expect(calculator.info).toEqual({ name: 'calculator', version: '1.0.0', title: 'Calculator' })
    expect(calculator.options.instructions).toMatch(/^Use add for sums/)
  })
})

// ---------------------------------------------------------------------------------------
// the conversation: one initialize, cancellation, batches where the revision allows them

const hello = { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } }

describe('server: the session lifecycle', () => {
  it('refuses a second initialize in the same session with -32600', async () => {
    const session = newSession()
    expect((await ask(calculator, 'initialize', hello, session)).result.protocolVersion).toBe('2025-11-25')
    const again = await ask(calculator, 'initialize', { ...hello, protocolVersion: '2024-11-05' }, session)
    expect(again.error).toMatchObject({ code: -32600 })
    expect(again.error?.message).toContain('already initialized')
    expect(session.protocolVersion).toBe('2025-11-25')
  })
})

describe('server: cancellation (notifications/cancelled)', () => {
  let release: () => void = () => {}
  const slow = emcp({ name: 'slow', description: 'Waits until released or aborted.', input: { type: 'object' } })
  const server = mcpServer([slow], { name: 'slow', version: '1' }).implement({
    slow: (_args, ctx) =>
      new Promise<string>((resolve) => {
        release = () => resolve('finished')
        ctx.signal.addEventListener('abort', () => resolve(`aborted: ${String(ctx.signal.reason)}`))
      }),
  })

  it('aborts the handler signal with the reason and sends no answer for the cancelled request (MCP: receivers SHOULD NOT send a response)', async () => {
    const session = newSession()
    const seen: string[] = []
    const pending = server.dispatch({ jsonrpc: '2.0', id: 'c1', method: 'tools/call', params: { name: 'slow', arguments: {} } }, session)()
    expect(session.inFlight.has('c1')).toBe(true)
    const cancelled = await server.dispatch({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'c1', reason: 'user pressed stop' } }, session)()
    expect(O.isNone(cancelled)).toBe(true)
    const out = await pending
    if (O.isSome(out)) seen.push('answered')
    expect(seen).toEqual([])
    expect(session.inFlight.size).toBe(0)
    expect(session.cancelled.size).toBe(0)
  })

  it('release (the transport let the session go) aborts the calls still running, and their answers are not sent', async () => {
    const session = newSession()
    let reason: unknown
    const watching = mcpServer([slow], { name: 'slow', version: '1' }).implement({
      slow: (_args, ctx) =>
        new Promise<string>((resolve) => {
          ctx.signal.addEventListener('abort', () => {
            reason = ctx.signal.reason
            resolve('aborted')
          })
        }),
    })
    const pending = watching.dispatch({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'slow', arguments: {} } }, session)()
    expect(session.inFlight.has(7)).toBe(true)
    watching.release(session)
    expect(O.isNone(await pending)).toBe(true)
    expect(reason).toMatchObject({ name: 'AbortError', message: 'the session ended' })
    expect(session.inFlight.size).toBe(0)
    expect(session.cancelled.size).toBe(0)
  })

  it('ignores a cancellation for an unknown or finished request, and the next call is answered', async () => {
    const session = newSession()
    await server.dispatch({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 99 } }, session)()
    const pending = server.dispatch({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'slow', arguments: {} } }, session)()
    release()
    const out = await pending
    expect(O.isSome(out) && JSON.parse(encode(out.value))).toMatchObject({ id: 1, result: { content: [{ text: 'finished' }] } })
    await server.dispatch({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } }, session)()
    expect(session.cancelled.size).toBe(0)
  })
})

describe('server: batches', () => {
  const at = (protocolVersion: '2025-03-26' | '2024-11-05' | '2025-06-18' | '2025-11-25'): Session => newSession(protocolVersion)
  const ping = (i: number) => ({ jsonrpc: '2.0', id: i, method: 'ping' })

  it.each(['2025-03-26', '2024-11-05'] as const)('answers a batch with an array of answers at %s', async (v) => {
    const out = await calculator.dispatch(
      [ping(1), { jsonrpc: '2.0', method: 'notifications/initialized' }, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'add', arguments: { a: 1, b: 1 } } }],
      at(v),
    )()
    expect(O.isSome(out) && JSON.parse(encode(out.value))).toEqual([
      { jsonrpc: '2.0', id: 1, result: {} },
      { jsonrpc: '2.0', id: 2, result: { content: [{ type: 'text', text: '{"sum":2}' }], structuredContent: { sum: 2 } } },
    ])
  })

  it('refuses initialize inside a batch (MCP 2025-03-26: it MUST NOT be part of a batch) and answers the rest', async () => {
    const out = await calculator.dispatch([{ jsonrpc: '2.0', id: 1, method: 'initialize', params: hello }, ping(2)], at('2025-03-26'))()
    const answers = O.isSome(out) ? (JSON.parse(encode(out.value)) as Array<{ id: unknown; error?: { code: number } }>) : []
    expect(answers).toHaveLength(2)
    expect(answers[0]).toMatchObject({ id: 1, error: { code: -32600 } })
    expect(answers[1]).toMatchObject({ id: 2, result: {} })
  })

  it('treats an initialize without an id inside a batch as a notification: no answer', async () => {
    const out = await calculator.dispatch([{ jsonrpc: '2.0', method: 'initialize', params: hello }, ping(3)], at('2025-03-26'))()
    expect(O.isSome(out) && JSON.parse(encode(out.value))).toEqual([{ jsonrpc: '2.0', id: 3, result: {} }])
  })

  it('names an empty array as such (-32600)', async () => {
    const out = await calculator.dispatch([], at('2025-11-25'))()
    expect(O.isSome(out) && JSON.parse(encode(out.value)).error.message).toContain('an empty array is not a message')
  })

  it('sends nothing for a batch of notifications only', async () => {
    const out = await calculator.dispatch([{ jsonrpc: '2.0', method: 'notifications/initialized' }], at('2025-03-26'))()
    expect(O.isNone(out)).toBe(true)
  })

  it.each(['2025-06-18', '2025-11-25'] as const)('refuses a batch at %s with one -32600, id null', async (v) => {
    const out = await calculator.dispatch([ping(1)], at(v))()
    expect(O.isSome(out) && JSON.parse(encode(out.value))).toMatchObject({ id: null, error: { code: -32600 } })
  })

  it('refuses an empty batch with -32600 at any revision', async () => {
    const out = await calculator.dispatch([], at('2025-03-26'))()
    expect(O.isSome(out) && JSON.parse(encode(out.value))).toMatchObject({ id: null, error: { code: -32600 } })
  })
})

describe('server: schema defaults', () => {
  const greet = emcp({
    name: 'greet',
    description: 'Greets, politely by default.',
    input: {
      type: 'object',
      properties: { name: { type: 'string' }, greeting: { type: 'string', default: 'Hello' } },
      required: ['name'],
      additionalProperties: false,
    },
  })
  const server = mcpServer([greet], { name: 'g', version: '1' }).implement({ greet: ({ name, greeting }) => `${greeting}, ${name}` })

  it('fills in the default of a property the caller left out, as the handler type promises', async () => {
    const m = await ask(server, 'tools/call', { name: 'greet', arguments: { name: 'Ada' } })
    expect(m.result.content[0].text).toBe('Hello, Ada')
    const given = await ask(server, 'tools/call', { name: 'greet', arguments: { name: 'Ada', greeting: 'Hi' } })
    expect(given.result.content[0].text).toBe('Hi, Ada')
  })
})

describe('server: dynamic tools (notifications/tools/list_changed)', () => {
  const hello = { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } }
  const base = emcp({ name: 'base', description: 'Always there.', input: { type: 'object' } })
  const extra = emcp({
    name: 'extra',
    description: 'Added at run time.',
    input: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'], additionalProperties: false },
    output: { type: 'object', properties: { twice: { type: 'number' } }, required: ['twice'], additionalProperties: false },
  })

  const setup = async () => {
    const server = mcpServer([base], { name: 'dyn', version: '1' }).implement({ base: () => 'ok' })
    const sent: unknown[] = []
    const { outbound } = await import('../../src/index.js')
    const session = newSession(undefined, outbound((m) => sent.push(m)))
    await server.dispatch({ jsonrpc: '2.0', id: 0, method: 'initialize', params: hello }, session)()
    return { server, sent, session }
  }
  const names = async (server: Server, session: Session) => (await ask(server, 'tools/list', undefined, session)).result.tools.map((t: { name: string }) => t.name)

  it('adds a typed tool, lists it, serves it, and tells connected clients', async () => {
    const { server, sent, session } = await setup()
    const grown = server.addTool(extra, ({ n }) => ({ twice: n * 2 }))
    expect(await names(grown, session)).toEqual(['base', 'extra'])
    expect(sent).toEqual([{ jsonrpc: '2.0', method: 'notifications/tools/list_changed' }])
    const { inMemoryClient } = await import('../../src/index.js')
    expect((await inMemoryClient(grown).call('extra', { n: 4 })).twice).toBe(8)
  })

  it('disables (not listed, -32602 when called), enables again, and removes a tool', async () => {
    const { server, sent, session } = await setup()
    server.disableTool('base')
    expect(await names(server, session)).toEqual([])
    const refused = await ask(server, 'tools/call', { name: 'base', arguments: {} }, session)
    expect(refused.error).toMatchObject({ code: -32602, message: 'Tool base is disabled' })
    server.enableTool('base')
    expect(await names(server, session)).toEqual(['base'])
    expect(server.removeTool('base')).toBe(true)
    expect(server.removeTool('base')).toBe(false)
    expect(await names(server, session)).toEqual([])
    expect(sent).toHaveLength(3)
  })

  it('batch: 2000 changes compute the list pages once and tell clients once; pages are made when first listed', async () => {
    // each computation of the pages reads every listed tool's description: a probe counts them
    let reads = 0
    const counted = Object.defineProperty({ ...emcp({ name: 'counted', description: 'Counted.', input: { type: 'object' } }) }, 'description', {
      get: () => (reads++, 'Counted.'),
      enumerable: true,
    })
    const many = Array.from({ length: 2000 }, (_, i) => emcp({ name: `t${i}`, description: `Tool ${i}.`, input: { type: 'object' } }))
    const handlers = Object.fromEntries([counted, ...many].map((t) => [t.name, () => 'ok']))
    const server = mcpServer([counted, ...many] as ReadonlyArray<AnyTool> as [AnyTool], { name: 'b', version: '1' }).implement(handlers as never) as Server
    const sent: unknown[] = []
    const { outbound } = await import('../../src/index.js')
    const session = newSession(undefined, outbound((m) => sent.push(m)))
    await server.dispatch({ jsonrpc: '2.0', id: 0, method: 'initialize', params: hello }, session)()
    const before = reads
    server.batch(() => {
      for (const t of many) server.disableTool(t.name)
      // nested batches count as one
      server.batch(() => server.enableTool('t7'))
    })
    // nothing is listed until a client asks: the pages wait for the first tools/list
    expect(reads - before).toBe(0)
    expect(sent).toEqual([{ jsonrpc: '2.0', method: 'notifications/tools/list_changed' }])
    expect(await names(server, session)).toEqual(['counted', 't7'])
    expect(reads - before).toBe(1)
    // listed again without a change: the same pages
    expect(await names(server, session)).toEqual(['counted', 't7'])
    expect(reads - before).toBe(1)
    // one by one, as before: a view per change, its pages made when it is listed
    server.disableTool('t7')
    server.enableTool('t8')
    expect(sent).toHaveLength(3)
    expect(await names(server, session)).toEqual(['counted', 't8'])
    expect(reads - before).toBe(2)
    // a batch that throws still applies what it did, once
    expect(() =>
      server.batch(() => {
        server.enableTool('t9')
        throw new Error('stop')
      }),
    ).toThrow('stop')
    expect(await names(server, session)).toEqual(['counted', 't8', 't9'])
    expect(sent).toHaveLength(4)
  })

  it('refuses to add a duplicate or invalid name, or a tool without a handler', async () => {
    const { server } = await setup()
    expect(() => server.addTool(base, () => 'again')).toThrow(/duplicate tool name: base/)
    expect(() => server.addTool({ ...extra, name: 'bad name' } as AnyTool, () => 'x')).toThrow(/invalid tool name/)
    expect(() => server.addTool(extra, undefined as never)).toThrow(/missing handler/)
    expect(() => server.enableTool('nope' as never)).toThrow(/no tool is named nope/)
  })
})

describe('server: the handlers and tools as implement saw them', () => {
  it('calls the handler the record held when implement was called, not one put there later', async () => {
    const handlers: Record<string, () => string> = { a: () => 'first', b: () => 'b' }
    const server = mcpServer([tool('a'), tool('b')] as any, { name: 'h', version: '1' }).implement(handlers as any)
    handlers.a = () => 'second'
    delete handlers.b
    expect((await ask(server, 'tools/call', { name: 'a', arguments: {} })).result.content[0].text).toBe('first')
    expect((await ask(server, 'tools/call', { name: 'b', arguments: {} })).result.content[0].text).toBe('b')
  })

  it('keeps the same tools array until the list changes, whether it was read before or after the first tools/list', async () => {
    const server = serverOf()
    const before = server.tools
    expect(before.map((t) => t.name)).toEqual(['e', 'a', 'd', 'b', 'c'])
    await ask(server, 'tools/list')
    expect(server.tools).toBe(before)
    server.removeTool('d')
    expect(server.tools.map((t) => t.name)).toEqual(['e', 'a', 'b', 'c'])
    expect(server.tools).toBe(server.tools)
  })

  it('lists a tool added before anything was listed or called', async () => {
    const server = serverOf()
    const grown = server.addTool(tool('f'), () => 'f')
    expect(grown.tools.map((t) => t.name)).toEqual(['e', 'a', 'd', 'b', 'c', 'f'])
    expect((await ask(grown, 'tools/list')).result.tools.map((t: { name: string }) => t.name)).toEqual(['e', 'a', 'd', 'b', 'c', 'f'])
  })
})
