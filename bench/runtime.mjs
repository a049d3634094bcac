/**
 * The runtime benchmark: the same MCP server contract (tool `add` plus TOOLS=N filler tools,
 * see bench/servers/contract.mjs and examples/bench.ts) served by
 *
 *   emcp     dist/examples/bench.js (stdio, and stateless HTTP with JSON answers)
 *   emcpZod  bench/servers/emcp-zod.mjs: emcp again, its `add` taking SDK v1's zod schemas
 *   emcpMount bench/servers/emcp-mount.mjs: emcp's server mounted whole into another (docs/composition.md)
 *   emcpProxy bench/servers/emcp-proxy.mjs: emcp's server as the upstream of `emcp/proxy` (a second hop)
 *   sdk1     @modelcontextprotocol/sdk (McpServer + StdioServerTransport; stateless HTTP with a
 *            new McpServer and StreamableHTTPServerTransport per request)
 *   sdk2     @modelcontextprotocol/server + @modelcontextprotocol/node (serveStdio; createMcpHandler)
 *   raw      bare JSON-RPC, no validation, the same answers: the ceiling of this machine
 *
 * driven over a child's stdio (newline-delimited JSON-RPC) and over HTTP on 127.0.0.1 (POST,
 * node:http keep-alive agent) by one driver that costs the same for everyone. Per server and
 * transport: calls/s with many calls in flight (stdio: N requests written at once; HTTP: 64 in
 * flight), calls/s and p50/p99 latency at concurrency 32, calls/s with 2000 tools registered,
 * tools/list time with 2000 tools, peak RSS (VmHWM) and startup time (spawn to first answered
 * ping). Rounds are interleaved, the order turned by one server each round (A B C D, B C D A,
 * C D A B, ...), so that each server takes each place of a round in turn (the first one after
 * the wait for a calm machine, the last one after all the others' work in the driver's heap),
 * and medians taken. On stdio the fastest servers outrun the driver (its CPU near 100%, theirs near 50%
 * in a burst): their burst rows are bounded by the driver, and each burst lasts well under a
 * tenth of a second, so the burst is repeated plan.burstRepeats times (the same for every
 * server) and the median kept; the server-CPU rows weigh the servers themselves. The zod rows set
 * emcp's calls/s with zod beside emcp with the JSON Schema literal and beside SDK v1's zod tool.
 *
 *   npm run bench                   # build, 3 rounds, writes bench/results/runtime.{json,svg}, docs/benchmarks.md
 *   npm run bench -- --quick        # 1 round, smaller counts: a fast check that prints and writes nothing
 *   npm run bench -- --quick --write  # ... and writes its results all the same
 *   node bench/runtime.mjs --rounds 5 --only emcp,raw --transports stdio
 *   node bench/runtime.mjs --render # only regenerate the page and chart from bench/results/runtime.json
 *   node bench/runtime.mjs --no-write  # measure and print, write nothing
 *   npm run bench -- --sections postgres  # only the PostgreSQL section (bench/postgres.mjs); its figures
 *                                         # replace those of bench/results/runtime.json, the rest is kept
 *   npm run bench -- --sections runtimes  # only the runtimes section (bench/runtimes.mjs): Node, Deno, Bun,
 *                                         # workerd, emcp's fetch handler beside a raw one; workerd cold start
 *   npm run bench -- --sections scaling   # only the scaling section (bench/scaling.mjs): stateful beside
 *                                         # stateless, each shared store, node:cluster 2 workers beside 1
 *   npm run bench -- --sections meos      # only the MEOS section (bench/meos.mjs): emcp meos beside the
 *                                         # FFI in a loop; skipped when libmeos is absent
 *
 * The PostgreSQL section runs on the server of EMCP_TEST_DATABASE_URL when it is set, else on PGlite.
 */
import { execFileSync, spawn } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { hasSchedstat, onCpu } from './on-cpu.mjs'
import { Agent, request } from 'node:http'
import { cpus, release, totalmem } from 'node:os'
import { dirname, join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { fileURLToPath } from 'node:url'
import { freePort } from '../scripts/free-port.mjs'
import { mountPage, mountRowsOf, printMount } from './mount.mjs'
import { printProxy, proxyPage, proxyRowsOf } from './proxy.mjs'
import { measurePostgres, postgresPage, printPostgres } from './postgres.mjs'
import { measureMeos, meosPage, printMeos } from './meos.mjs'
import { measureScaling, printScaling, scalingPage } from './scaling.mjs'
import { measureRuntimes, printRuntimes, runtimesPage } from './runtimes.mjs'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const resultsDir = join(root, 'bench', 'results')
const resultsFile = join(resultsDir, 'runtime.json')
const svgFile = join(resultsDir, 'runtime.svg')
const typesFile = join(resultsDir, 'types.json')
const pageFile = join(root, 'docs', 'benchmarks.md')
const PROTOCOL = '2025-11-25'
const MANY_TOOLS = 2000

// ---------------------------------------------------------------------------------------
// arguments

const argv = process.argv.slice(2)
const flag = (name) => {
  const i = argv.indexOf(name)
  return i === -1 ? undefined : argv[i + 1]
}
const quick = argv.includes('--quick')
const renderOnly = argv.includes('--render')
// a quick run is a check: it leaves the recorded results alone unless told otherwise
const write = quick ? argv.includes('--write') : !argv.includes('--no-write')

/** Counts and bounds of each measurement; --quick divides the counts and shortens the bounds. */
const plan = quick
  ? {
      rounds: 1,
      warmup: { calls: 2000, ms: 500 },
      burstRepeats: 1,
      stdio: { burst: 5000, c32: 3000, many: 3000 },
      http: { burst: 3000, c32: 2000, many: 600 },
      httpInFlight: 64,
      cellMs: 2000,
      drainMs: 15000,
      listWarmup: 1,
      listTimed: 3,
      listMs: 3000,
      startupSpawns: 1,
      calmWaitS: 20,
      remeasures: 2,
    }
  : {
      rounds: 3,
      warmup: { calls: 10000, ms: 1500 },
      // bursts of the fastest servers last under 0.1 s and spread by +-20% within a cell: 5 for a steadier median
      burstRepeats: 5,
      stdio: { burst: 20000, c32: 10000, many: 20000 },
      http: { burst: 20000, c32: 10000, many: 10000 },
      httpInFlight: 64,
      cellMs: 5000,
      drainMs: 20000,
      listWarmup: 2,
      listTimed: 7,
      listMs: 4000,
      startupSpawns: 3,
      calmWaitS: 90,
      remeasures: 8,
    }
if (flag('--rounds') !== undefined) plan.rounds = Number(flag('--rounds'))

const allServers = [
  {
    id: 'emcp',
    label: 'emcp',
    stdio: ['dist/examples/bench.js', 'stdio'],
    http: ['dist/examples/bench.js', 'http'],
  },
  {
    id: 'emcpZod',
    label: 'emcp zod',
    stdio: ['bench/servers/emcp-zod.mjs', 'stdio'],
    http: ['bench/servers/emcp-zod.mjs', 'http'],
  },
  {
    id: 'emcpMount',
    label: 'emcp mount',
    stdio: ['bench/servers/emcp-mount.mjs', 'stdio'],
    http: ['bench/servers/emcp-mount.mjs', 'http'],
  },
  {
    id: 'emcpProxy',
    label: 'emcp proxy',
    stdio: ['bench/servers/emcp-proxy.mjs', 'stdio'],
    http: ['bench/servers/emcp-proxy.mjs', 'http'],
  },
  {
    id: 'sdk1',
    label: 'SDK v1',
    stdio: ['bench/servers/sdk1-stdio.mjs'],
    http: ['bench/servers/sdk1-http.mjs'],
  },
  {
    id: 'sdk2',
    label: 'SDK v2',
    stdio: ['bench/servers/sdk2-stdio.mjs'],
    http: ['bench/servers/sdk2-http.mjs'],
  },
  {
    id: 'raw',
    label: 'raw',
    stdio: ['bench/servers/raw-stdio.mjs'],
    http: ['bench/servers/raw-http.mjs'],
  },
]
const only = flag('--only')?.split(',')
const servers = only === undefined ? allServers : allServers.filter((s) => only.includes(s.id))
const transports = (flag('--transports') ?? 'stdio,http').split(',')
const sections = (flag('--sections') ?? 'runtime,postgres,scaling,meos,runtimes').split(',')

if (
  !(plan.rounds >= 1) ||
  servers.length === 0 ||
  transports.some((t) => t !== 'stdio' && t !== 'http') ||
  sections.length === 0 ||
  sections.some((x) => x !== 'runtime' && x !== 'postgres' && x !== 'scaling' && x !== 'meos' && x !== 'runtimes') ||
  (only !== undefined && only.some((id) => !allServers.some((s) => s.id === id)))
) {
  console.error(
    'usage: node bench/runtime.mjs [--quick [--write]] [--rounds N] [--only emcp,emcpZod,emcpMount,emcpProxy,sdk1,sdk2,raw] [--transports stdio,http] [--sections runtime,postgres,scaling,meos,runtimes] [--render] [--no-write]',
  )
  process.exit(2)
}

// ---------------------------------------------------------------------------------------
// child processes: every one is tracked and killed at the end and on any error

const children = new Set()

const killAll = () => {
  for (const c of children) {
    try {
      c.kill('SIGKILL')
    } catch {}
  }
}
process.on('exit', killAll)
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'])
  process.on(sig, () => {
    killAll()
    process.exit(130)
  })
process.on('uncaughtException', (e) => {
  console.error(e)
  killAll()
  process.exit(1)
})

/**
 * The environment of every server: this process's, without NODE_EXTRA_CA_CERTS. Why: Node
 * reads and parses that certificate file when it starts, before any module: with the system
 * bundle (220 KB) about 420M instructions, three times all of the raw loop's own startup. It
 * is a setting of the machine the bench runs on, the same for every server and needed by none
 * (they talk to 127.0.0.1 without TLS); left in, it adds one fixed cost to each side of every
 * startup ratio and hides what the servers themselves cost.
 */
const serverEnv = (() => {
  const { NODE_EXTRA_CA_CERTS: _ignored, ...rest } = process.env
  return rest
})()

/** Spawns a server: `node <file> [args]` with TOOLS and PORT; keeps the tail of its stderr. */
const startChild = (argsOf, env, pipeStdio) => {
  const child = spawn(process.execPath, argsOf, {
    cwd: root,
    env: { ...serverEnv, ...env },
    stdio: [pipeStdio ? 'pipe' : 'ignore', pipeStdio ? 'pipe' : 'ignore', 'pipe'],
  })
  children.add(child)
  child.stderrTail = ''
  child.stderr.setEncoding('utf8')
  child.stderr.on('data', (s) => {
    child.stderrTail = (child.stderrTail + s).slice(-2000)
  })
  child.exited = new Promise((resolve) =>
    child.once('exit', (code, signal) => {
      children.delete(child)
      resolve({ code, signal })
    }),
  )
  child.once('error', () => {})
  if (pipeStdio) child.stdin.on('error', () => {})
  return child
}

const stopChild = async (child) => {
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
  await child.exited
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms))

