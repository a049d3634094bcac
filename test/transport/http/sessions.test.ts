/**
 * Stateful Streamable HTTP (MCP 2025-11-25): sessions named by MCP-Session-Id, DELETE, the
 * standalone GET stream, POST requests answered as SSE streams (notifications, requests to
 * the client, then the response), Last-Event-ID resumption and the session limits; through
 * `serveHttp` (Node) and `toFetchHandler` (Web). Everything talks to 127.0.0.1 only.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createServer, type Server as NodeServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { emcp, mcpServer } from '../../../src/index.js'
import { serveHttp, toFetchHandler, toNodeListener, type RunningHttp } from '../../../src/transport/http.js'
import { parseFrame, type SseEvent } from '../../support/sse.js'

// ---------------------------------------------------------------------------------------
// fixtures

const echo = emcp({
  name: 'echo',
  description: 'Echo the text.',
  input: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
})
const work = emcp({
  name: 'work',
  description: 'Report progress twice, log once, then answer.',
  input: { type: 'object' },
})
const ask = emcp({
  name: 'ask',
  description: 'Ask the user for a name (elicitation) and greet them.',
  input: { type: 'object' },
})
const wait = emcp({
  name: 'wait',
  description: 'Report progress, then answer once the test opens the gate.',
  input: { type: 'object', properties: { gate: { type: 'string' } }, required: ['gate'] },
})

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

/** Gates the `wait` tool waits on, opened by the tests. */
const gates = new Map<string, { readonly opened: Promise<void>; readonly open: () => void }>()
const gate = (name: string) => {
  let g = gates.get(name)
  if (g === undefined) {
    let open = (): void => {}
    const opened = new Promise<void>((resolve) => (open = resolve))
    g = { opened, open }
    gates.set(name, g)
  }
  return g
}

const newServer = () =>
  mcpServer([echo, work, ask, wait], { name: 'http-sessions-test', version: '1' }).implement({
    echo: ({ text }) => text,
    work: async (_args, ctx) => {
      ctx.progress(1, 2, 'half')
      await sleep(5)
      ctx.progress(2, 2, 'all')
      ctx.log('info', 'worked')
      await sleep(5)
      return 'done'
    },
    ask: async (_args, ctx) => {
      const answer = await ctx.elicit({
        message: 'Who are you?',
        requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
      })
      return answer.action === 'accept' ? `hello ${answer.content.name}` : answer.action
    },
    wait: async ({ gate: name }, ctx) => {
      ctx.progress(1)
      await gate(name).opened
      return `opened ${name}`
    },
  })

const both = 'application/json, text/event-stream'
const sse = 'text/event-stream'

const initialize = (capabilities: object = {}, id: number | string = 0): string =>
  JSON.stringify({ jsonrpc: '2.0', id, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities, clientInfo: { name: 't', version: '1' } } })
const initialized = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })
const ping = (id: number | string = 1): string => JSON.stringify({ jsonrpc: '2.0', id, method: 'ping' })
const call = (name: string, args: object = {}, id: number | string = 1, progressToken?: string | number): string =>
  JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name, arguments: args, ...(progressToken === undefined ? {} : { _meta: { progressToken } }) },
  })

/** A fetch to the endpoint; `session` sets MCP-Session-Id. */
type Send = (init: { method?: string; body?: string; accept?: string; session?: string; headers?: Record<string, string>; signal?: AbortSignal }) => Promise<Response>

const sender =
  (url: () => string, run: (request: Request) => Promise<Response> = fetch): Send =>
  ({ method = 'POST', body, accept = both, session, headers = {}, signal }) =>
    run(
      new Request(url(), {
        method,
        body,
        signal,
        headers: {
          accept,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...(session === undefined ? {} : { 'mcp-session-id': session }),
          ...headers,
        },
      }),
    )

/** Initializes a session (and sends notifications/initialized); its id. */
const open = async (send: Send, capabilities: object = {}): Promise<string> => {
  const res = await send({ body: initialize(capabilities) })
  expect(res.status).toBe(200)
  expect((await res.json()).result.protocolVersion).toBe('2025-11-25')
  const id = res.headers.get('mcp-session-id')
  if (id === null) throw new Error('initialize gave no MCP-Session-Id')
  const done = await send({ body: initialized, session: id })
  expect(done.status).toBe(202)
  await done.text()
  return id
}

/** A ping in a session: its status (the body is read). */
const pingStatus = async (send: Send, session: string): Promise<number> => {
  const res = await send({ body: ping(), session })
  await res.text()
  return res.status
}

// ---------------------------------------------------------------------------------------
// SSE reading

/** The JSON-RPC message an event carries. */
const messageOf = (e: SseEvent | undefined): { [key: string]: any } => {
  if (e?.data === undefined || e.data === '') throw new Error(`event without a message: ${JSON.stringify(e)}`)
  return JSON.parse(e.data)
}

