/**
 * Faults, in process: handlers that hang (the per-call timeout, cancellation), handlers
 * that throw anything or return anything (as a JavaScript caller can), an event store that
 * throws, clients that vanish mid-stream (stdio and HTTP/SSE), and slow readers (reading
 * stops, memory stays bounded, nothing is lost).
 */
import { connect, type Socket } from 'node:net'
import { PassThrough, Writable } from 'node:stream'
import * as E from 'fp-ts/lib/Either.js'
import * as O from 'fp-ts/lib/Option.js'
import { afterEach, describe, expect, it } from 'vitest'
import { emcp, encode, mcpServer, newSession, type FeatureFactory, type Server } from '../../src/index.js'
import { serveHttp, type EventStore, type RunningHttp } from '../../src/transport/http.js'
import { startStdio, type StdioServer } from '../../src/transport/stdio.js'
import { until } from '../interop/children.js'
import { parseSse } from '../support/sse.js'

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

const echo = emcp({ name: 'echo', description: 'Echo.', input: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } })
const hang = emcp({ name: 'hang', description: 'Never answers on its own; notes its abort reason.', input: { type: 'object' } })
const slow = emcp({ name: 'slow', description: 'Answers after ms.', input: { type: 'object', properties: { ms: { type: 'number' } }, required: ['ms'] } })
const chatty = emcp({
  name: 'chatty',
  description: 'Sends n progress notifications (messages of size bytes), then answers.',
  input: { type: 'object', properties: { n: { type: 'number' }, size: { type: 'number' } }, required: ['n'] },
})

/** Abort reasons seen by `hang`, in order. */
const aborted: unknown[] = []
let calls = 0

/** A feature whose one method never answers: the timeout of methods other than tools/call. */
const stuck: FeatureFactory = () => ({ capabilities: {}, methods: { 'x/stuck': () => new Promise(() => {}) } })

const newServer = (callTimeoutMs?: number) =>
  mcpServer([echo, hang, slow, chatty], { name: 'faults', version: '1' }, { callTimeoutMs, features: [stuck] }).implement({
    echo: ({ text }) => {
      calls++
      return text
    },
    hang: (_args, { signal }) =>
      new Promise<string>(() => {
        signal.addEventListener('abort', () => aborted.push(signal.reason))
      }),
    slow: ({ ms }) => sleep(ms).then(() => 'done'),
    chatty: async ({ n, size }, ctx) => {
      const message = 'x'.repeat(size ?? 100)
      for (let i = 1; i <= n; i++) ctx.progress(i, n, message)
      await sleep(1)
      return 'chatted'
    },
  })

const ask = async (server: Server, message: unknown, session = newSession()): Promise<any> => {
  const out = await server.dispatch(message, session)()
  return O.isSome(out) ? JSON.parse(encode(out.value)) : undefined
}
const call = (id: number, name: string, args: object) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } })

afterEach(() => {
  aborted.length = 0
  calls = 0
})

