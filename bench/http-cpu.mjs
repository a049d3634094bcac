/**
 * The server's own CPU time and allocation per HTTP call, for servers or builds side by side,
 * under the PostgreSQL section's load: `tools/call add` POSTed with 32 calls in flight through
 * a `node:http` keep-alive agent, every answer checked. Each server runs in turn (interleaved
 * rounds, medians): a warm-up, then a measured load. The on-CPU time of the server process's
 * main thread and of all its threads comes from /proc/<pid>/task/<tid>/schedstat (Linux), so
 * the driver's own work is not in it; the bytes allocated per call are the sum of V8's
 * `allocated=` figures (bytes allocated since the previous collection) that `--trace-gc-nvp`
 * prints for the collections of the measured window. Old and new code in one run: give a copy
 * of a previous build's server (a folder holding its package.json, dist/ and bench/servers/).
 *
 *   npm run build && EMCP_TEST_DATABASE_URL=postgres://… node bench/http-cpu.mjs   # emcp-pg beside raw-pg
 *   node bench/http-cpu.mjs --rounds 7 --calls 20000 --warmup 5000
 *   node bench/http-cpu.mjs --servers old=bench/.work/old/bench/servers/emcp-pg.mjs,new=bench/servers/emcp-pg.mjs
 *   node bench/http-cpu.mjs --servers emcp=dist/examples/bench.js,raw=bench/servers/raw-http.mjs   # no database
 *   node bench/http-cpu.mjs --rounds 1 --servers emcp=bench/servers/emcp-pg.mjs --node-flags '--cpu-prof --cpu-prof-dir=bench/.work/prof'
 *   node bench/http-cpu.mjs --rounds 1 --node-flags --perf-basic-prof --exec 'perf record -F 1999 -g -o bench/.work/perf.data --'
 *
 * Without EMCP_TEST_DATABASE_URL the PostgreSQL servers run on an in-memory PGlite of their own.
 */
import { spawn } from 'node:child_process'
import { onCpu } from './on-cpu.mjs'
import { Agent, request } from 'node:http'
import { freePort } from '../scripts/free-port.mjs'
import { POOL_MAX, setupSql } from './servers/pg-contract.mjs'

const argv = process.argv.slice(2)
const flag = (name, d) => {
  const i = argv.indexOf(name)
  return i === -1 ? d : argv[i + 1]
}
const rounds = Number(flag('--rounds', 5))
const calls = Number(flag('--calls', 10000))
const concurrency = Number(flag('--concurrency', 32))
// what the calls accept: both, as MCP clients send (emcp may then answer a call on an SSE stream), or one
const accept = flag('--accept', 'application/json, text/event-stream')
// more flags for each server's node, e.g. --node-flags '--cpu-prof --cpu-prof-dir=bench/.work/prof'
const nodeFlags = flag('--node-flags', '').split(' ').filter((x) => x !== '')
// a command each server runs under, e.g. --exec 'perf record -g -o bench/.work/perf.data --' (its CPU is then counted too)
const exec = flag('--exec', '').split(' ').filter((x) => x !== '')
const servers = Object.fromEntries(
  flag('--servers', 'emcp=bench/servers/emcp-pg.mjs,raw=bench/servers/raw-pg.mjs')
    .split(',')
    .map((s) => s.split('=')),
)
if (!(rounds >= 1 && calls >= 1 && concurrency >= 1) || Object.values(servers).some((f) => f === undefined)) {
  console.error('usage: node bench/http-cpu.mjs [--rounds N] [--calls N] [--warmup N] [--concurrency N] [--accept TYPES] [--servers name=file,...] [--node-flags FLAGS] [--exec COMMAND]')
  process.exit(2)
}
const url = process.env.EMCP_TEST_DATABASE_URL ?? ''
const schema = `emcp_bench_${process.pid}`

/** One POST of `body` to 127.0.0.1:`port`/mcp; resolves to the answer's text and status. */
const post = (agent, port, body) =>
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
          accept,
          'mcp-protocol-version': '2025-11-25',
          'content-length': Buffer.byteLength(body),
        },
      },
      (res) => {
        const chunks = []
        res.on('data', (c) => chunks.push(c))
        res.on('end', () => resolve({ status: res.statusCode, text: Buffer.concat(chunks).toString() }))
        res.on('error', reject)
      },
    )
    req.on('error', reject)
    req.end(body)
  })

const call = (id) => JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'add', arguments: { a: id, b: 7 } } })

