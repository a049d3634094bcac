/**
 * The MEOS section of `npm run bench`, when libmeos is present (MEOS_LIBRARY_PATH, else the
 * tool cache .ci/meos builds into) and the generated manifest and catalog are beside the
 * repository (../shared/meos): calls/s of two tools served by `emcp meos` (the built
 * executable, over stdio and over stateless HTTP, its default worker count), beside the same
 * calls made in a loop through the FFI in this process (the ceiling: plan, decode, call,
 * encode and free, as a worker does, with no process between). The tools:
 *
 *   temporal_num_instants  a 3-instant temporal boolean in, an integer out: the call itself
 *   temporal_copy          a 100-instant temporal float in, its 100-instant text out: encode-heavy
 *
 * Per cell, the CPU time per call of the driver, the server's main process and its worker
 * processes (Linux /proc): where the time goes. Rounds interleaved, medians taken.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs'
import { homedir } from 'node:os'
import { join, resolve } from 'node:path'
import { performance } from 'node:perf_hooks'
import { pathToFileURL } from 'node:url'

const CONCURRENCY = 32

/** The two tools and their arguments. */
const instants = Array.from({ length: 100 }, (_, i) => `${(i * 37) % 101}.5@${new Date(Date.UTC(2000, 0, 1) + i * 60_000).toISOString().replace('T', ' ').replace('.000Z', '+00')}`)
const TOOLS = [
  { name: 'temporal_num_instants', args: { temp: '{t@2000-01-01, f@2000-01-03, t@2000-01-05}' }, label: 'temporal_num_instants (3 instants in, an integer out)' },
  { name: 'temporal_copy', args: { temp: `[${instants.join(', ')}]` }, label: 'temporal_copy (100 instants in, 100 out: encode-heavy)' },
]

/** libmeos and the data files, or undefined when one is missing (the section is then skipped). */
export const meosParts = (root) => {
  const library = [process.env.MEOS_LIBRARY_PATH, join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'emcp-tools', 'meos-1.3.0', 'lib', 'libmeos.so')].find(
    (p) => p !== undefined && p !== '' && existsSync(p),
  )
  const manifest = resolve(root, '../shared/meos/meos-mcp.json')
  const catalog = resolve(root, '../shared/meos/meos-idl.json')
  if (library === undefined || !existsSync(manifest) || !existsSync(catalog)) return undefined
  return { library, manifest, catalog }
}

/** CPU seconds (user + system) of the processes whose command line passes `match`; null off Linux. */
const cpuSeconds = (match) => {
  let ids
  try {
    ids = readdirSync('/proc').filter((p) => /^\d+$/.test(p))
  } catch {
    return null
  }
  let s = 0
  for (const id of ids) {
    try {
      if (!match(readFileSync(`/proc/${id}/cmdline`, 'utf8'), Number(id))) continue
      const f = readFileSync(`/proc/${id}/stat`, 'utf8').split(') ')[1].split(' ')
      s += (Number(f[11]) + Number(f[12])) / 100
    } catch {
      // the process ended meanwhile
    }
  }
  return s
}

/** The CPU clocks of one cell: this process, the server's main process, its workers. */
const cpuClocks = (serverPid) => {
  const read = () => ({
    driver: process.cpuUsage(),
    server: serverPid === undefined ? 0 : cpuSeconds((_, pid) => pid === serverPid),
    workers: cpuSeconds((cmd) => cmd.includes('meos-worker')),
  })
  const t0 = read()
  return (calls) => {
    const t1 = read()
    const driver = process.cpuUsage(t0.driver)
    const us = (s) => (s === null ? null : Math.round((s / calls) * 1e6))
    return {
      driver: Math.round((driver.user + driver.system) / calls),
      server: serverPid === undefined ? null : us(t1.server === null ? null : t1.server - t0.server),
      workers: serverPid === undefined ? null : us(t1.workers === null || t0.workers === null ? null : t1.workers - t0.workers),
    }
  }
}

const planOf = (quick) => (quick ? { warmup: 500, calls: 3000, cellMs: 3000, drainMs: 15000 } : { warmup: 2000, calls: 20000, cellMs: 6000, drainMs: 20000 })

