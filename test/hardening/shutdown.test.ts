/**
 * Graceful shutdown of real processes (the hardened example, and `npm start`): on SIGTERM
 * the calls in flight are answered, new requests are refused with a clear error (stdio:
 * -32000 under their id; HTTP: 503 and the same error), and the process exits with code 0,
 * within the drain timeout when a call will not finish. The tests wait for events, not for
 * the clock: a call is in flight once its progress notification arrived, a drain has begun
 * once a request is refused; a drain that waited for its deadline would outlast the test.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { connect } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { example, root, spawnListening, stop, until, type Exit } from '../interop/children.js'

const script = example('hardened')

interface StdioChild {
  readonly child: ChildProcess
  readonly exited: Promise<Exit>
  readonly send: (message: unknown) => void
  /** Every line written to stdout so far, parsed (a line that is not JSON fails the test). */
  readonly messages: () => ReadonlyArray<Record<string, unknown>>
  readonly stderr: () => string
}

const children: Array<{ child: ChildProcess; exited: Promise<Exit> }> = []
afterEach(async () => {
  for (const c of children.splice(0)) await stop(c.child, c.exited, 'SIGKILL')
})

const spawnStdio = (env: Record<string, string>): StdioChild => {
  const child = spawn(process.execPath, [script, '--stdio'], { cwd: root, env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] })
  const exited = new Promise<Exit>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })))
  children.push({ child, exited })
  let out = ''
  let err = ''
  child.stdout.on('data', (c: Buffer) => (out += c.toString()))
  child.stderr.on('data', (c: Buffer) => (err += c.toString()))
  return {
    child,
    exited,
    send: (m) => child.stdin.write(`${JSON.stringify(m)}\n`),
    messages: () =>
      out
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => JSON.parse(l) as Record<string, unknown>),
    stderr: () => err,
  }
}

const initialize = { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } }
/** A call of sleep; it reports progress when it starts (under the token `started-<id>`). */
const sleepCall = (id: number, ms: number) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'sleep', arguments: { ms }, _meta: { progressToken: `started-${id}` } } })
const byId = (ms: ReadonlyArray<Record<string, unknown>>, id: number) => ms.filter((m) => m.id === id)
const started = (ms: ReadonlyArray<Record<string, unknown>>, id: number) =>
  ms.some((m) => m.method === 'notifications/progress' && (m.params as { progressToken?: unknown }).progressToken === `started-${id}`)
/** How long to wait for a process on a loaded machine: generous, a bound on a hang. */
const patience = 15_000

/** The signal is handled some time after it is sent: pings until one is refused (the drain has begun). */
const refusedPing = async (c: StdioChild): Promise<void> => {
  let id = 100
  const refused = () => c.messages().some((m) => typeof m.id === 'number' && m.id >= 100 && m.id < 1000 && 'error' in m)
  const deadline = Date.now() + patience
  while (!refused()) {
    if (Date.now() > deadline) throw new Error(`no ping was refused within ${patience} ms: ${c.stderr()}`)
    c.send({ jsonrpc: '2.0', id: id++, method: 'ping' })
    await until(() => byId(c.messages(), id - 1).length === 1, `the answer to ping ${id - 1}`, patience)
  }
}