describe('faults: handlers that hang (callTimeoutMs)', () => {
  it('answers a tool call past the timeout with an isError result naming the timeout, and aborts its signal', async () => {
    const server = newServer(50)
    const session = newSession()
    const t0 = Date.now()
    const a = await ask(server, call(1, 'hang', {}), session)
    expect(Date.now() - t0).toBeGreaterThanOrEqual(45)
    expect(a).toEqual({ jsonrpc: '2.0', id: 1, result: { isError: true, content: [{ type: 'text', text: 'Tool hang timed out after 50 ms (callTimeoutMs)' }] } })
    expect(aborted).toHaveLength(1)
    expect(aborted[0]).toMatchObject({ name: 'TimeoutError' })
    expect(session.inFlight.size).toBe(0)
    expect(await ask(server, call(2, 'echo', { text: 'still here' }), session)).toMatchObject({ id: 2, result: { content: [{ text: 'still here' }] } })
  })

  it('answers any other method past the timeout with error -32001', async () => {
    const a = await ask(newServer(30), { jsonrpc: '2.0', id: 'm', method: 'x/stuck' })
    expect(a).toEqual({ jsonrpc: '2.0', id: 'm', error: { code: -32001, message: 'Request timed out: x/stuck timed out after 30 ms (callTimeoutMs)' } })
  })

  it('lets a call that finishes in time through, and none is cut with callTimeoutMs: 0', async () => {
    expect(await ask(newServer(200), call(1, 'slow', { ms: 20 }))).toMatchObject({ result: { content: [{ text: 'done' }] } })
    expect(await ask(newServer(10), call(1, 'slow', { ms: 60 }))).toMatchObject({ result: { isError: true } })
    expect(await ask(newServer(0), call(1, 'slow', { ms: 60 }))).toMatchObject({ result: { content: [{ text: 'done' }] } })
  })

  it('shapes the timeout answer of a 2026-07-28 request like any other of that revision (resultType)', async () => {
    const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} }
    const a = await ask(newServer(30), { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'hang', arguments: {}, _meta: meta } })
    expect(a).toMatchObject({ id: 3, result: { resultType: 'complete', isError: true, content: [{ text: 'Tool hang timed out after 30 ms (callTimeoutMs)' }] } })
  })

  it('times out each member of a batch (2025-03-26) on its own', async () => {
    const a = await ask(newServer(40), [call(1, 'hang', {}), call(2, 'slow', { ms: 5 })], newSession('2025-03-26'))
    expect(a).toMatchObject([{ id: 1, result: { isError: true } }, { id: 2, result: { content: [{ text: 'done' }] } }])
  })
})