/** Reads a streamed response event by event, each read bounded in time. */
const sseReader = (res: Response) => {
  if (res.body === null) throw new Error('no body')
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader()
  let buffer = ''
  let ended = false
  const ready: SseEvent[] = []
  let pending: Promise<void> | undefined
  const fill = (): Promise<void> =>
    (pending ??= reader.read().then(
      (r) => {
        pending = undefined
        if (r.done) {
          ended = true
          return
        }
        buffer += r.value.replace(/\r\n?/g, '\n')
        for (let i = buffer.indexOf('\n\n'); i !== -1; i = buffer.indexOf('\n\n')) {
          ready.push(parseFrame(buffer.slice(0, i)))
          buffer = buffer.slice(i + 2)
        }
      },
      () => {
        pending = undefined
        ended = true
      },
    ))
  /** The next event; undefined when the stream ended; throws after `ms`. */
  const next = async (ms = 5_000): Promise<SseEvent | undefined> => {
    const deadline = Date.now() + ms
    while (ready.length === 0 && !ended) {
      const left = deadline - Date.now()
      if (left <= 0) throw new Error(`no SSE event within ${ms} ms`)
      let timer: NodeJS.Timeout | undefined
      const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), left)))
      await Promise.race([fill(), late])
      clearTimeout(timer)
    }
    return ready.shift()
  }
  return {
    next,
    /** The next event, or undefined if none comes within `ms` (or the stream ended). */
    maybe: async (ms: number): Promise<SseEvent | undefined> => {
      try {
        return await next(ms)
      } catch {
        return undefined
      }
    },
    /** Every event until the stream ends (bounded). */
    rest: async (ms = 5_000): Promise<SseEvent[]> => {
      const deadline = Date.now() + ms
      const out: SseEvent[] = []
      for (;;) {
        const e = await next(Math.max(1, deadline - Date.now()))
        if (e === undefined) return out
        out.push(e)
      }
    },
    ended: () => ended,
    cancel: () => reader.cancel().catch(() => {}),
  }
}
type SseReader = ReturnType<typeof sseReader>

