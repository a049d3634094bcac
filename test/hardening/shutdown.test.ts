/**
 * Graceful shutdown of real processes (the hardened example): on SIGTERM the calls in
 * flight are answered, new requests are refused with a clear error (stdio: -32000 under
 * their id; HTTP: 503 and the same error), and the process exits with code 0, within the
 * drain timeout when a call will not finish.
 */
import { spawn, type ChildProcess } from 'node:child_process'
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
const sleepCall = (id: number, ms: number) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'sleep', arguments: { ms } } })
const byId = (ms: ReadonlyArray<Record<string, unknown>>, id: number) => ms.filter((m) => m.id === id)

describe('shutdown over stdio (SIGTERM)', () => {
  it('answers the call in flight, refuses a request sent after the signal with -32000 under its id, then exits 0', async () => {
    const c = spawnStdio({ DRAIN_TIMEOUT_MS: '5000' })
    c.send(initialize)
    c.send({ jsonrpc: '2.0', method: 'notifications/initialized' })
    await until(() => byId(c.messages(), 0).length === 1, 'the initialize answer')
    c.send(sleepCall(1, 1_500))
    await new Promise((r) => setTimeout(r, 100))
    c.child.kill('SIGTERM')
    // the signal is handled some time after it is sent: ping until a ping is refused
    let id = 100
    const refused = () => c.messages().some((m) => typeof m.id === 'number' && m.id >= 100 && 'error' in m)
    while (!refused() && id < 200) {
      c.send({ jsonrpc: '2.0', id: id++, method: 'ping' })
      await new Promise((r) => setTimeout(r, 20))
    }
    c.send({ jsonrpc: '2.0', id: 1000, method: 'ping' })
    // a notification still passes: it gets no answer
    c.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 99 } })
    expect(await c.exited, c.stderr()).toEqual({ code: 0, signal: null })
    const ms = c.messages()
    expect(byId(ms, 1)).toEqual([{ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'slept' }] } }])
    expect(byId(ms, 1000)).toEqual([{ jsonrpc: '2.0', id: 1000, error: { code: -32000, message: expect.stringMatching(/shutting down/) } }])
    // once one was refused, every later one is
    const pings = ms.filter((m) => typeof m.id === 'number' && m.id >= 100)
    const first = pings.findIndex((m) => 'error' in m)
    expect(first).toBeGreaterThanOrEqual(0)
    expect(pings.slice(first).every((m) => 'error' in m)).toBe(true)
    expect(ms).toHaveLength(2 + pings.length)
  })

  it('exits 0 at once on SIGTERM when nothing is in flight', async () => {
    const c = spawnStdio({})
    c.send(initialize)
    await until(() => c.messages().length === 1, 'the initialize answer')
    const t0 = Date.now()
    c.child.kill('SIGTERM')
    expect(await c.exited).toEqual({ code: 0, signal: null })
    expect(Date.now() - t0).toBeLessThan(1_500)
  })

  it('at the drain timeout aborts a call that will not finish, answers it with -32000, and exits 0', async () => {
    const c = spawnStdio({ DRAIN_TIMEOUT_MS: '300', CALL_TIMEOUT_MS: '0' })
    c.send(initialize)
    c.send(sleepCall(1, 60_000))
    await until(() => c.messages().length === 1, 'the initialize answer')
    await new Promise((r) => setTimeout(r, 100))
    const t0 = Date.now()
    c.child.kill('SIGTERM')
    expect(await c.exited).toEqual({ code: 0, signal: null })
    expect(Date.now() - t0).toBeLessThan(3_000)
    // exactly one answer: the refusal, not also the handler's late "aborted"
    expect(byId(c.messages(), 1)).toEqual([{ jsonrpc: '2.0', id: 1, error: { code: -32000, message: expect.stringMatching(/drain timeout/) } }])
  })

  it('ends the drain at once on a second signal', async () => {
    const c = spawnStdio({ DRAIN_TIMEOUT_MS: '60000', CALL_TIMEOUT_MS: '0' })
    c.send(initialize)
    c.send(sleepCall(1, 60_000))
    await until(() => c.messages().length === 1, 'the initialize answer')
    c.child.kill('SIGTERM')
    await new Promise((r) => setTimeout(r, 200))
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
    const t0 = Date.now()
    expect(await c.exited).toEqual({ code: 0, signal: null })
    expect(Date.now() - t0).toBeLessThan(5_000)
  })
})

