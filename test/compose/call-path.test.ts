/**
 * A mounted tool's call is handed straight to its part's tools/call when the whole has
 * nothing to add (no transform, no tool-call middleware or authorization of the whole, no
 * task to record) and the caller's view (rules, switches) allows the tool. These tests hold
 * that path to the behaviour of the full one: what the part adds after the mount is built,
 * its deadline, cancellation, progress and logs, and the whole's rules and switches as soon
 * as they appear; and they show that one session's switches leave the handoff and the shared
 * list pages to every session whose view allows the tool.
 */
import { describe, expect, it } from 'vitest'
import { emcp, inMemoryClient, mcpServer, mount, mounted, newSession, outbound, type ServerMessage, type Session } from '../../src/index.js'

const add = emcp({
  name: 'add',
  description: 'Add two numbers.',
  input: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] },
  output: { type: 'object', properties: { sum: { type: 'number' } }, required: ['sum'] },
})
const wait = emcp({ name: 'wait', description: 'Waits until cancelled or timed out.', input: { type: 'object' } })
const chatty = emcp({ name: 'chatty', description: 'Reports progress and logs.', input: { type: 'object' } })

/** Resolves when `signal` aborts, with its reason. */
const aborted = (signal: AbortSignal): Promise<unknown> => new Promise((resolve) => signal.addEventListener('abort', () => resolve(signal.reason), { once: true }))

const partOf = (options: { readonly callTimeoutMs?: number } = {}) => {
  const reasons: unknown[] = []
  const server = mcpServer([add, wait, chatty], { name: 'calc', version: '1' }, options).implement({
    add: ({ a, b }) => ({ sum: a + b }),
    wait: async (_args, ctx) => {
      reasons.push(await aborted(ctx.signal))
      return 'stopped'
    },
    chatty: (_args, ctx) => {
      ctx.progress(1, 2, 'half')
      ctx.log('info', 'working')
      return 'done'
    },
  })
  return { server, reasons }
}

const initialize = (protocolVersion = '2025-11-25') => ({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion, capabilities: {}, clientInfo: { name: 't', version: '1' } } })
const callOf = (id: number, name: string, args: object = {}, meta?: object) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args, ...(meta === undefined ? {} : { _meta: meta }) } })

/** A 2025-11-25 session of `server` whose messages to the client land in `heard`. */
const sessionOf = async (server: { dispatch: (m: unknown, s: Session) => () => Promise<unknown> }, heard: ServerMessage[] = []): Promise<Session> => {
  const s = newSession(undefined, outbound((m) => heard.push(m)))
  await server.dispatch(initialize(), s)()
  return s
}

const resultOf = (out: unknown): unknown => (out as { value: { result?: unknown; error?: unknown } }).value

