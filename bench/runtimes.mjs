/**
 * The runtimes section of `npm run bench` (`--sections runtimes`): calls/s of `add` over HTTP
 * on 127.0.0.1 (64 in flight, 2025-11-25 stateless POSTs) on Node, Deno, Bun and workerd,
 * each time emcp's fetch handler (bench/servers/fetch-bench.ts, bundled with esbuild) beside
 * a raw fetch handler on the same runtime answering the same JSON-RPC with no validation (the
 * ceiling), in the same run, rounds interleaved, medians taken; and the cold start of a
 * workerd isolate with a 50-tool server (spawn to first answered tools/call), beside the raw
 * worker's. Node serves both through @hono/node-server (Request/Response on Node). A runtime
 * whose binary is absent is skipped and said so.
 */
import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { Agent, request } from 'node:http'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'

const IN_FLIGHT = 64
const runtimes = ['node', 'deno', 'bun', 'workerd']
/** emcp (add's plain schema: emcp's fast path), schema (an anyOf: Ajv, or on workerd the interpreting validator), raw (the ceiling). */
const modes = ['emcp', 'schema', 'raw']

/** The body of one call of add. */
const callBody = (id) => JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'add', arguments: { a: id, b: 1 } } })
const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' }

/** One POST; resolves with the parsed answer. */
const post = (url, agent, id) =>
  new Promise((resolve, reject) => {
    const u = new URL(url)
    const req = request({ host: u.hostname, port: u.port, path: u.pathname, method: 'POST', headers, agent }, (res) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (c) => (text += c))
      res.on('end', () => {
        try {
          resolve(JSON.parse(text))
        } catch {
          reject(new Error(`HTTP ${res.statusCode}: ${text.slice(0, 200)}`))
        }
      })
    })
    req.on('error', reject)
    req.end(callBody(id))
  })

/** Calls/s with IN_FLIGHT calls in flight for `ms`; every answer is checked. */
const throughput = async (url, ms) => {
  const agent = new Agent({ keepAlive: true, maxSockets: IN_FLIGHT })
  let done = 0
  let id = 0
  const until = performance.now() + ms
  const lane = async () => {
    while (performance.now() < until) {
      const n = ++id
      const r = await post(url, agent, n)
      if (r?.result?.structuredContent?.sum !== n + 1) throw new Error(`a wrong answer: ${JSON.stringify(r).slice(0, 200)}`)
      done++
    }
  }
  const started = performance.now()
  await Promise.all(Array.from({ length: IN_FLIGHT }, lane))
  agent.destroy()
  return Math.round(done / ((performance.now() - started) / 1000))
}

/** Starts a runtime on a bundle; resolves with its URL and the child once it answers (or says where it listens). */
const start = (root, runtime, files, mode, tools, port) => {
  const bin = (name) => join(root, 'node_modules', '.bin', name)
  const argv =
    runtime === 'node'
      ? [process.execPath, [files.node, mode, String(tools), '0']]
      : runtime === 'deno'
        ? [bin('deno'), ['run', '--allow-net', '--allow-env', '--no-prompt', files.neutral, mode, String(tools), '0']]
        : runtime === 'bun'
          ? [bin('bun'), [files.neutral, mode, String(tools), '0']]
          : [bin('workerd'), ['serve', workerdConfig(files.neutral, mode, tools, port)]]
  const child = spawn(argv[0], argv[1], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] })
  return new Promise((resolve, reject) => {
    let out = ''
    const timer = setTimeout(() => reject(new Error(`${runtime} did not listen within 30 s: ${out}`)), 30_000)
    const read = (c) => {
      out += c
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)/i.exec(out)
      if (m !== null || (runtime === 'workerd' && /Listening on/i.test(out))) {
        clearTimeout(timer)
        resolve({ child, url: m?.[1] ?? `http://127.0.0.1:${port}/mcp` })
      }
    }
    child.stdout.on('data', read)
    child.stderr.on('data', read)
    child.once('exit', (code) => reject(new Error(`${runtime} exited (${code}): ${out}`)))
  })
}

