/**
 * The PostgreSQL section of `npm run bench`: calls/s of an `@mcp` function served by emcp
 * (bench/servers/emcp-pg.mjs, over stdio and over stateless HTTP) beside the same function
 * called in a loop through a `pg` pool of the same size at the same concurrency, in this
 * process: the ceiling. On the real server of EMCP_TEST_DATABASE_URL when it is set, else on
 * PGlite (the ceiling then an in-memory PGlite of this process). Rounds are interleaved
 * (ceiling, raw stdio, stdio, raw HTTP, HTTP, then again) and medians taken.
 *
 * Beside them, per transport, the transport ceiling: bench/servers/raw-pg.mjs, bare JSON-RPC
 * calling the same pool with no MCP machinery; the ratio of emcp to it is emcp's own cost, and
 * the target: emcp at least 0.9x the raw server of its transport. (The in-process ceiling is
 * shown beside: no server, raw or not, comes near it when driver, server and PostgreSQL share
 * two cores.)
 * And on Linux the CPU time per call of each party (driver, server, PostgreSQL's processes),
 * read from /proc: on a small machine all three share the cores, so the driver's and the
 * transport's CPU lower every served figure against the in-process ceiling.
 *
 * runtime.mjs runs it (`--sections postgres` alone) and passes its driver: connections,
 * process handling, medians; this file adds the loads, the figures and their page section.
 */
import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { POOL_MAX, directSql, setupSql } from './servers/pg-contract.mjs'

const CONCURRENCY = 32
/** emcp's calls/s at least this times the raw server's, on the same transport and pool. */
const TARGET = 0.9

/** CPU seconds (user + system) used so far by the processes whose command line passes `match`; null off Linux. */
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
      // fields after the command name: utime and stime are the 12th and 13th
      const f = readFileSync(`/proc/${id}/stat`, 'utf8').split(') ')[1].split(' ')
      s += (Number(f[11]) + Number(f[12])) / 100
    } catch {
      // the process ended meanwhile
    }
  }
  return s
}

/** The CPU clocks of one cell: this process (the driver), the server child, PostgreSQL's processes. */
const cpuClocks = (serverPid) => {
  const read = () => ({
    driver: process.cpuUsage(),
    server: serverPid === undefined ? 0 : cpuSeconds((_, pid) => pid === serverPid),
    postgres: cpuSeconds((cmd) => cmd.startsWith('postgres')),
  })
  const t0 = read()
  return (calls) => {
    const t1 = read()
    const us = (s) => (s === null ? null : Math.round((s / calls) * 1e6))
    const driver = process.cpuUsage(t0.driver)
    return {
      driver: Math.round((driver.user + driver.system) / calls),
      server: serverPid === undefined ? null : us(t1.server === null ? null : t1.server - t0.server),
      postgres: us(t1.postgres === null || t0.postgres === null ? null : t1.postgres - t0.postgres),
    }
  }
}

/** Counts and bounds of one measurement. */
const planOf = (quick) =>
  quick ? { warmup: { calls: 1000, ms: 1000 }, calls: 3000, cellMs: 3000, drainMs: 15000 } : { warmup: { calls: 3000, ms: 2000 }, calls: 20000, cellMs: 6000, drainMs: 20000 }