describe('shutdown over stdio (SIGTERM)', () => {
  it('answers the call in flight, refuses a request sent after the signal with -32000 under its id, then exits 0', async () => {
    const c = spawnStdio({ DRAIN_TIMEOUT_MS: '5000' })
    c.send(initialize)
    c.send({ jsonrpc: '2.0', method: 'notifications/initialized' })
    await until(() => byId(c.messages(), 0).length === 1, 'the initialize answer')
    c.send(sleepCall(1, 1_500))
    await until(() => started(c.messages(), 1), 'the call to start', patience)
    c.child.kill('SIGTERM')
    await refusedPing(c)
    c.send({ jsonrpc: '2.0', id: 1000, method: 'ping' })
    // a notification still passes: it gets no answer
    c.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 99 } })
    expect(await c.exited, c.stderr()).toEqual({ code: 0, signal: null })
    const ms = c.messages()
    expect(byId(ms, 1)).toEqual([{ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'slept' }] } }])
    expect(started(ms, 1)).toBe(true)
    expect(byId(ms, 1000)).toEqual([{ jsonrpc: '2.0', id: 1000, error: { code: -32000, message: expect.stringMatching(/shutting down/) } }])
    // once one was refused, every later one is
    const pings = ms.filter((m) => typeof m.id === 'number' && m.id >= 100)
    const first = pings.findIndex((m) => 'error' in m)
    expect(first).toBeGreaterThanOrEqual(0)
    expect(pings.slice(first).every((m) => 'error' in m)).toBe(true)
    expect(ms).toHaveLength(3 + pings.length)
  })

  it('exits 0 at once on SIGTERM when nothing is in flight (not at the drain deadline, ten minutes away)', async () => {
    const c = spawnStdio({ DRAIN_TIMEOUT_MS: '600000' })
    c.send(initialize)
    await until(() => c.messages().length === 1, 'the initialize answer', patience)
    c.child.kill('SIGTERM')
    expect(await c.exited).toEqual({ code: 0, signal: null })
  })

  it('at the drain timeout aborts a call that will not finish, answers it with -32000, and exits 0', async () => {
    const c = spawnStdio({ DRAIN_TIMEOUT_MS: '300', CALL_TIMEOUT_MS: '0' })
    c.send(initialize)
    c.send(sleepCall(1, 600_000))
    await until(() => started(c.messages(), 1), 'the call to start', patience)
    c.child.kill('SIGTERM')
    // the call sleeps ten minutes: exiting within the test's time is the drain deadline at work
    expect(await c.exited).toEqual({ code: 0, signal: null })
    // exactly one answer: the refusal, not also the handler's late "aborted"
    expect(byId(c.messages(), 1)).toEqual([{ jsonrpc: '2.0', id: 1, error: { code: -32000, message: expect.stringMatching(/drain timeout/) } }])
  })

  it('ends the drain at once on a second signal', async () => {
    const c = spawnStdio({ DRAIN_TIMEOUT_MS: '600000', CALL_TIMEOUT_MS: '0' })
    c.send(initialize)
    c.send(sleepCall(1, 600_000))
    await until(() => started(c.messages(), 1), 'the call to start', patience)
    c.child.kill('SIGTERM')
    // draining, and still running: the first signal did not end it
    await refusedPing(c)
    expect(c.child.exitCode).toBe(null)
    c.child.kill('SIGINT')
    expect(await c.exited).toEqual({ code: 0, signal: null })
    expect(byId(c.messages(), 1)).toHaveLength(1)
  })
})

describe('a stdio client that vanishes mid-stream', () => {
  it('closes its end of stdout while calls are in flight: the server stops (EPIPE) and exits 0', async () => {
    const c = spawnStdio({})
    c.send(initialize)
    await until(() => c.messages().length === 1, 'the initialize answer')
    c.child.stdout?.destroy()
    for (let id = 1; id <= 40; id++) c.send(sleepCall(id, id * 5))
    expect(await c.exited).toEqual({ code: 0, signal: null })
  })
})

/** The JSON messages of an SSE body's `data:` lines, in order. */
const sseMessages = (body: string): ReadonlyArray<{ readonly method?: string; readonly id?: unknown }> =>
  body
    .split('\n')
    .filter((line) => line.startsWith('data:'))
    .map((line) => JSON.parse(line.slice(5)) as { readonly method?: string; readonly id?: unknown })

const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25', ...headers },
    body: JSON.stringify(body),
  })

/** Sends until the answer is a 503 (the signal is handled some time after it is sent); that answer. */
const refusedOnceDraining = async (send: () => Promise<Response>): Promise<Response> => {
  const deadline = Date.now() + patience
  while (Date.now() < deadline) {
    const res = await send()
    if (res.status === 503) return res
    await res.text()
  }
  throw new Error('never refused')
}

