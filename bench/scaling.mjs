/**
 * The scaling section of `npm run bench`: calls/s of `add` over HTTP on 127.0.0.1 with 64 calls
 * in flight (bench/servers/emcp-scaling.mjs), in the shapes a deployment picks between:
 *
 *   stateless             one process, each POST stands alone: the baseline
 *   stateful SSE          2025-11-25 sessions, every call on an SSE stream (`jsonWithinMs: 0`, as before the fast path)
 *   stateful              sessions, a call that sends nothing along the way answered as JSON (the default)
 *   stateful + memory     the same with a `memoryStore()` given as the shared store: each request confirms its
 *                         session's record there (one in-process store call), as on Redis or PostgreSQL
 *   stateful + Redis      the same with the shared store on Redis (EMCP_BENCH_REDIS_URL, else EMCP_TEST_REDIS_URL)
 *   stateful + PostgreSQL the same on PostgreSQL (EMCP_BENCH_DATABASE_URL, else EMCP_TEST_DATABASE_URL)
 *   cluster 1 / 2         stateless under `node:cluster` with 1 and 2 workers sharing the port
 *
 * A store without a URL is skipped, and said so. The driver shares the machine with the
 * servers (on 2 cores the cluster's second worker competes with the driver). Targets: stateful
 * at least 0.8x stateless; each store at least 0.5x stateful in memory. Rounds are interleaved
 * and medians taken; runtime.mjs runs it (`--sections scaling`) and passes its helpers.
 */
import { readFileSync, readdirSync } from 'node:fs'
import { Agent, request } from 'node:http'
import { performance } from 'node:perf_hooks'

const IN_FLIGHT = 64
const SESSIONS = 8
const PROTOCOL = '2025-11-25'

/** The cells, each a server shape; `url` of a store cell comes from the environment (undefined: skipped). */
const cellsOf = () => {
  const redis = process.env.EMCP_BENCH_REDIS_URL || process.env.EMCP_TEST_REDIS_URL || undefined
  const pg = process.env.EMCP_BENCH_DATABASE_URL || process.env.EMCP_TEST_DATABASE_URL || undefined
  return [
    { id: 'stateless', label: 'stateless', env: {} },
    { id: 'statefulSse', label: 'stateful, every call on SSE', env: { SESSIONS: '1', JSON_WITHIN_MS: '0' }, sessions: true },
    { id: 'stateful', label: 'stateful (JSON when nothing streams)', env: { SESSIONS: '1' }, sessions: true },
    { id: 'memoryGiven', label: 'stateful + memory store given', env: { SESSIONS: '1', EMCP_STORE: 'memory' }, sessions: true },
    { id: 'redis', label: 'stateful + Redis store', env: { SESSIONS: '1', EMCP_STORE: redis }, sessions: true, skip: redis === undefined ? 'no EMCP_BENCH_REDIS_URL or EMCP_TEST_REDIS_URL' : undefined },
    { id: 'postgres', label: 'stateful + PostgreSQL store', env: { SESSIONS: '1', EMCP_STORE: pg }, sessions: true, skip: pg === undefined ? 'no EMCP_BENCH_DATABASE_URL or EMCP_TEST_DATABASE_URL' : undefined },
    { id: 'cluster1', label: 'stateless, node:cluster 1 worker', env: { WORKERS: '1' } },
    { id: 'cluster2', label: 'stateless, node:cluster 2 workers', env: { WORKERS: '2' } },
  ]
}

const planOf = (quick) => (quick ? { warmup: 1000, calls: 4000, cellMs: 4000 } : { warmup: 3000, calls: 20000, cellMs: 8000 })

/**
 * CPU milliseconds (user + system) used so far by a server: its process and its children (the
 * cluster's workers); null off Linux. Beside calls/s, a figure that other load on the machine
 * changes little.
 */
const serverCpuMs = (pid) => {
  try {
    let ms = 0
    for (const id of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
      try {
        const stat = readFileSync(`/proc/${id}/stat`, 'utf8')
        const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
        // after the command: state ppid ... utime (12th) stime (13th)
        if (Number(id) === pid || Number(f[1]) === pid) ms += ((Number(f[11]) + Number(f[12])) * 1000) / 100
      } catch {
        // the process ended meanwhile
      }
    }
    return ms
  } catch {
    return null
  }
}

