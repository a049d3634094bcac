import { describe, expect, it } from 'vitest'
import { emcp, inMemoryClient, mcpServer, newSession, outbound, type ServerMessage, type ToolContext } from '../../src/index.js'

describe('context: what a handler sees', () => {
  it('carries the request id, the request _meta and the session', async () => {
    let seen: ToolContext | undefined
    const look = emcp({ name: 'look', description: 'Records its context.', input: { type: 'object' } })
    const server = mcpServer([look], { name: 'ctx', version: '1' }).implement({
      look: (_args, ctx) => {
        seen = ctx
        return 'ok'
      },
    })
    const session = newSession('2025-06-18')
    await server.dispatch({ jsonrpc: '2.0', id: 'r1', method: 'tools/call', params: { name: 'look', arguments: {}, _meta: { progressToken: 5 } } }, session)()
    expect(seen?.requestId).toBe('r1')
    expect(seen?.meta).toEqual({ progressToken: 5 })
    expect(seen?.session).toBe(session)
    expect(seen?.signal).toBeInstanceOf(AbortSignal)
    expect(seen?.signal.aborted).toBe(false)
  })

  it('gives each call a signal of its own', async () => {
    const signals: AbortSignal[] = []
    const look = emcp({ name: 'look', description: 'Records its signal.', input: { type: 'object' } })
    const server = mcpServer([look], { name: 'ctx', version: '1' }).implement({
      look: (_args, ctx) => {
        signals.push(ctx.signal)
        return 'ok'
      },
    })
    const client = inMemoryClient(server)
    await client.callResult('look', {})
    await client.callResult('look', {})
    expect(signals).toHaveLength(2)
    expect(signals[0]).not.toBe(signals[1])
  })
})

// ---------------------------------------------------------------------------------------
// notifications and requests to the client, through a session whose outbound is recorded


/** A session with a channel that records what the server sends, and answers it on demand. */
const wired = (capabilities: Record<string, unknown> = {}) => {
  const sent: ServerMessage[] = []
  const session = newSession('2025-11-25', outbound((m) => sent.push(m)))
  session.clientCapabilities = capabilities
  const answer = async (server: { dispatch: (m: unknown, s: typeof session) => () => Promise<unknown> }, result: unknown) => {
    const request = sent.find((m) => 'id' in m) as { id: string } | undefined
    if (request === undefined) throw new Error('no request was sent')
    await server.dispatch({ jsonrpc: '2.0', id: request.id, result }, session)()
  }
  return { sent, session, answer }
}

const until = async (check: () => boolean): Promise<void> => {
  for (const deadline = Date.now() + 15_000; !check() && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 5))
}

describe('context: progress (MCP: only with a progressToken; progress MUST increase)', () => {
  const work = emcp({ name: 'work', description: 'Reports progress.', input: { type: 'object' } })
  const server = mcpServer([work], { name: 'p', version: '1' }).implement({
    work: (_a, ctx) => {
      ctx.progress(1, 3, 'one')
      ctx.progress(1, 3, 'again one')
      ctx.progress(2)
      ctx.progress(3, 3)
      return 'ok'
    },
  })

  it('sends increasing notifications/progress with the request’s token, dropping a repeat', async () => {
    const { sent, session } = wired()
    await server.dispatch({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'work', arguments: {}, _meta: { progressToken: 'tok' } } }, session)()
    expect(sent).toEqual([
      { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'tok', progress: 1, total: 3, message: 'one' } },
      { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'tok', progress: 2 } },
      { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'tok', progress: 3, total: 3 } },
    ])
  })

  it('sends nothing without a progress token', async () => {
    const { sent, session } = wired()
    await server.dispatch({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'work', arguments: {} } }, session)()
    expect(sent).toEqual([])
  })
})

