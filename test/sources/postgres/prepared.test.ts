/**
 * A statement run again on a connection that prepared it (Bind and Execute only, no Describe):
 * its rows and columns are those of its first run and of an unprepared query, for every kind
 * of column `pg` converts; its errors are PostgreSQL's; a statement whose columns changed
 * under it fails as PostgreSQL says, never with the old columns. On the real server only
 * (PGlite has no connections to prepare on).
 */
import { describe, expect, it } from 'vitest'
import { databaseError, postgres, type PgPoolLike } from '../../../src/sources/postgres/index.js'
import { targets, unique } from './targets.js'

/** A `pg` pool of one connection, and a count of the Describe messages its connections sent. */
const onePool = async () => {
  // @ts-expect-error pg ships no types of its own
  const { default: pg } = await import('pg')
  const pool = new pg.Pool({ connectionString: process.env.EMCP_TEST_DATABASE_URL, max: 1 })
  const sent = { describe: 0, bind: 0 }
  // the real connection's own methods, counted on the way through
  pool.on('connect', (client: { connection: Record<string, (...a: unknown[]) => unknown> }) => {
    const c = client.connection
    for (const m of ['describe', 'bind'] as const) {
      const own = c[m] as (...a: unknown[]) => unknown
      c[m] = (...a: unknown[]) => {
        sent[m]++
        return own.apply(c, a)
      }
    }
  })
  return { pool: pool as unknown as PgPoolLike, sent }
}

const everyKind = `select $1::int as i, $2::bigint as big, $3::numeric as num, $4::text as t, $5::bool as b,
  null::int as nothing, date '2024-02-29' as d, timestamptz '2024-01-02 03:04:05+00' as ts, '{"x":[1,2]}'::json as j,
  '{"y":null}'::jsonb as jb, array['a','b'] as arr, 1.5::float8 as f, 'dup-first' as dup, 'dup-last' as dup, $6::text as absent`

for (const target of targets.filter((t) => t.name === 'PostgreSQL'))
  describe(`postgres on ${target.name}: call, a prepared statement run again`, () => {
    it('gives the rows and columns of its first run and of an unprepared query, for every kind of column, with no Describe', async () => {
      const { pool, sent } = await onePool()
      const db = await postgres(pool)
      try {
        const params = [41, 9007199254740993n, '12345678901234567890.5', 'text "quoted"\n', true, null]
        const plain = await db.query(everyKind, params)
        const runs = []
        for (let i = 0; i < 4; i++) runs.push(await db.call(everyKind, params, 30_000))
        expect(sent.describe).toBe(2) // the unprepared query's and the first call's
        for (const r of runs) {
          expect(r.rows).toEqual(plain.rows)
          expect(r.fields.map((f) => [f.name, f.dataTypeID])).toEqual(plain.fields.map((f) => [f.name, f.dataTypeID]))
          expect(Object.keys(r.rows[0] ?? {})).toEqual(Object.keys(plain.rows[0] ?? {}))
        }
        const row = runs[3]?.rows[0] ?? {}
        expect(row).toMatchObject({ i: 41, big: '9007199254740993', num: '12345678901234567890.5', t: 'text "quoted"\n', b: true, nothing: null, absent: null, dup: 'dup-last' })
        expect(row.d).toBeInstanceOf(Date)
        expect((row.ts as Date).toISOString()).toBe('2024-01-02T03:04:05.000Z')
        expect(row).toMatchObject({ j: { x: [1, 2] }, jb: { y: null }, arr: ['a', 'b'], f: 1.5 })
        // several rows, in order; none at all
        const series = 'select g as n, g::text || $1 as s from generate_series(1, $2::int) as g'
        for (let i = 0; i < 3; i++) expect((await db.call(series, ['!', 3], 30_000)).rows).toEqual([1, 2, 3].map((n) => ({ n, s: `${n}!` })))
        expect((await db.call(series, ['!', 0], 30_000)).rows).toEqual([])
        // values pg converts itself (a date, an object) go the usual way, with the same answer
        const at = new Date('2024-05-06T07:08:09Z')
        for (let i = 0; i < 2; i++) expect((await db.call('select $1::timestamptz as at, $2::jsonb as o', [at, { k: 1 }], 30_000)).rows).toEqual([{ at, o: { k: 1 } }])
        expect(sent.bind).toBeGreaterThan(10)
      } finally {
        await db.close()
      }
    }, 120_000)

    it('answers PostgreSQL errors of a run again, and refuses a statement whose columns changed under it', async () => {
      const { pool } = await onePool()
      const db = await postgres(pool)
      const t = unique('emcp_prep')
      try {
        const divide = 'select 10 / $1::int as n'
        expect((await db.call(divide, [2], 30_000)).rows).toEqual([{ n: 5 }])
        await expect(db.call(divide, [0], 30_000)).rejects.toSatisfy((e) => databaseError(e)?.sqlstate === '22012')
        // the connection is fine after a database error, and the statement still prepared there
        expect((await db.call(divide, [5], 30_000)).rows).toEqual([{ n: 2 }])
        const bad = await db.call('select $1::int as n', ['x'], 30_000).catch((e: unknown) => e)
        expect(databaseError(bad)?.sqlstate).toBe('22P02')
        await db.exec(`create table ${t} (a int); insert into ${t} values (1)`)
        const all = `select * from ${t}`
        for (let i = 0; i < 2; i++) expect((await db.call(all, [], 30_000)).rows).toEqual([{ a: 1 }])
        await db.exec(`alter table ${t} add column b text default 'new'`)
        const changed = await db.call(all, [], 30_000).catch((e: unknown) => e)
        expect(databaseError(changed)?.sqlstate).toBe('0A000')
      } finally {
        await db.exec(`drop table if exists ${t}`)
        await db.close()
      }
    }, 120_000)
  })

if (!targets.some((t) => t.name === 'PostgreSQL'))
  describe('postgres: call, a prepared statement run again', () => {
    it.skipIf(process.env.CI !== 'true')('needs a real server (EMCP_TEST_DATABASE_URL)', () => {
      throw new Error('EMCP_TEST_DATABASE_URL is not set: the prepared-statement tests need a real PostgreSQL server')
    })
  })