describe('mount: a call handed to the part', () => {
  it('is answered as by the part alone, mounted whole and under a namespace, in both eras', async () => {
    for (const protocolVersion of ['2025-11-25', '2026-07-28']) {
      // the whole named as the part, so that a 2026-07-28 result's serverInfo is the same too
      const whole = inMemoryClient(mount([partOf().server], { name: 'calc', version: '1' }), { protocolVersion })
      const spaced = inMemoryClient(mount([mounted(partOf().server, 'calc')], { name: 'calc', version: '1' }), { protocolVersion })
      const alone = inMemoryClient(partOf().server, { protocolVersion })
      const expected = await alone.callResult('add', { a: 2, b: 3 })
      expect(expected).toMatchObject({ structuredContent: { sum: 5 } })
      await expect(whole.callResult('add', { a: 2, b: 3 })).resolves.toEqual(expected)
      await expect(spaced.callResult('calc_add', { a: 2, b: 3 })).resolves.toEqual(expected)
      // bad arguments: the part's validator answers, naming the path
      await expect(spaced.callResult('calc_add', { a: 'x', b: 3 } as never)).resolves.toMatchObject({ isError: true, content: [{ text: expect.stringContaining('a') }] })
    }
  })

  it('runs request middleware the part gains after the mount is built', async () => {
    const { server } = partOf()
    const shop = mount([mounted(server, 'calc')], { name: 'w', version: '1' })
    const c = inMemoryClient(shop)
    await expect(c.call('calc_add', { a: 1, b: 1 })).resolves.toEqual({ sum: 2 })
    const heard: string[] = []
    server.use({ request: (req, next) => (heard.push(`${req.method} ${String(req.params?.name)}`), next()) })
    await expect(c.call('calc_add', { a: 1, b: 2 })).resolves.toEqual({ sum: 3 })
    expect(heard).toEqual(['tools/call add'])
  })

  it('keeps the part deadline: a call past the part callTimeoutMs is answered with its isError and its signal aborted', async () => {
    const { server, reasons } = partOf({ callTimeoutMs: 30 })
    const shop = mount([mounted(server, 'calc')], { name: 'w', version: '1' }, { callTimeoutMs: 0 })
    const out = resultOf(await shop.dispatch(callOf(1, 'calc_wait'), await sessionOf(shop))())
    expect(out).toMatchObject({ result: { isError: true, content: [{ text: 'Tool wait timed out after 30 ms (callTimeoutMs)' }] } })
    expect(String(reasons[0])).toContain('timed out after 30 ms')
  })

  it('is cancelled by the client: the part handler signal aborts and no answer is sent', async () => {
    const { server, reasons } = partOf()
    const shop = mount([mounted(server, 'calc')], { name: 'w', version: '1' })
    const s = await sessionOf(shop)
    const answer = shop.dispatch(callOf(7, 'calc_wait'), s)()
    await shop.dispatch({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 7, reason: 'user stop' } }, s)()
    await expect(answer).resolves.toMatchObject({ _tag: 'None' })
    expect(reasons).toEqual(['user stop'])
    expect(s.inFlight.size).toBe(0)
  })

  it('carries the part progress and logs to the client of the whole, tied to its request', async () => {
    const shop = mount([mounted(partOf().server, 'calc')], { name: 'w', version: '1' })
    const heard: ServerMessage[] = []
    const s = await sessionOf(shop, heard)
    await shop.dispatch({ jsonrpc: '2.0', id: 1, method: 'logging/setLevel', params: { level: 'debug' } }, s)()
    const out = resultOf(await shop.dispatch(callOf(2, 'calc_chatty', {}, { progressToken: 'p1' }), s)())
    expect(out).toMatchObject({ result: { content: [{ text: 'done' }] } })
    expect(heard).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ method: 'notifications/progress', params: expect.objectContaining({ progressToken: 'p1', progress: 1, total: 2, message: 'half' }) }),
        expect.objectContaining({ method: 'notifications/message', params: expect.objectContaining({ level: 'info', data: 'working' }) }),
      ]),
    )
  })

  it('sees the whole rules the moment they appear: its middleware, a switch for everyone, a switch for one session', async () => {
    const shop = mount([mounted(partOf().server, 'calc')], { name: 'w', version: '1' })
    const [s1, s2] = [await sessionOf(shop), await sessionOf(shop)]
    const call = async (s: Session, id: number) => resultOf(await shop.dispatch(callOf(id, 'calc_add', { a: 1, b: 2 }), s)())
    await expect(call(s1, 1)).resolves.toMatchObject({ result: { structuredContent: { sum: 3 } } })
    const order: string[] = []
    shop.use({ toolCall: (c, next) => (order.push(c.tool.name), next()) })
    await expect(call(s1, 2)).resolves.toMatchObject({ result: { structuredContent: { sum: 3 } } })
    expect(order).toEqual(['calc_add'])
    shop.disableFor(s1, 'calc_add')
    await expect(call(s1, 3)).resolves.toMatchObject({ error: { code: -32602, message: 'Unknown tool: calc_add' } })
    await expect(call(s2, 4)).resolves.toMatchObject({ result: { structuredContent: { sum: 3 } } })
    shop.disableTool('calc_add')
    await expect(call(s2, 5)).resolves.toMatchObject({ error: { code: -32602 } })
    shop.enableTool('calc_add')
    await expect(call(s2, 6)).resolves.toMatchObject({ result: { structuredContent: { sum: 3 } } })
    expect(order).toEqual(['calc_add', 'calc_add', 'calc_add'])
  })

  it('meets the whole authorization added after the first calls', async () => {
    const shop = mount([mounted(partOf().server, 'calc')], { name: 'w', version: '1' })
    const s = await sessionOf(shop)
    await expect(shop.dispatch(callOf(1, 'calc_add', { a: 1, b: 2 }), s)().then(resultOf)).resolves.toMatchObject({ result: { structuredContent: { sum: 3 } } })
    shop.use({ authorize: (tool) => tool.name !== 'calc_add' })
    await expect(shop.dispatch(callOf(2, 'calc_add', { a: 1, b: 2 }), s)().then(resultOf)).resolves.toMatchObject({ error: { code: -32003 } })
  })
})