/** POSTs a sleep call as an SSE stream; resolves once its progress shows it running, with the way to read the rest of the stream. */
const startCall = async (url: string, id: number, ms: number, headers: Record<string, string> = {}) => {
  const res = await post(url, sleepCall(id, ms), headers)
  expect(res.headers.get('content-type')).toBe('text/event-stream')
  const reader = (res.body as ReadableStream<Uint8Array>).getReader()
  const decoder = new TextDecoder()
  let text = ''
  const readUntil = async (enough: () => boolean): Promise<string> => {
    while (!enough()) {
      const r = await reader.read()
      if (r.done) break
      text += decoder.decode(r.value, { stream: true })
    }
    return text
  }
  await readUntil(() => text.includes('notifications/progress'))
  return { rest: () => readUntil(() => false) }
}

describe('shutdown over HTTP (SIGTERM)', () => {
  it('stateless: answers the request in flight, refuses a new one with 503 and -32000 under its id, then exits 0', async () => {
    const s = await spawnListening(script, (port) => ['--http', '--port', String(port)], () => ({ DRAIN_TIMEOUT_MS: '5000' }))
    children.push(s)
    // stateless: no stream for progress; the server logs the start of the call
    const inFlight = post(s.url, sleepCall(1, 1_500))
    await until(() => s.output().includes('sleep: 1500 ms started'), 'the call to start', patience)
    s.child.kill('SIGTERM')
    const refused = await refusedOnceDraining(() => post(s.url, { jsonrpc: '2.0', id: 2, method: 'ping' }))
    expect(refused.status).toBe(503)
    expect(await refused.json()).toEqual({ jsonrpc: '2.0', id: 2, error: { code: -32000, message: expect.stringMatching(/shutting down/) } })
    // a notification still passes
    expect((await post(s.url, { jsonrpc: '2.0', method: 'notifications/initialized' })).status).toBe(202)
    const answered = await inFlight
    expect(answered.status).toBe(200)
    // the call's own progress turned its answer into an SSE stream (2025-11-25 allows it): the
    // drain counts that stream until the result is out, which is its last event
    expect(answered.headers.get('content-type')).toMatch(/text\/event-stream/)
    const events = sseMessages(await answered.text())
    expect(events.some((e) => e.method === 'notifications/progress')).toBe(true)
    expect(events.at(-1)).toEqual({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'slept' }] } })
    expect(await s.exited, s.output()).toEqual({ code: 0, signal: null })
  })

  it('stateful: answers the call on its SSE stream, refuses new requests and GET streams with 503, then exits 0', async () => {
    const s = await spawnListening(script, (port) => ['--http', '--sessions', '--port', String(port)], () => ({ DRAIN_TIMEOUT_MS: '5000' }))
    children.push(s)
    const init = await post(s.url, initialize)
    const sid = init.headers.get('mcp-session-id') ?? ''
    expect(sid).not.toBe('')
    await init.text()
    // a standalone GET stream stays open until the end: it must not hold the shutdown up
    const standalone = await fetch(s.url, { headers: { accept: 'text/event-stream', 'mcp-session-id': sid } })
    expect(standalone.status).toBe(200)
    const standaloneEnded = standalone.text().then(
      () => 'ended',
      () => 'cut',
    )
    const inFlight = await startCall(s.url, 1, 1_500, { 'mcp-session-id': sid })
    s.child.kill('SIGTERM')
    const refused = await refusedOnceDraining(() => post(s.url, { jsonrpc: '2.0', id: 2, method: 'tools/list' }, { 'mcp-session-id': sid }))
    expect(refused.status).toBe(503)
    expect(await refused.json()).toMatchObject({ id: 2, error: { code: -32000 } })
    const get = await fetch(s.url, { headers: { accept: 'text/event-stream', 'mcp-session-id': sid } })
    expect(get.status).toBe(503)
    await get.text()
    expect(await inFlight.rest()).toContain('"text":"slept"')
    expect(await s.exited, s.output()).toEqual({ code: 0, signal: null })
    expect(['ended', 'cut']).toContain(await standaloneEnded)
  })

  it('at the drain timeout cuts a request that will not finish and exits 0', async () => {
    const s = await spawnListening(script, (port) => ['--http', '--port', String(port)], () => ({ DRAIN_TIMEOUT_MS: '300', CALL_TIMEOUT_MS: '0' }))
    children.push(s)
    // cut before or after its SSE headers went out (its progress opens the stream): either way an error
    const inFlight = post(s.url, sleepCall(1, 600_000))
      .then((r) => r.text())
      .catch((e: unknown) => e)
    await until(() => s.output().includes('sleep: 600000 ms started'), 'the call to start', patience)
    s.child.kill('SIGTERM')
    // the call sleeps ten minutes: exiting within the test's time is the drain deadline at work
    expect(await s.exited, s.output()).toEqual({ code: 0, signal: null })
    expect(await inFlight).toBeInstanceOf(Error)
  })
})