/** One POST; resolves with the status, headers and body text. */
const post = (agent, port, body, sid) =>
  new Promise((resolve, reject) => {
    const req = request(
      {
        agent,
        host: '127.0.0.1',
        port,
        path: '/mcp',
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': PROTOCOL,
          'content-length': Buffer.byteLength(body),
          ...(sid === undefined ? {} : { 'mcp-session-id': sid }),
        },
      },
      (res) => {
        const chunks = []
        res.on('data', (c) => chunks.push(c))
        res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, text: Buffer.concat(chunks).toString() }))
        res.on('error', reject)
      },
    )
    req.on('error', reject)
    req.end(body)
  })

/** The answer a JSON or SSE reply carries (the last data line of a stream). */
const answerOf = (r) => {
  if (!(r.headers['content-type'] ?? '').startsWith('text/event-stream')) return JSON.parse(r.text)
  const data = r.text.split('\n').filter((l) => l.startsWith('data:') && l.length > 6)
  return JSON.parse(data[data.length - 1].slice(5))
}

/** Opens a session: its id. */
const openSession = async (agent, port) => {
  const init = await post(agent, port, JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: PROTOCOL, capabilities: {}, clientInfo: { name: 'bench', version: '1' } } }))
  const sid = init.headers['mcp-session-id']
  if (init.status !== 200 || sid === undefined) throw new Error(`initialize: HTTP ${init.status} ${init.text.slice(0, 200)}`)
  await post(agent, port, JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }), sid)
  return sid
}

/** `n` calls of add with IN_FLIGHT in flight (bounded by `ms`): calls/s, wrong answers, how many went as SSE. */
const load = (agent, port, sids, n, ms) =>
  new Promise((resolve) => {
    let issued = 0
    let done = 0
    let wrong = 0
    let sse = 0
    let firstError
    const t0 = performance.now()
    const finish = () => resolve({ calls: done, callsPerS: Math.round(done / ((performance.now() - t0) / 1000)), wrong, sse, firstError })
    const issue = () => {
      if (issued >= n || performance.now() - t0 > ms) {
        if (done === issued) finish()
        return
      }
      const id = ++issued
      const a = id % 1000
      post(agent, port, JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'add', arguments: { a, b: 1 } } }), sids[id % sids.length])
        .then((r) => {
          if ((r.headers['content-type'] ?? '').startsWith('text/event-stream')) sse++
          if (r.status !== 200 || answerOf(r).result?.structuredContent?.sum !== a + 1) throw new Error(`HTTP ${r.status}: ${r.text.slice(0, 200)}`)
        })
        .catch((e) => {
          wrong++
          firstError ??= String(e?.message ?? e)
        })
        .finally(() => {
          done++
          issue()
        })
    }
    for (let i = 0; i < IN_FLIGHT; i++) issue()
  })

/** Starts a cell's server and waits for its `listening` line (bounded). */
const start = async (driver, root, cell) => {
  const port = await driver.freePort()
  const env = { PORT: String(port), ...Object.fromEntries(Object.entries(cell.env).filter(([, v]) => v !== undefined)) }
  const child = driver.startChild(['bench/servers/emcp-scaling.mjs'], env, false)
  const t0 = performance.now()
  while (!child.stderrTail.includes('listening')) {
    if (child.exitCode !== null || performance.now() - t0 > 20_000) throw new Error(`the server did not start: ${child.stderrTail.split(root).join('.')}`)
    await new Promise((r) => setTimeout(r, 20))
  }
  return { child, port }
}

/** One round of one cell: calls/s after a warm-up. */
const measureCell = async (driver, root, cell, plan) => {
  const { child, port } = await start(driver, root, cell)
  const agent = new Agent({ keepAlive: true, maxSockets: IN_FLIGHT })
  try {
    const sids = cell.sessions ? await Promise.all(Array.from({ length: SESSIONS }, () => openSession(agent, port))) : [undefined]
    const warm = await load(agent, port, sids, plan.warmup, plan.cellMs)
    if (warm.wrong > 0) throw new Error(`${warm.wrong} wrong answers, the first: ${warm.firstError}`)
    const cpu0 = serverCpuMs(child.pid)
    const r = await load(agent, port, sids, plan.calls, plan.cellMs)
    const cpu1 = serverCpuMs(child.pid)
    if (r.wrong > 0) throw new Error(`${r.wrong} wrong answers, the first: ${r.firstError}`)
    const cpuUsPerCall = cpu0 === null || cpu1 === null ? null : Math.round(((cpu1 - cpu0) * 1000) / r.calls)
    return { callsPerS: r.callsPerS, calls: r.calls, cpuUsPerCall, sseShare: Math.round((r.sse / r.calls) * 100) / 100 }
  } finally {
    agent.destroy()
    await driver.stopChild(child)
  }
}