/** `call(i)` (resolving to true for a right answer) with `concurrency` in flight until `n` are issued or `ms` passed. */
const closedLoop = (call, { concurrency, n, ms, drainMs }) =>
  new Promise((resolve, reject) => {
    let issued = 0
    let answered = 0
    let wrong = 0
    let firstError
    const t0 = performance.now()
    const issue = () => {
      if (issued >= n || performance.now() - t0 > ms) {
        if (answered + wrong === issued) {
          clearTimeout(drain)
          resolve({ calls: answered, ms: performance.now() - t0, wrong, firstError })
        }
        return
      }
      const i = issued++
      call(i).then(
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
    const drain = setTimeout(() => reject(new Error(`postgres loop: ${issued - answered - wrong} answers missing`)), ms + drainMs)
    for (let i = 0; i < concurrency; i++) issue()
  })

/** An MCP `tools/call add` through a driver connection, checked. */
const mcpCall = (conn) => (i) =>
  new Promise((resolve, reject) =>
    conn.call('tools/call', { name: 'add', arguments: { a: i, b: 7 } }, (e, msg) =>
      e ? reject(e) : resolve(typeof msg === 'string' && msg.includes(`"structuredContent":{"value":${i + 7}}`) && !msg.includes('"isError":true')),
    ),
  )

/** The database the section runs on: a real server (pg pool) or PGlite, both in this process for the ceiling. */
const openCeiling = async (url, schema, root) => {
  if (url !== undefined && url !== '') {
    const { default: pg } = await import('pg')
    const pool = new pg.Pool({ connectionString: url, max: POOL_MAX, idleTimeoutMillis: 10_000, connectionTimeoutMillis: 10_000 })
    pool.on('error', () => undefined)
    await pool.query(setupSql(schema))
    const { rows } = await pool.query('SHOW server_version')
    return {
      database: `PostgreSQL ${rows[0].server_version}`,
      ceiling: `the function through a pg pool of ${POOL_MAX}`,
      query: (sql, params) => pool.query(sql, params),
      close: async () => {
        await pool.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).catch(() => undefined)
        await pool.end()
      },
    }
  }
  const { PGlite } = await import('@electric-sql/pglite')
  const db = await PGlite.create()
  await db.exec(setupSql(schema))
  const { version } = JSON.parse(readFileSync(join(root, 'node_modules', '@electric-sql', 'pglite', 'package.json'), 'utf8'))
  return { database: `PGlite ${version}`, ceiling: 'the function through PGlite', query: (sql, params) => db.query(sql, params), close: () => db.close() }
}

/**
 * Measures the section: `d` is runtime.mjs's driver (StdioConn, HttpConn, startChild,
 * stopChild, callOnce, handshake, freePort, median, round, waitForCalm); `log` prints progress.
 */
export const measurePostgres = async (d, { quick, rounds, root, log }) => {
  const url = process.env.EMCP_TEST_DATABASE_URL
  const schema = `emcp_bench_${process.pid}`
  const plan = planOf(quick)
  const ceiling = await openCeiling(url, schema, root)
  const env = { EMCP_BENCH_DATABASE_URL: url ?? '', EMCP_BENCH_SCHEMA: schema }
  const direct = directSql(schema)
  const directCall = (i) => ceiling.query(direct, [i, 7]).then((r) => Number(r.rows[0]?.value) === i + 7)
  const isLocal = url !== undefined && url !== '' && /@(127\.0\.0\.1|localhost|\[::1\])[:/]/.test(url)
  const run = async (call, serverPid) => {
    const warm = await closedLoop(call, { concurrency: CONCURRENCY, n: plan.warmup.calls, ms: plan.warmup.ms, drainMs: plan.drainMs })
    if (warm.wrong > 0) throw new Error(`warm-up: ${warm.wrong} wrong answers, the first: ${warm.firstError}`)
    const clocks = cpuClocks(serverPid)
    const r = await closedLoop(call, { concurrency: CONCURRENCY, n: plan.calls, ms: plan.cellMs, drainMs: plan.drainMs })
    if (r.wrong > 0) throw new Error(`${r.wrong} wrong answers, the first: ${r.firstError}`)
    const cpu = clocks(r.calls)
    // PostgreSQL's processes are counted only when the server runs on this machine (PGlite lives in the driver or server)
    return { callsPerS: d.round((r.calls / r.ms) * 1000), cpu: { ...cpu, postgres: isLocal ? cpu.postgres : null } }
  }
  /** `server` is emcp-pg or raw-pg (bench/servers/), over `transport`. */
  const served = async (server, transport) => {
    const port = transport === 'http' ? await d.freePort() : undefined
    const child = d.startChild([`bench/servers/${server}.mjs`, transport], { ...env, ...(port === undefined ? {} : { PORT: String(port) }) }, transport === 'stdio')
    try {
      const conn = transport === 'stdio' ? new d.StdioConn(child) : new d.HttpConn(port, CONCURRENCY)
      // the server is up when it answers a ping (HTTP: polled until it listens)
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
        return await run(mcpCall(conn), child.pid)
      } finally {
        conn.close()
      }
    } finally {
      await d.stopChild(child)
    }
  }
  const samples = []
  try {
    for (let r = 1; r <= rounds; r++) {
      const sample = {}
      for (const [key, f] of [
        ['ceiling', () => run(directCall)],
        ['rawStdio', () => served('raw-pg', 'stdio')],
        ['stdio', () => served('emcp-pg', 'stdio')],
        ['rawHttp', () => served('raw-pg', 'http')],
        ['http', () => served('emcp-pg', 'http')],
      ]) {
        await d.waitForCalm()
        log(`round ${r}/${rounds}  postgres  ${key.padEnd(8)} `)
        sample[key] = await f()
        log(`${sample[key].callsPerS} calls/s\n`)
      }
      samples.push(sample)
    }
  } finally {
    await ceiling.close()
  }
  const median = (k, f) => d.median(samples.map((s) => f(s[k])).filter((x) => x !== null))
  const medians = Object.fromEntries(CELLS.map((k) => [k, median(k, (c) => c.callsPerS)]))
  const cpu = Object.fromEntries(CELLS.map((k) => [k, Object.fromEntries(['driver', 'server', 'postgres'].map((w) => [w, median(k, (c) => c.cpu[w]) ?? null]))]))
  const targets = ['stdio', 'http'].map((t) => {
    const ratio = medians[t] === null || !medians.ceiling ? null : medians[t] / medians.ceiling
    const raw = medians[t === 'stdio' ? 'rawStdio' : 'rawHttp']
    return {
      transport: t,
      target: `PostgreSQL calls/s >= ${TARGET}x the raw JSON-RPC server on the same pool (${t === 'stdio' ? 'stdio' : 'stateless HTTP'})`,
      emcp: medians[t],
      ceiling: medians.ceiling,
      ratio: d.round(ratio, 2),
      rawRatio: raw === null || medians[t] === null ? null : d.round(medians[t] / raw, 2),
      rawToCeiling: raw === null || !medians.ceiling ? null : d.round(raw / medians.ceiling, 2),
      bound: TARGET,
      met: raw === null || medians[t] === null ? null : medians[t] / raw >= TARGET,
    }
  })
  return { database: ceiling.database, ceilingLabel: ceiling.ceiling, concurrency: CONCURRENCY, poolMax: POOL_MAX, plan, rounds, samples, medians, cpu, targets }
}