describe('mount: the handoff after per-session switches', () => {
  // The handoff and the full path answer alike; what tells them apart is the full path's own
  // frame (callTool, mount-tools.ts) beneath the part's handler, read here from a whole stack.
  const secret = emcp({ name: 'secret', description: 'Tagged admin.', input: { type: 'object' }, tags: ['admin'] })
  const probe = emcp({ name: 'probe', description: 'Records its stack.', input: { type: 'object' } })
  const probed = () => {
    const stacks: string[] = []
    const server = mcpServer([add, secret, probe], { name: 'calc', version: '1' }).implement({
      add: ({ a, b }) => ({ sum: a + b }),
      secret: () => 'admin only',
      probe: () => {
        const limit = Error.stackTraceLimit
        Error.stackTraceLimit = Infinity
        stacks.push(new Error('probe').stack ?? '')
        Error.stackTraceLimit = limit
        return 'probed'
      },
    })
    return { server, stacks }
  }
  const handedOff = (stack: string | undefined): boolean => stack !== undefined && stack.includes('probe') && !/\bcallTool\b/.test(stack)

  it('tells the two paths apart: a tool-call middleware of the whole takes the full path', async () => {
    const { server, stacks } = probed()
    const shop = mount([mounted(server, 'calc')], { name: 'w', version: '1' })
    const s = await sessionOf(shop)
    await shop.dispatch(callOf(1, 'calc_probe'), s)()
    expect(handedOff(stacks.at(-1))).toBe(true)
    shop.use({ toolCall: (_c, next) => next() })
    await shop.dispatch(callOf(2, 'calc_probe'), s)()
    expect(stacks).toHaveLength(2)
    expect(handedOff(stacks.at(-1))).toBe(false)
  })

  it('hands calls off for every session whose view allows the tool, and refuses what a session cannot see', async () => {
    for (const rules of [{}, { exclude: ['admin'] }]) {
      const { server, stacks } = probed()
      const shop = mount([mounted(server, 'calc', rules)], { name: 'w', version: '1' })
      const [s1, s2] = [await sessionOf(shop), await sessionOf(shop)]
      const call = async (s: Session, name: string, args: object = {}) => resultOf(await shop.dispatch(callOf(1, name, args), s)())
      shop.disableFor(s1, 'calc_add')
      shop.enableFor(s1, 'calc_secret')
      for (const s of [s1, s2]) {
        await expect(call(s, 'calc_probe')).resolves.toMatchObject({ result: { content: [{ text: 'probed' }] } })
        expect(handedOff(stacks.at(-1))).toBe(true)
      }
      expect(stacks).toHaveLength(2)
      // what s1 cannot see it cannot call; s2 keeps it
      await expect(call(s1, 'calc_add', { a: 1, b: 2 })).resolves.toMatchObject({ error: { code: -32602, message: 'Unknown tool: calc_add' } })
      await expect(call(s2, 'calc_add', { a: 1, b: 2 })).resolves.toMatchObject({ result: { structuredContent: { sum: 3 } } })
      // switched on for s1 only: above the whole's rule where there is one
      await expect(call(s1, 'calc_secret')).resolves.toMatchObject({ result: { content: [{ text: 'admin only' }] } })
      const s2Secret = await call(s2, 'calc_secret')
      if ('exclude' in rules) expect(s2Secret).toMatchObject({ error: { code: -32602, message: 'Unknown tool: calc_secret' } })
      else expect(s2Secret).toMatchObject({ result: { content: [{ text: 'admin only' }] } })
      shop.enableFor(s1, 'calc_add')
      await expect(call(s1, 'calc_add', { a: 2, b: 2 })).resolves.toMatchObject({ result: { structuredContent: { sum: 4 } } })
      shop.disableFor(s2, 'calc_probe')
      await expect(call(s2, 'calc_probe')).resolves.toMatchObject({ error: { code: -32602, message: 'Unknown tool: calc_probe' } })
      await call(s1, 'calc_probe')
      expect(stacks).toHaveLength(3)
      expect(handedOff(stacks.at(-1))).toBe(true)
    }
  })

  it('lists what each session sees, and a session without switches keeps the pages shared by all', async () => {
    const shop = mount([mounted(probed().server, 'calc')], { name: 'w', version: '1' })
    const [s1, s2, s3] = [await sessionOf(shop), await sessionOf(shop), await sessionOf(shop)]
    const list = async (s: Session) => resultOf(await shop.dispatch({ jsonrpc: '2.0', id: 9, method: 'tools/list' }, s)()) as { result: unknown }
    const names = async (s: Session) => (JSON.parse(JSON.stringify((await list(s)).result)) as { tools: { name: string }[] }).tools.map((t) => t.name)
    const shared = (await list(s2)).result
    shop.disableFor(s1, 'calc_add')
    expect(await names(s1)).toEqual(['calc_secret', 'calc_probe'])
    expect(await names(s2)).toEqual(['calc_add', 'calc_secret', 'calc_probe'])
    // the very page every session without a switch is answered with, before and after s1's switch
    expect((await list(s2)).result).toBe(shared)
    expect((await list(s3)).result).toBe(shared)
    expect((await list(s1)).result).not.toBe(shared)
  })
})
