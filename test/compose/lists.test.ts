/**
 * The merged lists of a mount (src/compose/lists.ts): each part's pages are read once per
 * request, and a request whose parts answer the very pages of the last one is answered the
 * last merged pages. These tests hold that shortcut to the full read: parts that page, parts
 * that answer later, parts whose list changes, parts whose list differs per session, and a
 * part whose request middleware counts what it is asked.
 */
import { describe, expect, it } from 'vitest'
import { emcp, mcpServer, mount, mounted, newSession, type Middleware, type ServerOptions, type Session } from '../../src/index.js'

const tool = (name: string) => emcp({ name, description: `Tool ${name}.`, input: { type: 'object' } })
/** A server of tools named at run time, each answering its own name. */
const partOf = (names: ReadonlyArray<string>, options: ServerOptions = {}) => {
  const [first = 'none', ...rest] = names
  const server = mcpServer([tool(first)], { name: names.join('+'), version: '1' }, options).implement({ [first]: () => first })
  for (const n of rest) server.addTool(tool(n), () => n)
  return server
}

type Dispatching = { dispatch: (m: unknown, s: Session) => () => Promise<unknown> }
const sessionOf = async (server: Dispatching, name = 't'): Promise<Session> => {
  const s = newSession()
  await server.dispatch({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name, version: '1' } } }, s)()
  return s
}
/** Every name of the whole's tools/list for a session, following its cursors. */
const namesOf = async (server: Dispatching, s: Session): Promise<string[]> => {
  const out: string[] = []
  let cursor: string | undefined
  for (let i = 0; i < 20; i++) {
    const answer = (await server.dispatch({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: cursor === undefined ? {} : { cursor } }, s)()) as { value: { result?: unknown; error?: unknown } }
    const page = JSON.parse(JSON.stringify(answer.value.result ?? answer.value.error)) as { tools?: { name: string }[]; nextCursor?: string }
    out.push(...(page.tools ?? []).map((t) => t.name))
    cursor = page.nextCursor
    if (cursor === undefined) return out
  }
  throw new Error('more than 20 pages')
}