/** Waits (at most `ms`) until `check` holds. */
const until = async (check: () => boolean | Promise<boolean>, what: string, ms = 15_000): Promise<void> => {
  const deadline = Date.now() + ms
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`)
    await sleep(10)
  }
}

const expectPriming = (e: SseEvent | undefined, retry = '1000'): string => {
  expect(e?.id).toMatch(/^[\x21-\x7e]+$/)
  expect(e?.retry).toBe(retry)
  expect(e?.data).toBe('')
  return e?.id as string
}

/** Things to end after each test: open streams (readers and aborts). */
const cleanups: Array<() => unknown> = []
const track = (r: SseReader): SseReader => {
  cleanups.push(r.cancel)
  return r
}
const abortable = (): AbortController => {
  const c = new AbortController()
  cleanups.push(() => c.abort())
  return c
}
afterEach(async () => {
  for (const f of cleanups.splice(0)) await f()
})

// ---------------------------------------------------------------------------------------
// serveHttp: sessions

describe('stateful http (serveHttp): sessions', () => {
  let running: RunningHttp
  let send: Send

  beforeAll(async () => {
    running = await serveHttp(newServer(), { port: 0, sessions: true })
    send = sender(() => running.url)
  })
  afterAll(async () => {
    await running.close()
  })

  it('issues a session id on initialize: visible ASCII, different for every session', async () => {
    const ids: string[] = []
    for (let i = 0; i < 10; i++) {
      const res = await send({ body: initialize() })
      expect(res.status).toBe(200)
      expect(res.headers.get('content-type')).toBe('application/json')
      const body = await res.json()
      expect(body).toMatchObject({ jsonrpc: '2.0', id: 0, result: { protocolVersion: '2025-11-25' } })
      const id = res.headers.get('mcp-session-id')
      expect(id).toMatch(/^[\x21-\x7e]+$/)
      ids.push(id as string)
    }
    expect(new Set(ids).size).toBe(ids.length)
    for (const id of ids) await (await send({ method: 'DELETE', session: id })).text()
  })

  it('answers requests in the session it names', async () => {
    const sid = await open(send)
    const res = await send({ body: call('echo', { text: 'in session' }), accept: 'application/json', session: sid })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'in session' }] } })
  })

  it('keeps sessions apart: a second initialize in a session is refused, other sessions are untouched', async () => {
    const a = await open(send)
    const b = await open(send)
    const again = await send({ body: initialize({}, 7), session: a })
    expect(again.status).toBe(200)
    expect((await again.json()).error?.code).toBe(-32600)
    expect(await pingStatus(send, a)).toBe(200)
    expect(await pingStatus(send, b)).toBe(200)
  })

  it('requires MCP-Session-Id after initialize: 400 with a JSON-RPC error', async () => {
    await open(send)
    const res = await send({ body: ping() })
    expect(res.status).toBe(400)
    const body = await res.json()
    expect(body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: expect.any(Number) } })
    expect(body.error.message).toMatch(/MCP-Session-Id/i)
  })

  it('requires MCP-Session-Id for notifications too (400)', async () => {
    const res = await send({ body: initialized })
    expect(res.status).toBe(400)
    await res.text()
  })

  it('answers an unknown session id with 404', async () => {
    const res = await send({ body: ping(), session: 'no-such-session' })
    expect(res.status).toBe(404)
    expect((await res.json()).error.message).toMatch(/session/i)
    const asInit = await send({ body: initialize(), session: 'no-such-session' })
    expect(asInit.status).toBe(404)
    await asInit.text()
  })

  it('ends a session on DELETE (200), after which it is unknown (404)', async () => {
    const sid = await open(send)
    const res = await send({ method: 'DELETE', session: sid })
    expect(res.status).toBe(200)
    await res.text()
    expect(await pingStatus(send, sid)).toBe(404)
    const again = await send({ method: 'DELETE', session: sid })
    expect(again.status).toBe(404)
    await again.text()
    const get = await send({ method: 'GET', accept: sse, session: sid })
    expect(get.status).toBe(404)
    await get.text()
  })

  it('answers DELETE without MCP-Session-Id with 400', async () => {
    const res = await send({ method: 'DELETE' })
    expect(res.status).toBe(400)
    await res.text()
  })

  it('opens no session for a failed initialize', async () => {
    const res = await send({ body: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'initialize', params: { capabilities: {} } }) })
    expect(res.headers.get('mcp-session-id')).toBeNull()
    const body = await res.json()
    expect(body).toMatchObject({ jsonrpc: '2.0', id: 3, error: { code: -32602 } })
  })

  it('answers unparsable JSON with 400 and a parse error, in a session or not', async () => {
    const sid = await open(send)
    for (const session of [undefined, sid]) {
      const res = await send({ body: '{"jsonrpc":', session })
      expect(res.status).toBe(400)
      expect(await res.json()).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } })
    }
  })

  it('answers a notification with 202 and no body', async () => {
    const sid = await open(send)
    const res = await send({ body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 99 } }), session: sid })
    expect(res.status).toBe(202)
    expect(await res.text()).toBe('')
  })

  it('answers a request as JSON when the client does not accept SSE, even one that reports progress', async () => {
    const sid = await open(send)
    const res = await send({ body: call('work', {}, 5, 'p'), accept: 'application/json', session: sid })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/json')
    expect(await res.json()).toEqual({ jsonrpc: '2.0', id: 5, result: { content: [{ type: 'text', text: 'done' }] } })
  })

  it('answers a request that sends nothing along the way as JSON even when SSE is accepted', async () => {
    const sid = await open(send)
    const res = await send({ body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }), session: sid })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/json')
    expect((await res.json()).result.tools.map((t: { name: string }) => t.name)).toEqual(['echo', 'work', 'ask', 'wait'])
  })

  it('checks Accept and Content-Type on POSTs in a session too (406, 415)', async () => {
    const sid = await open(send)
    const notJson = await send({ body: ping(), accept: sse, session: sid })
    expect(notJson.status).toBe(406)
    await notJson.text()
    const res = await fetch(running.url, { method: 'POST', headers: { accept: both, 'content-type': 'text/plain', 'mcp-session-id': sid }, body: ping() })
    expect(res.status).toBe(415)
    await res.text()
  })

  it('answers tools/call with an SSE stream: priming event, progress, the log message, then the result', async () => {
    const sid = await open(send)
    const res = await send({ body: call('work', {}, 'w1', 'tok'), session: sid })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('text/event-stream')
    expect(res.headers.get('cache-control')).toBe('no-cache')
    const events = await sseReader(res).rest()
    expectPriming(events[0])
    const rest = events.slice(1)
    for (const e of rest) {
      expect(e.event).toBe('message')
      expect(e.id).toMatch(/^[\x21-\x7e]+$/)
    }
    expect(new Set(events.map((e) => e.id)).size).toBe(events.length)
    expect(rest.map(messageOf)).toEqual([
      { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'tok', progress: 1, total: 2, message: 'half' } },
      { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'tok', progress: 2, total: 2, message: 'all' } },
      { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'worked' } },
      { jsonrpc: '2.0', id: 'w1', result: { content: [{ type: 'text', text: 'done' }] } },
    ])
  })

  it('filters the log messages on the stream by the level set with logging/setLevel', async () => {
    const sid = await open(send)
    const set = await send({ body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'logging/setLevel', params: { level: 'error' } }), session: sid })
    expect(await set.json()).toEqual({ jsonrpc: '2.0', id: 1, result: {} })
    const res = await send({ body: call('work', {}, 2), session: sid })
    const messages = (await sseReader(res).rest()).slice(1).map(messageOf)
    expect(messages).toEqual([{ jsonrpc: '2.0', id: 2, result: { content: [{ type: 'text', text: 'done' }] } }])
  })

  it("carries an elicitation on the POST's stream; the client's answer (a separate POST, 202) resumes the call", async () => {
    const sid = await open(send, { elicitation: {} })
    const standalone = track(sseReader(await send({ method: 'GET', accept: sse, session: sid })))
    expectPriming(await standalone.next())
    const res = await send({ body: call('ask', {}, 'a1'), session: sid })
    expect(res.headers.get('content-type')).toBe('text/event-stream')
    const stream = track(sseReader(res))
    expectPriming(await stream.next())
    const request = messageOf(await stream.next())
    expect(request).toMatchObject({
      jsonrpc: '2.0',
      id: expect.anything(),
      method: 'elicitation/create',
      params: { mode: 'form', message: 'Who are you?', requestedSchema: { type: 'object', required: ['name'] } },
    })
    const answer = await send({ body: JSON.stringify({ jsonrpc: '2.0', id: request.id, result: { action: 'accept', content: { name: 'Ada' } } }), session: sid })
    expect(answer.status).toBe(202)
    expect(await answer.text()).toBe('')
    const rest = await stream.rest()
    expect(rest.map(messageOf)).toEqual([{ jsonrpc: '2.0', id: 'a1', result: { content: [{ type: 'text', text: 'hello Ada' }] } }])
    // the request went on the POST's stream, not on the standalone one
    expect(await standalone.maybe(50)).toBeUndefined()
  })

  it('refuses the elicitation answer of another session: it does not resume the call', async () => {
    const sid = await open(send, { elicitation: {} })
    const other = await open(send, { elicitation: {} })
    const stream = track(sseReader(await send({ body: call('ask', {}, 'a2'), session: sid })))
    expectPriming(await stream.next())
    const request = messageOf(await stream.next())
    const wrong = await send({ body: JSON.stringify({ jsonrpc: '2.0', id: request.id, result: { action: 'accept', content: { name: 'Mallory' } } }), session: other })
    await wrong.text()
    expect(await stream.maybe(50)).toBeUndefined()
    const right = await send({ body: JSON.stringify({ jsonrpc: '2.0', id: request.id, result: { action: 'decline' } }), session: sid })
    expect(right.status).toBe(202)
    await right.text()
    expect((await stream.rest()).map(messageOf)).toEqual([{ jsonrpc: '2.0', id: 'a2', result: { content: [{ type: 'text', text: 'decline' }] } }])
  })

  it('ends the streams of a session on DELETE, and rejects what it still waits for', async () => {
    const sid = await open(send, { elicitation: {} })
    const standalone = track(sseReader(await send({ method: 'GET', accept: sse, session: sid })))
    expectPriming(await standalone.next())
    const stream = track(sseReader(await send({ body: call('ask', {}, 'a3'), session: sid })))
    expectPriming(await stream.next())
    messageOf(await stream.next())
    const res = await send({ method: 'DELETE', session: sid })
    expect(res.status).toBe(200)
    await res.text()
    expect(await standalone.rest(2_000)).toEqual([])
    expect(await stream.rest(2_000)).toEqual([])
  })
})

// ---------------------------------------------------------------------------------------
// serveHttp: the GET stream

describe('stateful http (serveHttp): the standalone GET stream', () => {
  let running: RunningHttp
  let send: Send
  const server = newServer()

  beforeAll(async () => {
    running = await serveHttp(server, { port: 0, sessions: { retryMs: 250 } })
    send = sender(() => running.url)
  })
  afterAll(async () => {
    await running.close()
  })

  it('answers GET without MCP-Session-Id with 400', async () => {
    const res = await send({ method: 'GET', accept: sse })
    expect(res.status).toBe(400)
    await res.text()
  })

  it('answers GET whose Accept does not allow text/event-stream with 406', async () => {
    const sid = await open(send)
    const res = await send({ method: 'GET', accept: 'application/json', session: sid })
    expect(res.status).toBe(406)
    await res.text()
  })

  it('answers GET in an unknown session with 404', async () => {
    const res = await send({ method: 'GET', accept: sse, session: 'nope' })
    expect(res.status).toBe(404)
    await res.text()
  })

  it('opens a text/event-stream that starts with a priming event (id, retry, empty data)', async () => {
    const sid = await open(send)
    const res = await send({ method: 'GET', accept: sse, session: sid })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('text/event-stream')
    const stream = track(sseReader(res))
    expectPriming(await stream.next(), '250')
  })

  it('answers a second GET with 409 while the first is open, and accepts one again once it closed', async () => {
    const sid = await open(send)
    const first = abortable()
    const stream = sseReader(await send({ method: 'GET', accept: sse, session: sid, signal: first.signal }))
    expectPriming(await stream.next(), '250')
    const second = await send({ method: 'GET', accept: sse, session: sid })
    expect(second.status).toBe(409)
    await second.text()
    first.abort()
    await until(async () => {
      const res = await send({ method: 'GET', accept: sse, session: sid })
      if (res.status === 200) {
        track(sseReader(res))
        return true
      }
      await res.text()
      return false
    }, 'a GET to be accepted again')
  })

  it('sends notifications/tools/list_changed on the GET stream when a tool is added', async () => {
    const sid = await open(send)
    const stream = track(sseReader(await send({ method: 'GET', accept: sse, session: sid })))
    expectPriming(await stream.next(), '250')
    server.addTool(emcp({ name: 'added_1', description: 'Added at run time.', input: { type: 'object' } }), () => 'added')
    const e = await stream.next()
    expect(e?.event).toBe('message')
    expect(messageOf(e)).toEqual({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' })
    const list = await send({ body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }), session: sid })
    expect((await list.json()).result.tools.map((t: { name: string }) => t.name)).toContain('added_1')
  })

  it('replays the GET stream after a reconnect with Last-Event-ID', async () => {
    const sid = await open(send)
    const first = abortable()
    const stream = sseReader(await send({ method: 'GET', accept: sse, session: sid, signal: first.signal }))
    const prime = expectPriming(await stream.next(), '250')
    server.addTool(emcp({ name: 'added_2', description: 'Added at run time.', input: { type: 'object' } }), () => 'added')
    const change = await stream.next()
    expect(messageOf(change).method).toBe('notifications/tools/list_changed')
    first.abort()
    let resumed: SseReader | undefined
    await until(async () => {
      const res = await send({ method: 'GET', accept: sse, session: sid, headers: { 'last-event-id': prime } })
      if (res.status === 200) resumed = track(sseReader(res))
      else await res.text()
      return res.status === 200
    }, 'the resumed GET')
    const r = resumed as SseReader
    // a resumed stream replays first, then primes (its priming id is then the latest)
    const again = await r.next()
    expect(again?.id).toBe(change?.id)
    expect(again?.data).toBe(change?.data)
    expectPriming(await r.next(), '250')
  })

  it('answers an unknown Last-Event-ID with 400', async () => {
    const sid = await open(send)
    const res = await send({ method: 'GET', accept: sse, session: sid, headers: { 'last-event-id': 'not-an-event' } })
    expect(res.status).toBe(400)
    await res.text()
  })

  it("answers a Last-Event-ID of another session's stream with 400", async () => {
    const a = await open(send)
    const b = await open(send)
    const events = await sseReader(await send({ body: call('work', {}, 1), session: a })).rest()
    const res = await send({ method: 'GET', accept: sse, session: b, headers: { 'last-event-id': events[0]?.id ?? '' } })
    expect(res.status).toBe(400)
    await res.text()
  })

  it("replays a POST's stream (notifications and the response) after a reconnect with GET and Last-Event-ID", async () => {
    const sid = await open(send)
    const events = await sseReader(await send({ body: call('work', {}, 'r1', 't'), session: sid })).rest()
    expect(events).toHaveLength(5)
    const resumed = track(sseReader(await send({ method: 'GET', accept: sse, session: sid, headers: { 'last-event-id': events[0]?.id ?? '' } })))
    const replayed = [await resumed.next(), await resumed.next(), await resumed.next(), await resumed.next()]
    expectPriming(await resumed.next(), '250')
    expect(replayed.map((e) => e?.id)).toEqual(events.slice(1).map((e) => e.id))
    expect(replayed.map((e) => e?.data)).toEqual(events.slice(1).map((e) => e.data))
    expect(messageOf(replayed[3])).toMatchObject({ id: 'r1', result: {} })
  })

  it('replays only the events after the given one', async () => {
    const sid = await open(send)
    const events = await sseReader(await send({ body: call('work', {}, 'r2', 't'), session: sid })).rest()
    const log = events[3]
    expect(messageOf(log).method).toBe('notifications/message')
    const resumed = track(sseReader(await send({ method: 'GET', accept: sse, session: sid, headers: { 'last-event-id': log?.id ?? '' } })))
    const replayed = await resumed.next()
    expect(replayed?.id).toBe(events[4]?.id)
    expect(messageOf(replayed)).toMatchObject({ id: 'r2' })
    expectPriming(await resumed.next(), '250')
    expect(await resumed.maybe(50)).toBeUndefined()
  })

  it('delivers the response of a request whose stream was cut, on the stream resumed with Last-Event-ID', async () => {
    const sid = await open(send)
    const cut = abortable()
    const stream = sseReader(await send({ body: call('wait', { gate: 'cut' }, 'c1', 't'), session: sid, signal: cut.signal }))
    expectPriming(await stream.next(), '250')
    const progress = await stream.next()
    expect(messageOf(progress).method).toBe('notifications/progress')
    // the connection drops (MCP: that is not a cancellation); the call ends meanwhile
    cut.abort()
    await sleep(100)
    gate('cut').open()
    await sleep(50)
    const res = await send({ method: 'GET', accept: sse, session: sid, headers: { 'last-event-id': progress?.id ?? '' } })
    expect(res.status).toBe(200)
    const resumed = track(sseReader(res))
    const answer = await resumed.maybe(1_000)
    expect(answer === undefined ? 'nothing was replayed' : messageOf(answer)).toEqual({
      jsonrpc: '2.0',
      id: 'c1',
      result: { content: [{ type: 'text', text: 'opened cut' }] },
    })
  })

  it('keeps the open GET stream working after another stream was resumed and closed', async () => {
    const sid = await open(send)
    const standalone = track(sseReader(await send({ method: 'GET', accept: sse, session: sid })))
    expectPriming(await standalone.next(), '250')
    const events = await sseReader(await send({ body: call('work', {}, 'k1'), session: sid })).rest()
    const resumedCtl = abortable()
    const resumed = sseReader(await send({ method: 'GET', accept: sse, session: sid, headers: { 'last-event-id': events[0]?.id ?? '' }, signal: resumedCtl.signal }))
    expect(messageOf(await resumed.next()).method).toBe('notifications/message')
    expect(messageOf(await resumed.next())).toMatchObject({ id: 'k1' })
    expectPriming(await resumed.next(), '250')
    resumedCtl.abort()
    await sleep(100)
    // the first GET stream is still open: the server's notifications must still reach it
    server.addTool(emcp({ name: 'added_3', description: 'Added at run time.', input: { type: 'object' } }), () => 'added')
    const e = await standalone.maybe(1_000)
    expect(e === undefined ? 'nothing arrived' : messageOf(e)).toEqual({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' })
  })
})

// ---------------------------------------------------------------------------------------
// serveHttp: limits

describe('stateful http (serveHttp): limits', () => {
  const servers: RunningHttp[] = []
  afterAll(async () => {
    for (const r of servers) await r.close()
  })
  const serve = async (sessions: { maxSessions?: number; idleMs?: number }): Promise<Send> => {
    const running = await serveHttp(newServer(), { port: 0, sessions })
    servers.push(running)
    return sender(() => running.url)
  }

  it('evicts the least recently used idle session to make room (its id then gets 404)', async () => {
    const send = await serve({ maxSessions: 2 })
    const a = await open(send)
    await sleep(5)
    const b = await open(send)
    await sleep(5)
    expect(await pingStatus(send, a)).toBe(200) // a is now the more recently used
    await sleep(5)
    const c = await open(send)
    expect(await pingStatus(send, b)).toBe(404)
    expect(await pingStatus(send, a)).toBe(200)
    expect(await pingStatus(send, c)).toBe(200)
  })

  it('answers initialize with 503 when every session has an open stream, and admits it once one closes', async () => {
    const send = await serve({ maxSessions: 1 })
    const a = await open(send)
    const ctl = abortable()
    const stream = sseReader(await send({ method: 'GET', accept: sse, session: a, signal: ctl.signal }))
    expectPriming(await stream.next())
    const refused = await send({ body: initialize() })
    expect(refused.status).toBe(503)
    expect(refused.headers.get('mcp-session-id')).toBeNull()
    await refused.text()
    expect(await pingStatus(send, a)).toBe(200)
    ctl.abort()
    let b: string | undefined
    await until(async () => {
      const res = await send({ body: initialize() })
      await res.text()
      b = res.headers.get('mcp-session-id') ?? undefined
      return res.status === 200
      // the server learns of the cut connection from the socket: slower on a loaded machine
    }, 'initialize to be admitted', 10_000)
    expect(b).toBeDefined()
    expect(await pingStatus(send, a)).toBe(404)
  })

  it('counts a request in flight on its SSE stream as busy: its session is not evicted', async () => {
    const send = await serve({ maxSessions: 1 })
    const a = await open(send)
    const stream = track(sseReader(await send({ body: call('wait', { gate: 'busy' }, 1, 't'), session: a })))
    expectPriming(await stream.next())
    const refused = await send({ body: initialize() })
    expect(refused.status).toBe(503)
    await refused.text()
    gate('busy').open()
    expect(messageOf((await stream.rest()).at(-1))).toMatchObject({ id: 1, result: {} })
  })

  it('does not evict a session for an initialize that fails', async () => {
    const send = await serve({ maxSessions: 1 })
    const a = await open(send)
    const bad = await send({ body: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'initialize', params: {} }) })
    // the failure is the initialize's own answer, under its id: no session, no room made
    expect(bad.status).toBe(200)
    expect(await bad.json()).toEqual({ jsonrpc: '2.0', id: 3, error: { code: -32602, message: 'initialize: params.protocolVersion must be a string' } })
    expect(bad.headers.get('mcp-session-id')).toBeNull()
    expect(await pingStatus(send, a)).toBe(200)
  })

  it('ends a session left idle for idleMs, but not one with an open stream', async () => {
    // the Node listener shows the registry, so the wait needs no request (which would touch the session)
    const listener = toNodeListener(newServer(), { path: '/mcp', sessions: { idleMs: 300 } })
    const node = createServer(listener)
    await new Promise<void>((resolve) => node.listen(0, '127.0.0.1', resolve))
    try {
      const send = sender(() => `http://127.0.0.1:${(node.address() as AddressInfo).port}/mcp`)
      const idle = await open(send)
      const busy = await open(send)
      const stream = track(sseReader(await send({ method: 'GET', accept: sse, session: busy })))
      expectPriming(await stream.next())
      expect(listener.sessions?.size()).toBe(2)
      await until(() => listener.sessions?.size() === 1, 'the idle session to end', 5_000)
      expect(await pingStatus(send, idle)).toBe(404)
      expect(await pingStatus(send, busy)).toBe(200)
    } finally {
      listener.sessions?.close()
      await new Promise<void>((resolve) => {
        node.close(() => resolve())
        node.closeAllConnections()
      })
    }
  })
})

