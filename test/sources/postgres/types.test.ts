/**
 * PostgreSQL types as JSON (src/sources/postgres/types.ts): the schema each type gets, and values
 * through the SQL it generates (JSON argument -> value -> JSON result) on each database.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Database } from '../../../src/sources/postgres/index.js'
import { quoteIdent } from '../../../src/sources/postgres/database.js'
import { fromJson, nullable, objectOf, schemaOf, toJson, typeReader, type PgType } from '../../../src/sources/postgres/types.js'
import { targets, unique } from './targets.js'

describe('postgres types: nullable', () => {
  it('adds null to a typed schema and its enum, once; leaves an untyped one alone', () => {
    expect(nullable({ type: 'string', enum: ['a'] })).toEqual({ type: ['string', 'null'], enum: ['a', null] })
    expect(nullable({ type: ['string', 'number'] })).toEqual({ type: ['string', 'number', 'null'] })
    expect(nullable({ type: ['string', 'null'] })).toEqual({ type: ['string', 'null'] })
    expect(nullable({ description: 'any JSON value (jsonb)' })).toEqual({ description: 'any JSON value (jsonb)' })
  })

  it('builds objects in the order given, past the 100-argument limit of json_build_object too', () => {
    expect(objectOf([])).toBe(`'{}'::json`)
    expect(objectOf([['b', 'x'], ["it's", 'y']])).toBe(`json_build_object('b', x, 'it''s', y)`)
    expect(objectOf(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'v'] as const))).toMatch(/^\(SELECT json_object_agg\(o\.k, o\.v ORDER BY o\.i\)/)
  })
})

for (const target of targets)
  describe(`postgres types on ${target.name}`, () => {
    let db: Database
    const schema = unique('types')
    const s = quoteIdent(schema)
    let read: (oid: number) => Promise<PgType>
    const typeNamed = async (sql: string): Promise<PgType> => read(Number((await db.query(`SELECT $1::regtype::oid::int8 AS oid`, [sql])).rows[0]?.oid))
    /** A JSON argument through fromJson, then the value back through toJson: the JSON text a call would give. */
    const roundTrip = async (t: PgType, value: unknown): Promise<unknown> => {
      const sql = `SELECT (${toJson(t, fromJson(t, `($1::jsonb -> 'v')`))})::text AS out`
      const out = (await db.query(sql, [JSON.stringify({ v: value })])).rows[0]?.out
      return out === null ? null : JSON.parse(String(out))
    }

    beforeAll(async () => {
      db = await target.open()
      read = typeReader(db)
      await db.query(`CREATE SCHEMA ${s}`)
      await db.query(`CREATE TYPE ${s}.mood AS ENUM ('sad', 'ok', 'happy')`)
      await db.query(`COMMENT ON TYPE ${s}.mood IS 'How one feels.'`)
      await db.query(`CREATE DOMAIN ${s}.percent AS numeric CHECK (VALUE BETWEEN 0 AND 100)`)
      await db.query(`CREATE TYPE ${s}.line AS (zeta text, alpha numeric, tags int4[], raw bytea)`)
    }, 60_000)
    afterAll(async () => {
      await db.query(`DROP SCHEMA ${s} CASCADE`)
      await db.close()
    })

    it('reads base types, and gives each the schema of its JSON form', async () => {
      const schemas = await Promise.all(['int2', 'int4', 'int8', 'float8', 'numeric', 'bool', 'text', 'uuid', 'date', 'timestamptz', 'bytea', 'jsonb', 'inet'].map(async (n) => schemaOf(await typeNamed(n))))
      expect(schemas).toEqual([
        { type: 'integer', minimum: -32768, maximum: 32767 },
        { type: 'integer', minimum: -2147483648, maximum: 2147483647 },
        { type: 'integer', description: 'bigint (exact up to 2^53 as JSON)' },
        { type: 'number' },
        { type: 'string', pattern: '^-?(\\d+(\\.\\d*)?|\\.\\d+)([eE][-+]?\\d+)?$', description: 'numeric, as a decimal string (exact)' },
        { type: 'boolean' },
        { type: 'string' },
        { type: 'string', format: 'uuid' },
        { type: 'string', format: 'date' },
        { type: 'string', format: 'date-time' },
        { type: 'string', contentEncoding: 'base64', description: 'bytes, base64-encoded' },
        { description: 'any JSON value (jsonb)' },
        { type: 'string', description: "inet, in PostgreSQL's text form" },
      ])
      // an argument of type numeric may also be a JSON number
      expect(schemaOf(await typeNamed('numeric'), 'in')).toMatchObject({ type: ['string', 'number'] })
    })

    it('reads enums, domains, composites and arrays from the catalog, with their comments', async () => {
      const mood = await typeNamed(`${schema}.mood`)
      expect(mood).toMatchObject({ kind: 'enum', labels: ['sad', 'ok', 'happy'], description: 'How one feels.' })
      expect(schemaOf(mood)).toEqual({ type: 'string', enum: ['sad', 'ok', 'happy'], description: 'How one feels.' })
      const percent = await typeNamed(`${schema}.percent`)
      expect(percent).toMatchObject({ kind: 'domain', base: { kind: 'base', name: 'numeric' } })
      expect(schemaOf(percent).description).toBe(`${percent.sql} (a domain over numeric)`)
      const line = await typeNamed(`${schema}.line`)
      expect(line.kind === 'composite' && line.fields.map((f) => f.name)).toEqual(['zeta', 'alpha', 'tags', 'raw'])
      const lineSchema = schemaOf(line)
      expect(lineSchema).toMatchObject({ type: 'object', additionalProperties: false })
      expect(Object.keys(lineSchema.properties as object)).toEqual(['zeta', 'alpha', 'tags', 'raw'])
      expect((lineSchema.properties as Record<string, unknown>).tags).toEqual({ type: ['array', 'null'], items: { type: ['integer', 'null'], minimum: -2147483648, maximum: 2147483647 } })
      expect(await typeNamed('int4[]')).toMatchObject({ kind: 'array', element: { kind: 'base', name: 'int4' } })
      expect(await typeNamed('anyelement')).toMatchObject({ kind: 'pseudo' })
      expect(schemaOf(await typeNamed('anyelement'))).toEqual({})
    })

    it('carries values through exactly: numeric as its digits, bigint, bytea as base64, dates, enums', async () => {
      expect(await roundTrip(await typeNamed('numeric'), '12345678901234567890.123456789')).toBe('12345678901234567890.123456789')
      expect(await roundTrip(await typeNamed('numeric'), 2.5)).toBe('2.5')
      expect(await roundTrip(await typeNamed('int8'), 9007199254740991)).toBe(9007199254740991)
      const bytes = Buffer.from(Array.from({ length: 100 }, (_, i) => i)).toString('base64')
      // longer than the 76 characters after which encode() would break the line
      expect(await roundTrip(await typeNamed('bytea'), bytes)).toBe(bytes)
      expect(await roundTrip(await typeNamed('date'), '2026-12-01')).toBe('2026-12-01')
      expect(await roundTrip(await typeNamed('timestamptz'), '2026-12-01T10:00:00Z')).toMatch(/^2026-12-01T10:00:00(\+00:00|Z)$/)
      expect(await roundTrip(await typeNamed(`${schema}.mood`), 'happy')).toBe('happy')
      expect(await roundTrip(await typeNamed('jsonb'), { b: [1, null] })).toEqual({ b: [1, null] })
      expect(await roundTrip(await typeNamed('int4'), null)).toBeNull()
    })

    it('carries composites with their keys in column order, arrays in order, and checks domains in the database', async () => {
      const line = await typeNamed(`${schema}.line`)
      const text = (await db.query(`SELECT (${toJson(line, fromJson(line, `($1::jsonb -> 'v')`))})::text AS out`, [
        JSON.stringify({ v: { alpha: '0.10', raw: 'AAE=', zeta: 'z', tags: [3, 1, 2] } }),
      ])).rows[0]?.out
      expect(text).toBe('{"zeta" : "z", "alpha" : "0.10", "tags" : [3,1,2], "raw" : "AAE="}')
      expect(await roundTrip(await typeNamed('numeric[]'), ['1.10', 2, null])).toEqual(['1.10', '2', null])
      expect(await roundTrip(await typeNamed('int4[]'), [])).toEqual([])
      const percent = await typeNamed(`${schema}.percent`)
      expect(await roundTrip(percent, '42.5')).toBe('42.5')
      await expect(roundTrip(percent, 101)).rejects.toThrow(/percent/)
    })
  })
