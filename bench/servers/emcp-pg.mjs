/**
 * The PostgreSQL benchmark server: emcp/postgres serving the one `@mcp` function of
 * bench/servers/pg-contract.mjs, through the package's own entry points.
 *
 *   EMCP_BENCH_DATABASE_URL=postgres://… EMCP_BENCH_SCHEMA=emcp_bench node bench/servers/emcp-pg.mjs stdio
 *   PORT=3000 node bench/servers/emcp-pg.mjs http      # no URL: an in-memory PGlite, set up here
 */
import { fromPostgres, pglite, postgres } from 'emcp/postgres'
import { POOL_MAX, setupSql } from './pg-contract.mjs'

const mode = process.argv[2] ?? 'stdio'
const url = process.env.EMCP_BENCH_DATABASE_URL
const schema = process.env.EMCP_BENCH_SCHEMA ?? 'emcp_bench'
const db = url !== undefined && url !== '' ? await postgres(url, { max: POOL_MAX }) : await pglite()
// a real server was set up by the driver; PGlite lives in this process, so it is set up here
if (db.kind === 'pglite') await db.exec(setupSql(schema))
const pg = await fromPostgres(db, { schemas: [schema], onWarning: () => undefined })

if (mode === 'stdio') {
  const { serveStdio } = await import('emcp/stdio')
  await serveStdio(pg.server)
  await db.close()
} else if (mode === 'http') {
  const { serveHttp } = await import('emcp/http')
  await serveHttp(pg.server, { port: Number(process.env.PORT ?? 3000) })
} else throw new Error(`usage: emcp-pg.mjs stdio|http (got ${mode})`)