/** The section: every cell, `rounds` interleaved rounds, medians and ratios. */
export const measureScaling = async (driver, { quick, rounds, root, log }) => {
  const plan = planOf(quick)
  const cells = cellsOf()
  const samples = Object.fromEntries(cells.map((c) => [c.id, []]))
  const failures = []
  for (const c of cells) if (c.skip !== undefined) log(`scaling: SKIPPED ${c.label}: ${c.skip}\n`)
  for (let r = 1; r <= rounds; r++)
    for (const c of cells) {
      if (c.skip !== undefined) continue
      log(`scaling round ${r}/${rounds}  ${c.label.padEnd(40)} `)
      try {
        await driver.waitForCalm()
        const s = await measureCell(driver, root, c, plan)
        samples[c.id].push(s)
        log(`${s.callsPerS} calls/s, server CPU ${s.cpuUsPerCall} µs a call (SSE answers: ${Math.round(s.sseShare * 100)}%)\n`)
      } catch (e) {
        failures.push({ cell: c.id, round: r, error: String(e?.message ?? e).split(root).join('.') })
        log(`FAILED: ${failures.at(-1).error}\n`)
      }
    }
  const med = Object.fromEntries(cells.map((c) => [c.id, c.skip !== undefined ? null : driver.median(samples[c.id].map((s) => s.callsPerS))]))
  const cpu = Object.fromEntries(cells.map((c) => [c.id, c.skip !== undefined ? null : driver.median(samples[c.id].map((s) => s.cpuUsPerCall))]))
  // CPU a call: the lower the better, so the ratio is the other way round (base over cell)
  const cpuRatio = (a, b) => (cpu[a] == null || cpu[b] == null || cpu[a] === 0 ? null : driver.round(cpu[b] / cpu[a], 2))
  const ratio = (a, b) => (med[a] === null || med[b] === null || med[a] === undefined || med[b] === undefined ? null : driver.round(med[a] / med[b], 2))
  const targets = [
    { target: 'stateful in memory >= 0.8x stateless', ratio: ratio('stateful', 'stateless'), at: 0.8 },
    { target: 'stateful + Redis >= 0.5x stateful in memory', ratio: ratio('redis', 'stateful'), at: 0.5 },
    { target: 'stateful + PostgreSQL >= 0.5x stateful in memory', ratio: ratio('postgres', 'stateful'), at: 0.5 },
  ].map((t) => ({ ...t, met: t.ratio === null ? null : t.ratio >= t.at }))
  return {
    plan: { ...plan, inFlight: IN_FLIGHT, sessions: SESSIONS, rounds },
    cells: cells.map((c) => ({ id: c.id, label: c.label, skipped: c.skip ?? null, callsPerS: med[c.id], cpuUsPerCall: cpu[c.id] })),
    ratios: {
      statefulSseVsStateless: ratio('statefulSse', 'stateless'),
      statefulVsStateless: ratio('stateful', 'stateless'),
      statefulVsStatefulSse: ratio('stateful', 'statefulSse'),
      memoryGivenVsMemory: ratio('memoryGiven', 'stateful'),
      redisVsMemory: ratio('redis', 'stateful'),
      postgresVsMemory: ratio('postgres', 'stateful'),
      cluster2VsCluster1: ratio('cluster2', 'cluster1'),
      cluster1VsStateless: ratio('cluster1', 'stateless'),
    },
    cpuRatios: {
      note: 'server CPU a call, base over cell: above 1 means the cell costs less CPU a call than its base',
      statefulSseVsStateless: cpuRatio('statefulSse', 'stateless'),
      statefulVsStateless: cpuRatio('stateful', 'stateless'),
      memoryGivenVsMemory: cpuRatio('memoryGiven', 'stateful'),
      redisVsMemory: cpuRatio('redis', 'stateful'),
      postgresVsMemory: cpuRatio('postgres', 'stateful'),
    },
    targets,
    failures,
    samples,
  }
}