// ---------------------------------------------------------------------------------------
// serveHttp: closing

describe('stateful http (serveHttp): close', () => {
  it('ends open streams and resolves promptly', async () => {
    const running = await serveHttp(newServer(), { port: 0, sessions: true })
    const send = sender(() => running.url)
    const sid = await open(send)
    const stream = track(sseReader(await send({ method: 'GET', accept: sse, session: sid })))
    expectPriming(await stream.next())
    await running.close()
    expect(await stream.rest(15_000)).toEqual([])
    expect(running.server.listening).toBe(false)
  })
})

// ---------------------------------------------------------------------------------------
// the Node listener: the registry

describe('stateful http (toNodeListener): the registry', () => {
  let node: NodeServer
  let listener: ReturnType<typeof toNodeListener>
  let send: Send

  beforeAll(async () => {
    listener = toNodeListener(newServer(), { path: '/mcp', sessions: true })
    node = createServer(listener)
    await new Promise<void>((resolve) => node.listen(0, '127.0.0.1', resolve))
    const port = (node.address() as AddressInfo).port
    send = sender(() => `http://127.0.0.1:${port}/mcp`)
  })
  afterAll(async () => {
    listener.sessions?.close()
    await new Promise<void>((resolve) => {
      node.close(() => resolve())
      node.closeAllConnections()
    })
  })

  it('opens one session per successful initialize and none for a failed one; DELETE removes it', async () => {
    const registry = listener.sessions
    if (registry === undefined) throw new Error('no registry in stateful mode')
    const before = registry.size()
    const bad = await send({ body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: {} }) })
    await bad.text()
    expect(registry.size()).toBe(before)
    const sid = await open(send)
    expect(registry.size()).toBe(before + 1)
    expect(registry.get(sid)?.session.clientInfo).toEqual({ name: 't', version: '1' })
    await (await send({ method: 'DELETE', session: sid })).text()
    expect(registry.size()).toBe(before)
    expect(registry.get(sid)).toBeUndefined()
  })
})

