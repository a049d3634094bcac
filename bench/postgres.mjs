/**
 * The PostgreSQL section of `npm run bench`: calls/s of an `@mcp` function served by emcp
 * (bench/servers/emcp-pg.mjs, over stdio and over stateless HTTP) beside the same function
 * called in a loop through a `pg` pool of the same size at the same concurrency, in this
 * process: the ceiling. On the real server of EMCP_TEST_DATABASE_URL when it is set, else on
 * PGlite (the ceiling then an in-memory PGlite of this process). Target: emcp at least 0.8x
 * the ceiling. Rounds are interleaved (ceiling, stdio, HTTP, then again) and medians taken.
 *
 * runtime.mjs runs it (`--sections postgres` alone) and passes its driver: connections,
 * process handling, medians; this file adds the loads, the figures and their page section.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { POOL_MAX, directSql, setupSql } from './servers/pg-contract.mjs'

const CONCURRENCY = 32
const TARGET = 0.8

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
  const run = async (call) => {
    const warm = await closedLoop(call, { concurrency: CONCURRENCY, n: plan.warmup.calls, ms: plan.warmup.ms, drainMs: plan.drainMs })
    if (warm.wrong > 0) throw new Error(`warm-up: ${warm.wrong} wrong answers, the first: ${warm.firstError}`)
    const r = await closedLoop(call, { concurrency: CONCURRENCY, n: plan.calls, ms: plan.cellMs, drainMs: plan.drainMs })
    if (r.wrong > 0) throw new Error(`${r.wrong} wrong answers, the first: ${r.firstError}`)
    return d.round((r.calls / r.ms) * 1000)
  }
  const served = async (transport) => {
    const port = transport === 'http' ? await d.freePort() : undefined
    const child = d.startChild(['bench/servers/emcp-pg.mjs', transport], { ...env, ...(port === undefined ? {} : { PORT: String(port) }) }, transport === 'stdio')
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
        return await run(mcpCall(conn))
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
        ['stdio', () => served('stdio')],
        ['http', () => served('http')],
      ]) {
        await d.waitForCalm()
        log(`round ${r}/${rounds}  postgres  ${key.padEnd(7)} `)
        sample[key] = await f()
        log(`${sample[key]} calls/s\n`)
      }
      samples.push(sample)
    }
  } finally {
    await ceiling.close()
  }
  const medians = Object.fromEntries(['ceiling', 'stdio', 'http'].map((k) => [k, d.median(samples.map((s) => s[k]))]))
  const targets = ['stdio', 'http'].map((t) => {
    const ratio = medians[t] === null || !medians.ceiling ? null : medians[t] / medians.ceiling
    return {
      transport: t,
      target: `PostgreSQL calls/s >= ${TARGET}x the pg pool ceiling (${t === 'stdio' ? 'stdio' : 'stateless HTTP'})`,
      emcp: medians[t],
      ceiling: medians.ceiling,
      ratio: d.round(ratio, 2),
      bound: TARGET,
      met: ratio === null ? null : ratio >= TARGET,
    }
  })
  return { database: ceiling.database, ceilingLabel: ceiling.ceiling, concurrency: CONCURRENCY, poolMax: POOL_MAX, plan, rounds, samples, medians, targets }
}

/** The section as printed. */
export const printPostgres = (p, fmtRatio) => {
  console.log(`\nPostgreSQL on ${p.database}: calls/s at concurrency ${p.concurrency} (medians of ${p.rounds} round${p.rounds === 1 ? '' : 's'})`)
  const rows = [
    [`ceiling: ${p.ceilingLabel}`, p.medians.ceiling, null],
    ['emcp, stdio', p.medians.stdio, p.targets[0].ratio],
    ['emcp, stateless HTTP', p.medians.http, p.targets[1].ratio],
  ]
  for (const [label, v, ratio] of rows)
    console.log(`  ${label.padEnd(48)} ${String(Math.round(v ?? 0).toLocaleString('en-US')).padStart(8)}${ratio === null ? '' : `  (${fmtRatio(ratio)} the ceiling)`}`)
  console.log('\nPostgreSQL targets:')
  for (const t of p.targets) console.log(`  ${t.met === null ? 'n/a   ' : t.met ? 'met   ' : 'MISSED'}  ${t.target}: ${t.ratio}×`)
}

/** The section of docs/benchmarks.md. */
export const postgresPage = (p, mdTable, fmtRatio) => {
  const mark = (met) => (met === null ? 'n/a' : met ? '**met**' : '**missed**')
  const fmt = (x) => (x === null || x === undefined ? '—' : Math.round(x).toLocaleString('en-US'))
  return [
    '## PostgreSQL: a database function as a tool',
    '',
    `An immutable SQL function \`add(a integer, b integer)\` whose comment carries \`@mcp\` ([bench/servers/pg-contract.mjs](../bench/servers/pg-contract.mjs)), on ${p.database}. ` +
      `emcp serves it with \`fromPostgres\` ([bench/servers/emcp-pg.mjs](../bench/servers/emcp-pg.mjs)) over stdio and stateless HTTP; the driver calls \`tools/call add\` ` +
      `with ${p.concurrency} calls in flight and checks every answer. The ceiling is the same function called directly, \`SELECT add($1, $2)\`, in a loop through a \`pg\` pool ` +
      `of the same size (${p.poolMax} connections) at the same concurrency, in the driver's process (on PGlite: an in-memory PGlite there). ` +
      `${p.plan.calls.toLocaleString('en-US')} calls (or ${p.plan.cellMs / 1000} s) after ${p.plan.warmup.calls.toLocaleString('en-US')} warm-up calls, ` +
      `${p.rounds} round${p.rounds === 1 ? '' : 's'} interleaved, medians.`,
    '',
    mdTable([
      ['', 'calls/s', 'ratio to the ceiling', `target (≥ ${TARGET}×)`],
      [`ceiling: ${p.ceilingLabel}`, fmt(p.medians.ceiling), '', ''],
      ['emcp, stdio', fmt(p.medians.stdio), fmtRatio(p.targets[0].ratio), mark(p.targets[0].met)],
      ['emcp, stateless HTTP', fmt(p.medians.http), fmtRatio(p.targets[1].ratio), mark(p.targets[1].met)],
    ]),
    '',
  ].join('\n')
}