const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25', ...headers },
    body: JSON.stringify(body),
  })

/** Sends until the answer is a 503 (the signal is handled some time after it is sent); that answer. */
const refusedOnceDraining = async (send: () => Promise<Response>): Promise<Response> => {
  for (let i = 0; i < 100; i++) {
    const res = await send()
    if (res.status === 503) return res
    await res.text()
    await new Promise((r) => setTimeout(r, 20))
  }
  throw new Error('never refused')
}

describe('shutdown over HTTP (SIGTERM)', () => {
  it('stateless: answers the request in flight, refuses a new one with 503 and -32000 under its id, then exits 0', async () => {
    const s = await spawnListening(script, (port) => ['--http', '--port', String(port)], () => ({ DRAIN_TIMEOUT_MS: '5000' }))
    children.push(s)
    const inFlight = post(s.url, sleepCall(1, 1_500))
    await new Promise((r) => setTimeout(r, 150))
    s.child.kill('SIGTERM')
    const refused = await refusedOnceDraining(() => post(s.url, { jsonrpc: '2.0', id: 2, method: 'ping' }))
    expect(refused.status).toBe(503)
    expect(await refused.json()).toEqual({ jsonrpc: '2.0', id: 2, error: { code: -32000, message: expect.stringMatching(/shutting down/) } })
    // a notification still passes
    expect((await post(s.url, { jsonrpc: '2.0', method: 'notifications/initialized' })).status).toBe(202)
    const answered = await inFlight
    expect(answered.status).toBe(200)
    expect(await answered.json()).toEqual({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'slept' }] } })
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
    const inFlight = post(s.url, sleepCall(1, 1_500), { 'mcp-session-id': sid })
    await new Promise((r) => setTimeout(r, 150))
    s.child.kill('SIGTERM')
    const refused = await refusedOnceDraining(() => post(s.url, { jsonrpc: '2.0', id: 2, method: 'tools/list' }, { 'mcp-session-id': sid }))
    expect(refused.status).toBe(503)
    expect(await refused.json()).toMatchObject({ id: 2, error: { code: -32000 } })
    const get = await fetch(s.url, { headers: { accept: 'text/event-stream', 'mcp-session-id': sid } })
    expect(get.status).toBe(503)
    await get.text()
    const answered = await inFlight
    expect(answered.headers.get('content-type')).toBe('text/event-stream')
    expect(await answered.text()).toContain('"text":"slept"')
    expect(await s.exited, s.output()).toEqual({ code: 0, signal: null })
    expect(['ended', 'cut']).toContain(await standaloneEnded)
  })

  it('at the drain timeout cuts a request that will not finish and exits 0', async () => {
    const s = await spawnListening(script, (port) => ['--http', '--port', String(port)], () => ({ DRAIN_TIMEOUT_MS: '300', CALL_TIMEOUT_MS: '0' }))
    children.push(s)
    const inFlight = post(s.url, sleepCall(1, 60_000)).then(
      (r) => r.text(),
      (e: unknown) => e,
    )
    await new Promise((r) => setTimeout(r, 150))
    const t0 = Date.now()
    s.child.kill('SIGTERM')
    expect(await s.exited, s.output()).toEqual({ code: 0, signal: null })
    expect(Date.now() - t0).toBeLessThan(3_000)
    expect(await inFlight).toBeInstanceOf(Error)
  })
})