/** A capnp file serving the bundle as a worker on `port`, MODE and TOOLS as bindings, no nodejs_compat. */
const workerdConfig = (bundle, mode, tools, port) => {
  const file = bundle.replace(/\.mjs$/, `-${mode}-${tools}.capnp`)
  writeFileSync(
    file,
    `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = ( services = [ (name = "main", worker = .w) ], sockets = [ (name = "http", address = "127.0.0.1:${port}", http = (), service = "main") ] );
const w :Workerd.Worker = ( modules = [ (name = "worker", esModule = embed "${bundle.split('/').at(-1)}") ], compatibilityDate = "2026-11-01", bindings = [ (name = "MODE", text = "${mode}"), (name = "TOOLS", text = "${tools}") ] );
`,
  )
  return file
}

const stop = (child) =>
  new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve()
    child.once('exit', () => resolve())
    child.kill('SIGTERM')
  })

/** Spawn to the first answered call of add, in ms: the cold start of a 50-tool worker (workerd). */
const coldStart = async (root, files, mode, port) => {
  const t0 = performance.now()
  const { child, url } = await start(root, 'workerd', files, mode, 50, port)
  const agent = new Agent({ keepAlive: false })
  // the socket may be bound before the isolate is up: the first call is what counts
  for (;;) {
    try {
      await post(url, agent, 1)
      break
    } catch {
      await new Promise((r) => setImmediate(r))
    }
  }
  const ms = performance.now() - t0
  await stop(child)
  return Math.round(ms)
}

/** Bundles the bench server: platform neutral (Deno, Bun, workerd) and for Node. */
const bundle = async (root) => {
  const { build } = await import('esbuild')
  const dir = join(root, 'bench', '.work', 'runtimes')
  mkdirSync(dir, { recursive: true })
  const common = {
    entryPoints: [join(root, 'bench', 'servers', 'fetch-bench.ts')],
    bundle: true,
    format: 'esm',
    alias: { 'emcp/fetch': join(root, 'src', 'transport', 'fetch.ts'), emcp: join(root, 'src', 'index.ts') },
    logLevel: 'error',
  }
  const files = { neutral: join(dir, 'fetch-bench.mjs'), node: join(dir, 'fetch-bench-node.mjs') }
  await build({ ...common, outfile: files.neutral, platform: 'neutral', mainFields: ['module', 'main'], external: ['node:*', '@hono/node-server'] })
  await build({ ...common, outfile: files.node, platform: 'node' })
  return files
}

/** Measures the section; `driver` lends runtime.mjs's helpers (median, round, freePort, waitForCalm). */
export const measureRuntimes = async (driver, { quick, rounds, root, log }) => {
  const files = await bundle(root)
  const cellMs = quick ? 1500 : 4000
  const present = runtimes.filter((r) => r === 'node' || existsSync(join(root, 'node_modules', '.bin', r)))
  for (const r of runtimes) if (!present.includes(r)) log(`runtimes: SKIPPED ${r}: node_modules/.bin/${r} is not installed\n`)
  const samples = Object.fromEntries(present.flatMap((r) => modes.map((m) => [`${r} ${m}`, []])))
  const failures = []
  for (let round = 1; round <= rounds; round++)
    for (const r of present)
      for (const mode of modes) {
        log(`runtimes round ${round}/${rounds}  ${`${r} ${mode}`.padEnd(14)} `)
        try {
          await driver.waitForCalm()
          const { child, url } = await start(root, r, files, mode, 1, await driver.freePort())
          try {
            await throughput(url, 300) // warm-up: JIT, first compile of the schema
            const perS = await throughput(url, cellMs)
            samples[`${r} ${mode}`].push(perS)
            log(`${perS} calls/s\n`)
          } finally {
            await stop(child)
          }
        } catch (e) {
          failures.push({ cell: `${r} ${mode}`, error: String(e?.message ?? e) })
          log(`FAILED: ${failures.at(-1).error}\n`)
        }
      }
  const cold = { emcp: [], raw: [] }
  if (present.includes('workerd'))
    for (let round = 1; round <= Math.max(3, rounds); round++)
      for (const mode of ['emcp', 'raw']) {
        try {
          const ms = await coldStart(root, files, mode, await driver.freePort())
          cold[mode].push(ms)
          log(`runtimes cold start ${round}  workerd ${mode} (50 tools): ${ms} ms\n`)
        } catch (e) {
          failures.push({ cell: `cold ${mode}`, error: String(e?.message ?? e) })
        }
      }
  const cells = present.map((r) => {
    const emcp = driver.median(samples[`${r} emcp`])
    const raw = driver.median(samples[`${r} raw`])
    const schema = driver.median(samples[`${r} schema`])
    const of = (x) => (x == null || raw == null || raw === 0 ? null : driver.round(x / raw, 2))
    return { runtime: r, emcp, schema, raw, ratio: of(emcp), schemaRatio: of(schema) }
  })
  return { cells, coldStartMs: { emcp: driver.median(cold.emcp), raw: driver.median(cold.raw), tools: 50 }, samples, failures }
}