describe('context: logging (logging/setLevel, notifications/message)', () => {
  const chatty = emcp({ name: 'chatty', description: 'Logs at every level.', input: { type: 'object' } })
  const server = mcpServer([chatty], { name: 'l', version: '1' }).implement({
    chatty: (_a, ctx) => {
      ctx.log('debug', 'd')
      ctx.log('warning', { w: 1 }, 'db')
      ctx.log('error', 'e')
      return 'ok'
    },
  })
  const call = { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'chatty', arguments: {} } }

  it('declares the logging capability', async () => {
    const out = await server.dispatch({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } } }, newSession())()
    expect(JSON.parse(JSON.stringify((out as { value: { result: { capabilities: unknown } } }).value.result.capabilities))).toMatchObject({ logging: {} })
  })

  it('sends every level until the client sets one, then only that level and above, with the logger name', async () => {
    const { sent, session } = wired()
    await server.dispatch(call, session)()
    expect(sent.map((m) => (m.params as { level: string }).level)).toEqual(['debug', 'warning', 'error'])
    sent.length = 0
    const set = await server.dispatch({ jsonrpc: '2.0', id: 3, method: 'logging/setLevel', params: { level: 'warning' } }, session)()
    expect(set).toMatchObject({ value: { result: {} } })
    await server.dispatch(call, session)()
    expect(sent).toEqual([
      { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'warning', data: { w: 1 }, logger: 'db' } },
      { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'error', data: 'e' } },
    ])
  })

  it('refuses an unknown level with -32602', async () => {
    const { session } = wired()
    const out = await server.dispatch({ jsonrpc: '2.0', id: 3, method: 'logging/setLevel', params: { level: 'loud' } }, session)()
    expect(out).toMatchObject({ value: { error: { code: -32602 } } })
  })
})

describe('context: requests to the client', () => {
  const ask = emcp({ name: 'ask', description: 'Asks the user for a city.', input: { type: 'object' } })
  const server = mcpServer([ask], { name: 'r', version: '1' }).implement({
    ask: async (_a, ctx) => {
      const r = await ctx.elicit({
        message: 'Which city?',
        requestedSchema: { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer' } }, required: ['city'] },
      })
      return r.action === 'accept' ? `${r.content.city} for ${r.content.days ?? 1} days` : r.action
    },
  })
  const call = { jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'ask', arguments: {} } }
  const textOf = (out: unknown): string => (out as { value: { result: { content: Array<{ text: string }> } } }).value.result.content[0]!.text

  it('sends elicitation/create in form mode and gives the handler the typed answer', async () => {
    const { sent, session, answer } = wired({ elicitation: {} })
    const pending = server.dispatch(call, session)()
    await until(() => sent.length > 0)
    expect(sent[0]).toMatchObject({ method: 'elicitation/create', params: { mode: 'form', message: 'Which city?' } })
    await answer(server, { action: 'accept', content: { city: 'Oslo', days: 2 } })
    expect(textOf(await pending)).toBe('Oslo for 2 days')
  })

  it('passes decline through, and refuses an answer that does not fit the form', async () => {
    const declined = wired({ elicitation: { form: {} } })
    const p1 = server.dispatch(call, declined.session)()
    await until(() => declined.sent.length > 0)
    await declined.answer(server, { action: 'decline' })
    expect(textOf(await p1)).toBe('decline')

    const wrong = wired({ elicitation: {} })
    const p2 = server.dispatch(call, wrong.session)()
    await until(() => wrong.sent.length > 0)
    await wrong.answer(server, { action: 'accept', content: { days: 'x' } })
    const out = (await p2) as { value: { result: { isError: boolean; content: Array<{ text: string }> } } }
    expect(out.value.result.isError).toBe(true)
    expect(out.value.result.content[0]!.text).toContain('/city: is required')
  })

  it('fails with a clear error when the client did not declare the capability, sending nothing', async () => {
    const { sent, session } = wired({})
    const out = (await server.dispatch(call, session)()) as { value: { result: { isError: boolean; content: Array<{ text: string }> } } }
    expect(out.value.result.isError).toBe(true)
    expect(out.value.result.content[0]!.text).toContain('did not declare the "elicitation.form" capability')
    expect(sent).toEqual([])
  })

  it('fails with a clear error where the transport has no way to the client (stateless HTTP)', async () => {
    const session = newSession('2025-11-25')
    session.clientCapabilities = { elicitation: {} }
    const out = (await server.dispatch(call, session)()) as { value: { result: { content: Array<{ text: string }> } } }
    expect(out.value.result.content[0]!.text).toContain('needs a transport that can send requests to the client')
  })

  it('cancels its own request when the call is cancelled (notifications/cancelled both ways)', async () => {
    const { sent, session } = wired({ elicitation: {} })
    const pending = server.dispatch({ ...call, id: 'c' }, session)()
    await until(() => sent.length > 0)
    await server.dispatch({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'c' } }, session)()
    await pending
    const request = sent[0] as { id: string }
    expect(sent[1]).toEqual({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: request.id, reason: 'elicitation/create was cancelled' } })
  })

  it('sends roots/list and sampling/createMessage when declared', async () => {
    const both = emcp({ name: 'both', description: 'Asks for roots and a sample.', input: { type: 'object' } })
    const s = mcpServer([both], { name: 'b', version: '1' }).implement({
      both: async (_a, ctx) => {
        const roots = await ctx.roots()
        const sample = await ctx.sample({ messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }], maxTokens: 10 })
        return `${roots.map((r) => r.uri).join(',')} ${sample.model}`
      },
    })
    const { sent, session } = wired({ roots: {}, sampling: {} })
    const pending = s.dispatch({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'both', arguments: {} } }, session)()
    await until(() => sent.length === 1)
    expect(sent[0]).toMatchObject({ method: 'roots/list' })
    await s.dispatch({ jsonrpc: '2.0', id: (sent[0] as { id: string }).id, result: { roots: [{ uri: 'file:///a' }] } }, session)()
    await until(() => sent.length === 2)
    expect(sent[1]).toMatchObject({ method: 'sampling/createMessage', params: { maxTokens: 10 } })
    await s.dispatch({ jsonrpc: '2.0', id: (sent[1] as { id: string }).id, result: { role: 'assistant', content: { type: 'text', text: 'yo' }, model: 'm1' } }, session)()
    expect(textOf(await pending)).toBe('file:///a m1')
  })
})