/** Prints the section's figures. */
export const printScaling = (s, fmtRatio) => {
  console.log('\nscaling (calls/s of add over HTTP, 64 in flight):')
  for (const c of s.cells) console.log(`  ${c.label.padEnd(40)} ${c.skipped !== null ? `SKIPPED: ${c.skipped}` : `${c.callsPerS ?? 'failed'} calls/s, server CPU ${c.cpuUsPerCall ?? '?'} µs a call`}`)
  for (const [k, v] of Object.entries(s.ratios)) console.log(`  ${k.padEnd(28)} ${v === null ? 'n/a' : fmtRatio(v)}`)
  for (const [k, v] of Object.entries(s.cpuRatios)) if (k !== 'note') console.log(`  cpu ${k.padEnd(24)} ${v === null ? 'n/a' : fmtRatio(v)}`)
  for (const t of s.targets) console.log(`  ${t.met === null ? 'n/a   ' : t.met ? 'met   ' : 'MISSED'}  ${t.target}: ${t.ratio ?? 'n/a'}`)
}

/** The section of docs/benchmarks.md. */
export const scalingPage = (s, mdTable, fmtRatio) => {
  const out = ['## Scaling: stateful sessions, shared stores, node:cluster', '']
  out.push(
    'Calls/s of `add` over HTTP on 127.0.0.1 with 64 calls in flight (stateful cells: 8 sessions), one driver process ' +
      '(bench/scaling.mjs) against bench/servers/emcp-scaling.mjs; medians over the rounds. See docs/scaling.md for what each shape needs.',
  )
  out.push('')
  const base = s.cells.find((c) => c.id === 'stateless')?.callsPerS
  // the spread over the rounds says how much other load on the machine moved the figures
  const spread = (id, key, unit) => {
    const xs = (s.samples[id] ?? []).map((x) => x[key]).filter((x) => typeof x === 'number')
    return xs.length === 0 ? '–' : `${Math.min(...xs)}–${Math.max(...xs)}${unit}`
  }
  const rows = [['server', 'calls/s', 'vs stateless', 'server CPU a call', 'rounds: calls/s', 'rounds: CPU a call']]
  for (const c of s.cells)
    rows.push([
      c.label,
      c.skipped !== null ? `skipped: ${c.skipped}` : String(c.callsPerS ?? 'failed'),
      c.callsPerS && base ? fmtRatio(c.callsPerS / base) : '–',
      c.cpuUsPerCall == null ? '–' : `${c.cpuUsPerCall} µs`,
      spread(c.id, 'callsPerS', ''),
      spread(c.id, 'cpuUsPerCall', ' µs'),
    ])
  out.push(mdTable(rows))
  out.push('')
  const t = [['target', 'ratio', 'result']]
  for (const x of s.targets) t.push([x.target, x.ratio === null ? 'n/a' : fmtRatio(x.ratio), x.met === null ? 'n/a' : x.met ? 'met' : 'missed'])
  out.push(mdTable(t))
  out.push('')
  out.push(
    'Server CPU a call (the server process and its workers, from /proc) changes less with other load on the machine than calls/s: ' +
      `stateful in memory costs ${s.cpuRatios.statefulVsStateless === null ? 'n/a' : fmtRatio(1 / s.cpuRatios.statefulVsStateless)} the CPU a call of stateless, ` +
      `every call on SSE ${s.cpuRatios.statefulSseVsStateless === null ? 'n/a' : fmtRatio(1 / s.cpuRatios.statefulSseVsStateless)}.`,
  )
  out.push('')
  out.push(
    `node:cluster with 2 workers against 1: ${s.ratios.cluster2VsCluster1 === null ? 'n/a' : fmtRatio(s.ratios.cluster2VsCluster1)}. ` +
      'On this 2-core machine the driver takes most of a core itself, so a second worker has little CPU left to use: the figure ' +
      'says what cluster costs and gains here, not what it gains on a machine with cores to spare.',
  )
  out.push('')
  if (s.failures.length > 0) {
    for (const f of s.failures) out.push(`- failed: ${f.cell}, round ${f.round}: ${f.error}`)
    out.push('')
  }
  return out.join('\n')
}
