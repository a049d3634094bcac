/**
 * The router (src/server/router.ts) makes the 2026-07-28 adapter on the first request of that
 * era. Nothing a user sees moves with it: a bad request-state key still fails as the server
 * is built, a server without keys signs states with its own random key (one per server, the
 * same on each later request), and both eras are answered by one server in any order.
 */
import { describe, expect, it } from 'vitest'
import * as O from 'fp-ts/lib/Option.js'
import { emcp, encode, mcpServer, newSession, type Server, type ServerOptions } from '../../src/index.js'

const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } } }
const ask = emcp({ name: 'ask', description: 'Asks the user for a name.', input: { type: 'object' } })
const serverWith = (options: ServerOptions): Server =>
  mcpServer([ask], { name: 'router', version: '1' }, options).implement({
    ask: async (_args, ctx) => {
      const r = await ctx.elicit({ message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } })
      return r.action === 'accept' ? `hello ${String(r.content.name)}` : 'nobody'
    },
  }) as unknown as Server

let id = 1
const send = async (server: Server, method: string, params: Record<string, unknown>) => {
  const out = await server.dispatch({ jsonrpc: '2.0', id: id++, method, params }, newSession())()
  if (O.isNone(out)) throw new Error('no answer')
  return JSON.parse(encode(out.value)) as { result?: any; error?: { code: number; message: string } }
}
const askModern = (server: Server, extra: Record<string, unknown> = {}) => send(server, 'tools/call', { name: 'ask', arguments: {}, ...extra, _meta: meta })

describe('the 2026-07-28 adapter, made on first use', () => {
  it('a request-state key too short fails when the server is built, before any request', () => {
    expect(() => serverWith({ requestState: { key: 'short' } })).toThrow('emcp: requestState.key must be at least 16 bytes long')
    expect(() => serverWith({ requestState: { keys: [] } })).toThrow('emcp: requestState.keys must hold at least one key (the first signs)')
  })

  it('a server without keys takes back the states it issued, and refuses another server’s', async () => {
    const server = serverWith({})
    const first = await askModern(server)
    expect(first.result?.resultType).toBe('input_required')
    const answers = { inputResponses: { 'input-0': { action: 'accept', content: { name: 'Ada' } } }, requestState: first.result.requestState }
    const done = await askModern(server, answers)
    expect(done.result).toMatchObject({ resultType: 'complete', content: [{ type: 'text', text: 'hello Ada' }] })
    const other = await askModern(serverWith({}), answers)
    expect(other.error?.code).toBe(-32602)
    expect(other.error?.message).toMatch(/requestState was not issued by this server/)
  })

  it('one server answers a 2025 ping, then a 2026 discover, then a 2025 ping again', async () => {
    const server = serverWith({})
    expect((await send(server, 'ping', {})).result).toEqual({})
    const discover = await send(server, 'server/discover', { _meta: meta })
    expect(discover.result?.supportedVersions).toContain('2026-07-28')
    expect(discover.result?.resultType).toBe('complete')
    expect((await send(server, 'ping', {})).result).toEqual({})
  })

  it('a server serving only 2026-07-28 refuses a 2025 request and answers a 2026 one', async () => {
    const server = serverWith({ eras: ['2026-07-28'] })
    const legacy = await send(server, 'ping', {})
    expect(legacy.error?.message).toMatch(/protocolVersion"\] is required \(this server speaks 2026-07-28\)/)
    expect((await send(server, 'server/discover', { _meta: meta })).result).toMatchObject({ resultType: 'complete', supportedVersions: ['2026-07-28'] })
  })
})