// ---------------------------------------------------------------------------------------
// /proc readings

const clockTicks = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100
  } catch {
    return 100
  }
})()

/** Peak resident set size in MiB (VmHWM). */
const peakRssMiB = (pid) => {
  const m = /VmHWM:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
  return m === null ? NaN : Number(m[1]) / 1024
}

/** Resident set size now, in MiB (VmRSS). */
const rssMiB = (pid) => {
  const m = /VmRSS:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
  return m === null ? NaN : Number(m[1]) / 1024
}

/** CPU time used by the whole machine so far (all cores, not idle), in ms. */
const machineBusyMs = () => {
  const line = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]
  const [user, nice, system, , , irq, softirq, steal] = line.trim().split(/\s+/).slice(1).map(Number)
  return ((user + nice + system + irq + softirq + steal) * 1000) / clockTicks
}

/**
 * CPU time used by a process so far, in ms: the on-CPU time of its threads from their
 * schedstat (nanoseconds: a cell of a few hundred ms is read to well under 1%), else user +
 * system from /proc/<pid>/stat (clock ticks, 10 ms each).
 */
const cpuMs = (pid) => {
  if (hasSchedstat) return onCpu(pid).all / 1e6
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / clockTicks
}

// ---------------------------------------------------------------------------------------
// connections: `call(method, params, done)` with done(error, answerText, receivedAt); the
// driver parses an answer fully only where it needs to (see addIsRight), so that its own cost
// stays small beside the fastest server

const rpc = (id, method, params) =>
  params === undefined ? `{"jsonrpc":"2.0","id":${id},"method":"${method}"}` : `{"jsonrpc":"2.0","id":${id},"method":"${method}","params":${JSON.stringify(params)}}`

const initializeParams = { protocolVersion: PROTOCOL, capabilities: {}, clientInfo: { name: 'emcp-bench', version: '1.0.0' } }
const initializedNote = '{"jsonrpc":"2.0","method":"notifications/initialized"}'

const idHead = '{"jsonrpc":"2.0","id":'
const idTail = ',"id":'

/** The id of an answer line: read where the servers put it (first or last member), else parsed. */
const idOf = (line) => {
  if (line.startsWith(idHead)) {
    const end = line.indexOf(',', idHead.length)
    const id = Number(line.slice(idHead.length, end))
    if (Number.isInteger(id)) return id
  } else if (line.endsWith('}')) {
    const at = line.lastIndexOf(idTail)
    if (at !== -1) {
      const id = Number(line.slice(at + idTail.length, -1))
      if (Number.isInteger(id)) return id
    }
  }
  try {
    return JSON.parse(line)?.id
  } catch {
    return undefined
  }
}

/** Newline-delimited JSON-RPC over a child's stdin/stdout. */
class StdioConn {
  constructor(child) {
    this.child = child
    this.waiting = new Map()
    this.buf = ''
    this.nextId = 1
    child.stdout.setEncoding('utf8')
    child.stdout.on('data', (s) => this.onData(s))
    child.exited.then(({ code, signal }) => {
      this.dead = new Error(`server exited (code ${code}, signal ${signal}): ${child.stderrTail.trim().slice(-500)}`)
      const waiting = [...this.waiting.values()]
      this.waiting.clear()
      for (const done of waiting) done(this.dead)
    })
  }
  onData(s) {
    const buf = this.buf + s
    let start = 0
    let nl
    while ((nl = buf.indexOf('\n', start)) !== -1) {
      const line = buf.slice(start, nl)
      start = nl + 1
      if (line.trim() === '') continue
      const at = performance.now()
      const id = idOf(line)
      const done = this.waiting.get(id)
      if (done === undefined) continue
      this.waiting.delete(id)
      done(null, line, at)
    }
    this.buf = buf.slice(start)
  }
  /** Registers a call and returns its line, without writing it. */
  prepare(method, params, done) {
    const id = this.nextId++
    if (this.dead !== undefined) setImmediate(() => done(this.dead))
    else this.waiting.set(id, done)
    return rpc(id, method, params) + '\n'
  }
  call(method, params, done) {
    this.child.stdin.write(this.prepare(method, params, done))
  }
  notify(text) {
    this.child.stdin.write(text + '\n')
  }
  get pending() {
    return this.waiting.size
  }
  close() {}
}

/** The JSON-RPC message text of an HTTP answer: the body, or the last `data:` line of an SSE stream. */
const messageOf = (contentType, body) => {
  if (contentType?.includes('text/event-stream')) {
    const data = body.split('\n').filter((l) => l.startsWith('data:'))
    if (data.length === 0) throw new Error('SSE answer without data')
    return data[data.length - 1].slice(5).trim()
  }
  return body
}

/** One POST per message to 127.0.0.1:port/mcp over keep-alive connections. */
class HttpConn {
  constructor(port, maxSockets) {
    this.port = port
    this.agent = new Agent({ keepAlive: true, maxSockets })
    this.nextId = 1
    this.pending = 0
  }
  post(body, done, agent = this.agent) {
    this.pending++
    let finished = false
    const finish = (e, msg, at) => {
      if (finished) return
      finished = true
      this.pending--
      done(e, msg, at)
    }
    const req = request(
      {
        agent,
        host: '127.0.0.1',
        port: this.port,
        path: '/mcp',
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': PROTOCOL,
          'content-length': Buffer.byteLength(body),
        },
      },
      (res) => {
        const chunks = []
        res.on('data', (c) => chunks.push(c))
        res.on('end', () => {
          const at = performance.now()
          if (res.statusCode === 202) return finish(null, null, at)
          const text = chunks.length === 1 ? chunks[0].toString() : Buffer.concat(chunks).toString()
          if (res.statusCode !== 200) return finish(new Error(`HTTP ${res.statusCode}: ${text.slice(0, 300)}`))
          try {
            finish(null, messageOf(res.headers['content-type'], text), at)
          } catch (e) {
            finish(e)
          }
        })
        res.on('error', finish)
      },
    )
    req.on('error', finish)
    req.end(body)
  }
  call(method, params, done, agent) {
    this.post(rpc(this.nextId++, method, params), done, agent)
  }
  notify(text, done) {
    this.post(text, done)
  }
  close() {
    this.agent.destroy()
  }
}

const callOnce = (conn, method, params, agent) =>
  new Promise((resolve, reject) => {
    const t0 = performance.now()
    conn.call(
      method,
      params,
      (e, msg, at) => {
        if (e) return reject(e)
        let parsed
        try {
          parsed = JSON.parse(msg)
        } catch {
          return reject(new Error(`${method}: not JSON: ${String(msg).slice(0, 200)}`))
        }
        if (parsed?.error) return reject(new Error(`${method}: ${JSON.stringify(parsed.error)}`))
        resolve({ msg: parsed, ms: at - t0 })
      },
      agent,
    )
  })

// ---------------------------------------------------------------------------------------
// loads

/**
 * Checks one answer of `add(a, b)`: every answer must carry the right structured content and
 * text block; one in 16 is also parsed and checked whole.
 */
const addIsRight = (text, a, b) => {
  if (typeof text !== 'string') return false
  const sum = a + b
  if (!text.includes(`"structuredContent":{"sum":${sum}}`) || !text.includes(`"text":"{\\"sum\\":${sum}}"`)) return false
  if ((a & 15) !== 0) return true
  try {
    const m = JSON.parse(text)
    return m.jsonrpc === '2.0' && m.error === undefined && m.result?.structuredContent?.sum === sum && m.result.content?.[0]?.text === `{"sum":${sum}}`
  } catch {
    return false
  }
}