/** The cells of one round, in order. */
const CELLS = ['ceiling', 'rawStdio', 'stdio', 'rawHttp', 'http']

/** Each cell's label and the ratios printed beside it: to the pg pool ceiling, to the raw server of its transport. */
const rowsOf = (p) => {
  const [s, h] = p.targets
  return [
    [`ceiling: ${p.ceilingLabel}`, 'ceiling', null, null],
    ['raw JSON-RPC + the pool, stdio', 'rawStdio', s.rawToCeiling, null],
    ['emcp, stdio', 'stdio', s.ratio, s.rawRatio],
    ['raw JSON-RPC + the pool, stateless HTTP', 'rawHttp', h.rawToCeiling, null],
    ['emcp, stateless HTTP', 'http', h.ratio, h.rawRatio],
  ]
}

/** A CPU figure in µs per call, or a dash. */
const us = (x) => (x === null || x === undefined ? '—' : String(x))

/** The section as printed. */
export const printPostgres = (p, fmtRatio) => {
  console.log(`\nPostgreSQL on ${p.database}: calls/s at concurrency ${p.concurrency} (medians of ${p.rounds} round${p.rounds === 1 ? '' : 's'}); CPU µs per call: driver / server / postgres`)
  for (const [label, k, ratio, rawRatio] of rowsOf(p)) {
    const c = p.cpu[k]
    const ratios = [ratio === null ? '' : `${fmtRatio(ratio)} the ceiling`, rawRatio === null ? '' : `${fmtRatio(rawRatio)} raw`].filter((x) => x !== '').join(', ')
    console.log(
      `  ${label.padEnd(42)} ${String(Math.round(p.medians[k] ?? 0).toLocaleString('en-US')).padStart(8)}  cpu ${us(c.driver)} / ${us(c.server)} / ${us(c.postgres)}${ratios === '' ? '' : `  (${ratios})`}`,
    )
  }
  console.log('\nPostgreSQL targets:')
  for (const t of p.targets)
    console.log(`  ${t.met === null ? 'n/a   ' : t.met ? 'met   ' : 'MISSED'}  ${t.target}: ${t.rawRatio}× (to the in-process ceiling: emcp ${t.ratio}×, the raw server ${t.rawToCeiling}×)`)
}