/** `call(i)` (resolving to true for a right answer) with `concurrency` in flight until `n` are issued or `ms` passed. */
const closedLoop = (call, { concurrency, n, ms, drainMs }) =>
  new Promise((resolveLoop, reject) => {
    let issued = 0
    let answered = 0
    let wrong = 0
    let firstError
    const t0 = performance.now()
    const issue = () => {
      if (issued >= n || performance.now() - t0 > ms) {
        if (answered + wrong === issued) {
          clearTimeout(drain)
          resolveLoop({ calls: answered, ms: performance.now() - t0, wrong, firstError })
        }
        return
      }
      issued++
      Promise.resolve()
        .then(call)
        .then(
          (ok) => {
            if (ok) answered++
            else wrong++
            issue()
          },
          (e) => {
            wrong++
            firstError ??= String(e?.message ?? e)
            issue()
          },
        )
    }
    const drain = setTimeout(() => reject(new Error(`meos loop: ${issued - answered - wrong} answers missing`)), ms + drainMs)
    for (let i = 0; i < concurrency; i++) issue()
  })

/** The ceiling: the built FFI layer of the workers, in this process. */
const openCeiling = async (root, parts) => {
  const load = (p) => import(pathToFileURL(join(root, 'dist', 'src', 'sources', 'meos', p)).href)
  const [{ openMeos }, { invoke }, { plansOf, decodersOf }] = await Promise.all([load('ffi.js'), load('invoke.js'), load('plan.js')])
  const catalog = JSON.parse(readFileSync(parts.catalog, 'utf8'))
  const { plans } = plansOf(JSON.parse(readFileSync(parts.manifest, 'utf8')), catalog)
  const meos = await openMeos(parts.library)
  const options = { decoders: decodersOf(catalog), universal: true }
  return (tool) => () => invoke(meos, plans.get(tool.name), tool.args, options).kind === 'value'
}

/** An MCP `tools/call` through a driver connection, checked. */
const mcpCall = (conn, tool) => () =>
  new Promise((resolveCall, reject) =>
    conn.call('tools/call', { name: tool.name, arguments: tool.args }, (e, msg) =>
      e ? reject(e) : resolveCall(typeof msg === 'string' && msg.includes('"structuredContent":{"result":') && !msg.includes('"isError":true')),
    ),
  )

/** Measures the section, or returns undefined (saying why) when libmeos or the data are missing. `d` is runtime.mjs's driver. */
export const measureMeos = async (d, { quick, rounds, root, log }) => {
  const parts = meosParts(root)
  if (parts === undefined) {
    log('meos: no libmeos (MEOS_LIBRARY_PATH, or .ci/meos) or no ../shared/meos data: the MEOS section is skipped\n')
    return undefined
  }
  const plan = planOf(quick)
  const ceiling = await openCeiling(root, parts)
  const run = async (call, serverPid) => {
    const warm = await closedLoop(call, { concurrency: CONCURRENCY, n: plan.warmup, ms: plan.cellMs, drainMs: plan.drainMs })
    if (warm.wrong > 0) throw new Error(`warm-up: ${warm.wrong} wrong answers, the first: ${warm.firstError}`)
    const clocks = cpuClocks(serverPid)
    const r = await closedLoop(call, { concurrency: CONCURRENCY, n: plan.calls, ms: plan.cellMs, drainMs: plan.drainMs })
    if (r.wrong > 0) throw new Error(`${r.wrong} wrong answers, the first: ${r.firstError}`)
    return { callsPerS: d.round((r.calls / r.ms) * 1000), cpu: clocks(r.calls) }
  }
  const served = async (tool, transport) => {
    const port = transport === 'http' ? await d.freePort() : undefined
    const args = ['bin/emcp.js', 'meos', '--library', parts.library, '--manifest', parts.manifest, '--catalog', parts.catalog]
    const child = d.startChild([...args, ...(transport === 'http' ? ['--http', '--port', String(port)] : ['--stdio'])], {}, transport === 'stdio')
    try {
      const conn = transport === 'stdio' ? new d.StdioConn(child) : new d.HttpConn(port, CONCURRENCY)
      for (let tries = 0; ; tries++) {
        try {
          await d.callOnce(conn, 'ping', undefined, transport === 'http' ? false : undefined)
          break
        } catch (e) {
          if (tries > 3000 || child.exitCode !== null) throw new Error(`${e?.message ?? e}: ${child.stderrTail.trim().slice(-500)}`)
          await new Promise((r) => setTimeout(r, 10))
        }
      }
      await d.handshake(conn)
      try {
        return await run(mcpCall(conn, tool), child.pid)
      } finally {
        conn.close()
      }
    } finally {
      await d.stopChild(child)
    }
  }
  const samples = []
  for (let r = 1; r <= rounds; r++) {
    const sample = {}
    for (const tool of TOOLS) {
      sample[tool.name] = {}
      for (const [key, f] of [
        ['ceiling', () => run(ceiling(tool))],
        ['stdio', () => served(tool, 'stdio')],
        ['http', () => served(tool, 'http')],
      ]) {
        await d.waitForCalm()
        log(`round ${r}/${rounds}  meos  ${tool.name.padEnd(22)} ${key.padEnd(8)} `)
        sample[tool.name][key] = await f()
        log(`${sample[tool.name][key].callsPerS} calls/s\n`)
      }
    }
    samples.push(sample)
  }
  const median = (tool, key, f) => d.median(samples.map((s) => f(s[tool][key])).filter((x) => x !== null && x !== undefined))
  const tools = TOOLS.map((tool) => {
    const cells = Object.fromEntries(
      ['ceiling', 'stdio', 'http'].map((key) => [
        key,
        {
          callsPerS: median(tool.name, key, (c) => c.callsPerS),
          cpu: Object.fromEntries(['driver', 'server', 'workers'].map((w) => [w, median(tool.name, key, (c) => c.cpu[w]) ?? null])),
        },
      ]),
    )
    const ratio = (key) => (cells.ceiling.callsPerS ? d.round(cells[key].callsPerS / cells.ceiling.callsPerS, 3) : null)
    return { name: tool.name, label: tool.label, cells, ratios: { stdio: ratio('stdio'), http: ratio('http') } }
  })
  return { concurrency: CONCURRENCY, plan, rounds, samples, tools }
}