describe('faults: cancellation (MCP: notifications/cancelled)', () => {
  it('over stdio: aborts the hung call, sends no answer for it, and answers the next request', async () => {
    const input = new PassThrough()
    const output = new PassThrough()
    let text = ''
    output.on('data', (c: Buffer) => (text += c.toString()))
    const handle = startStdio(newServer(0), { input, output, redirectConsole: false, handleSignals: false })
    input.write(`${JSON.stringify(call(1, 'hang', {}))}\n`)
    await sleep(20)
    input.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1, reason: 'user gave up' } })}\n`)
    input.write(`${JSON.stringify(call(2, 'echo', { text: 'next' }))}\n`)
    await until(() => text.includes('"id":2'), 'the answer to the next request')
    input.end()
    await handle.done
    expect(aborted).toEqual(['user gave up'])
    expect(text.trim().split('\n').map((l) => JSON.parse(l).id)).toEqual([2])
  })
})

// every kind of value a JavaScript handler can throw, reject with, or return
const strange: ReadonlyArray<readonly [string, () => unknown, string]> = [
  ['a string', () => 'boom', 'boom'],
  ['a number', () => 42, '42'],
  ['null', () => null, 'null'],
  ['undefined', () => undefined, 'undefined'],
  ['a plain object', () => ({ code: 7 }), '{"code":7}'],
  ['a symbol', () => Symbol('s'), 'Symbol(s)'],
  ['a BigInt', () => 10n, '10'],
  ['an object without a prototype', () => Object.create(null), '{}'],
  ['an Error without a message', () => new Error(), 'Error'],
  ['a cyclic object', () => {
    const o: Record<string, unknown> = {}
    o.self = o
    return o
  }, '[object Object]'],
  ['an object whose toJSON and toString throw', () => ({
    toJSON: () => {
      throw new Error('no json')
    },
    toString: () => {
      throw new Error('no string')
    },
  }), 'a thrown object that cannot be shown'],
  ['a Proxy whose every read throws', () => new Proxy({}, { get: () => { throw new Error('trap') }, getPrototypeOf: () => { throw new Error('trap') } }), 'the tool failed with a value that cannot be read'],
]

describe('faults: handlers that throw non-Error values or return the wrong shape (a JavaScript caller can)', () => {
  const probe = emcp({ name: 'probe', description: 'Fails as told.', input: { type: 'object', properties: { how: { type: 'string' }, what: { type: 'integer' } }, required: ['how', 'what'] } })
  const typed = emcp({ name: 'typed', description: 'Has an output schema.', input: { type: 'object', properties: { what: { type: 'integer' } }, required: ['what'] }, output: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] } })
  const server = mcpServer([probe, typed], { name: 'strange', version: '1' }).implement({
    // a JavaScript caller, or a cast, gets past the types: the server must not trust them
    probe: (({ how, what }: { how: string; what: number }) => {
      const value = (strange[what] as (typeof strange)[number])[1]()
      if (how === 'throw') throw value
      if (how === 'reject') return Promise.reject(value)
      if (how === 'resolve') return Promise.resolve(value)
      if (how === 'left') return E.left(value)
      return value
    }) as never,
    typed: (({ what }: { what: number }) => (strange[what] as (typeof strange)[number])[1]()) as never,
  })

  it.each(strange.flatMap(([name, , text], what) => ['throw', 'reject', 'left'].map((how) => [how, name, what, text] as const)))(
    '%s %s: an isError result with a readable reason',
    async (how, _name, what, text) => {
      const a = await ask(server, call(1, 'probe', { how, what }))
      expect(a).toEqual({ jsonrpc: '2.0', id: 1, result: { isError: true, content: [{ type: 'text', text }] } })
    },
  )

  // a string is the one right answer here (plain text content)
  it.each(strange.flatMap(([name], what) => (what === 0 ? [] : ['return', 'resolve'].map((how) => [how, name, what] as const))))(
    '%s %s where content was due: an isError result, never a malformed success',
    async (how, _name, what) => {
      const a = await ask(server, call(1, 'probe', { how, what }))
      expect(a.result.isError).toBe(true)
      expect(a.result.content).toEqual([{ type: 'text', text: expect.any(String) }])
    },
  )

  it.each(strange.map(([name], what) => [name, what] as const))('returns %s where the output schema wants an object: isError', async (_name, what) => {
    const a = await ask(server, call(1, 'typed', { what }))
    expect(a.result.isError).toBe(true)
    expect(a.result.structuredContent).toBeUndefined()
  })
})

// ---------------------------------------------------------------------------------------
// HTTP

const running: RunningHttp[] = []
afterEach(async () => {
  for (const r of running.splice(0)) await r.close()
})

const serve = async (options: Parameters<typeof serveHttp>[1] = {}): Promise<RunningHttp> => {
  const r = await serveHttp(newServer(0), { port: 0, handleSignals: false, ...options })
  running.push(r)
  return r
}

const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' }
const initialize = { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } } }

const openSession = async (url: string): Promise<string> => {
  const res = await fetch(url, { method: 'POST', headers, body: JSON.stringify(initialize) })
  await res.text()
  return res.headers.get('mcp-session-id') ?? ''
}

const postIn = (url: string, sid: string, body: unknown, signal?: AbortSignal) =>
  fetch(url, { method: 'POST', headers: { ...headers, 'mcp-session-id': sid }, body: JSON.stringify(body), signal })

describe('faults: an event store that throws', () => {
  const failing = (fails: ReadonlyArray<'prime' | 'append' | 'after'>): EventStore => {
    let n = 0
    return {
      prime: (id) => {
        if (fails.includes('prime')) throw new Error('prime fails')
        return `${id}/${n++}`
      },
      append: (id) => {
        if (fails.includes('append')) throw new Error('append fails')
        return `${id}/${n++}`
      },
      after: () => {
        throw new Error('after fails')
      },
    }
  }

  it.each([[['prime', 'append']], [['append']]] as const)('still delivers every event of a call (store failing at %j), without ids it cannot replay', async (fails) => {
    const errors: string[] = []
    const saved = console.error
    console.error = (m: string) => errors.push(m)
    try {
      const r = await serve({ sessions: { eventStore: failing(fails) } })
      const sid = await openSession(r.url)
      const res = await postIn(r.url, sid, { ...call(1, 'chatty', { n: 3 }), params: { name: 'chatty', arguments: { n: 3 }, _meta: { progressToken: 'p' } } })
      const events = parseSse(await res.text()).filter((e) => e.data !== undefined && e.data !== '')
      expect(events.map((e) => JSON.parse(e.data ?? '').method ?? 'answer')).toEqual(['notifications/progress', 'notifications/progress', 'notifications/progress', 'answer'])
      expect(events.every((e) => e.id === undefined)).toBe(true)
      expect(errors.some((m) => /event store failed/.test(m))).toBe(true)
      // the server goes on
      expect(await (await postIn(r.url, sid, call(2, 'echo', { text: 'ok' }))).text()).toContain('"text":"ok"')
    } finally {
      console.error = saved
    }
  })

  it('answers a resumption whose lookup throws with 500 and a JSON-RPC error, and goes on', async () => {
    const r = await serve({ sessions: { eventStore: failing([]) } })
    const sid = await openSession(r.url)
    const res = await fetch(r.url, { headers: { accept: 'text/event-stream', 'mcp-session-id': sid, 'last-event-id': 'x/1' } })
    expect(res.status).toBe(500)
    expect(await res.json()).toMatchObject({ id: null, error: { code: -32000, message: expect.stringContaining('after fails') } })
    expect((await postIn(r.url, sid, call(2, 'echo', { text: 'ok' }))).status).toBe(200)
  })
})

describe('faults: clients that vanish mid-stream', () => {
  it('HTTP/SSE: a client cut off while its call runs leaves the server serving; the answer waits in the event store', async () => {
    const r = await serve({ sessions: true })
    const sid = await openSession(r.url)
    const cut = new AbortController()
    const res = await postIn(r.url, sid, call(1, 'slow', { ms: 80 }), cut.signal)
    const reader = (res.body as ReadableStream<Uint8Array>).getReader()
    const first = new TextDecoder().decode((await reader.read()).value)
    const primed = parseSse(first)[0]?.id ?? ''
    expect(primed).not.toBe('')
    cut.abort()
    await sleep(150)
    // the server still serves, and the cut stream's answer is replayed on resumption
    expect(await (await postIn(r.url, sid, call(2, 'echo', { text: 'ok' }))).text()).toContain('"text":"ok"')
    const resumed = await fetch(r.url, { headers: { accept: 'text/event-stream', 'mcp-session-id': sid, 'last-event-id': primed } })
    expect(await resumed.text()).toContain('"text":"done"')
  })

  it('stateless HTTP: a client that goes away before its answer costs nothing', async () => {
    const r = await serve()
    const cut = new AbortController()
    const pending = fetch(r.url, { method: 'POST', headers, body: JSON.stringify(call(1, 'slow', { ms: 60 })), signal: cut.signal }).catch((e: unknown) => e)
    await sleep(20)
    cut.abort()
    expect(await pending).toBeInstanceOf(Error)
    await sleep(60)
    const ok = await fetch(r.url, { method: 'POST', headers, body: JSON.stringify(call(2, 'echo', { text: 'ok' })) })
    expect(await ok.json()).toMatchObject({ id: 2, result: { content: [{ text: 'ok' }] } })
  })

  it('stdio: an output that breaks (EPIPE) while calls are in flight ends the transport cleanly', async () => {
    const input = new PassThrough()
    const output = new Writable({
      write: (_chunk, _enc, done) => done(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' })),
    })
    output.on('error', () => {})
    const handle: StdioServer = startStdio(newServer(0), { input, output, redirectConsole: false, handleSignals: false })
    for (let i = 0; i < 50; i++) input.write(`${JSON.stringify(call(i, 'slow', { ms: i % 5 }))}\n`)
    await expect(Promise.race([handle.done.then(() => 'done'), sleep(3_000).then(() => 'stuck')])).resolves.toBe('done')
  })
})

describe('faults: slow readers (backpressure, bounded memory)', () => {
  it('stdio: a stalled output stops reading (the rest waits in the pipe), then every answer arrives in order once it drains', async () => {
    const input = new PassThrough()
    let stalled = true
    let resume: () => void = () => {}
    let text = ''
    const output = new Writable({
      highWaterMark: 1024,
      write: (chunk: Buffer, _enc, done) => {
        text += chunk.toString()
        if (stalled) resume = done
        else done()
      },
    })
    const handle = startStdio(newServer(0), { input, output, redirectConsole: false, handleSignals: false })
    const n = 20_000
    const lines = Array.from({ length: n }, (_, i) => `${JSON.stringify(call(i, 'echo', { text: `m${i}` }))}\n`).join('')
    // in pipe-sized chunks, as a real client's writes arrive
    for (let at = 0; at < lines.length; at += 65_536) input.write(lines.slice(at, at + 65_536))
    input.end()
    await sleep(300)
    // reading stopped within a chunk or two of the stall: most requests are still unread
    expect(calls).toBeLessThan(n / 4)
    expect(input.readableLength).toBeGreaterThan(0)
    stalled = false
    resume()
    await handle.done
    const ids = text.trim().split('\n').map((l) => JSON.parse(l).id)
    expect(ids).toEqual(Array.from({ length: n }, (_, i) => i))
  })

  it('HTTP/SSE: a handler that sends faster than the client reads has its stream cut at maxQueuedBytes; the client resumes and gets every event and the answer', async () => {
    const r = await serve({ sessions: { maxQueuedBytes: 1024 * 1024 } })
    const sid = await openSession(r.url)
    const n = 300
    const res = await postIn(r.url, sid, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'chatty', arguments: { n, size: 10_000 }, _meta: { progressToken: 'p' } } })
    // 3 MB of progress queued faster than the response is read: the stream is cut
    const first = parseSse(await res.text())
    expect(first.some((e) => e.data?.includes('"id":1') === true)).toBe(false)
    const lastId = first.filter((e) => e.id !== undefined).at(-1)?.id ?? ''
    expect(lastId).not.toBe('')
    await sleep(20)
    const resumed = await fetch(r.url, { headers: { accept: 'text/event-stream', 'mcp-session-id': sid, 'last-event-id': lastId } })
    // what the first connection carried before its cut, then the resume from its last id: every event once, in order
    const events = [...first, ...parseSse(await resumed.text())].filter((e) => e.data !== undefined && e.data !== '')
    const messages = events.map((e) => JSON.parse(e.data ?? '') as { method?: string; id?: number; params?: { progress?: number } })
    expect(messages.filter((m) => m.method === 'notifications/progress').map((m) => m.params?.progress)).toEqual(Array.from({ length: n }, (_, i) => i + 1))
    expect(messages.at(-1)).toMatchObject({ id: 1, result: { content: [{ text: 'chatted' }] } })
  })

  it('HTTP: a client that pipelines requests and reads nothing makes the server stop reading, then gets every answer', async () => {
    const r = await serve()
    const n = 2_000
    const body = (i: number): string => JSON.stringify(call(i, 'echo', { text: 'y'.repeat(20_000) }))
    const socket: Socket = connect(r.port, '127.0.0.1')
    await new Promise((resolve) => socket.once('connect', resolve))
    socket.pause()
    let written = 0
    const writeAll = async (): Promise<void> => {
      for (let i = 0; i < n; i++) {
        const b = body(i)
        const ok = socket.write(`POST /mcp HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(b)}\r\n\r\n${b}`)
        written++
        if (!ok) await new Promise((resolve) => socket.once('drain', resolve))
      }
    }
    const writing = writeAll()
    try {
      await sleep(500)
      // neither side buffers everything: the server stopped reading, so the writer is held back
      expect(calls).toBeLessThan(n)
      expect(written).toBeLessThan(n)
      let received = ''
      socket.on('data', (c: Buffer) => (received += c.toString('latin1')))
      socket.resume()
      await writing
      await until(() => (received.match(/HTTP\/1\.1 200/g) ?? []).length === n, `${n} answers`, 15_000)
      expect(calls).toBe(n)
    } finally {
      socket.destroy()
    }
  })
})
