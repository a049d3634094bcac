// The soak: a long run of calls over stdio, stateless HTTP and stateful HTTP (sessions
// opened and closed by the thousand), in process, with heap and RSS sampled (after a full
// GC) at intervals; then the heap cost of one stateful session. Every answer is checked;
// the run fails (exit 1) on any error, on a heap that keeps growing, or on a session that
// costs 50 KB or more.
//
//   npm run soak                         # 200 000 calls, 10 000 sessions
//   node --expose-gc scripts/soak.mjs --calls 20000 --sessions 2000 --json
//
// It runs the built server (dist/examples/hardened.js): `npm run soak` builds first.
import { createServer } from 'node:http'
import { PassThrough } from 'node:stream'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('../', import.meta.url))
const { hardened } = await import(`${root}dist/examples/hardened.js`)
const { startStdio } = await import(`${root}dist/src/transport/stdio.js`)
const { serveHttp, toNodeListener, httpSessions } = await import(`${root}dist/src/transport/http.js`)

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`)
  return i === -1 ? fallback : Number(process.argv[i + 1])
}
const totalCalls = arg('calls', 200_000)
const totalSessions = arg('sessions', 10_000)
const concurrency = arg('concurrency', 64)
const sessionSample = arg('session-sample', 2_000)
const asJson = process.argv.includes('--json')
const log = asJson ? () => {} : (...a) => console.log(...a)

if (typeof globalThis.gc !== 'function') {
  console.error('soak: run with node --expose-gc (npm run soak does)')
  process.exit(2)
}

const MB = 1024 * 1024
const sample = (section, done) => {
  globalThis.gc()
  globalThis.gc()
  const m = process.memoryUsage()
  const s = { section, done, heapMB: +(m.heapUsed / MB).toFixed(1), rssMB: +(m.rss / MB).toFixed(1) }
  log(`  ${section.padEnd(15)} ${String(done).padStart(8)} done   heap ${String(s.heapMB).padStart(6)} MB   rss ${String(s.rssMB).padStart(6)} MB`)
  return s
}

const errors = []
const fail = (section, what) => {
  if (errors.length < 20) errors.push(`${section}: ${what}`)
  else errors.length++
}

// the mix every section sends: mostly sync calls, some async (sleep 0), some echo, some garbage
const requestOf = (i) => {
  const k = i % 20
  if (k < 15) return { body: { jsonrpc: '2.0', id: i, method: 'tools/call', params: { name: 'add', arguments: { a: i, b: 1 } } }, check: (m) => m.result?.structuredContent?.sum === i + 1 }
  if (k < 17) return { body: { jsonrpc: '2.0', id: i, method: 'tools/call', params: { name: 'echo', arguments: { text: `t${i}` } } }, check: (m) => m.result?.content?.[0]?.text === `t${i}` }
  if (k < 19) return { body: { jsonrpc: '2.0', id: i, method: 'tools/call', params: { name: 'sleep', arguments: { ms: 0 } } }, check: (m) => m.result?.content?.[0]?.text === 'slept' }
  return { body: { jsonrpc: '2.0', id: i, method: 'tools/call', params: { name: 'add', arguments: { a: 'x' } } }, check: (m) => m.result?.isError === true }
}

// ---------------------------------------------------------------------------------------
// stdio: pipelined windows on in-process streams

const soakStdio = async (n) => {
  const input = new PassThrough()
  const output = new PassThrough()
  const handle = startStdio(hardened, { input, output, redirectConsole: false, handleSignals: false })
  const waiting = new Map()
  let rest = ''
  output.on('data', (chunk) => {
    const lines = (rest + chunk.toString('utf8')).split('\n')
    rest = lines.pop() ?? ''
    for (const line of lines) {
      let m
      try {
        m = JSON.parse(line)
      } catch {
        fail('stdio', `stdout carried a line that is not JSON: ${line.slice(0, 100)}`)
        continue
      }
      const w = waiting.get(m.id)
      if (w === undefined) fail('stdio', `an answer nobody asked for: ${line.slice(0, 100)}`)
      else {
        waiting.delete(m.id)
        w(m)
      }
    }
  })
  const samples = []
  const every = Math.max(1, Math.floor(n / 10))
  let nextSample = every
  const window = Math.max(concurrency, 256)
  for (let start = 0; start < n; start += window) {
    const batch = []
    let text = ''
    for (let i = start; i < Math.min(n, start + window); i++) {
      const r = requestOf(i)
      text += `${JSON.stringify(r.body)}\n`
      batch.push(new Promise((resolve) => waiting.set(i, resolve)).then((m) => r.check(m) || fail('stdio', `wrong answer to ${i}: ${JSON.stringify(m).slice(0, 200)}`)))
    }
    input.write(text)
    await Promise.all(batch)
    const done = Math.min(n, start + window)
    if (done >= nextSample || done === n) {
      nextSample += every
      samples.push(sample('stdio', done))
    }
  }
  input.end()
  await handle.done
  return samples
}

// ---------------------------------------------------------------------------------------
// HTTP: `concurrency` clients in a loop on 127.0.0.1

const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' }

const post = async (url, body, extra = {}) => {
  const res = await fetch(url, { method: 'POST', headers: { ...headers, ...extra }, body: JSON.stringify(body) })
  const text = await res.text()
  return { res, text }
}

/** Runs `task(i)` for i in [0, n) with `concurrency` workers, sampling memory every tenth. */
const loop = async (section, n, task) => {
  const samples = []
  const every = Math.max(1, Math.floor(n / 10))
  let next = 0
  let done = 0
  let nextSample = every
  const worker = async () => {
    for (let i = next++; i < n; i = next++) {
      try {
        await task(i)
      } catch (e) {
        fail(section, `call ${i} failed: ${e instanceof Error ? e.message : e}`)
      }
      done++
      if (done >= nextSample) {
        nextSample += every
        samples.push(sample(section, done))
      }
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker))
  return samples
}

const soakStateless = async (n) => {
  const running = await serveHttp(hardened, { port: 0, handleSignals: false })
  try {
    return await loop('stateless HTTP', n, async (i) => {
      const r = requestOf(i)
      const { res, text } = await post(running.url, r.body)
      if (res.status !== 200 || !r.check(JSON.parse(text))) fail('stateless HTTP', `wrong answer to ${i}: ${res.status} ${text.slice(0, 200)}`)
    })
  } finally {
    await running.close()
  }
}

const soakSessions = async (n) => {
  const listener = toNodeListener(hardened, { sessions: { maxSessions: 100_000 } })
  const node = createServer(listener)
  await new Promise((resolve) => node.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${node.address().port}/mcp`
  const initialize = { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'soak', version: '1' } } }
  try {
    const samples = await loop('stateful HTTP', n, async (i) => {
      const init = await post(url, initialize)
      const sid = init.res.headers.get('mcp-session-id')
      if (sid === null) return fail('stateful HTTP', `initialize opened no session: ${init.text.slice(0, 200)}`)
      const s = { 'mcp-session-id': sid }
      await post(url, { jsonrpc: '2.0', method: 'notifications/initialized' }, s)
      const r = requestOf(i)
      // JSON, not SSE: a call answered as a stream is covered by the tests
      const { res, text } = await post(url, r.body, { ...s, accept: 'application/json' })
      if (res.status !== 200 || !r.check(JSON.parse(text))) fail('stateful HTTP', `wrong answer to ${i}: ${res.status} ${text.slice(0, 200)}`)
      const del = await fetch(url, { method: 'DELETE', headers: s })
      await del.text()
      if (del.status !== 200) fail('stateful HTTP', `DELETE answered ${del.status}`)
    })
    const left = listener.sessions.size()
    if (left !== 0) fail('stateful HTTP', `${left} sessions left open after every one was deleted`)
    return samples
  } finally {
    listener.sessions.close()
    node.closeAllConnections()
    await new Promise((resolve) => node.close(resolve))
  }
}