/** `n` checked calls with `concurrency` in flight. */
const load = async (agent, port, first, n) => {
  let next = first
  const end = first + n
  const worker = async () => {
    while (next < end) {
      const id = next++
      const { status, text } = await post(agent, port, call(id))
      const want = `:${id + 7}}` // {"value":…} (PostgreSQL) or {"sum":…} (the bench example)
      if (status !== 200 || !text.includes(want) || text.includes('"isError":true')) throw new Error(`call ${id}: HTTP ${status} ${text.slice(0, 300)}`)
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker))
}

/** One server process: started with --trace-gc-nvp, warmed up, measured. */
const sample = async (file) => {
  const port = await freePort()
  const args = ['--trace-gc-nvp', ...nodeFlags, file, 'http']
  const child = spawn(exec[0] ?? process.execPath, exec.length === 0 ? args : [...exec.slice(1), process.execPath, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, PORT: String(port), EMCP_BENCH_DATABASE_URL: url, EMCP_BENCH_SCHEMA: schema },
  })
  const gc = { allocated: 0, promoted: 0, scavenges: 0, majors: 0 }
  let tail = ''
  let errTail = ''
  child.stdout.setEncoding('utf8').on('data', (s) => {
    const text = tail + s
    const cut = text.lastIndexOf('\n') + 1
    for (const line of text.slice(0, cut).split('\n')) {
      const kind = / gc=(\w+)/.exec(line)?.[1]
      if (kind === undefined) continue
      gc.allocated += Number(/ allocated=(\d+)/.exec(line)?.[1] ?? 0)
      gc.promoted += Number(/ promoted=(\d+)/.exec(line)?.[1] ?? 0)
      if (kind === 's') gc.scavenges++
      else gc.majors++
    }
    tail = text.slice(cut)
  })
  child.stderr.setEncoding('utf8').on('data', (s) => (errTail = (errTail + s).slice(-2000)))
  const exited = new Promise((resolve) => child.once('exit', resolve))
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency })
  try {
    for (let tries = 0; ; tries++) {
      try {
        await post(agent, port, JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'ping' }))
        break
      } catch (e) {
        if (tries > 3000 || child.exitCode !== null) throw new Error(`${file}: ${e?.message ?? e}: ${errTail.slice(-500)}`)
        await new Promise((r) => setTimeout(r, 10))
      }
    }
    await load(agent, port, 1, Number(flag('--warmup', Math.max(2000, calls / 2))))
    const c0 = onCpu(child.pid)
    const g0 = { ...gc }
    const t0 = performance.now()
    await load(agent, port, 1_000_000, calls)
    const t1 = performance.now()
    const c1 = onCpu(child.pid)
    return {
      mainUs: (c1.main - c0.main) / calls / 1000,
      allUs: (c1.all - c0.all) / calls / 1000,
      kb: (gc.allocated - g0.allocated) / calls / 1024,
      promotedB: (gc.promoted - g0.promoted) / calls,
      scavenges: ((gc.scavenges - g0.scavenges) / calls) * 10_000,
      majors: ((gc.majors - g0.majors) / calls) * 10_000,
      callsPerS: calls / ((t1 - t0) / 1000),
    }
  } finally {
    agent.destroy()
    // SIGTERM first: a server that drains and exits writes what its node flags asked for (a profile)
    child.kill('SIGTERM')
    const killer = setTimeout(() => child.kill('SIGKILL'), 10_000)
    await exited
    clearTimeout(killer)
  }
}

let pool
if (url !== '') {
  const { default: pg } = await import('pg')
  pool = new pg.Pool({ connectionString: url, max: POOL_MAX })
  await pool.query(setupSql(schema))
}
try {
  const samples = Object.fromEntries(Object.keys(servers).map((k) => [k, []]))
  for (let r = 0; r < rounds; r++) for (const [name, file] of Object.entries(servers)) samples[name].push(await sample(file))
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
  console.log(`${url === '' ? 'PGlite in each server' : 'PostgreSQL'}, ${rounds} rounds, ${calls} calls measured at concurrency ${concurrency} (medians)`)
  for (const [name, xs] of Object.entries(samples)) {
    const m = (key) => median(xs.map((x) => x[key]))
    console.log(
      `${name.padEnd(8)} per call: main thread ${m('mainUs').toFixed(1)} µs, all threads ${m('allUs').toFixed(1)} µs, ` +
        `allocated ${m('kb').toFixed(1)} KB (promoted ${m('promotedB').toFixed(0)} B; per 10,000 calls ${m('scavenges').toFixed(0)} scavenges, ${m('majors').toFixed(1)} major GCs)   ${Math.round(m('callsPerS'))} calls/s`,
    )
  }
} finally {
  if (pool !== undefined) {
    await pool.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).catch(() => undefined)
    await pool.end()
  }
}
