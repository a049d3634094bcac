/**
 * Errors quote client input by a short prefix only: a 1 MB tool name, method, URI, prompt
 * name, task id, protocol version, header or property name comes back as its first
 * characters and its length, never whole (an answer echoing it would cost its size again,
 * and once more in the SSE event store). Every answer here must stay under 2 KB.
 */
import { request } from 'node:http'
import * as O from 'fp-ts/lib/Option.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { everything } from '../../examples/everything.js'
import { clip, clipLength } from '../../src/util/clip.js'
import { encode, newSession, tasksExtension } from '../../src/index.js'
import { serveHttp, type RunningHttp } from '../../src/transport/http.js'

const hostile = `${'h'.repeat(1024 * 1024 - 1)}!`
const prefix = hostile.slice(0, clipLength)
const small = 2048

const legacy = async (method: string, params: Record<string, unknown>): Promise<string> => {
  const session = newSession('2025-11-25')
  session.clientCapabilities = {}
  const out = await everything.dispatch({ jsonrpc: '2.0', id: 1, method, params }, session)()
  if (O.isNone(out)) throw new Error(`no answer to ${method.slice(0, 50)}`)
  return encode(out.value)
}

const modernMeta = (version = '2026-07-28') => ({
  'io.modelcontextprotocol/protocolVersion': version,
  'io.modelcontextprotocol/clientCapabilities': { extensions: { [tasksExtension]: {} } },
})

const modern = async (method: string, params: Record<string, unknown>, version?: string): Promise<string> => {
  const out = await everything.dispatch({ jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: modernMeta(version) } }, newSession())()
  if (O.isNone(out)) throw new Error(`no answer to ${method.slice(0, 50)}`)
  return encode(out.value)
}

/** An object with `n` members no schema allows, the last one named by the hostile string. */
const unknownMembers = (n: number): Record<string, number> => {
  const o: Record<string, number> = {}
  for (let i = 0; i < n; i++) o[`k${i}`] = i
  o[hostile] = 1
  return o
}

describe('clip', () => {
  it('keeps short text whole and cuts long text to a prefix with its length', () => {
    expect(clip('add')).toBe('add')
    expect(clip('x'.repeat(clipLength))).toBe('x'.repeat(clipLength))
    expect(clip(hostile)).toBe(`${prefix}… (${hostile.length} characters)`)
  })

  it('never splits a surrogate pair', () => {
    const text = `${'a'.repeat(clipLength - 1)}😀${'b'.repeat(10)}`
    const cut = clip(text)
    expect(cut.startsWith('a'.repeat(clipLength - 1) + '…')).toBe(true)
    expect(cut).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/)
  })
})

describe('answers to hostile input quote a prefix of it (dispatcher)', () => {
  const cases: ReadonlyArray<readonly [string, () => Promise<string>]> = [
    ['an unknown tool', () => legacy('tools/call', { name: hostile, arguments: {} })],
    ['an unknown method', () => legacy(hostile, {})],
    ['a notification method sent with an id', () => legacy(`notifications/${hostile}`, {})],
    ['an unknown resource', () => legacy('resources/read', { uri: `test://${hostile}` })],
    ['an unknown prompt', () => legacy('prompts/get', { name: hostile })],
    ['a completion of an unknown prompt', () => legacy('completion/complete', { ref: { type: 'ref/prompt', name: hostile }, argument: { name: 'a', value: 'b' } })],
    ['a completion of an unknown template', () => legacy('completion/complete', { ref: { type: 'ref/resource', uri: hostile }, argument: { name: 'a', value: 'b' } })],
    ['100 000 unknown arguments, one named by 1 MB', () => legacy('tools/call', { name: 'test_simple_text', arguments: unknownMembers(100_000) })],
    ['an unknown task (2026-07-28)', () => modern('tasks/get', { taskId: hostile })],
    ['an unsupported protocol version in _meta', () => modern('tools/list', {}, `2026-${hostile}`)],
  ]

  it.each(cases)('%s', async (_what, run) => {
    const answer = await run()
    expect(answer.length).toBeLessThan(small)
    // the culprit is still named by its first characters
    expect(answer.includes(prefix.slice(0, 50)) || answer.includes('k0')).toBe(true)
  })

  it('names at most 20 failing paths, then how many more', async () => {
    const answer = JSON.parse(await legacy('tools/call', { name: 'test_simple_text', arguments: unknownMembers(100) }))
    const text: string = answer.result.content[0].text
    expect(answer.result.isError).toBe(true)
    expect(text.split(': is not allowed').length - 1).toBe(20)
    expect(text).toMatch(/and 81 more$/)
  })
})

describe('answers to hostile headers quote a prefix of them (HTTP)', () => {
  let running: RunningHttp
  beforeAll(async () => {
    running = await serveHttp(everything, { port: 0, handleSignals: false, sessions: true })
  })
  afterAll(async () => {
    await running.close()
  })
  const long = 'v'.repeat(8000)
  const base = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }
  const initialize = { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'echo', version: '1' } } }

  it('a hostile Host header', async () => {
    // fetch does not let a caller set Host: a plain request does
    const { status, text } = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = request(running.url, { method: 'POST', headers: { ...base, host: `${long}.example` } }, (res) => {
        let text = ''
        res.setEncoding('utf8').on('data', (c: string) => (text += c)).on('end', () => resolve({ status: res.statusCode ?? 0, text }))
      })
      req.on('error', reject).end(JSON.stringify(initialize))
    })
    expect(status).toBe(403)
    expect(text.length).toBeLessThan(small)
    expect(text).toContain('v'.repeat(50))
  })

  it.each([
    ['Origin', { origin: `http://${long}.example` }],
    ['MCP-Protocol-Version', { 'mcp-protocol-version': `2025-${long}` }],
  ])('a hostile %s header', async (_name, headers) => {
    const res = await fetch(running.url, { method: 'POST', headers: { ...base, ...headers }, body: JSON.stringify(initialize) })
    const text = await res.text()
    expect(res.status).toBeGreaterThanOrEqual(400)
    expect(text.length).toBeLessThan(small)
    expect(text).toContain('v'.repeat(50))
  })

  it('a hostile Last-Event-ID', async () => {
    const init = await fetch(running.url, { method: 'POST', headers: { ...base, 'mcp-protocol-version': '2025-11-25' }, body: JSON.stringify(initialize) })
    await init.text()
    const sid = init.headers.get('mcp-session-id') as string
    const res = await fetch(running.url, { headers: { accept: 'text/event-stream', 'mcp-session-id': sid, 'last-event-id': long } })
    const text = await res.text()
    expect(res.status).toBe(400)
    expect(text.length).toBeLessThan(small)
  })

  it('a 2026-07-28 body whose 1 MB method the Mcp-Method header does not match', async () => {
    const body = { jsonrpc: '2.0', id: 1, method: hostile, params: { _meta: modernMeta() } }
    const res = await fetch(running.url, {
      method: 'POST',
      headers: { ...base, 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' },
      body: JSON.stringify(body),
    })
    const text = await res.text()
    expect(res.status).toBe(400)
    expect(text.length).toBeLessThan(small)
    expect(text).toContain(prefix.slice(0, 50))
  })
})