// ---------------------------------------------------------------------------------------
// stateless mode

describe('stateless http: no sessions', () => {
  let running: RunningHttp
  beforeAll(async () => {
    running = await serveHttp(newServer(), { port: 0 })
  })
  afterAll(async () => {
    await running.close()
  })

  it.each(['GET', 'DELETE'])('answers %s with 405 (serveHttp)', async (method) => {
    const res = await fetch(running.url, { method, headers: { accept: sse, 'mcp-session-id': 'x' } })
    expect(res.status).toBe(405)
    expect(res.headers.get('allow')).toContain('POST')
    await res.text()
  })

  it.each(['GET', 'DELETE'])('answers %s with 405 (toFetchHandler)', async (method) => {
    const handler = toFetchHandler(newServer())
    const res = await handler(new Request('http://127.0.0.1/mcp', { method, headers: { accept: sse } }))
    expect(res.status).toBe(405)
    await res.text()
  })

  it('issues no session id on initialize', async () => {
    const res = await fetch(running.url, { method: 'POST', headers: { accept: both, 'content-type': 'application/json' }, body: initialize() })
    expect(res.status).toBe(200)
    expect(res.headers.get('mcp-session-id')).toBeNull()
    await res.text()
  })
})

// ---------------------------------------------------------------------------------------
// toFetchHandler