/** N `add` calls written to the child's stdin at once; calls/s over what was answered in the bound. */
const stdioBurst = (conn, n, cellMs, drainMs) =>
  new Promise((resolve, reject) => {
    let answered = 0
    let errors = 0
    let firstError
    let counted
    const lines = new Array(n)
    const t0 = performance.now()
    const settle = () => {
      if (counted === undefined) counted = { calls: answered, ms: performance.now() - t0 }
      if (answered + errors < n) return
      clearTimeout(bound)
      clearTimeout(drain)
      resolve({ ...counted, errors, firstError })
    }
    for (let i = 0; i < n; i++)
      lines[i] = conn.prepare('tools/call', { name: 'add', arguments: { a: i, b: 1 } }, (e, msg) => {
        if (e || !addIsRight(msg, i, 1)) {
          errors++
          firstError ??= String(e ?? String(msg).slice(0, 300))
        } else answered++
        if (answered + errors === n) settle()
      })
    // the bound: count what was answered so far, then wait for the rest (the server must drain)
    const bound = setTimeout(() => {
      counted = { calls: answered, ms: performance.now() - t0, truncated: true }
    }, cellMs)
    const drain = setTimeout(() => reject(new Error(`burst: ${n - answered - errors} answers missing after ${(cellMs + drainMs) / 1000} s`)), cellMs + drainMs)
    conn.child.stdin.write(lines.join(''))
  })

/** `add` calls with `concurrency` in flight until `n` are issued or the bound passes. */
const closedLoop = (conn, { concurrency, n, cellMs, drainMs, latencies }) =>
  new Promise((resolve, reject) => {
    let issued = 0
    let answered = 0
    let errors = 0
    let firstError
    let stopAt = Infinity
    const t0 = performance.now()
    const deadline = t0 + cellMs
    let truncated = false
    const issue = () => {
      const now = performance.now()
      if (issued >= n) return false
      if (now > deadline) {
        truncated = true
        return false
      }
      const a = issued++
      conn.call('tools/call', { name: 'add', arguments: { a, b: 2 } }, (e, msg, at) => {
        if (e || !addIsRight(msg, a, 2)) {
          errors++
          firstError ??= String(e ?? String(msg).slice(0, 300))
        } else {
          answered++
          if (latencies) latencies.push(at - now)
        }
        if (!issue() && answered + errors === issued) {
          stopAt = performance.now()
          clearTimeout(drain)
          resolve({ calls: answered, ms: stopAt - t0, errors, firstError, truncated })
        }
      })
      return true
    }
    const drain = setTimeout(() => reject(new Error(`closed loop: ${issued - answered - errors} answers missing`)), cellMs + drainMs)
    for (let i = 0; i < concurrency; i++) if (!issue()) break
  })

const median = (xs) => {
  const s = xs.filter((x) => typeof x === 'number' && Number.isFinite(x)).sort((a, b) => a - b)
  if (s.length === 0) return null
  const m = s.length >> 1
  return s.length % 2 === 1 ? s[m] : (s[m - 1] + s[m]) / 2
}

const percentile = (xs, p) => {
  if (xs.length === 0) return null
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]
}

const round = (x, digits = 0) => (x === null || x === undefined || !Number.isFinite(x) ? null : Number(x.toFixed(digits)))

// ---------------------------------------------------------------------------------------
// one server process: start, wait for the first answered ping

const launch = async (server, transport, tools) => {
  const port = transport === 'http' ? await freePort() : undefined
  const env = { TOOLS: String(tools), ...(port === undefined ? {} : { PORT: String(port) }) }
  const t0 = performance.now()
  const child = startChild(server[transport], env, transport === 'stdio')
  const deadline = t0 + 30000
  try {
    if (transport === 'stdio') {
      const conn = new StdioConn(child)
      const timer = setTimeout(() => child.kill('SIGKILL'), 30000)
      // the ping is written at spawn and waits in the pipe until the server reads
      await callOnce(conn, 'ping')
      clearTimeout(timer)
      return { child, conn, startupMs: round(performance.now() - t0, 1) }
    }
    const conn = new HttpConn(port, plan.httpInFlight)
    // poll with fresh connections until the first ping is answered
    for (;;) {
      if (child.exitCode !== null || child.signalCode !== null)
        throw new Error(`server exited: ${child.stderrTail.trim().slice(-500)}`)
      try {
        await callOnce(conn, 'ping', undefined, false)
        return { child, conn, startupMs: round(performance.now() - t0, 1) }
      } catch (e) {
        if (performance.now() > deadline) throw e
        await sleep(2)
      }
    }
  } catch (e) {
    await stopChild(child)
    throw e
  }
}

const handshake = async (conn) => {
  await callOnce(conn, 'initialize', initializeParams)
  await new Promise((resolve, reject) =>
    conn instanceof StdioConn ? (conn.notify(initializedNote), resolve()) : conn.notify(initializedNote, (e) => (e ? reject(e) : resolve())),
  )
}

const check = (cell, what) => {
  if (cell.errors > 0) throw new Error(`${what}: ${cell.errors} wrong answers, the first: ${cell.firstError}`)
  return cell
}

/** Runs `f` and adds the driver's and the server's CPU use (percent of one core) to its result. */
const timed = async (pid, f) => {
  const d0 = process.cpuUsage()
  const s0 = cpuMs(pid)
  const m0 = machineBusyMs()
  const t0 = performance.now()
  const out = await f()
  const ms = performance.now() - t0
  const d = process.cpuUsage(d0)
  const serverMs = cpuMs(pid) - s0
  const driverMs = (d.user + d.system) / 1000
  // what other processes of the machine used meanwhile: a sign of a disturbed measurement
  const foreignMs = Math.max(0, machineBusyMs() - m0 - serverMs - driverMs)
  return {
    ...out,
    serverMs,
    driverCpuPct: round((driverMs / ms) * 100),
    serverCpuPct: round((serverMs / ms) * 100),
    foreignCpuPct: round((foreignMs / ms) * 100),
  }
}

/**
 * Calls at concurrency 32 until plan.warmup.calls are answered or plan.warmup.ms passed; on
 * stdio also one discarded burst, so that the measured bursts run warm code (flow control too).
 */
const warmUp = async (conn, transport, burst) => {
  check(await closedLoop(conn, { concurrency: 32, n: plan.warmup.calls, cellMs: plan.warmup.ms, drainMs: plan.drainMs }), 'warm-up')
  if (transport === 'stdio') check(await stdioBurst(conn, burst, plan.cellMs, plan.drainMs), 'warm-up burst')
}

/**
 * The many-in-flight load: stdio, N requests written at once (repeated plan.burstRepeats
 * times, the median kept); HTTP, N calls with plan.httpInFlight in flight.
 */
const burstCell = async (conn, transport, n, pid, what) => {
  const runs = []
  const repeats = transport === 'stdio' ? plan.burstRepeats : 1
  for (let i = 0; i < repeats; i++)
    runs.push(
      await timed(pid, async () =>
        check(
          transport === 'stdio'
            ? await stdioBurst(conn, n, plan.cellMs, plan.drainMs)
            : await closedLoop(conn, { concurrency: plan.httpInFlight, n, cellMs: plan.cellMs, drainMs: plan.drainMs }),
          what,
        ),
      ),
    )
  const rates = runs.map((r) => (r.calls / r.ms) * 1000)
  const best = runs[rates.indexOf(median(rates))] ?? runs[0]
  return {
    cell: {
      callsPerS: round(median(rates)),
      calls: best.calls,
      ms: round(best.ms, 1),
      truncated: runs.some((r) => r.truncated),
      driverCpuPct: best.driverCpuPct,
      serverCpuPct: best.serverCpuPct,
      foreignCpuPct: Math.max(...runs.map((r) => r.foreignCpuPct ?? 0)),
      repeatsCallsPerS: rates.map((r) => round(r)),
    },
    serverCpuUsPerCall: round((runs.reduce((a, r) => a + r.serverMs, 0) * 1000) / runs.reduce((a, r) => a + r.calls, 0), 3),
  }
}

/** Warms the driver's own code paths (JIT) against the raw servers; nothing is recorded. */
const driverWarmUp = async () => {
  const raw = allServers.find((s) => s.id === 'raw')
  for (const t of transports) {
    const { child, conn } = await launch(raw, t, 0)
    try {
      await handshake(conn)
      await warmUp(conn, t, plan[t].burst)
      await burstCell(conn, t, plan[t].burst, child.pid, 'driver warm-up')
      await callOnce(conn, 'tools/list')
    } finally {
      conn.close()
      await stopChild(child)
    }
  }
}

/** The servers of round `r` (from 0): the list turned left by `r`, so that each server takes each place in turn. */
const turned = (list, r) => list.map((_, i) => list[(i + r) % list.length])

/** Above this share of a core used by other processes during a measured cell, a sample is measured again. */
const DISTURBED_PCT = 25

/** Seconds left to wait for a calm machine, over the whole run (plan.calmWaitS). */
let calmBudgetS = plan.calmWaitS
/** Disturbed samples that may still be measured again in this run (plan.remeasures). */
let remeasuresLeft = plan.remeasures

/**
 * Waits (within the run's budget, at most 20 s at a time) until other processes leave the
 * machine nearly idle for 2 s: between measurements nothing of this run is busy, so what the
 * machine does then is someone else's. Returns the seconds waited.
 */
