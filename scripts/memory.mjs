// Memory and fairness under hostile and long-lived use of stateful HTTP (heaps measured after full GCs):
//
//   flood     one session gets N answers of S MB on SSE streams (half read, half cut off
//             so that the answers wait in the event store), then DELETE: the heap after it
//   per-call  one live session makes C calls answered as SSE streams: heap bytes per call
//             (each is a stream that ended), and per cut stream in the event store
//   fair      1000 anonymous sessions from ten hosts hold GET streams; an authenticated
//             client then initializes and calls
//   survive   a server child with --max-old-space-size=256 takes maximum-size requests from
//             one client for T seconds while another client initializes and calls
//
//   node --expose-gc scripts/memory.mjs [--flood] [--per-call] [--fair] [--survive] [--json]
//        [--answers 60] [--mb 3.9] [--calls 10000] [--cut 10000] [--seconds 60] [--workers 16]
//
// Each check fails (exit 1) past its target: flood under 100 MB after DELETE, under 150
// bytes per call and per ended stream, fair and survive with every answer right and the
// other client served. `npm run soak` runs every one in full; the tests run them shorter.
// It runs the built server (dist/): build first.
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { Agent, request } from 'node:http'
import { freePort } from './free-port.mjs'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('../', import.meta.url))
const MB = 1024 * 1024

const heap = () => {
  globalThis.gc()
  globalThis.gc()
  return process.memoryUsage().heapUsed
}

const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' }
// a client that accepts only SSE gets every tool call on a stream: what these checks measure
// (one that accepts JSON too gets a call that sends nothing along the way as plain JSON)
const sseOnly = { ...headers, accept: 'text/event-stream' }
const initialize = { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'memory', version: '1' } } }

/** Opens a session on `url`: its id. */
const openSession = async (url) => {
  const res = await fetch(url, { method: 'POST', headers, body: JSON.stringify(initialize) })
  await res.text()
  const sid = res.headers.get('mcp-session-id')
  if (sid === null) throw new Error(`initialize answered ${res.status} without a session`)
  const done = await fetch(url, { method: 'POST', headers: { ...headers, 'mcp-session-id': sid }, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) })
  await done.text()
  return sid
}

const echoCall = (id, text) => JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'echo', arguments: { text } } })

/** One SSE call: read to its end (the answer's text is returned), or cut off right after the headers. */
const sseCall = async (url, sid, body, read = true) => {
  const controller = new AbortController()
  const res = await fetch(url, { method: 'POST', headers: { ...sseOnly, 'mcp-session-id': sid }, body, signal: controller.signal })
  if (res.headers.get('content-type') !== 'text/event-stream') throw new Error(`expected an SSE answer, got ${res.status} ${res.headers.get('content-type')}`)
  if (!read) {
    controller.abort()
    return undefined
  }
  return res.text()
}

const serve = async (options = {}) => {
  const { hardened } = await import(`${root}dist/examples/hardened.js`)
  const { serveHttp } = await import(`${root}dist/src/transport/http.js`)
  return serveHttp(hardened, { port: 0, handleSignals: false, sessions: true, ...options })
}

// ---------------------------------------------------------------------------------------

/** `answers` answers of `mb` MB in one session, then DELETE: heap figures in MB. */
export const flood = async ({ answers = 60, mb = 3.9 } = {}) => {
  const running = await serve()
  const before = heap()
  const sid = await openSession(running.url)
  let text = 'x'.repeat(Math.round(mb * MB))
  let bad = 0
  for (let i = 0; i < answers; i++) {
    // every other stream is cut: its answer waits in the store for a resume that never comes
    const out = await sseCall(running.url, sid, echoCall(i + 1, text), i % 2 === 0)
    if (out !== undefined && !out.includes(`"id":${i + 1},"result"`)) bad++
  }
  text = ''
  const during = heap()
  const del = await fetch(running.url, { method: 'DELETE', headers: { 'mcp-session-id': sid } })
  await del.text()
  const after = heap()
  await running.close()
  const r = { answers, mb, beforeMB: +(before / MB).toFixed(1), beforeDeleteMB: +(during / MB).toFixed(1), afterDeleteMB: +(after / MB).toFixed(1), bad }
  return { ...r, ok: bad === 0 && del.status === 200 && after < 100 * MB && during < 100 * MB }
}