/** A CPU figure in µs per call, or a dash. */
const us = (x) => (x === null || x === undefined ? '—' : String(x))

const LABELS = { ceiling: 'ceiling: the FFI in a loop, in process', stdio: 'emcp meos, stdio', http: 'emcp meos, stateless HTTP' }

/** The section as printed. */
export const printMeos = (m, fmtRatio) => {
  console.log(`\nMEOS: calls/s at concurrency ${m.concurrency} (medians of ${m.rounds} round${m.rounds === 1 ? '' : 's'}); CPU µs per call: driver / server / workers`)
  for (const t of m.tools) {
    console.log(`  ${t.label}`)
    for (const key of ['ceiling', 'stdio', 'http']) {
      const c = t.cells[key]
      const ratio = key === 'ceiling' ? '' : `  (${fmtRatio(t.ratios[key])} the ceiling)`
      console.log(`    ${LABELS[key].padEnd(40)} ${String(Math.round(c.callsPerS ?? 0).toLocaleString('en-US')).padStart(8)}  cpu ${us(c.cpu.driver)} / ${us(c.cpu.server)} / ${us(c.cpu.workers)}${ratio}`)
    }
  }
}

/** The section of docs/benchmarks.md. */
export const meosPage = (m, mdTable, fmtRatio) => {
  const fmt = (x) => (x === null || x === undefined ? '—' : Math.round(x).toLocaleString('en-US'))
  return [
    '## MEOS: the catalog served in libmeos',
    '',
    'Two tools of the MEOS catalog served by `emcp meos` ([docs/meos.md](meos.md)), the built executable with its default worker count, over stdio and stateless HTTP; ' +
      `the driver keeps ${m.concurrency} calls in flight and checks every answer. The ceiling is the same calls made in a loop through the FFI in the driver's process: ` +
      'the call plan, the decode, the native call, the encode and the frees, exactly as a worker makes them, with no process and no protocol between ([bench/meos.mjs](../bench/meos.mjs)). ' +
      `${m.plan.calls.toLocaleString('en-US')} calls (or ${m.plan.cellMs / 1000} s) per cell after a warm-up, ${m.rounds} round${m.rounds === 1 ? '' : 's'} interleaved, medians.`,
    '',
    mdTable([
      ['tool', '', 'calls/s', 'ratio to the ceiling', 'CPU µs/call: driver', 'server', 'workers'],
      ...m.tools.flatMap((t) =>
        ['ceiling', 'stdio', 'http'].map((key) => [
          key === 'ceiling' ? t.label : '',
          LABELS[key],
          fmt(t.cells[key].callsPerS),
          key === 'ceiling' ? '' : fmtRatio(t.ratios[key]),
          us(t.cells[key].cpu.driver),
          us(t.cells[key].cpu.server),
          us(t.cells[key].cpu.workers),
        ]),
      ),
    ]),
    '',
    'Where the time goes: a served call crosses the protocol (the driver writes JSON-RPC; the server parses it, validates the arguments against the input schema, ' +
      'and validates and serialises the result) and one more process boundary (the server sends the call to a worker over IPC and reads its answer), ' +
      'beside the work the ceiling does alone (decode, call, encode). The CPU columns split that per call between the driver, the server\'s main process and its workers, from /proc: ' +
      'on a small machine all of them share the same cores, so their sum, not the worker\'s share, bounds calls/s.',
    '',
  ].join('\n')
}