const waitForCalm = async () => {
  const t0 = performance.now()
  const limit = Math.min(20, calmBudgetS) * 1000
  let calm = 0
  while (calm < 2 && performance.now() - t0 < limit) {
    const b0 = machineBusyMs()
    const w0 = performance.now()
    await sleep(1000)
    const busyPct = ((machineBusyMs() - b0) / (performance.now() - w0)) * 100
    calm = busyPct < 20 ? calm + 1 : 0
  }
  const waited = (performance.now() - t0) / 1000
  calmBudgetS = Math.max(0, calmBudgetS - Math.max(0, waited - 2))
  return round(waited - 2 > 0 ? waited - 2 : 0, 1)
}

/** The most CPU (percent of a core) other processes used during one of a sample's measured cells. */
const foreignOf = (sample) => Math.max(sample.burst?.foreignCpuPct ?? 0, sample.c32?.foreignCpuPct ?? 0, sample.many?.foreignCpuPct ?? 0)

const disturbanceOf = (samples, discarded) => {
  const kept = Object.values(samples).flatMap((byServer) => Object.values(byServer).flat()).filter((x) => x !== null)
  const foreign = kept.map(foreignOf)
  return {
    note: `CPU used by other processes during measured cells, percent of one core; before each server the run waits (up to plan.calmWaitS in all) for 2 s with the machine under 20% busy; a sample above ${DISTURBED_PCT}% was measured again (at most plan.remeasures times per run) and the calmer one kept`,
    medianPct: round(median(foreign)),
    maxPct: round(Math.max(0, ...foreign)),
    remeasured: discarded.length,
    waitedForCalmS: round(kept.reduce((a, x) => a + (x.waitedForCalmS ?? 0), 0) + discarded.reduce((a, x) => a + (x.sample.waitedForCalmS ?? 0), 0), 1),
  }
}

/** One round of one server on one transport: all the measurements. */
const measure = async (server, transport) => {
  const counts = plan[transport]
  const sample = {}
  // startup: a few spawns with TOOLS=0; the first one carries the load
  const startups = []
  const first = await launch(server, transport, 0)
  startups.push(first.startupMs)
  const { child, conn } = first
  try {
    await handshake(conn)
    sample.idleRssMiB = round(rssMiB(child.pid), 1)
    await warmUp(conn, transport, counts.burst)
    const burst = await burstCell(conn, transport, counts.burst, child.pid, 'burst')
    sample.burst = burst.cell
    sample.serverCpuUsPerCall = burst.serverCpuUsPerCall
    const latencies = []
    const c32 = await timed(child.pid, async () =>
      check(await closedLoop(conn, { concurrency: 32, n: counts.c32, cellMs: plan.cellMs, drainMs: plan.drainMs, latencies }), 'c32'),
    )
    sample.c32 = {
      callsPerS: round((c32.calls / c32.ms) * 1000),
      calls: c32.calls,
      ms: round(c32.ms, 1),
      truncated: !!c32.truncated,
      driverCpuPct: c32.driverCpuPct,
      serverCpuPct: c32.serverCpuPct,
      foreignCpuPct: c32.foreignCpuPct,
      p50Ms: round(percentile(latencies, 50), 3),
      p99Ms: round(percentile(latencies, 99), 3),
    }
    sample.peakRssMiB = round(peakRssMiB(child.pid), 1)
  } finally {
    conn.close()
    await stopChild(child)
  }
  for (let i = 1; i < plan.startupSpawns; i++) {
    const extra = await launch(server, transport, 0)
    startups.push(extra.startupMs)
    extra.conn.close()
    await stopChild(extra.child)
  }
  sample.startupMs = round(median(startups), 1)
  sample.startupSamplesMs = startups

  // 2000 tools registered: startup, calls/s, tools/list time, peak RSS
  const many = await launch(server, transport, MANY_TOOLS)
  try {
    sample.startupManyMs = many.startupMs
    await handshake(many.conn)
    await warmUp(many.conn, transport, counts.many)
    sample.many = (await burstCell(many.conn, transport, counts.many, many.child.pid, 'burst (2000 tools)')).cell
    const times = []
    let listed
    const t0 = performance.now()
    for (let i = 0; i < plan.listWarmup + plan.listTimed; i++) {
      if (i > plan.listWarmup && performance.now() - t0 > plan.listMs) break
      const { msg, ms } = await callOnce(many.conn, 'tools/list')
      listed = msg.result?.tools?.length
      if (i >= plan.listWarmup) times.push(ms)
    }
    if (listed !== MANY_TOOLS + 1) throw new Error(`tools/list: ${listed} tools listed, ${MANY_TOOLS + 1} expected`)
    sample.toolsListMs = round(median(times), 2)
    sample.toolsListSamplesMs = times.map((t) => round(t, 2))
    sample.peakRssManyMiB = round(peakRssMiB(many.child.pid), 1)
  } finally {
    many.conn.close()
    await stopChild(many.child)
  }
  return sample
}

// ---------------------------------------------------------------------------------------
// the metrics, their medians and ratios

/** Each metric: how to read it from a sample, its unit, and whether higher is better. */
const metrics = [
  { key: 'burst', label: 'calls/s, many in flight', get: (s) => s.burst?.callsPerS, unit: '/s', higher: true },
  { key: 'c32', label: 'calls/s, concurrency 32', get: (s) => s.c32?.callsPerS, unit: '/s', higher: true },
  { key: 'p50', label: 'p50 latency at c32', get: (s) => s.c32?.p50Ms, unit: 'ms', higher: false },
  { key: 'p99', label: 'p99 latency at c32', get: (s) => s.c32?.p99Ms, unit: 'ms', higher: false },
  { key: 'many', label: `calls/s, ${MANY_TOOLS} tools`, get: (s) => s.many?.callsPerS, unit: '/s', higher: true },
  { key: 'toolsList', label: `tools/list, ${MANY_TOOLS} tools`, get: (s) => s.toolsListMs, unit: 'ms', higher: false },
  { key: 'rss', label: 'peak RSS', get: (s) => s.peakRssMiB, unit: 'MiB', higher: false },
  { key: 'idleRss', label: 'RSS after startup', get: (s) => s.idleRssMiB, unit: 'MiB', higher: false },
  { key: 'rssMany', label: `peak RSS, ${MANY_TOOLS} tools`, get: (s) => s.peakRssManyMiB, unit: 'MiB', higher: false },
  { key: 'startup', label: 'startup', get: (s) => s.startupMs, unit: 'ms', higher: false },
  { key: 'startupMany', label: `startup, ${MANY_TOOLS} tools`, get: (s) => s.startupManyMs, unit: 'ms', higher: false },
  { key: 'cpu', label: 'server CPU per call (many in flight)', get: (s) => s.serverCpuUsPerCall, unit: 'µs', higher: false },
]

/**
 * The median of each metric over the rounds, per transport and server: over the calm samples
 * (other processes under DISTURBED_PCT of a core in every measured cell) when there is one,
 * else over all.
 */
const summarize = (samples) => {
  const medians = {}
  for (const t of Object.keys(samples)) {
    medians[t] = {}
    for (const id of Object.keys(samples[t])) {
      const all = samples[t][id].filter((s) => s !== null)
      const calm = all.filter((s) => foreignOf(s) <= DISTURBED_PCT)
      const used = calm.length > 0 ? calm : all
      medians[t][id] = { samples: all.length, calmSamples: calm.length }
      for (const m of metrics) medians[t][id][m.key] = median(used.map(m.get))
    }
  }
  return medians
}

const ratio = (a, b) => (a === null || b === null || a === undefined || b === undefined || b === 0 ? null : a / b)

/** The issue's targets for emcp, each checked against the medians. */
const targetsOf = (medians) => {
  const rows = []
  for (const t of Object.keys(medians)) {
    const e = medians[t].emcp
    const r = medians[t].raw
    if (e === undefined || r === undefined) continue
    const T = t === 'stdio' ? 'stdio' : 'stateless HTTP'
    const add = (target, key, bound, atLeast) => {
      const x = ratio(e[key], r[key])
      rows.push({
        // the server's own CPU per call beside raw's: what a throughput target asks when the driver bounds both
        ...(key === 'burst' ? { cpuPerCallRatio: round(ratio(e.cpu, r.cpu), 2) } : {}),
        transport: t,
        target: `${target} (${T})`,
        metric: key,
        emcp: e[key],
        raw: r[key],
        ratio: round(x, 2),
        bound,
        met: x === null ? null : atLeast ? x >= bound : x <= bound,
      })
    }
    // the per-call targets of the latest issue: stdio at least 0.8x raw with and without the
    // long tool list, HTTP at least 0.95x; startup within 1.3x, with and without it
    const calls = t === 'stdio' ? 0.8 : 0.95
    add(`calls/s >= ${calls}x raw`, 'burst', calls, true)
    add(`calls/s with ${MANY_TOOLS} tools >= ${calls}x raw`, 'many', calls, true)
    add(`tools/list of ${MANY_TOOLS} tools within 2x raw`, 'toolsList', 2, false)
    add('peak RSS within 1.3x raw', 'rss', 1.3, false)
    add('startup within 1.3x raw', 'startup', 1.3, false)
    add(`startup with ${MANY_TOOLS} tools within 1.3x raw`, 'startupMany', 1.3, false)
  }
  return rows
}

/**
 * emcp's calls/s with zod beside emcp with the JSON Schema literal and beside SDK v1's zod
 * tool, per transport and load: the ratios and the issue's targets (zod at least 0.9× the
 * literal, and ahead of the SDK).
 */