/** The least-squares slope of `ys` over `xs`. */
const slope = (xs, ys) => {
  const n = xs.length
  const mx = xs.reduce((a, b) => a + b, 0) / n
  const my = ys.reduce((a, b) => a + b, 0) / n
  let num = 0
  let den = 0
  for (let i = 0; i < n; i++) {
    num += (xs[i] - mx) * (ys[i] - my)
    den += (xs[i] - mx) ** 2
  }
  return num / den
}

/** An SSE call over a keep-alive connection (node:http: less noise on the heap than fetch): read to the end, or cut off at the headers. */
const rawCall = (url, agent, sid, body, read) =>
  new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', agent, headers: { ...sseOnly, 'mcp-session-id': sid } }, (res) => {
      if (!read) {
        req.destroy()
        return resolve(undefined)
      }
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (c) => (text += c))
      res.on('end', () => resolve(text))
    })
    req.on('error', (e) => (read ? reject(e) : resolve(undefined)))
    req.end(body)
  })

/**
 * `calls` SSE calls in one live session, read to their end, then `calls` more cut off at the
 * headers (their answers go to the store): the heap's growth per call and per cut stream,
 * as the slope through a sample after every tenth (one sample alone varies by a few hundred KB).
 */
export const perCall = async ({ calls = 10_000, cut = calls, concurrency = 8 } = {}) => {
  const running = await serve()
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency })
  const sid = await openSession(running.url)
  const many = async (n, read, offset) => {
    let next = 0
    const worker = async () => {
      for (let i = next++; i < n; i = next++) {
        const id = offset + i
        const out = await rawCall(running.url, agent, sid, echoCall(id, `t${id}`), read)
        if (read && !out?.includes(`"text":"t${id}"`)) throw new Error(`wrong answer to ${id}: ${out?.slice(0, 200)}`)
      }
    }
    await Promise.all(Array.from({ length: concurrency }, worker))
  }
  const measure = async (count, read, offset) => {
    const step = Math.max(1, Math.floor(count / 10))
    const xs = [0]
    const ys = [heap()]
    for (let done = 0; done < count; done += step) {
      await many(Math.min(step, count - done), read, offset + done)
      xs.push(Math.min(count, done + step))
      ys.push(heap())
    }
    return Math.round(slope(xs, ys))
  }
  // warm up every path, and fill the streams a session keeps for a resume
  await many(2_000, true, 0)
  await many(500, false, 1_000_000)
  const perCallBytes = await measure(calls, true, 2_000_000)
  const perCutStreamBytes = await measure(cut, false, 3_000_000)
  agent.destroy()
  await running.close()
  return { calls, cutStreams: cut, perCallBytes, perCutStreamBytes, ok: perCallBytes < 150 && perCutStreamBytes < 150 }
}

// ---------------------------------------------------------------------------------------

const rssOf = (pid) => {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
    return m === null ? 0 : Number(m[1]) * 1024
  } catch {
    return 0
  }
}

/** Initializes a session from `localAddress` and calls add in it: true when the sum came back. */
const otherServed = async (url, localAddress) => {
  const agent = new Agent({ keepAlive: true })
  const exchange = (sid, body) =>
    new Promise((resolve) => {
      const req = request(url, { method: 'POST', agent, localAddress, headers: { ...headers, accept: 'application/json', ...(sid === undefined ? {} : { 'mcp-session-id': sid }) } }, (res) => {
        let text = ''
        res.setEncoding('utf8')
        res.on('data', (c) => (text += c))
        res.on('end', () => resolve({ status: res.statusCode, sid: res.headers['mcp-session-id'], text }))
      })
      req.on('error', () => resolve({ status: 0, text: '' }))
      req.end(JSON.stringify(body))
    })
  try {
    const init = await exchange(undefined, initialize)
    if (init.sid === undefined) return false
    await exchange(init.sid, { jsonrpc: '2.0', method: 'notifications/initialized' })
    const r = await exchange(init.sid, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'add', arguments: { a: 2, b: 3 } } })
    return r.status === 200 && JSON.parse(r.text).result?.structuredContent?.sum === 5
  } finally {
    agent.destroy()
  }
}