describe('context: the call’s lifetime bounds what the handler sends', () => {
  const tick = () => new Promise((r) => setTimeout(r, 10))

  it('cancelling the call cancels a request to the client even when the handler passed its own signal', async () => {
    const sent: ServerMessage[] = []
    const session = newSession('2025-11-25', outbound((m) => sent.push(m)))
    session.clientCapabilities = { roots: {} }
    const own = new AbortController()
    const t = emcp({ name: 't', description: 'Lists roots.', input: { type: 'object' } })
    const server = mcpServer([t], { name: 's', version: '1' }).implement({
      t: async (_a, ctx) => (await ctx.roots({ signal: own.signal })).length.toString(),
    })
    void server.dispatch({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 't', arguments: {} } }, session)()
    await tick()
    await server.dispatch({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } }, session)()
    await tick()
    expect(sent.map((m) => m.method)).toEqual(['roots/list', 'notifications/cancelled'])
  })

  it('sends no progress for a call that was cancelled or has been answered (MCP: progress refers to an active request)', async () => {
    const sent: ServerMessage[] = []
    const session = newSession('2025-11-25', outbound((m) => sent.push(m)))
    const contexts: ToolContext[] = []
    const t = emcp({ name: 't', description: 'Waits forever.', input: { type: 'object' } })
    const quick = emcp({ name: 'quick', description: 'Answers at once.', input: { type: 'object' } })
    const server = mcpServer([t, quick], { name: 's', version: '1' }).implement({
      t: (_a, c) => {
        contexts.push(c)
        return new Promise<string>(() => {})
      },
      quick: (_a, c) => {
        contexts.push(c)
        return 'done'
      },
    })
    void server.dispatch({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 't', arguments: {}, _meta: { progressToken: 'p' } } }, session)()
    await server.dispatch({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } }, session)()
    await server.dispatch({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'quick', arguments: {}, _meta: { progressToken: 'q' } } }, session)()
    for (const c of contexts) c.progress(1, 2)
    expect(sent).toEqual([])
  })
})