/** The section of docs/benchmarks.md. */
export const postgresPage = (p, mdTable, fmtRatio) => {
  const mark = (met) => (met === null ? 'n/a' : met ? '**met**' : '**missed**')
  const fmt = (x) => (x === null || x === undefined ? '—' : Math.round(x).toLocaleString('en-US'))
  const [s, h] = p.targets
  return [
    '## PostgreSQL: a database function as a tool',
    '',
    `An immutable SQL function \`add(a integer, b integer)\` whose comment carries \`@mcp\` ([bench/servers/pg-contract.mjs](../bench/servers/pg-contract.mjs)), on ${p.database}. ` +
      `emcp serves it with \`fromPostgres\` ([bench/servers/emcp-pg.mjs](../bench/servers/emcp-pg.mjs)) over stdio and stateless HTTP; the driver calls \`tools/call add\` ` +
      `with ${p.concurrency} calls in flight and checks every answer. The ceiling is the same function called directly, \`SELECT add($1, $2)\`, in a loop through a \`pg\` pool ` +
      `of the same size (${p.poolMax} connections) at the same concurrency, in the driver's process (on PGlite: an in-memory PGlite there). ` +
      `Beside emcp on each transport, the transport ceiling: bare JSON-RPC that calls the same pool with no validation and no MCP machinery ([bench/servers/raw-pg.mjs](../bench/servers/raw-pg.mjs)); ` +
      `emcp's ratio to it is emcp's own cost, and the target: at least ${TARGET}× on each transport. ` +
      `${p.plan.calls.toLocaleString('en-US')} calls (or ${p.plan.cellMs / 1000} s) after ${p.plan.warmup.calls.toLocaleString('en-US')} warm-up calls, ` +
      `${p.rounds} round${p.rounds === 1 ? '' : 's'} interleaved, medians.`,
    '',
    mdTable([
      ['', 'calls/s', 'ratio to the ceiling', 'ratio to raw, same transport', `target (≥ ${TARGET}× raw, same transport)`, 'CPU µs/call: driver', 'server', 'PostgreSQL'],
      ...rowsOf(p).map(([label, k, ratio, rawRatio]) => [
        label,
        fmt(p.medians[k]),
        ratio === null ? '' : fmtRatio(ratio),
        rawRatio === null ? '' : fmtRatio(rawRatio),
        k === 'stdio' ? mark(s.met) : k === 'http' ? mark(h.met) : '',
        us(p.cpu[k].driver),
        us(p.cpu[k].server),
        us(p.cpu[k].postgres),
      ]),
    ]),
    '',
    'The CPU columns are user + system time per call of the driver (this process), the server process and all of PostgreSQL\'s processes, from /proc (Linux, a local server). ' +
      'They add up to what one call costs the machine: where the driver, the server and PostgreSQL share a few cores, that sum, not any one process, bounds calls/s, ' +
      'so every served figure, raw or emcp, sits below the in-process ceiling by the cost of the transport and of the driver\'s own client.',
    '',
  ].join('\n')
}
