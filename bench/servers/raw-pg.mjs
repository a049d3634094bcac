/**
 * The transport ceiling of the PostgreSQL section: bare JSON-RPC (no validation, no MCP
 * machinery) that answers `tools/call add` by calling the same function through a `pg` pool of
 * the same size (or PGlite), with the same answers as emcp; over stdio (readline) or
 * node:http. What any server on this transport and this pool can do on this machine.
 *
 *   EMCP_BENCH_DATABASE_URL=postgres://… EMCP_BENCH_SCHEMA=emcp_bench node bench/servers/raw-pg.mjs stdio
 *   PORT=3000 node bench/servers/raw-pg.mjs http      # no URL: an in-memory PGlite, set up here
 */
import { createServer } from 'node:http'
import { createInterface } from 'node:readline'
import { POOL_MAX, directSql, setupSql } from './pg-contract.mjs'

const mode = process.argv[2] ?? 'stdio'
const url = process.env.EMCP_BENCH_DATABASE_URL
const schema = process.env.EMCP_BENCH_SCHEMA ?? 'emcp_bench'
const sql = directSql(schema)

const openQuery = async () => {
  if (url !== undefined && url !== '') {
    const { default: pg } = await import('pg')
    const pool = new pg.Pool({ connectionString: url, max: POOL_MAX })
    pool.on('error', () => undefined)
    return (params) => pool.query(sql, params)
  }
  const { PGlite } = await import('@electric-sql/pglite')
  const db = await PGlite.create()
  await db.exec(setupSql(schema))
  return (params) => db.query(sql, params)
}
const query = await openQuery()

const ok = (id, result) => JSON.stringify({ jsonrpc: '2.0', id, result })
const initResult = { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'raw-pg', version: '1.0.0' } }

/** The answer to one message (JSON text), undefined for a notification. */
const answer = async (msg) => {
  if (msg === null || typeof msg !== 'object' || msg.id === undefined) return undefined
  if (msg.method === 'tools/call') {
    const { a, b } = msg.params.arguments
    const value = { value: Number((await query([a, b])).rows[0].value) }
    return ok(msg.id, { content: [{ type: 'text', text: JSON.stringify(value) }], structuredContent: value })
  }
  return ok(msg.id, msg.method === 'initialize' ? initResult : {})
}
const parse = (text) => {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

if (mode === 'stdio') {
  createInterface({ input: process.stdin, crlfDelay: Infinity }).on('line', async (line) => {
    const out = await answer(parse(line))
    if (out !== undefined) process.stdout.write(out + '\n')
  })
} else if (mode === 'http') {
  createServer((req, res) => {
    const chunks = []
    req.on('data', (c) => chunks.push(c))
    req.on('end', async () => {
      const out = await answer(parse(Buffer.concat(chunks).toString()))
      if (out === undefined) res.writeHead(202).end()
      else res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(out) }).end(out)
    })
  }).listen(Number(process.env.PORT ?? 3000), '127.0.0.1')
} else throw new Error(`usage: raw-pg.mjs stdio|http (got ${mode})`)
