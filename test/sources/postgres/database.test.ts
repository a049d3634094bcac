import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { databaseError, pglite, postgres, type PgPooledClient, type PgPoolLike } from '../../../src/sources/postgres/index.js'
import { quoteIdent } from '../../../src/sources/postgres/database.js'
import { targets, unique } from './targets.js'

describe('postgres: the drivers load lazily', () => {
  it('no module of emcp imports @electric-sql/pglite or pg statically (only on first use)', () => {
    const src = fileURLToPath(new URL('../../../src/', import.meta.url))
    const files = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []))
    const all = files(src)
    expect(all.length).toBeGreaterThan(20)
    for (const f of all) expect(readFileSync(f, 'utf8')).not.toMatch(/^\s*import\s[^'"]*from\s+['"](@electric-sql\/pglite|pg)['"]/m)
    // and the core barrel does not reach the postgres module at all
    expect(readFileSync(join(src, 'index.ts'), 'utf8')).not.toMatch(/postgres/)
  })
})

describe('postgres: databaseError and quoteIdent', () => {
  it('reads SQLSTATE, message, detail and hint from a driver error; nothing from other errors', () => {
    expect(databaseError({ code: '23505', message: 'duplicate key', detail: 'Key (id)=(1) exists.', hint: '' })).toEqual({
      sqlstate: '23505',
      message: 'duplicate key',
      detail: 'Key (id)=(1) exists.',
    })
    expect(databaseError(new Error('ECONNREFUSED'))).toBeUndefined()
    expect(databaseError(Object.assign(new Error('x'), { code: 'ECONNREFUSED' }))).toBeUndefined()
    expect(databaseError('text')).toBeUndefined()
  })
  it('quotes identifiers, doubling inner quotes', () => {
    expect(quoteIdent('plain')).toBe('"plain"')
    expect(quoteIdent('we"ird')).toBe('"we""ird"')
  })
})

for (const target of targets)
  describe(`postgres on ${target.name}: the Database interface`, () => {
    it('queries with parameters, commits and rolls back transactions, and hears NOTIFY', async () => {
      const db = await target.open()
      const t = unique('emcp_db')
      try {
        expect((await db.query('select $1::int + 1 as n', [41])).rows).toEqual([{ n: 42 }])
        await db.exec(`create table ${t} (x int)`)
        await db.transaction(async (q) => {
          await q.query(`insert into ${t} values (1)`)
        })
        await expect(
          db.transaction(async (q) => {
            await q.query(`insert into ${t} values (2)`)
            throw new Error('changed my mind')
          }),
        ).rejects.toThrow('changed my mind')
        expect((await db.query(`select count(*)::int as n, max(x) as x from ${t}`)).rows).toEqual([{ n: 1, x: 1 }])
        const heard: string[] = []
        const stop = await db.listen('emcp_db_test', (p) => heard.push(p))
        await db.query(`select pg_notify('emcp_db_test', 'hello')`)
        for (const deadline = Date.now() + 15_000; heard.length === 0 && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 20))
        expect(heard).toEqual(['hello'])
        await stop()
      } finally {
        await db.exec(`drop table if exists ${t}`)
        await db.close()
      }
    }, 120_000)
  })

describe('postgres: pglite(instance)', () => {
  it('wraps an existing instance', async () => {
    const { PGlite } = await import('@electric-sql/pglite')
    const instance = await PGlite.create()
    const db = await pglite(instance as never)
    expect(db.kind).toBe('pglite')
    expect((await db.query('select 1 as one')).rows).toEqual([{ one: 1 }])
    await db.close()
  }, 120_000)
})

/** A pool of your own that answers only with promises: it ignores the callbacks `pg` takes. */
const promiseOnly = (pool: PgPoolLike): PgPoolLike => ({
  query: (sql, params) => pool.query(sql, params),
  connect: async () => {
    const client = (await pool.connect()) as PgPooledClient
    return {
      query: (config: never) => client.query(config),
      on: (event: never, f: never) => client.on(event, f),
      release: (err?: Error | boolean) => client.release(err),
    } as PgPooledClient
  },
  end: () => pool.end(),
})

for (const target of targets.filter((t) => t.name === 'PostgreSQL'))
  describe(`postgres on ${target.name}: call, one statement on a pooled connection`, () => {
    for (const kind of ['a pg Pool', 'a pool that answers only with promises'])
      it(`${kind}: many calls at once over few connections, database errors, a timeout, a connection killed mid-call`, async () => {
        // @ts-expect-error pg ships no types of its own
        const { default: pg } = await import('pg')
        const own = new pg.Pool({ connectionString: process.env.EMCP_TEST_DATABASE_URL, max: 4 })
        const db = await postgres(kind === 'a pg Pool' ? (own as unknown as PgPoolLike) : promiseOnly(own as unknown as PgPoolLike))
        try {
          const add = (i: number) => db.call('select $1::int + 7 as n', [i], 30_000).then((r) => r.rows[0]?.n)
          const divide = (i: number) => db.call('select 1 / ($1::int - $1::int) as n', [i], 30_000)
          const results = await Promise.allSettled(Array.from({ length: 40 }, (_, i) => (i % 3 === 0 ? divide(i) : add(i))))
          results.forEach((r, i) => {
            if (i % 3 === 0) expect(r.status === 'rejected' && databaseError(r.reason)?.sqlstate).toBe('22012')
            else expect(r).toEqual({ status: 'fulfilled', value: i + 7 })
          })
          // a statement past its timeout is cancelled; the next calls on the same connections run under theirs
          const slow = await Promise.allSettled(Array.from({ length: 6 }, () => db.call('select pg_sleep(0.2) as s', [], 20)))
          for (const r of slow) expect(r.status === 'rejected' && databaseError(r.reason)?.sqlstate).toBe('57014')
          expect((await db.call('select pg_sleep(0.05)::text as s', [], 30_000)).rows).toEqual([{ s: '' }])
          // connections that die under a call are dropped, not handed to the next caller
          const killed = await Promise.allSettled(Array.from({ length: 4 }, () => db.call('select pg_terminate_backend(pg_backend_pid())', [], 30_000)))
          for (const r of killed) expect(r.status).toBe('rejected')
          expect(await Promise.all(Array.from({ length: 12 }, (_, i) => add(i)))).toEqual(Array.from({ length: 12 }, (_, i) => i + 7))
        } finally {
          await db.close()
        }
      }, 120_000)
  })