/**
 * A stateful server limited to a 256 MB heap takes maximum-size requests (4 MiB bodies)
 * from one client, `workers` at a time, for `seconds`: echoes answered on streams read to
 * the end or cut off, unknown 4 MB tool names, 4 MB argument names. Meanwhile and after,
 * another client (another address) initializes and calls. The server must not die, and
 * must answer the other client every time.
 */
export const survive = async ({ seconds = 60, workers = 16, heapMB = 256 } = {}) => {
  const port = await freePort()
  const child = spawn(process.execPath, [`--max-old-space-size=${heapMB}`, `${root}dist/examples/hardened.js`, '--http', '--sessions', '--port', String(port)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  let exited = null
  child.stdout.on('data', (c) => (output += c))
  child.stderr.on('data', (c) => (output += c))
  const gone = new Promise((resolve) => child.once('exit', (code, signal) => resolve((exited = { code, signal }))))
  const url = `http://127.0.0.1:${port}/mcp`
  try {
    await new Promise((resolve, reject) => {
      const check = () => (output.includes(url) ? resolve() : exited !== null ? reject(new Error(`the server exited: ${output}`)) : setTimeout(check, 10))
      check()
    })
    const body = 4 * MB - 200
    const big = 'x'.repeat(body)
    const requests = [
      (id) => ({ body: echoCall(id, big), read: true }),
      (id) => ({ body: echoCall(id, big), read: false }),
      (id) => ({ body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: big, arguments: {} } }), read: true }),
      (id) => ({ body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'add', arguments: { [big]: 1, a: 1, b: 2 } } }), read: true }),
    ]
    const end = Date.now() + seconds * 1000
    let sent = 0
    let failed = 0
    const failures = []
    let peakRss = 0
    const sampler = setInterval(() => (peakRss = Math.max(peakRss, rssOf(child.pid))), 100)
    const worker = async (w) => {
      const sid = await openSession(url)
      for (let i = 0; Date.now() < end && exited === null; i++) {
        const id = w * 1_000_000 + i
        const r = requests[i % requests.length](id)
        try {
          const out = await sseCall(url, sid, r.body, r.read)
          if (r.read && !out?.includes(`"id":${id}`)) {
            failed++
            if (failures.length < 5) failures.push(`request ${i % requests.length}: ${out?.slice(0, 300)}`)
          }
        } catch (e) {
          failed++
          if (failures.length < 5) failures.push(`request ${i % requests.length}: ${e instanceof Error ? `${e.message} ${e.cause ?? ''}` : e}`)
        }
        sent++
      }
    }
    // meanwhile another client, from another address, initializes and calls every second
    const others = []
    const other = async () => {
      while (Date.now() < end && exited === null) {
        const started = Date.now()
        others.push({ ok: await otherServed(url, '127.0.0.2'), ms: Date.now() - started })
        await new Promise((resolve) => setTimeout(resolve, 1000))
      }
    }
    await Promise.all([...Array.from({ length: workers }, (_, w) => worker(w)), other()])
    clearInterval(sampler)
    const otherAfter = exited === null && (await otherServed(url, '127.0.0.2'))
    const alive = exited === null
    const otherServedAll = others.length > 0 && others.every((o) => o.ok) && otherAfter
    return {
      seconds,
      workers,
      heapLimitMB: heapMB,
      requests: sent,
      requestMB: +(body / MB).toFixed(1),
      failed,
      failures,
      peakRssMB: +(peakRss / MB).toFixed(0),
      alive,
      // the other client's initialize and call, during the flood: how many, how long the slowest took
      otherCalls: others.length,
      otherSlowestMs: Math.max(0, ...others.map((o) => o.ms)),
      otherServed: otherServedAll,
      ok: alive && otherServedAll && failed === 0,
      ...(alive ? {} : { output: output.slice(-2000) }),
    }
  } finally {
    if (exited === null) child.kill('SIGKILL')
    await gone
  }
}

// ---------------------------------------------------------------------------------------

