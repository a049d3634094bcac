/**
 * `sessions.newId`: a stateful endpoint whose session ids come from the user (a Durable
 * Object gives its own, emcp/workers). The id given names the session and serves it; an id
 * that a header cannot carry, or one still in use, refuses the initialize with a 500 that
 * says why, and opens nothing. Through `toFetchHandler` with Web Requests.
 */
import { describe, expect, it } from 'vitest'
import { emcp, mcpServer } from '../../../src/index.js'
import { toFetchHandler } from '../../../src/transport/http.js'

const echo = emcp({ name: 'echo', description: 'Echo the text.', input: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } as const })
const server = () => mcpServer([echo], { name: 'session-ids', version: '1' }).implement({ echo: ({ text }) => text })

const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }
const initialize = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } })
const post = (body: string, extra: Record<string, string> = {}): Request => new Request('http://127.0.0.1/mcp', { method: 'POST', headers: { ...headers, ...extra }, body })

describe('sessions.newId', () => {
  it('names the session with the id it gives, which then serves it', async () => {
    const handle = toFetchHandler(server(), { sessions: { newId: () => 'the-object-id' } })
    const res = await handle(post(initialize))
    expect(res.status).toBe(200)
    expect(res.headers.get('mcp-session-id')).toBe('the-object-id')
    const call = await handle(post(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'echo', arguments: { text: 'hi' } } }), { 'mcp-session-id': 'the-object-id', 'mcp-protocol-version': '2025-11-25', accept: 'application/json' }))
    expect(await call.json()).toMatchObject({ id: 2, result: { content: [{ type: 'text', text: 'hi' }] } })
  })

  it.each([
    ['empty', ''],
    ['with a space', 'a b'],
    ['with a newline', 'a\nb'],
    ['past 128 characters', 'x'.repeat(129)],
    ['not ASCII', 'sesión'],
    ['not a string', 42 as unknown as string],
  ])('refuses an id %s, and opens nothing', async (_name, id) => {
    const handle = toFetchHandler(server(), { sessions: { newId: () => id } })
    const res = await handle(post(initialize))
    expect(res.status).toBe(500)
    expect(res.headers.get('mcp-session-id')).toBeNull()
    expect(await res.text()).toMatch(/sessions\.newId must give 1 to 128 visible ASCII characters/)
  })

  it('refuses an id still in use, and the open session goes on', async () => {
    const handle = toFetchHandler(server(), { sessions: { newId: () => 'same' } })
    expect((await handle(post(initialize))).status).toBe(200)
    const again = await handle(post(initialize))
    expect(again.status).toBe(500)
    expect(await again.text()).toMatch(/the id of a session still open/)
    const ping = await handle(post(JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'ping' }), { 'mcp-session-id': 'same', 'mcp-protocol-version': '2025-11-25' }))
    expect(ping.status).toBe(200)
  })
})