// ---------------------------------------------------------------------------------------
// the heap cost of one stateful session (initialized, idle), measured at the registry

const sessionCost = async (k) => {
  const registry = httpSessions(hardened, { maxSessions: k + 1 })
  const initialize = { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'soak', version: '1' } } }
  const open = async (count) => {
    for (let i = 0; i < count; i++) {
      const entry = registry.open('2025-11-25')
      await hardened.dispatch(initialize, entry.session)()
      await hardened.dispatch({ jsonrpc: '2.0', method: 'notifications/initialized' }, entry.session)()
      registry.admit(entry)
    }
  }
  await open(100) // warm the code paths first
  globalThis.gc()
  globalThis.gc()
  const before = process.memoryUsage().heapUsed
  await open(k)
  globalThis.gc()
  globalThis.gc()
  const after = process.memoryUsage().heapUsed
  const bytes = Math.round((after - before) / k)
  registry.close()
  return { sessions: k, bytesPerSession: bytes }
}

// ---------------------------------------------------------------------------------------
// run

const growth = (samples) => {
  // after warm-up (the first sample), the heap must stay within 10 MB or 25 % of it
  const settled = samples.slice(1)
  if (settled.length < 2) return { firstMB: samples[0]?.heapMB, lastMB: samples.at(-1)?.heapMB, grewMB: 0, flat: true }
  const first = settled[0].heapMB
  const last = settled.at(-1).heapMB
  const max = Math.max(...settled.map((s) => s.heapMB))
  const grew = +(max - first).toFixed(1)
  return { firstMB: first, lastMB: last, grewMB: grew, flat: grew <= Math.max(10, first * 0.25) }
}

