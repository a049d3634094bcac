// No request stalls the server (heaps measured after full GCs): N `subscriptions/listen`
// streams padded to 4 MiB (two per address, kept open) and S POSTs that declare 4 MiB and
// send one byte (from other addresses) are opened against a server with the default limits
// (but no body deadline or minimum rate, so that the slow bodies stay open meanwhile);
// then a fresh client's `tools/call` is made with Node's `http` client and with `fetch`,
// while all of them are still open.
//
//   node --expose-gc scripts/stalls.mjs [--listens 64] [--slow 8] [--timeout-ms 120000] [--json]
//
// Reports the heap and RSS before and with everything open, the time for each fresh call to
// be answered, and whether the hostile requests were all still open at the end. Fails
// (exit 1) if a fresh call is not answered 200, a hostile request was answered meanwhile, or
// the heap with everything open is more than 64 MB above where it started (each listen held
// its 4 MiB body, twice over, for its whole life before: 75 MB for 8 of them).
// It runs the built server (dist/): build first.
import { Agent, request } from 'node:http'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('../', import.meta.url))
const MiB = 1024 * 1024
const V = '2026-07-28'
const meta = { 'io.modelcontextprotocol/protocolVersion': V, 'io.modelcontextprotocol/clientCapabilities': {} }
const headers = (method) => ({
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': V,
  'mcp-method': method,
  ...(method === 'tools/call' ? { 'mcp-name': 'echo' } : {}),
})

const heapMB = () => {
  globalThis.gc()
  globalThis.gc()
  return Math.round(process.memoryUsage().heapUsed / 1e5) / 10
}
const rssMB = () => Math.round(process.memoryUsage().rss / 1e6)

/** A listen body of exactly 4 MiB, made out of the callers' scope (so that no closure keeps it). */
const listenBody = () => {
  const base = { jsonrpc: '2.0', id: 'l', method: 'subscriptions/listen', params: { _meta: meta, notifications: { toolsListChanged: true }, pad: '' } }
  return JSON.stringify({ ...base, params: { ...base.params, pad: 'p'.repeat(4 * MiB - JSON.stringify(base).length) } })
}

/** Opens a listen from `localAddress`: resolves with its status once its first event came; `held` gets the request. */
const listen = (url, localAddress, held) =>
  new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', agent: new Agent(), localAddress, headers: headers('subscriptions/listen') }, (res) => {
      res.once('data', () => resolve(res.statusCode))
      res.once('end', () => (held.ended = (held.ended ?? 0) + 1))
    })
    req.on('error', reject)
    req.end(listenBody())
    held.requests.push(req)
  })

/** A POST declaring 4 MiB that sends one byte, from `localAddress`; `held` counts it if it is answered. */
const slowBody = (url, localAddress, held) => {
  const req = request(url, { method: 'POST', agent: new Agent(), localAddress, headers: { ...headers('tools/call'), 'content-length': String(4 * MiB) } }, (res) => {
    held.answered = (held.answered ?? 0) + 1
    res.resume()
  })
  req.on('error', () => undefined)
  req.write('{')
  held.requests.push(req)
}

const call = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: { text: 'fresh' }, _meta: meta } }

/** The fresh client's call with Node's `http` client: its status and milliseconds. */
const freshHttp = (url) =>
  new Promise((resolve, reject) => {
    const started = performance.now()
    const req = request(url, { method: 'POST', agent: new Agent(), localAddress: '127.0.0.250', headers: headers('tools/call') }, (res) => {
      let text = ''
      res.setEncoding('utf8').on('data', (c) => (text += c))
      res.on('end', () => resolve({ status: res.statusCode, ok: JSON.parse(text).result?.content?.[0]?.text === 'fresh', ms: Math.round(performance.now() - started) }))
    })
    req.on('error', reject)
    req.end(JSON.stringify(call))
  })

/** The same with `fetch`. */
const freshFetch = async (url) => {
  const started = performance.now()
  const res = await fetch(url, { method: 'POST', headers: headers('tools/call'), body: JSON.stringify(call) })
  const body = await res.json()
  return { status: res.status, ok: body.result?.content?.[0]?.text === 'fresh', ms: Math.round(performance.now() - started) }
}

/** The scenario: its report. */
export const stalls = async ({ listens = 64, slow = 8 } = {}) => {
  const { emcp, mcpServer } = await import(`${root}dist/src/index.js`)
  const { serveHttp } = await import(`${root}dist/src/transport/http.js`)
  const echo = emcp({ name: 'echo', description: 'Echo.', input: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } })
  const server = mcpServer([echo], { name: 'stalls', version: '1' }).implement({ echo: ({ text }) => text })
  // the default limits, but for the pace of bodies: the slow ones must stay open for as long as the measure takes
  // (what is measured is that they hold almost nothing meanwhile; their 408 is tested on its own)
  const running = await serveHttp(server, { port: 0, handleSignals: false, bodyTimeoutMs: 0, minBodyBytesPerSecond: 0 })
  const held = { requests: [] }
  try {
    const heapBeforeMB = heapMB()
    const rssBeforeMB = rssMB()
    const started = performance.now()
    // two listens per address, as behind a proxy without `clientAddress`
    const statuses = await Promise.all(Array.from({ length: listens }, (_, i) => listen(running.url, `127.0.1.${2 + Math.floor(i / 2)}`, held)))
    const listensOpenMs = Math.round(performance.now() - started)
    for (let i = 0; i < slow; i++) slowBody(running.url, `127.0.2.${2 + Math.floor(i / 2)}`, held)
    const viaHttp = await freshHttp(running.url)
    const viaFetch = await freshFetch(running.url)
    const heapOpenMB = heapMB()
    const rssOpenMB = rssMB()
    const stillOpen = (held.ended ?? 0) === 0 && (held.answered ?? 0) === 0
    const ok = statuses.every((s) => s === 200) && viaHttp.ok && viaFetch.ok && stillOpen && heapOpenMB - heapBeforeMB < 64
    return { listens, slow, listensOpenMs, freshHttp: viaHttp, freshFetch: viaFetch, stillOpen, heapBeforeMB, heapOpenMB, rssBeforeMB, rssOpenMB, ok }
  } finally {
    for (const r of held.requests) r.destroy()
    await running.close()
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (typeof globalThis.gc !== 'function') {
    console.error('stalls: run with node --expose-gc')
    process.exit(2)
  }
  const arg = (name, fallback) => {
    const i = process.argv.indexOf(`--${name}`)
    return i === -1 ? fallback : Number(process.argv[i + 1])
  }
  // a fresh call never answered must not hang the run: the report says so, and the run ends
  setTimeout(() => {
    console.log(JSON.stringify({ ok: false, timedOut: true }))
    process.exit(1)
  }, arg('timeout-ms', 120_000)).unref()
  const report = await stalls({ listens: arg('listens', 64), slow: arg('slow', 8) })
  console.log(process.argv.includes('--json') ? JSON.stringify(report) : JSON.stringify(report, null, 2))
  process.exit(report.ok ? 0 : 1)
}
