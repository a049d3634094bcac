/**
 * What PostgreSQL says of a `.sql` file's statement, learnt without running it: its
 * parameter types (`PREPARE`, then `pg_prepared_statements`), and its shape: a query's
 * columns (from `SELECT * FROM (<statement>) LIMIT 0`, which reads no row), or whether a
 * data-changing statement has `RETURNING` (`WITH r AS (<statement>)` prepares only then).
 * All of it happens in a read-only transaction that is always rolled back: nothing written
 * can happen, whatever the file says.
 *
 * @example
 * import { pglite } from 'emcp/postgres'
 * import { describeStatement } from './sql-describe.js'
 * const d = await describeStatement(await pglite(), 'select $1::int + 1 as n')
 * // { types: [23], shape: { kind: 'query', fields: [{ name: 'n', dataTypeID: 23 }] } }
 */
import type { Database, Field, Queryable } from './database.js'

// ---------------------------------------------------------------------------------------
// model

/** A query (its columns), a data-changing statement with `RETURNING`, or one that returns nothing. */
export type Shape = { readonly kind: 'query'; readonly fields: ReadonlyArray<Field> } | { readonly kind: 'returning' } | { readonly kind: 'void' }

/** The parameter types (oids) and the shape of a statement. */
export interface Described {
  readonly types: ReadonlyArray<number>
  readonly shape: Shape
}

// ---------------------------------------------------------------------------------------
// functions

/** Describes `statement` (one statement, without comments); throws PostgreSQL's error when it cannot be prepared. */
export const describeStatement = async (db: Database, statement: string): Promise<Described> => {
  try {
    await db.transaction(async (q) => {
      await q.query('SET TRANSACTION READ ONLY')
      const types = await parameterTypes(q, statement)
      const nulls = types.length > 0 ? `(${types.map(() => 'NULL').join(', ')})` : ''
      const fields = await attempt(q, `SELECT * FROM (${statement}) AS r LIMIT 0`, nulls)
      const shape: Shape =
        fields !== undefined ? { kind: 'query', fields } : (await prepares(q, `WITH r AS (${statement}) SELECT * FROM r`)) ? { kind: 'returning' } : { kind: 'void' }
      throw new Rollback({ types, shape })
    })
  } catch (e) {
    if (e instanceof Rollback) return e.described
    throw e
  }
  throw new Error('emcp/postgres: the description was lost')
}

// ---------------------------------------------------------------------------------------
// internals

/** Carries the description out of the transaction, which rolls back on the way. */
class Rollback {
  constructor(readonly described: Described) {}
}

const parameterTypes = async (q: Queryable, statement: string): Promise<number[]> => {
  await q.query(`PREPARE emcp_describe AS ${statement}`)
  try {
    const { rows } = await q.query(`SELECT to_jsonb(parameter_types::oid[]::int8[])::text AS types FROM pg_prepared_statements WHERE name = 'emcp_describe'`)
    return JSON.parse(String(rows[0]?.types ?? '[]')) as number[]
  } finally {
    // prepared statements outlive transactions
    await q.query('DEALLOCATE emcp_describe')
  }
}

/** True when `sql` prepares (parse analysis passes); nothing runs. */
const prepares = async (q: Queryable, sql: string): Promise<boolean> => {
  await q.query('SAVEPOINT emcp_try')
  try {
    await q.query(`PREPARE emcp_shape AS ${sql}`)
  } catch {
    await q.query('ROLLBACK TO SAVEPOINT emcp_try')
    return false
  }
  await q.query('DEALLOCATE emcp_shape')
  return true
}

/** The columns of `sql` (a query that reads no row), run with NULL arguments; undefined when it fails. */
const attempt = async (q: Queryable, sql: string, nulls: string): Promise<ReadonlyArray<Field> | undefined> => {
  await q.query('SAVEPOINT emcp_try')
  try {
    await q.query(`PREPARE emcp_shape AS ${sql}`)
  } catch {
    await q.query('ROLLBACK TO SAVEPOINT emcp_try')
    return undefined
  }
  try {
    return (await q.query(`EXECUTE emcp_shape${nulls}`)).fields
  } catch {
    await q.query('ROLLBACK TO SAVEPOINT emcp_try')
    return undefined
  } finally {
    await q.query('DEALLOCATE emcp_shape')
  }
}