const zodRowsOf = (medians) =>
  Object.keys(medians).flatMap((t) => {
    const [e, z, s] = ['emcp', 'emcpZod', 'sdk1'].map((id) => medians[t][id])
    if (z === undefined) return []
    return ['burst', 'c32'].map((key) => {
      const vsLiteral = round(ratio(z[key], e?.[key]), 2)
      const vsSdk = round(ratio(z[key], s?.[key]), 2)
      return {
        transport: t,
        load: metrics.find((m) => m.key === key).label,
        literal: e?.[key] ?? null,
        zod: z[key],
        sdk1: s?.[key] ?? null,
        vsLiteral,
        vsSdk,
        met: vsLiteral === null || vsSdk === null ? null : vsLiteral >= 0.9 && vsSdk > 1,
      }
    })
  })

/** The page's section on the zod rows. */
const zodPage = (rows, mark) => [
  '### emcp with zod',
  '',
  'The server **emcp zod** ([bench/servers/emcp-zod.mjs](../bench/servers/emcp-zod.mjs)) is emcp with `add` taking SDK v1\'s zod schemas ' +
    '(the same raw shapes that server passes to `registerTool`), each property validated by zod. Its calls/s beside emcp with the JSON Schema literal and beside SDK v1 ' +
    'with the same zod schemas, in the same run; targets from the issue: at least 0.9× the literal, and ahead of the SDK.',
  '',
  mdTable([
    ['transport', 'load', 'emcp zod', 'emcp literal', 'zod / literal', 'SDK v1 zod', 'zod / SDK v1', 'result'],
    ...rows.map((r) => [r.transport === 'stdio' ? 'stdio' : 'stateless HTTP', r.load, fmt(r.zod, '/s'), fmt(r.literal, '/s'), fmtRatio(r.vsLiteral), fmt(r.sdk1, '/s'), fmtRatio(r.vsSdk), mark(r.met)]),
  ]),
  '',
]

const printZod = (rows) => {
  if (rows.length === 0) return
  console.log('\nemcp with zod: calls/s beside emcp with the JSON Schema literal and SDK v1 with zod (targets: >= 0.9x literal, > 1x SDK v1)')
  for (const r of rows)
    console.log(
      `  ${(r.transport === 'stdio' ? 'stdio' : 'stateless HTTP').padEnd(14)} ${r.load.padEnd(24)} zod ${fmt(r.zod, '/s')}  literal ${fmt(r.literal, '/s')} (${fmtRatio(r.vsLiteral)})  ` +
        `SDK v1 ${fmt(r.sdk1, '/s')} (${fmtRatio(r.vsSdk)})  ${r.met === null ? 'n/a' : r.met ? 'met' : 'MISSED'}`,
    )
}

// ---------------------------------------------------------------------------------------
// printing

const fmt = (x, unit) => {
  if (x === null || x === undefined) return '—'
  if (unit === '/s') return Math.round(x).toLocaleString('en-US')
  if (unit === 'ms') return x >= 100 ? Math.round(x).toLocaleString('en-US') : x >= 10 ? x.toFixed(1) : x.toFixed(2)
  if (unit === 'MiB') return x.toFixed(0)
  if (unit === 'µs') return x >= 10 ? x.toFixed(0) : x.toFixed(2)
  return String(x)
}
const fmtRatio = (x) => (x === null ? '—' : x >= 10 ? `${x.toFixed(0)}×` : `${x.toFixed(2)}×`)

const unitSuffix = (unit) => (unit === '/s' ? '' : ` ${unit}`)

/** A table per transport: one row per metric, one column per server, ratios to raw and to SDK v1. */
const tableRows = (medians, t, ids) => {
  const head = ['metric', ...ids.map((id) => allServers.find((s) => s.id === id).label)]
  const rows = [head]
  for (const m of metrics) {
    const row = [`${m.label}${m.unit === '/s' ? '' : ` (${m.unit})`}${m.higher ? ' ↑' : ' ↓'}`]
    for (const id of ids) {
      const v = medians[t][id]?.[m.key]
      const vsRaw = id === 'raw' ? null : ratio(v, medians[t].raw?.[m.key])
      const vsV1 = id === 'sdk1' ? null : ratio(v, medians[t].sdk1?.[m.key])
      const parts = []
      if (vsRaw !== null) parts.push(`${fmtRatio(vsRaw)} raw`)
      if (vsV1 !== null) parts.push(`${fmtRatio(vsV1)} v1`)
      row.push(`${fmt(v, m.unit)}${parts.length ? ` (${parts.join(', ')})` : ''}`)
    }
    rows.push(row)
  }
  if (ids.some((id) => medians[t][id]?.samples !== undefined)) {
    const row = ['samples used: calm / all']
    for (const id of ids) {
      const m = medians[t][id]
      row.push(m.calmSamples > 0 ? `${m.calmSamples} / ${m.samples}` : `0 / ${m.samples} (all used)`)
    }
    rows.push(row)
  }
  return rows
}

const orderedIds = (medians, t) => ['emcp', 'emcpZod', 'emcpMount', 'emcpProxy', 'sdk1', 'sdk2', 'raw'].filter((id) => medians[t]?.[id] !== undefined)

const printTable = (medians) => {
  for (const t of Object.keys(medians)) {
    const rows = tableRows(medians, t, orderedIds(medians, t))
    const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)))
    console.log(`\n${t === 'stdio' ? 'stdio' : 'stateless HTTP'} (medians; ↑ higher is better, ↓ lower is better; ratios to raw and to SDK v1)`)
    for (const [i, r] of rows.entries()) {
      console.log(r.map((c, j) => (j === 0 ? c.padEnd(widths[j]) : c.padStart(widths[j]))).join('  '))
      if (i === 0) console.log(widths.map((w) => '-'.repeat(w)).join('  '))
    }
  }
}

// ---------------------------------------------------------------------------------------
// the chart: calls/s per server per transport, one panel per transport

const palette = { emcp: '#2f6fdf', emcpZod: '#5fa8e8', emcpMount: '#3fb0a0', emcpProxy: '#b0a03f', sdk1: '#e07b28', sdk2: '#8a5cc7', raw: '#7a7a7a' }
const esc = (s) => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')

