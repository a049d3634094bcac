/**
 * Rotating `requestState` keys through the public dispatcher: the first key signs, every key
 * verifies. A state signed by key A is taken by a server holding [B, A] (A is the previous
 * key) and refused, with a clear error, by one holding [B] only. The keys also come from
 * `EMCP_REQUEST_STATE_KEYS`-style text.
 */
import { describe, expect, it } from 'vitest'
import * as O from 'fp-ts/lib/Option.js'
import { emcp, encode, mcpServer, newSession, requestStateKeysFrom, type Server, type ServerOptions } from '../../../src/index.js'

const keyA = 'key A: the one that signed before'
const keyB = 'key B: the one that signs now...'
const caps = { elicitation: { form: {} } }
const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': caps }

const ask = emcp({ name: 'ask', description: 'Asks the user for a name.', input: { type: 'object' } })
const serverWith = (requestState: ServerOptions['requestState']): Server =>
  mcpServer([ask], { name: 'keys', version: '1' }, { requestState }).implement({
    ask: async (_args, ctx) => {
      const r = await ctx.elicit({ message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } })
      return r.action === 'accept' ? `hello ${String(r.content.name)}` : 'nobody'
    },
  }) as unknown as Server

let id = 1
const call = async (server: Server, params: Record<string, unknown>) => {
  const out = await server.dispatch({ jsonrpc: '2.0', id: id++, method: 'tools/call', params: { name: 'ask', arguments: {}, ...params, _meta: meta } }, newSession())()
  if (O.isNone(out)) throw new Error('no answer')
  return JSON.parse(encode(out.value)) as { result?: any; error?: { code: number; message: string } }
}
const stateOf = async (server: Server): Promise<string> => {
  const first = await call(server, {})
  expect(first.result.resultType).toBe('input_required')
  return first.result.requestState as string
}
const retry = (server: Server, requestState: string) => call(server, { inputResponses: { 'input-0': { action: 'accept', content: { name: 'Ada' } } }, requestState })

describe('requestState keys rotate: the first signs, all verify', () => {
  it('a state signed by key A verifies on a server with keys [B, A]', async () => {
    const state = await stateOf(serverWith({ key: keyA }))
    const m = await retry(serverWith({ keys: [keyB, keyA] }), state)
    expect(m.error).toBeUndefined()
    expect(m.result).toMatchObject({ resultType: 'complete', content: [{ type: 'text', text: 'hello Ada' }] })
  })

  it('a state signed by key A is refused, with a clear error, by a server with keys [B] only', async () => {
    const state = await stateOf(serverWith({ keys: [keyA] }))
    const m = await retry(serverWith({ keys: [keyB] }), state)
    expect(m.error?.code).toBe(-32602)
    expect(m.error?.message).toMatch(/requestState was not issued by this server or has been altered \(its request-state key did not sign it/)
    const rotated = await retry(serverWith({ keys: [keyB, 'key C: another one long enough'] }), state)
    expect(rotated.error?.message).toMatch(/none of its 2 request-state keys signed it/)
  })

  it('the first key signs: a server with [B, A] issues states that a server with [B] takes and one with [A] refuses', async () => {
    const state = await stateOf(serverWith({ keys: [keyB, keyA] }))
    expect((await retry(serverWith({ keys: [keyB] }), state)).result?.resultType).toBe('complete')
    expect((await retry(serverWith({ keys: [keyA] }), state)).error?.code).toBe(-32602)
  })

  it('reads EMCP_REQUEST_STATE_KEYS-style text: comma-separated, spaces around each key trimmed, first signs; none when absent or blank', async () => {
    expect(requestStateKeysFrom(` ${keyB} , ${keyA}`)).toEqual([keyB, keyA])
    expect(requestStateKeysFrom(`${keyB}, ${keyA}`)).toEqual([keyB, keyA])
    expect(requestStateKeysFrom(undefined)).toBeUndefined()
    expect(requestStateKeysFrom('  ')).toBeUndefined()
    const state = await stateOf(serverWith({ key: keyA }))
    expect((await retry(serverWith({ keys: requestStateKeysFrom(`${keyB},${keyA}`) }), state)).result?.resultType).toBe('complete')
  })

  it('refuses an empty item (a key gone missing) with its place, never echoing a key', () => {
    expect(() => requestStateKeysFrom(`${keyB},,${keyA}`)).toThrow('emcp: EMCP_REQUEST_STATE_KEYS: item 2 of 3 is empty (two commas in a row, or a comma at an end): put the missing key back or remove the comma')
    expect(() => requestStateKeysFrom(`${keyB}, ,${keyA}`)).toThrow(/item 2 of 3 is empty/)
    expect(() => requestStateKeysFrom(`${keyB},`)).toThrow(/item 2 of 2 is empty/)
    expect(() => requestStateKeysFrom(' , ')).toThrow(/item 1 of 2 is empty/)
    try {
      requestStateKeysFrom(`${keyB},,${keyA}`)
    } catch (e) {
      expect(String(e)).not.toContain(keyB)
      expect(String(e)).not.toContain(keyA)
    }
  })

  it('refuses bad key sets when the server is built', () => {
    expect(() => serverWith({ keys: [] })).toThrow(/at least one key/)
    expect(() => serverWith({ keys: [keyB, 'short'] })).toThrow(/requestState.keys\[1\] must be at least 16 bytes/)
    expect(() => serverWith({ key: keyA, keys: [keyB] })).toThrow(/not both/)
  })
})