/** Prints the section. */
export const printRuntimes = (s, fmtRatio) => {
  console.log('\nruntimes (calls/s of add over HTTP, 64 in flight, stateless; raw: a bare fetch handler on the same runtime):')
  for (const c of s.cells)
    console.log(
      `  ${c.runtime.padEnd(8)} emcp ${String(c.emcp ?? 'failed').padStart(6)}   anyOf schema ${String(c.schema ?? 'failed').padStart(6)}   raw ${String(c.raw ?? 'failed').padStart(6)}   emcp/raw ${c.ratio === null ? 'n/a' : fmtRatio(c.ratio)}   schema/raw ${c.schemaRatio === null ? 'n/a' : fmtRatio(c.schemaRatio)}`,
    )
  console.log(`  workerd cold start, ${s.coldStartMs.tools} tools: emcp ${s.coldStartMs.emcp ?? 'n/a'} ms, raw ${s.coldStartMs.raw ?? 'n/a'} ms (spawn to first answer)`)
}

/** The section of docs/benchmarks.md. */
export const runtimesPage = (s, mdTable, fmtRatio) =>
  [
  '## Runtimes: Node, Deno, Bun, workerd',
  '',
  'Calls/s of `add` over HTTP on 127.0.0.1 with 64 calls in flight, stateless 2025-11-25 POSTs, emcp\'s fetch handler (`emcp/fetch`, bundled with esbuild) beside a raw fetch handler answering the same JSON-RPC with no validation on the same runtime (bench/runtimes.mjs); medians over the rounds. On workerd schemas that are not plain are checked by the interpreting validator (no code generation there); `add` is plain, so emcp\'s own fast path checks it on every runtime; the anyOf column gives `add` a schema the fast path does not take: Ajv\'s compiled code on Node, Deno and Bun, the interpreting validator (@cfworker/json-schema) on workerd.',
  '',
  mdTable([
    ['runtime', 'emcp calls/s', 'emcp, anyOf schema', 'raw calls/s', 'emcp / raw', 'anyOf / raw'],
    ...s.cells.map((c) => [c.runtime, c.emcp ?? '–', c.schema ?? '–', c.raw ?? '–', c.ratio == null ? '–' : fmtRatio(c.ratio), c.schemaRatio == null ? '–' : fmtRatio(c.schemaRatio)]),
  ]),
  '',
  `Cold start of a workerd isolate serving ${s.coldStartMs.tools} tools (spawn of workerd to the first answered call): emcp ${s.coldStartMs.emcp ?? '–'} ms, raw worker ${s.coldStartMs.raw ?? '–'} ms.`,
  '',
].join('\n')