const renderSvg = (result) => {
  const medians = result.medians
  const ts = Object.keys(medians)
  const groups = [
    ['burst', 'many in flight'],
    ['c32', 'concurrency 32'],
    ['many', `${MANY_TOOLS} tools`],
  ]
  const panelW = 460
  const panelH = 300
  const top = 86
  const left = 60
  const W = left + ts.length * (panelW + 40)
  const H = top + panelH + 70
  const out = []
  out.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="system-ui, -apple-system, Segoe UI, Helvetica, Arial, sans-serif" font-size="12">`)
  out.push(`<rect width="${W}" height="${H}" fill="#ffffff"/>`)
  out.push(`<text x="${left}" y="24" font-size="16" font-weight="600">MCP tool calls per second (median of ${result.plan.rounds} round${result.plan.rounds === 1 ? '' : 's'}; higher is better)</text>`)
  // legend
  let lx = left
  for (const id of ['emcp', 'sdk1', 'sdk2', 'raw']) {
    if (!ts.some((t) => medians[t][id])) continue
    const label = allServers.find((s) => s.id === id).label
    out.push(`<rect x="${lx}" y="38" width="12" height="12" fill="${palette[id]}"/><text x="${lx + 17}" y="48">${esc(label)}</text>`)
    lx += 30 + label.length * 7
  }
  ts.forEach((t, p) => {
    const x0 = left + p * (panelW + 40)
    const ids = orderedIds(medians, t)
    const values = groups.flatMap(([k]) => ids.map((id) => medians[t][id][k] ?? 0))
    const max = Math.max(1, ...values)
    const step = niceStep(max / 5)
    const yMax = Math.ceil(max / step) * step
    const y = (v) => top + panelH - (v / yMax) * panelH
    out.push(`<text x="${x0 + panelW / 2}" y="${top - 8}" text-anchor="middle" font-weight="600">${t === 'stdio' ? 'stdio' : 'stateless HTTP'}</text>`)
    for (let v = 0; v <= yMax + 1e-9; v += step) {
      out.push(`<line x1="${x0}" x2="${x0 + panelW}" y1="${y(v)}" y2="${y(v)}" stroke="#e5e5e5"/>`)
      out.push(`<text x="${x0 - 6}" y="${y(v) + 4}" text-anchor="end" fill="#555">${v >= 1000 ? `${v / 1000}k` : v}</text>`)
    }
    const groupW = panelW / groups.length
    const barW = Math.min(28, (groupW - 24) / ids.length)
    groups.forEach(([k, name], g) => {
      const gx = x0 + g * groupW + (groupW - barW * ids.length) / 2
      ids.forEach((id, i) => {
        const v = medians[t][id][k]
        if (v === null || v === undefined) return
        const bx = gx + i * barW
        out.push(`<rect x="${bx + 1}" y="${y(v)}" width="${barW - 2}" height="${top + panelH - y(v)}" fill="${palette[id]}"><title>${esc(`${allServers.find((s) => s.id === id).label}, ${t}, ${name}: ${Math.round(v)} calls/s`)}</title></rect>`)
        const label = v >= 10000 ? `${(v / 1000).toFixed(0)}k` : v >= 1000 ? `${(v / 1000).toFixed(1)}k` : `${Math.round(v)}`
        out.push(`<text x="${bx + barW / 2}" y="${y(v) - 4}" text-anchor="middle" font-size="10" fill="#333">${label}</text>`)
      })
      out.push(`<text x="${x0 + g * groupW + groupW / 2}" y="${top + panelH + 18}" text-anchor="middle">${esc(name)}</text>`)
    })
    out.push(`<line x1="${x0}" x2="${x0 + panelW}" y1="${top + panelH}" y2="${top + panelH}" stroke="#333"/>`)
  })
  out.push(`<text x="${left}" y="${H - 14}" fill="#555" font-size="11">${esc(`${result.machine.cpus} × ${result.machine.cpuModel}, Node ${result.machine.node}; generated by npm run bench from bench/results/runtime.json`)}</text>`)
  out.push('</svg>')
  return out.join('\n') + '\n'
}

const niceStep = (x) => {
  const p = 10 ** Math.floor(Math.log10(x))
  for (const m of [1, 2, 2.5, 5, 10]) if (m * p >= x) return m * p
  return 10 * p
}

// ---------------------------------------------------------------------------------------
// the page

const mdTable = (rows) => {
  const line = (r) => `| ${r.join(' | ')} |`
  return [line(rows[0]), line(rows[0].map((_, i) => (i === 0 ? '---' : '---:'))), ...rows.slice(1).map(line)].join('\n')
}

const typesSection = () => {
  if (!existsSync(typesFile)) return '_bench/results/types.json is missing: run `npm run bench:types`._\n'
  const types = JSON.parse(readFileSync(typesFile, 'utf8'))
  // TypeScript 5.9 is the compiler the target is set on (rows of older results carry no `ts`)
  const rowOf = (lib, n) => types.rows.find((r) => r.lib === lib && r.tools === n && (r.ts === undefined || r.ts === '5.9'))
  const sizes = [...new Set(types.rows.map((r) => r.tools))].sort((a, b) => a - b)
  const rows = [['tools', 'emcp check (s)', 'SDK check (s)', 'emcp instantiations', 'SDK instantiations', 'instantiations ratio']]
  for (const n of sizes) {
    const e = rowOf('emcp', n)
    const s = rowOf('sdk', n)
    if (!e || !s) continue
    const cell = (x) => (n === 300 ? `**${x}**` : x)
    rows.push([cell(n), cell(e.checkS), cell(s.checkS), cell(e.instantiations.toLocaleString('en-US')), cell(s.instantiations.toLocaleString('en-US')), cell(`${(e.instantiations / s.instantiations).toFixed(2)}×`)])
  }
  const e300 = rowOf('emcp', 300)
  const s300 = rowOf('sdk', 300)
  const ref = types.reference?.['300']
  const lead =
    e300 && s300
      ? `A generated server of 300 tools type-checks in **${e300.checkS} s** with emcp against ${s300.checkS} s with the official SDK and zod ` +
        `(${e300.instantiations.toLocaleString('en-US')} against ${s300.instantiations.toLocaleString('en-US')} type instantiations, ` +
        `${(e300.instantiations / s300.instantiations).toFixed(2)}×).` +
        (ref ? ` The issue's reference for the SDK at 300 tools was ${ref.checkS} s and ${ref.instantiations.toLocaleString('en-US')} instantiations.` : '')
      : ''
  return (
    `${lead} Figures from \`bench/results/types.json\` (\`npm run bench:types\`, ${types.date?.slice(0, 10) ?? 'undated'}, ` +
    `TypeScript ${types.versions?.['typescript 5.9'] ?? types.versions?.typescript}, SDK ${types.versions?.sdk}, zod ${types.versions?.zod}; check time is the median of ` +
    `${types.rounds ?? types.timingRunsPerFile} run${(types.rounds ?? types.timingRunsPerFile) === 1 ? '' : 's'} of \`tsc --extendedDiagnostics\`). See [Type-checking cost](type-performance.md) for the method.\n\n` +
    mdTable(rows) +
    '\n'
  )
}