const t0 = Date.now()
log(`soak: ${totalCalls} calls (half stdio, half stateless HTTP), ${totalSessions} stateful sessions, concurrency ${concurrency}`)
const sections = {}
for (const [name, run] of [
  ['stdio', () => soakStdio(Math.floor(totalCalls / 2))],
  ['stateless HTTP', () => soakStateless(Math.ceil(totalCalls / 2))],
  ['stateful HTTP', () => soakSessions(totalSessions)],
]) {
  const started = Date.now()
  const samples = await run()
  const seconds = (Date.now() - started) / 1000
  const count = name === 'stateful HTTP' ? totalSessions : name === 'stdio' ? Math.floor(totalCalls / 2) : Math.ceil(totalCalls / 2)
  sections[name] = { count, seconds: +seconds.toFixed(1), perSecond: Math.round(count / seconds), memory: growth(samples), samples }
  log(`  -> ${name}: ${count} in ${seconds.toFixed(1)} s (${sections[name].perSecond}/s), heap ${JSON.stringify(sections[name].memory)}`)
}
const session = await sessionCost(sessionSample)
log(`one stateful session (initialized, idle): ${(session.bytesPerSession / 1024).toFixed(1)} KB of heap (over ${session.sessions} sessions)`)

const report = {
  calls: totalCalls,
  sessions: totalSessions,
  concurrency,
  seconds: +((Date.now() - t0) / 1000).toFixed(1),
  errors: errors.length,
  errorSamples: errors.filter(Boolean),
  sections,
  session,
  flat: Object.values(sections).every((s) => s.memory.flat),
}
if (asJson) console.log(JSON.stringify(report))
else {
  log(`errors: ${report.errors}${report.errors > 0 ? `\n  ${report.errorSamples.join('\n  ')}` : ''}`)
  log(`memory flat: ${report.flat ? 'yes' : 'NO'}; session under 50 KB: ${session.bytesPerSession < 50 * 1024 ? 'yes' : 'NO'}`)
}
process.exit(report.errors === 0 && report.flat && session.bytesPerSession < 50 * 1024 ? 0 : 1)