/**
 * A request the server has begun (its headers read: it sent `100 Continue`), whose body the
 * test sends when it chooses; `answer` resolves to the status and body of the final response
 * ('' when the connection was cut).
 */
const begunRequest = (url: string, body: string, headers: Record<string, string>) =>
  new Promise<{ readonly finish: () => void; readonly answer: Promise<{ status: number; body: string }> }>((resolve, reject) => {
    const { hostname, port, pathname } = new URL(url)
    const socket = connect(Number(port), hostname)
    let received = ''
    let begun = false
    const answer = new Promise<{ status: number; body: string }>((done) => {
      const settle = (): void => {
        const final = received.replace(/^HTTP\/1\.1 100 Continue\r\n\r\n/, '')
        const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(final)?.[1] ?? 0)
        done({ status, body: final.slice(final.indexOf('\r\n\r\n') + 4) })
      }
      socket.on('close', settle)
    })
    socket.on('error', (e) => (begun ? undefined : reject(e)))
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString()
      if (!begun && received.includes('100 Continue\r\n\r\n')) {
        begun = true
        resolve({ finish: () => socket.write(body), answer })
      }
    })
    const head = Object.entries({ host: `${hostname}:${port}`, 'content-type': 'application/json', accept: 'application/json', 'mcp-protocol-version': '2025-11-25', ...headers })
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join('')
    socket.write(`POST ${pathname} HTTP/1.1\r\n${head}content-length: ${Buffer.byteLength(body)}\r\nexpect: 100-continue\r\nconnection: close\r\n\r\n`)
  })

describe('npm start (examples/start.ts: two endpoints on one server) on SIGTERM', () => {
  it('drains like serveHttp: 300 requests begun before the signal all get an answer (none is cut), new ones 503, then exit 0', async () => {
    const s = await spawnListening(example('start'), (port) => ['--port', String(port)], () => ({ DRAIN_TIMEOUT_MS: '600000' }), 60_000)
    children.push(s)
    const store = s.url.replace('/mcp', '/store/mcp')
    const init = await post(store, initialize, { connection: 'close' })
    const sid = init.headers.get('mcp-session-id') ?? ''
    await init.text()
    expect(sid).not.toBe('')
    // half to the calculator (stateless), half to the store (stateful, in the session)
    const begun = await Promise.all(
      Array.from({ length: 300 }, (_, id) =>
        id % 2 === 0
          ? begunRequest(s.url, JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'add', arguments: { a: id, b: 1 } } }), {})
          : begunRequest(store, JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'list_products', arguments: {} } }), { 'mcp-session-id': sid }),
      ),
    )
    s.child.kill('SIGTERM')
    // draining now, and still listening while those 300 are in flight
    const refused = await refusedOnceDraining(() => post(s.url, { jsonrpc: '2.0', id: 'late', method: 'ping' }, { connection: 'close' }))
    expect(await refused.json()).toMatchObject({ id: 'late', error: { code: -32000, message: expect.stringMatching(/shutting down/) } })
    for (const b of begun) b.finish()
    const answers = await Promise.all(begun.map((b) => b.answer))
    answers.forEach((a, id) => {
      expect(a.status, `request ${id}: ${a.body.slice(0, 200)}`).toBe(503)
      expect(JSON.parse(a.body)).toMatchObject({ id, error: { code: -32000, message: expect.stringMatching(/shutting down/) } })
    })
    expect(await s.exited, s.output()).toEqual({ code: 0, signal: null })
  }, 90_000)
})