/** The section of the current page under `heading`, up to the next heading of its level or above, or undefined. */
const handWritten = (heading) => {
  const page = existsSync(pageFile) ? readFileSync(pageFile, 'utf8') : ''
  const start = page.indexOf(`\n${heading}\n`)
  if (start === -1) return undefined
  const rest = page.slice(start + 1)
  const end = rest.slice(heading.length).search(/\n#{2,3} /)
  return (end === -1 ? rest : rest.slice(0, heading.length + end + 1)).trimEnd() + '\n'
}

/** The line under a section whose figures come from an earlier run than the rest of the page. */
const keptNote = (name, date) =>
  `_This section's figures are from an earlier run, ${date.slice(0, 10)}, kept because this run did not measure it (\`npm run bench -- --sections ${name}\` measures it again)._`

/** The sections after the runtime one that `previous` has and this run did not measure, each marked with the day it was measured. */
const keptSections = (previous, measured) =>
  Object.fromEntries(
    ['postgres', 'scaling', 'meos', 'runtimes']
      .filter((name) => !measured.includes(name) && previous?.[name] !== undefined)
      .map((name) => [name, { ...previous[name], keptFrom: previous[name].keptFrom ?? previous.date }]),
  )

const renderPage = (result) => {
  const { medians, targets } = result
  const ts = Object.keys(medians)
  const mark = (met) => (met === null ? 'n/a' : met ? '**met**' : '**missed**')
  const v = result.versions
  const out = []
  out.push('# Benchmarks')
  out.push('')
  out.push(
    '_Generated by `npm run bench` from `bench/results/runtime.json`; do not edit by hand. ' +
      `Measured ${result.date.slice(0, 10)} on ${result.machine.cpus} × ${result.machine.cpuModel}, ${result.machine.memoryGB} GiB, ` +
      `Node ${result.machine.node}, Linux ${result.machine.kernel}${result.quick ? ', **--quick run (one round, small counts)**' : ''}._`,
  )
  out.push('')
  out.push('## Runtime: emcp beside the official SDKs')
  out.push('')
  out.push(
    'The servers implement one contract, the one of [examples/bench.ts](../examples/bench.ts): the tool `add` ' +
      '(input `{a: number, b: number}`, output `{sum: number}`, the text block the JSON of the output) and `TOOLS=N` ' +
      'filler tools `tool_0000`, … with 2 or 3 described properties. The servers are in [bench/servers/](../bench/servers/):',
  )
  out.push('')
  out.push(`- **emcp** ${v.emcp}: \`dist/examples/bench.js\`, over stdio and over stateless HTTP (JSON answers).`)
  if (medians[ts[0]]?.emcpZod !== undefined)
    out.push('- **emcp zod**: `bench/servers/emcp-zod.mjs`, emcp again, its `add` taking SDK v1\'s zod schemas (validated by zod); the filler tools are literals.')
  if (medians[ts[0]]?.emcpMount !== undefined)
    out.push('- **emcp mount**: `bench/servers/emcp-mount.mjs`, the emcp server mounted whole into another (`mount`), every request routed through the mount.')
  if (medians[ts[0]]?.emcpProxy !== undefined)
    out.push('- **emcp proxy**: `bench/servers/emcp-proxy.mjs`, a proxy (`emcp/proxy`) of the emcp server, which runs as its upstream on the same transport.')
  out.push(
    `- **SDK v1**, \`@modelcontextprotocol/sdk\` ${v['@modelcontextprotocol/sdk']}: \`McpServer\` + \`registerTool\` with zod shapes; ` +
      '`StdioServerTransport`; for HTTP, as its stateless examples do, a new `McpServer` and ' +
      '`StreamableHTTPServerTransport({sessionIdGenerator: undefined, enableJsonResponse: true})` per request, on `node:http`.',
  )
  out.push(
    `- **SDK v2**, \`@modelcontextprotocol/server\` ${v['@modelcontextprotocol/server']} with \`@modelcontextprotocol/node\` ${v['@modelcontextprotocol/node']}: ` +
      '`serveStdio` and `createMcpHandler` (+ `toNodeHandler`) with a server factory. It serves the 2025-11-25 requests of this ' +
      'benchmark through its stateless legacy leg: a new server per request, answers as a one-event SSE stream.',
  )
  out.push(
    '- **raw**: bare JSON-RPC with no validation and the same answers (stdio: `readline` + `JSON.parse`/`JSON.stringify`, ' +
      'the answers of one read in one write; HTTP: `node:http`; the tool list serialized once and spliced into each ' +
      '`tools/list` answer), the ceiling of what the machine does.',
  )
  out.push('')
  out.push(
    'The SDK servers build their zod schemas once per process (their HTTP servers still build and register a whole server per ' +
      'request, as documented). One driver process speaks raw JSON-RPC to every server the same way: newline-delimited over ' +
      'the child\'s stdin/stdout, or one `POST /mcp` per message to 127.0.0.1 through a `node:http` keep-alive agent ' +
      `(\`MCP-Protocol-Version: ${PROTOCOL}\`), after \`initialize\` and \`notifications/initialized\`. Every answer is checked.`,
  )
  out.push('')
  const p = result.plan
  out.push('What is measured, per server and transport (one fresh process with no filler tools, one with 2000):')
  out.push('')
  out.push(
    `- **calls/s, many in flight**: stdio: ${p.stdio.burst.toLocaleString('en-US')} \`tools/call add\` requests written at once; ` +
      `HTTP: ${p.http.burst.toLocaleString('en-US')} calls with ${p.httpInFlight} in flight; ${p.burstRepeats > 1 ? `the median of ${p.burstRepeats} bursts on stdio; ` : ''}` +
      `after ${p.warmup.calls.toLocaleString('en-US')} warm-up calls at concurrency 32 (or ${p.warmup.ms / 1000} s). ` +
      `Each measurement stops issuing after ${p.cellMs / 1000} s and counts what was answered by then.`,
  )
  out.push(`- **calls/s, concurrency 32** and the **p50/p99 latency** of those calls (${p.stdio.c32.toLocaleString('en-US')} calls on stdio, ${p.http.c32.toLocaleString('en-US')} on HTTP).`)
  out.push(`- **calls/s, 2000 tools**: the many-in-flight load against a server with ${MANY_TOOLS} filler tools (${p.stdio.many.toLocaleString('en-US')} / ${p.http.many.toLocaleString('en-US')} calls).`)
  out.push(`- **tools/list, 2000 tools**: the median round trip of ${p.listTimed} sequential \`tools/list\` calls after ${p.listWarmup} warm-up.`)
  out.push('- **peak RSS**: `VmHWM` of the server process after its load (no filler tools; and with 2000); **RSS after startup**: `VmRSS` after `initialize`, before any load.')
  out.push(`- **startup**: from spawn to the first answered \`ping\` (median of ${p.startupSpawns} spawn${p.startupSpawns === 1 ? '' : 's'} per round; HTTP polls every 2 ms); every server starts without \`NODE_EXTRA_CA_CERTS\`, whose certificate parsing would add one fixed cost to both sides. On Node, emcp's first start of a build writes the core's code cache beside it and every later start reads it (docs/deploy.md): the first spawn of a round (the one that carries the load) may be that first start, the median is of starts that read it.`)
  out.push('- **server CPU per call**: the on-CPU time of all the server process\'s threads (Linux schedstat, nanoseconds; else user + system in clock ticks) during the many-in-flight load, divided by the calls.')
  out.push('')
  out.push(
    `${p.rounds} round${p.rounds === 1 ? '' : 's'}, interleaved, the order turned by one server each round (emcp, emcp zod, ..., raw; then emcp zod, ..., raw, emcp; ...), so that each server takes each place of a round in turn; each figure is the median over the rounds. ` +
      'Ratios are to raw and to SDK v1 (a ratio above 1 is better for calls/s, worse for times and memory). The driver and the server ' +
      `share the machine's ${result.machine.cpus} cores, so the fastest servers are partly bounded by the driver: the CPU-per-call row shows the server's own cost.`,
  )
  out.push('')
  const dist = result.disturbance
  if (dist !== undefined)
    out.push(
      'Before each server the run waits for the machine to be quiet (other processes under 20% of a core for 2 s' +
        `${dist.waitedForCalmS !== undefined ? `; ${dist.waitedForCalmS} s of waiting in this run` : ''}). ` +
        `Other processes still used a median ${dist.medianPct}% (at most ${dist.maxPct}%) of one core during the measured cells of the kept samples` +
        `${dist.remeasured > 0 ? `; ${dist.remeasured} sample${dist.remeasured === 1 ? ' was' : 's were'} measured again because another process took more than ${DISTURBED_PCT}%, and the calmer one kept` : ''}. ` +
        'Other load lowers the calls/s and raises the latencies and startup times of whoever it hits; the server CPU per call moves least.',
    )
  out.push('')
  out.push('![calls per second per server and transport](../bench/results/runtime.svg)')
  out.push('')
  for (const t of ts) {
    out.push(`### ${t === 'stdio' ? 'stdio' : 'Stateless HTTP'}`)
    out.push('')
    out.push(mdTable(tableRows(medians, t, orderedIds(medians, t))))
    out.push('')
  }
  out.push(
    '↑ higher is better, ↓ lower is better. Each cell: the median, then its ratio to raw and to SDK v1. ' +
      `A sample is calm when other processes used under ${DISTURBED_PCT}% of a core in each of its measured cells; the medians are taken over the calm samples when there is one.`,
  )
  out.push('')
  if (targets.length > 0) {
    out.push('### Targets for emcp')
    out.push('')
    out.push('From the issue; each checked against the medians above.')
    out.push('')
    const rows = [['target', 'emcp', 'raw', 'ratio', 'result']]
    for (const r of targets) {
      const m = metrics.find((x) => x.key === r.metric)
      rows.push([r.target, `${fmt(r.emcp, m.unit)}${unitSuffix(m.unit)}`, `${fmt(r.raw, m.unit)}${unitSuffix(m.unit)}`, fmtRatio(r.ratio), mark(r.met)])
    }
    out.push(mdTable(rows))
    out.push('')
    const cpuNotes = targets.filter((r) => r.cpuPerCallRatio !== undefined && r.cpuPerCallRatio !== null)
    if (cpuNotes.length > 0) {
      out.push(
        'The calls/s targets measure the pair driver + server. The server\'s own CPU time per call says the same thing without ' +
          'the driver: 0.8× raw calls/s means at most 1.25× raw CPU per call. ' +
          cpuNotes.map((r) => `${r.transport === 'stdio' ? 'stdio' : 'HTTP'}: emcp uses ${fmtRatio(r.cpuPerCallRatio)} the CPU per call of raw`).join('; ') +
          '.',
      )
      out.push('')
    }
  }
  // the analysis of the stdio per-call cost is written by hand (from bench/stdio-profile.mjs and bench/stdio-cpu.mjs): kept as it is
  const analysis = handWritten('### Per-call cost over stdio: where the time goes')
  if (analysis !== undefined) out.push(analysis)
  if ((result.zod ?? []).length > 0) out.push(...zodPage(result.zod, mark))
  // the analysis of the zod tool's per-call cost is written by hand (from bench/zod-calls.mjs and bench/stdio-cpu.mjs): kept as it is
  const zodAnalysis = handWritten('### Per-call cost of the zod tool: where the time goes')
  if (zodAnalysis !== undefined) out.push(zodAnalysis)
  if ((result.mount ?? []).length > 0) out.push(...mountPage(result.mount, { mark, fmt, fmtRatio, mdTable }))
  if ((result.proxy ?? []).length > 0) out.push(...proxyPage(result.proxy, { fmt, fmtRatio, mdTable }))
  if (result.failures.length > 0) {
    out.push('### Failures')
    out.push('')
    for (const f of result.failures) out.push(`- ${f.server} over ${f.transport}, round ${f.round}: ${f.error}`)
    out.push('')
  }
  const pages = { postgres: postgresPage, scaling: scalingPage, meos: meosPage, runtimes: runtimesPage }
  for (const [name, page] of Object.entries(pages)) {
    const section = result[name]
    if (section === undefined) continue
    const text = page(section, mdTable, fmtRatio)
    out.push(section.keptFrom === undefined ? text : text.trimEnd() + '\n\n' + keptNote(name, section.keptFrom) + '\n')
    if (name !== 'postgres') continue
    // the analysis of the PostgreSQL HTTP per-call cost is written by hand (from bench/http-cpu.mjs): kept as it is
    const pgAnalysis = handWritten('### Per-call cost of a PostgreSQL tool over HTTP: where the time goes')
    if (pgAnalysis !== undefined) out.push(pgAnalysis)
  }
  out.push('## Type-checking: emcp beside the official SDK')
  out.push('')
  out.push(typesSection())
  out.push('## Reproduce')
  out.push('')
  out.push('```sh')
  out.push(`npm run bench              # builds, 3 rounds, rewrites this page (${result.quick ? 'a few minutes' : `this run: ${Math.ceil(result.durationS / 60)} min`})`)
  out.push('npm run bench -- --quick   # one round with smaller counts; prints only (add --write to record it)')
  out.push('npm run bench -- --sections postgres   # only the PostgreSQL section (on $EMCP_TEST_DATABASE_URL, else PGlite)')
  out.push('npm run bench -- --sections scaling    # only the scaling section (stores from $EMCP_BENCH_REDIS_URL, $EMCP_BENCH_DATABASE_URL)')
  out.push('npm run bench -- --sections meos       # only the MEOS section (libmeos from $MEOS_LIBRARY_PATH or .ci/meos)')
  out.push('npm run bench:types        # the type-checking figures')
  out.push('node bench/profile.mjs     # a CPU profile of the emcp server under the pipelined stdio load (after a build)')
  out.push('node bench/stdio-profile.mjs # instructions per stdio call and to the first answer, under callgrind')
  out.push("node bench/top-level.mjs     # instructions of the core's top level, module by module, under callgrind")
  out.push('node bench/stdio-cpu.mjs     # the server\'s own CPU time per stdio call, builds or servers interleaved')
  out.push('node bench/http-cpu.mjs      # the server\'s own CPU time and allocation per HTTP call (PostgreSQL tool), builds or servers interleaved')
  out.push('```')
  out.push('')
  out.push('All samples, versions and the machine are in `bench/results/runtime.json`.')
  out.push('')
  return out.join('\n')
}

// ---------------------------------------------------------------------------------------
// main

const versionOf = (pkg) => {
  try {
    return JSON.parse(readFileSync(join(root, 'node_modules', pkg, 'package.json'), 'utf8')).version
  } catch {
    return null
  }
}

const emcpVersion = () => {
  const version = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version
  try {
    const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim()
    const dirty = execFileSync('git', ['status', '--porcelain', '--', 'src', 'examples'], { cwd: root, encoding: 'utf8' }).trim() !== ''
    return `${version} (${commit}${dirty ? ', with uncommitted changes' : ''})`
  } catch {
    return version
  }
}

/** No path of this machine goes into a result. */
const scrub = (s) => String(s).split(root).join('.')

const writeOutputs = (result) => {
  mkdirSync(resultsDir, { recursive: true })
  writeFileSync(resultsFile, JSON.stringify(result, null, 2) + '\n')
  writeFileSync(svgFile, renderSvg(result))
  writeFileSync(pageFile, renderPage(result))
  console.log(`\nwrote bench/results/runtime.json, bench/results/runtime.svg, docs/benchmarks.md`)
}

const main = async () => {
  if (renderOnly) {
    const result = JSON.parse(readFileSync(resultsFile, 'utf8'))
    // the targets are derived from the medians: checked again against the targets of now
    if (result.medians !== undefined) result.targets = targetsOf(result.medians)
    printTable(result.medians)
    writeOutputs(result)
    return
  }
  if (!existsSync(join(root, 'dist', 'examples', 'bench.js'))) {
    console.error('dist/examples/bench.js is missing: run `npm run build` first')
    process.exit(1)
  }
  const started = performance.now()
  const previous = existsSync(resultsFile) ? JSON.parse(readFileSync(resultsFile, 'utf8')) : undefined
  // a fresh runtime section keeps the other sections of the last run that this run does not measure, marked as such
  let result = sections.includes('runtime') ? { ...(await runtimeSection(started)), ...keptSections(previous, sections) } : previous
  if (sections.includes('postgres')) {
    const driver = { StdioConn, HttpConn, startChild, stopChild, callOnce, handshake, freePort, median, round, waitForCalm }
    const postgres = await measurePostgres(driver, { quick, rounds: plan.rounds, root, log: (t) => process.stdout.write(t) })
    printPostgres(postgres, fmtRatio)
    if (result !== undefined) result = { ...result, postgres }
  }
  if (sections.includes('scaling')) {
    const driver = { startChild, stopChild, freePort, median, round, waitForCalm }
    const scaling = await measureScaling(driver, { quick, rounds: plan.rounds, root, log: (t) => process.stdout.write(t) })
    printScaling(scaling, fmtRatio)
    if (result !== undefined) result = { ...result, scaling }
  }
  if (sections.includes('meos')) {
    const driver = { StdioConn, HttpConn, startChild, stopChild, callOnce, handshake, freePort, median, round, waitForCalm }
    const meos = await measureMeos(driver, { quick, rounds: plan.rounds, root, log: (t) => process.stdout.write(t) })
    if (meos !== undefined) printMeos(meos, fmtRatio)
    if (result !== undefined && meos !== undefined) result = { ...result, meos }
  }
  if (sections.includes('runtimes')) {
    const driver = { freePort, median, round, waitForCalm }
    const runtimes = await measureRuntimes(driver, { quick, rounds: plan.rounds, root, log: (t) => process.stdout.write(t) })
    printRuntimes(runtimes, fmtRatio)
    if (result !== undefined) result = { ...result, runtimes }
  }
  if (write && result !== undefined) writeOutputs(result)
  console.log(`\n${((performance.now() - started) / 1000).toFixed(0)} s`)
  killAll()
  if ((result?.failures.length ?? 0) > 0 && sections.includes('runtime')) process.exit(1)
}

/** The runtime section: every server on every transport, the medians, the targets; printed. */
const runtimeSection = async (started) => {
  const samples = {}
  const failures = []
  const discarded = []
  for (const t of transports) {
    samples[t] = {}
    for (const s of servers) samples[t][s.id] = []
  }
  process.stdout.write('warming up the driver ... ')
  await driverWarmUp()
  console.log('done')
  for (let r = 1; r <= plan.rounds; r++) {
    for (const t of transports) {
      for (const s of turned(servers, r - 1)) {
        const t0 = performance.now()
        process.stdout.write(`round ${r}/${plan.rounds}  ${t.padEnd(5)}  ${s.label.padEnd(7)} `)
        try {
          const waited = await waitForCalm()
          let sample = await measure(s, t)
          sample.waitedForCalmS = waited
          // another process took CPU during a measured cell: measure once more, keep the calmer one
          if (foreignOf(sample) > DISTURBED_PCT && remeasuresLeft > 0) {
            remeasuresLeft--
            console.log(`disturbed (other processes used ${foreignOf(sample)}% of a core), measuring again`)
            process.stdout.write(`round ${r}/${plan.rounds}  ${t.padEnd(5)}  ${s.label.padEnd(7)} `)
            const waitedAgain = await waitForCalm()
            const again = await measure(s, t)
            again.waitedForCalmS = waitedAgain
            const [kept, dropped] = foreignOf(again) <= foreignOf(sample) ? [again, sample] : [sample, again]
            discarded.push({ round: r, transport: t, server: s.id, sample: dropped })
            sample = kept
          }
          samples[t][s.id].push(sample)
          console.log(
            `burst ${sample.burst.callsPerS}/s (cpu: driver ${sample.burst.driverCpuPct}% server ${sample.burst.serverCpuPct}% other ${sample.burst.foreignCpuPct}%)  c32 ${sample.c32.callsPerS}/s p50 ${sample.c32.p50Ms} p99 ${sample.c32.p99Ms} ms  ` +
              `2000 tools ${sample.many.callsPerS}/s list ${sample.toolsListMs} ms  rss ${sample.peakRssMiB} MiB  startup ${sample.startupMs} ms  ` +
              `(${((performance.now() - t0) / 1000).toFixed(1)} s)`,
          )
        } catch (e) {
          killAll()
          samples[t][s.id].push(null)
          failures.push({ round: r, transport: t, server: s.id, error: scrub(e?.message ?? e) })
          console.log(`FAILED: ${scrub(e?.message ?? e)}`)
        }
      }
    }
  }
  const medians = summarize(samples)
  const result = {
    benchmark: 'runtime: emcp vs the official MCP SDKs v1 and v2 vs a raw JSON-RPC ceiling, over stdio and stateless HTTP',
    command: `npm run bench${quick ? ' -- --quick' : ''}`,
    date: new Date().toISOString(),
    quick,
    durationS: round((performance.now() - started) / 1000, 1),
    machine: {
      cpus: cpus().length,
      cpuModel: cpus()[0]?.model?.trim() ?? 'unknown',
      memoryGB: Math.round(totalmem() / 2 ** 30),
      node: process.version,
      kernel: release(),
    },
    versions: {
      emcp: emcpVersion(),
      '@modelcontextprotocol/sdk': versionOf('@modelcontextprotocol/sdk'),
      '@modelcontextprotocol/server': versionOf('@modelcontextprotocol/server'),
      '@modelcontextprotocol/node': versionOf('@modelcontextprotocol/node'),
      zod: versionOf('zod'),
      protocol: PROTOCOL,
    },
    plan,
    servers: Object.fromEntries(servers.map((s) => [s.id, { label: s.label, stdio: `node ${s.stdio.join(' ')}`, http: `node ${s.http.join(' ')}` }])),
    notes: [
      `medians: per metric, the median over the rounds of each round's figure, over the calm samples (other processes under ${DISTURBED_PCT}% of a core in every measured cell) when there is one, else over all; samples/calmSamples say how many`,
      'burst: stdio = N requests written at once; HTTP = N calls with plan.httpInFlight in flight (keep-alive agent)',
      'c32: 32 calls in flight; p50Ms/p99Ms are the latencies of those calls',
      'many: the burst load against a server with 2000 filler tools; toolsListMs: median of sequential tools/list round trips after warm-up',
      'peakRssMiB: VmHWM after the load (no filler tools); peakRssManyMiB: with 2000 tools; idleRssMiB: VmRSS after initialize, before the load',
      'startupMs: spawn to first answered ping (median of plan.startupSpawns spawns); startupManyMs: with 2000 tools',
      'serverCpuUsPerCall: on-CPU time of all the server process threads during the burst (schedstat, ns; else user+system in clock ticks), per call',
      'order: each round runs the servers in the order of the round before turned by one (A B C D, B C D A, ...): each server takes each place of a round in turn, the same treatment for all',
      'stdio burst: the fastest servers outrun the driver (driverCpuPct near 100, serverCpuPct near 50), so their burst calls/s are bounded by the driver; serverCpuUsPerCall weighs the server itself',
    ],
    medians,
    targets: [],
    failures,
    disturbance: disturbanceOf(samples, discarded),
    samples,
    discarded,
  }
  result.targets = targetsOf(medians)
  result.zod = zodRowsOf(medians)
  result.mount = mountRowsOf(medians, metrics, ratio, round)
  result.proxy = proxyRowsOf(medians, metrics, ratio, round)
  printTable(medians)
  printZod(result.zod)
  printMount(result.mount, fmt, fmtRatio)
  printProxy(result.proxy, fmt, fmtRatio)
  if (result.targets.length > 0) {
    console.log('\nemcp targets:')
    for (const r of result.targets) console.log(`  ${r.met === null ? 'n/a   ' : r.met ? 'met   ' : 'MISSED'}  ${r.target}: ${r.ratio}×`)
  }
  return result
}

main().catch((e) => {
  console.error(e)
  killAll()
  process.exit(1)
})