describe('stateful http (toFetchHandler)', () => {
  const server = newServer()
  const handler = toFetchHandler(server, { sessions: true })
  const send = sender(() => 'http://127.0.0.1/mcp', handler)

  it('issues a session id on initialize and requires it afterwards (400), unknown ids get 404', async () => {
    const sid = await open(send)
    expect(sid).toMatch(/^[\x21-\x7e]+$/)
    expect(await pingStatus(send, sid)).toBe(200)
    const missing = await send({ body: ping() })
    expect(missing.status).toBe(400)
    await missing.text()
    expect(await pingStatus(send, 'unknown')).toBe(404)
  })

  it('ends a session on DELETE (200, then 404); DELETE without the header gets 400', async () => {
    const sid = await open(send)
    const res = await send({ method: 'DELETE', session: sid })
    expect(res.status).toBe(200)
    await res.text()
    expect(await pingStatus(send, sid)).toBe(404)
    const bare = await send({ method: 'DELETE' })
    expect(bare.status).toBe(400)
    await bare.text()
  })

  it('opens the GET stream with a priming event, 409 for a second one, 406 without SSE in Accept', async () => {
    const sid = await open(send)
    const res = await send({ method: 'GET', accept: sse, session: sid })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('text/event-stream')
    const stream = track(sseReader(res))
    expectPriming(await stream.next())
    const second = await send({ method: 'GET', accept: sse, session: sid })
    expect(second.status).toBe(409)
    await second.text()
    const json = await send({ method: 'GET', accept: 'application/json', session: sid })
    expect(json.status).toBe(406)
    await json.text()
  })

  it('frees the GET stream when the reader cancels it', async () => {
    const sid = await open(send)
    const stream = sseReader(await send({ method: 'GET', accept: sse, session: sid }))
    expectPriming(await stream.next())
    await stream.cancel()
    const again = await send({ method: 'GET', accept: sse, session: sid })
    expect(again.status).toBe(200)
    track(sseReader(again))
  })

  it('answers tools/call as an SSE stream: progress, log, then the result', async () => {
    const sid = await open(send)
    const res = await send({ body: call('work', {}, 9, 7), session: sid })
    expect(res.headers.get('content-type')).toBe('text/event-stream')
    const events = await sseReader(res).rest()
    expectPriming(events[0])
    expect(events.slice(1).map((e) => messageOf(e).method ?? 'response')).toEqual([
      'notifications/progress',
      'notifications/progress',
      'notifications/message',
      'response',
    ])
    expect(messageOf(events[4])).toEqual({ jsonrpc: '2.0', id: 9, result: { content: [{ type: 'text', text: 'done' }] } })
  })

  it('answers a notification with 202 and a request without SSE in Accept as JSON', async () => {
    const sid = await open(send)
    const res = await send({ body: call('work', {}, 3, 't'), accept: 'application/json', session: sid })
    expect(res.headers.get('content-type')).toBe('application/json')
    expect((await res.json()).result.content).toEqual([{ type: 'text', text: 'done' }])
  })

  it('sends list_changed on the GET stream when a tool is added', async () => {
    const sid = await open(send)
    const stream = track(sseReader(await send({ method: 'GET', accept: sse, session: sid })))
    expectPriming(await stream.next())
    server.addTool(emcp({ name: 'fetch_added', description: 'Added at run time.', input: { type: 'object' } }), () => 'added')
    expect(messageOf(await stream.next())).toEqual({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' })
  })
})

// ---------------------------------------------------------------------------------------
// CORS in stateful mode

describe('stateful http: CORS preflight', () => {
  // GET is CORS-safelisted, so a browser only needs DELETE listed (its custom headers are)
  it.each(['DELETE'])('lets a browser client send %s (preflight lists the method and MCP-Session-Id)', async (method) => {
    const handler = toFetchHandler(newServer(), { sessions: true })
    const res = await handler(
      new Request('http://127.0.0.1/mcp', {
        method: 'OPTIONS',
        headers: { origin: 'http://localhost:5173', 'access-control-request-method': method, 'access-control-request-headers': 'mcp-session-id' },
      }),
    )
    expect(res.status).toBe(204)
    expect(res.headers.get('access-control-allow-origin')).toBe('http://localhost:5173')
    expect((res.headers.get('access-control-allow-methods') ?? '').split(/,\s*/)).toContain(method)
    expect((res.headers.get('access-control-allow-headers') ?? '').toLowerCase()).toContain('mcp-session-id')
  })

  it('exposes MCP-Session-Id to a browser client on initialize', async () => {
    const handler = toFetchHandler(newServer(), { sessions: true })
    const res = await handler(
      new Request('http://127.0.0.1/mcp', { method: 'POST', headers: { origin: 'http://localhost:5173', accept: both, 'content-type': 'application/json' }, body: initialize() }),
    )
    expect(res.status).toBe(200)
    expect(res.headers.get('mcp-session-id')).not.toBeNull()
    expect((res.headers.get('access-control-expose-headers') ?? '').toLowerCase()).toContain('mcp-session-id')
    await res.text()
  })
})

describe('stateful http: invalid messages and requests nothing can carry', () => {
  const asker = emcp({ name: 'asker', description: 'Asks for roots.', input: { type: 'object' } })
  const s = mcpServer([asker], { name: 'asking', version: '1' }).implement({
    asker: async (_a, ctx) => (await ctx.roots({ timeoutMs: 5_000 })).length.toString(),
  })
  const handler = toFetchHandler(s, { sessions: true })
  const base = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }
  const post = (body: unknown, headers: Record<string, string> = {}) =>
    handler(new Request('http://127.0.0.1/mcp', { method: 'POST', headers: { ...base, ...headers }, body: JSON.stringify(body) }))
  const initialize = async (capabilities: object = {}): Promise<string> => {
    const res = await post({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities, clientInfo: { name: 't', version: '1' } } })
    await res.text()
    return res.headers.get('mcp-session-id') as string
  }

  it('answers a message that is not a request or notification with -32600 and 400, as stateless mode does', async () => {
    const sid = await initialize()
    for (const body of [42, {}]) {
      const res = await post(body, { 'mcp-session-id': sid })
      expect(res.status).toBe(400)
      expect(await res.json()).toMatchObject({ id: null, error: { code: -32600 } })
    }
    // with a readable id the error is addressed: 200, as in stateless mode
    const addressed = await post({ jsonrpc: '2.0', id: 1 }, { 'mcp-session-id': sid })
    expect(addressed.status).toBe(200)
    expect(await addressed.json()).toMatchObject({ id: 1, error: { code: -32600 } })
  })

  it('fails a request to the client at once when the call was answered as JSON and no GET stream is open', async () => {
    const sid = await initialize({ roots: {} })
    // at once, saying why: not at the request's 5 s timeout, whose answer says it timed out
    const res = await post({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'asker', arguments: {} } }, { 'mcp-session-id': sid, accept: 'application/json' })
    const body = (await res.json()) as { result: { isError: boolean; content: Array<{ text: string }> } }
    expect(body.result.isError).toBe(true)
    expect(body.result.content[0]?.text).toContain('no SSE stream is open')
  })
})