/**
 * `hosts` anonymous hosts (127.0.0.2, ...) open `perHost` sessions each, every one with its
 * GET stream open; then an authenticated client initializes and calls: its status and time.
 */
export const fair = async ({ hosts = 10, perHost = 100 } = {}) => {
  const { hardened } = await import(`${root}dist/examples/hardened.js`)
  const { serveHttp } = await import(`${root}dist/src/transport/http.js`)
  const auth = { verify: (token) => (token === 'alice-token' ? { subject: 'alice', roles: [] } : undefined) }
  const running = await serveHttp(hardened, { port: 0, handleSignals: false, auth, sessions: { maxSessions: hosts * perHost } })
  const streams = []
  const exchange = (localAddress, agent, sid, body, extra = {}) =>
    new Promise((resolve, reject) => {
      const req = request(running.url, { method: 'POST', agent, localAddress, headers: { ...headers, accept: 'application/json', ...(sid === undefined ? {} : { 'mcp-session-id': sid }), ...extra } }, (res) => {
        let text = ''
        res.setEncoding('utf8')
        res.on('data', (c) => (text += c))
        res.on('end', () => resolve({ status: res.statusCode, sid: res.headers['mcp-session-id'], text }))
      })
      req.on('error', reject)
      req.end(JSON.stringify(body))
    })
  const stream = (localAddress, sid) =>
    new Promise((resolve, reject) => {
      const req = request(running.url, { method: 'GET', agent: false, localAddress, headers: { accept: 'text/event-stream', 'mcp-session-id': sid } }, (res) => resolve(res.statusCode))
      req.on('error', reject)
      req.end()
      streams.push(req)
    })
  const agents = []
  try {
    let held = 0
    for (let h = 0; h < hosts; h++) {
      const localAddress = `127.0.0.${2 + h}`
      const agent = new Agent({ keepAlive: true, maxSockets: 8 })
      agents.push(agent)
      await Promise.all(
        Array.from({ length: perHost }, async () => {
          const init = await exchange(localAddress, agent, undefined, initialize)
          if (init.sid !== undefined && (await stream(localAddress, init.sid)) === 200) held++
        }),
      )
    }
    const agent = new Agent({ keepAlive: true })
    agents.push(agent)
    const token = { authorization: 'Bearer alice-token' }
    const started = performance.now()
    const init = await exchange('127.0.0.250', agent, undefined, initialize, token)
    const call = init.sid === undefined ? { status: 0, text: '' } : await exchange('127.0.0.250', agent, init.sid, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'add', arguments: { a: 2, b: 3 } } }, token)
    const ms = Math.round(performance.now() - started)
    const sum = call.status === 200 ? JSON.parse(call.text).result?.structuredContent?.sum : undefined
    return { anonymousSessionsWithStreams: held, authenticatedInitialize: init.status, authenticatedCall: call.status, initializeAndCallMs: ms, ok: held === hosts * perHost && init.status === 200 && sum === 5 }
  } finally {
    for (const r of streams) r.destroy()
    for (const a of agents) a.destroy()
    await running.close()
  }
}

// ---------------------------------------------------------------------------------------

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (typeof globalThis.gc !== 'function') {
    console.error('memory: run with node --expose-gc')
    process.exit(2)
  }
  const arg = (name, fallback) => {
    const i = process.argv.indexOf(`--${name}`)
    return i === -1 ? fallback : Number(process.argv[i + 1])
  }
  const all = !['--flood', '--per-call', '--survive', '--fair'].some((f) => process.argv.includes(f))
  const report = {}
  if (all || process.argv.includes('--flood')) report.flood = await flood({ answers: arg('answers', 60), mb: arg('mb', 3.9) })
  if (all || process.argv.includes('--per-call')) report.perCall = await perCall({ calls: arg('calls', 10_000), cut: arg('cut', arg('calls', 10_000)) })
  if (all || process.argv.includes('--fair')) report.fair = await fair()
  if (all || process.argv.includes('--survive')) report.survive = await survive({ seconds: arg('seconds', 60), workers: arg('workers', 16) })
  console.log(process.argv.includes('--json') ? JSON.stringify(report) : JSON.stringify(report, null, 2))
  process.exit(Object.values(report).every((r) => r.ok) ? 0 : 1)
}
