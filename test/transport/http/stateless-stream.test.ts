/**
 * Stateless 2025-11-25 POSTs (no sessions) still carry a tool call's own progress and log
 * notifications: the first of them turns the answer into an SSE stream, which ends with the
 * result; a call that sends none, or a client that accepts only JSON, gets JSON. A question
 * to the client has no way back and fails at once with a message saying so; closing the
 * stream cancels the call. Through `toFetchHandler` with Web Requests, the real chain.
 */
import { describe, expect, it } from 'vitest'
import { emcp, mcpServer } from '../../../src/index.js'
import { toFetchHandler } from '../../../src/transport/http.js'

const noArgs = { type: 'object' } as const
const work = emcp({ name: 'work', description: 'Report progress twice and log once, then answer.', input: noArgs })
const quiet = emcp({ name: 'quiet', description: 'Answer at once.', input: noArgs })
const ask = emcp({ name: 'ask', description: 'Ask the user (elicitation).', input: noArgs })
const hold = emcp({ name: 'hold', description: 'Report progress, then wait until cancelled.', input: noArgs })

let cancelled: (reason: unknown) => void = () => undefined
const wasCancelled = new Promise<unknown>((resolve) => (cancelled = resolve))

const server = mcpServer([work, quiet, ask, hold], { name: 'stateless-stream', version: '1' }).implement({
  work: async (_a, ctx) => {
    ctx.progress(1, 2, 'half')
    await Promise.resolve()
    ctx.log('info', 'working')
    await new Promise((r) => setTimeout(r, 1))
    ctx.progress(2, 2, 'all')
    return 'done'
  },
  quiet: () => 'quiet',
  ask: async (_a, ctx) => {
    const r = await ctx.elicit({ message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } })
    return r.action
  },
  hold: async (_a, ctx) => {
    ctx.progress(1, undefined, 'started')
    await new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve(), { once: true }))
    cancelled(ctx.signal.reason)
    return 'cancelled'
  },
})

const handle = toFetchHandler(server)
const call = (name: string, accept: string, id: number | string = 7): Promise<Response> =>
  handle(
    new Request('http://127.0.0.1/mcp', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept, 'mcp-protocol-version': '2025-11-25' },
      body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: {}, _meta: { progressToken: 'tok' } } }),
    }),
  )
const events = (text: string): ReadonlyArray<{ readonly id?: unknown; readonly method?: string; readonly params?: Record<string, unknown>; readonly result?: unknown }> =>
  [...text.matchAll(/^data: (.+)$/gm)].map((m) => JSON.parse(m[1] as string))

describe('stateless tool calls with notifications', () => {
  it('streams the call\'s progress and logs, then its result, on its own SSE answer', async () => {
    const res = await call('work', 'application/json, text/event-stream')
    expect(res.headers.get('content-type')).toMatch(/text\/event-stream/)
    expect(res.headers.get('mcp-session-id')).toBeNull()
    const got = events(await res.text())
    expect(got.map((e) => e.method ?? 'result')).toEqual(['notifications/progress', 'notifications/message', 'notifications/progress', 'result'])
    expect(got[0]?.params).toMatchObject({ progressToken: 'tok', progress: 1, total: 2 })
    expect(got[1]?.params).toMatchObject({ level: 'info', data: 'working' })
    expect(got[3]).toMatchObject({ id: 7, result: { content: [{ type: 'text', text: 'done' }] } })
  })

  it('answers as JSON a call that sends nothing, and a client that accepts only JSON', async () => {
    const quietRes = await call('quiet', 'application/json, text/event-stream')
    expect(quietRes.headers.get('content-type')).toMatch(/application\/json/)
    expect(await quietRes.json()).toMatchObject({ id: 7, result: { content: [{ text: 'quiet' }] } })
    const jsonOnly = await call('work', 'application/json')
    expect(jsonOnly.headers.get('content-type')).toMatch(/application\/json/)
    expect(await jsonOnly.json()).toMatchObject({ id: 7, result: { content: [{ text: 'done' }] } })
  })

  it('fails a question to the client at once, saying that a stateless endpoint cannot ask', async () => {
    const res = await call('ask', 'application/json, text/event-stream')
    const body = await res.text()
    expect(body).toMatch(/needs a transport that can send requests to the client/)
    expect(body).not.toMatch(/elicitation\/create"/)
  })

  it('cancels the call when the client closes the stream', async () => {
    const res = await call('hold', 'application/json, text/event-stream', 'h1')
    const reader = (res.body as ReadableStream<Uint8Array>).getReader()
    let seen = ''
    while (!seen.includes('notifications/progress')) {
      const next = await reader.read()
      if (next.done) throw new Error('the stream ended before its first event')
      seen += new TextDecoder().decode(next.value)
    }
    await reader.cancel()
    await expect(wasCancelled).resolves.toBeDefined()
  })
})