describe('mount: merged lists', () => {
  it('reads parts that page, again and again alike, and each part once per request', async () => {
    // the paging part first, then last: the shortcut stops at it either way
    for (const pagingFirst of [true, false]) {
      const asked: string[] = []
      const count: Middleware = { request: (req, next) => (asked.push(req.method), next()) }
      const a = partOf(['a1', 'a2', 'a3'], { pageSize: 1, middleware: [count] })
      const b = partOf(['b1'], { middleware: [count] })
      const parts = pagingFirst ? ([mounted(a, 'a'), mounted(b, 'b')] as const) : ([mounted(b, 'b'), mounted(a, 'a')] as const)
      const whole = mount(parts, { name: 'w', version: '1' }, { pageSize: 2 })
      const s = await sessionOf(whole)
      const all = pagingFirst ? ['a_a1', 'a_a2', 'a_a3', 'b_b1'] : ['b_b1', 'a_a1', 'a_a2', 'a_a3']
      for (let i = 0; i < 3; i++) expect(await namesOf(whole, s)).toEqual(all)
      // the whole's two pages per listing, each reading the paging part's three pages and the other's one, once
      expect(asked.filter((x) => x === 'tools/list')).toHaveLength(3 * 2 * (3 + 1))
    }
  })

  it('follows a part whose list changes, and a part that answers later', async () => {
    const a = partOf(['a1'])
    const late = partOf(['l1'], { middleware: [{ request: async (_req, next) => (await Promise.resolve(), next()) }] })
    const whole = mount([mounted(a, 'a'), mounted(late, 'l')], { name: 'w', version: '1' })
    const s = await sessionOf(whole)
    expect(await namesOf(whole, s)).toEqual(['a_a1', 'l_l1'])
    expect(await namesOf(whole, s)).toEqual(['a_a1', 'l_l1'])
    a.addTool(tool('a2'), () => 'a2')
    expect(await namesOf(whole, s)).toEqual(['a_a1', 'a_a2', 'l_l1'])
    late.addTool(tool('l2'), () => 'l2')
    expect(await namesOf(whole, s)).toEqual(['a_a1', 'a_a2', 'l_l1', 'l_l2'])
    a.removeTool('a1')
    expect(await namesOf(whole, s)).toEqual(['a_a2', 'l_l1', 'l_l2'])
  })

  it('gives each session the list its part gives it, in turn and again', async () => {
    // the part shows tool `secret` only to the client named admin
    const a = partOf(['open', 'secret'], { authorize: (t, session) => t.name !== 'secret' || session.clientInfo?.name === 'admin' })
    const whole = mount([mounted(a, 'a'), partOf(['b'])], { name: 'w', version: '1' })
    const [admin, guest] = [await sessionOf(whole, 'admin'), await sessionOf(whole, 'guest')]
    for (let i = 0; i < 2; i++) {
      expect(await namesOf(whole, admin)).toEqual(['a_open', 'a_secret', 'b'])
      expect(await namesOf(whole, guest)).toEqual(['a_open', 'b'])
      expect(await namesOf(whole, guest)).toEqual(['a_open', 'b'])
    }
  })

  it('answers a part failure as the part answers it, then recovers', async () => {
    const state = { fail: false }
    const a = partOf(['a1'], { middleware: [{ request: (req, next) => (state.fail && req.method === 'tools/list' ? Promise.reject(new Error('part down')) : next()) }] })
    const whole = mount([mounted(a, 'a'), partOf(['b'])], { name: 'w', version: '1' })
    const s = await sessionOf(whole)
    expect(await namesOf(whole, s)).toEqual(['a_a1', 'b'])
    state.fail = true
    const failed = (await whole.dispatch({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, s)()) as { value: { error?: { code: number } } }
    expect(failed.value.error?.code).toBeTypeOf('number')
    state.fail = false
    expect(await namesOf(whole, s)).toEqual(['a_a1', 'b'])
  })
})

describe('mount: one view for the sessions alike', () => {
  const status = emcp({ name: 'status', description: 'Status.', input: { type: 'object' }, tags: ['read'] })
  const restart = emcp({ name: 'restart', description: 'Restart.', input: { type: 'object' }, tags: ['admin'] })
  const beta = emcp({ name: 'beta', description: 'Beta.', input: { type: 'object' }, tags: ['read'] })
  const opsOf = () =>
    mcpServer([status, restart, beta], { name: 'ops', version: '1' }).implement({
      status: () => 'ok',
      restart: () => 'restarted',
      beta: () => 'beta',
    })
  const pageOf = async (server: Dispatching, s: Session): Promise<unknown> =>
    ((await server.dispatch({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, s)()) as { value: { result?: unknown } }).value.result

  it('with tag rules, shares one page among sessions, follows switches for everyone, and keeps a switched session apart', async () => {
    const whole = mount([mounted(opsOf(), 'ops', { exclude: ['admin'] })], { name: 'w', version: '1' })
    const [s1, s2, s3] = [await sessionOf(whole), await sessionOf(whole), await sessionOf(whole)]
    expect(await namesOf(whole, s1)).toEqual(['ops_status', 'ops_beta'])
    const page = await pageOf(whole, s1)
    expect(await pageOf(whole, s2)).toBe(page)
    whole.disableTool('ops_beta')
    for (const s of [s1, s2]) expect(await namesOf(whole, s)).toEqual(['ops_status'])
    whole.enableTool('ops_beta')
    for (const s of [s1, s2]) expect(await namesOf(whole, s)).toEqual(['ops_status', 'ops_beta'])
    whole.enableFor(s3, 'ops_restart')
    expect(await namesOf(whole, s3)).toEqual(['ops_status', 'ops_restart', 'ops_beta'])
    expect(await namesOf(whole, s1)).toEqual(['ops_status', 'ops_beta'])
    expect(await pageOf(whole, s2)).toBe(await pageOf(whole, s1))
    // what the shared view hides stays uncallable
    const refused = (await whole.dispatch({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'ops_restart', arguments: {} } }, s1)()) as { value: { error?: { code: number } } }
    expect(refused.value.error?.code).toBe(-32602)
  })

  it('tests each entry against the tag rules once per read, not per request', async () => {
    // a tool whose tags count how often a rule reads them
    const reads = { n: 0 }
    const counted = new Proxy(['read'], { get: (t, k, r) => (k === 'some' && reads.n++, Reflect.get(t, k, r)) })
    const probe = emcp({ name: 'probe', description: 'Counted.', input: { type: 'object' }, tags: counted })
    const part = mcpServer([probe], { name: 'p', version: '1' }).implement({ probe: () => 'ok' })
    const whole = mount([mounted(part, 'p', { exclude: ['admin'] })], { name: 'w', version: '1' })
    const sessions = [await sessionOf(whole), await sessionOf(whole), await sessionOf(whole)]
    for (const s of sessions) expect(await namesOf(whole, s)).toEqual(['p_probe'])
    const once = reads.n
    expect(once).toBeGreaterThan(0)
    for (let i = 0; i < 5; i++) for (const s of sessions) expect(await namesOf(whole, s)).toEqual(['p_probe'])
    expect(reads.n).toBe(once)
    // a call is still checked against the rule, each time
    await whole.dispatch({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'p_probe', arguments: {} } }, sessions[0] as Session)()
    expect(reads.n).toBeGreaterThan(once)
  })

  it('with enabled(ctx), still gives each caller the list its rule gives it', async () => {
    const whole = mount([mounted(opsOf(), 'ops', { enabled: (ctx) => !ctx.tags.includes('admin') || ctx.clientInfo?.name === 'admin' })], { name: 'w', version: '1' })
    const [admin, guest] = [await sessionOf(whole, 'admin'), await sessionOf(whole, 'guest')]
    for (let i = 0; i < 2; i++) {
      expect(await namesOf(whole, admin)).toEqual(['ops_status', 'ops_restart', 'ops_beta'])
      expect(await namesOf(whole, guest)).toEqual(['ops_status', 'ops_beta'])
    }
  })

  it('with a whole-level rule by tag, and authorization of the whole, lists what each may see', async () => {
    const whole = mount([mounted(opsOf(), 'ops')], { name: 'w', version: '1' }, { include: ['read'] })
    const [s1, s2] = [await sessionOf(whole, 'admin'), await sessionOf(whole, 'guest')]
    expect(await namesOf(whole, s1)).toEqual(['ops_status', 'ops_beta'])
    whole.use({ authorize: (t, session) => t.name !== 'ops_beta' || session.clientInfo?.name === 'admin' })
    expect(await namesOf(whole, s1)).toEqual(['ops_status', 'ops_beta'])
    expect(await namesOf(whole, s2)).toEqual(['ops_status'])
  })
})
