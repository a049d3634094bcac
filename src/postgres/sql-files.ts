/**
 * `.sql` files as tools: a file whose leading comment carries `@mcp` is served like an
 * annotated routine. Its statement uses `$1`, `$2`, … whose types PostgreSQL infers; the
 * comment names them in order with `@param <name> [description]` (otherwise `arg1`, …). A
 * query's rows come back typed (`{rows: [...]}`); a statement with `RETURNING` gives its
 * rows as objects; any other statement gives no structured output.
 *
 * @example
 * // queries/find_products.sql:
 * //   -- Products whose name contains the text.
 * //   -- @mcp
 * //   -- @param text what to look for
 * //   select id, name from store.products where name ilike '%' || $1 || '%'
 * import { fromPostgres, pglite } from 'emcp/postgres'
 * const pg = await fromPostgres(await pglite(), { sqlFiles: ['queries/find_products.sql'] })
 */
import { readFile } from 'node:fs/promises'
import { basename } from 'node:path'
import { emcp, type AnyTool } from '../emcp.js'
import type { JsonSchema } from '../schema.js'
import { annotations } from './annotations.js'
import type { Database } from './database.js'
import { propertyName, toolName, withSuffix, type DbTool, type Found, type NamingOptions, type Statement } from './routines.js'
import { baseOf, nullable, objectOf, schemaOf, toJson, typeReader, type PgType } from './types.js'

// ---------------------------------------------------------------------------------------
// model

/** A `.sql` file: its path (for messages and the default name) and, optionally, its text. */
export interface SqlFile {
  readonly path: string
  readonly text?: string
}

// ---------------------------------------------------------------------------------------
// functions

/** Splits a file into its leading comment (without the comment marks) and its statement. */
export const splitSqlFile = (text: string): { readonly comment: string; readonly statement: string } => {
  let rest = text.replace(/^\uFEFF/, '')
  const lines: string[] = []
  for (;;) {
    const trimmed = rest.replace(/^\s+/, '')
    if (trimmed.startsWith('--')) {
      const end = trimmed.indexOf('\n')
      lines.push(trimmed.slice(2, end === -1 ? undefined : end))
      rest = end === -1 ? '' : trimmed.slice(end + 1)
    } else if (trimmed.startsWith('/*')) {
      const end = trimmed.indexOf('*/')
      const body = trimmed.slice(2, end === -1 ? undefined : end)
      lines.push(...body.split(/\r?\n/).map((l) => l.replace(/^\s*\*(?!\/)/, '')))
      rest = end === -1 ? '' : trimmed.slice(end + 2)
    } else {
      rest = trimmed
      break
    }
  }
  return { comment: lines.join('\n'), statement: rest.trim().replace(/;\s*$/, '').trim() }
}

/** Reads the files; those without `@mcp` in their leading comment are left out with a warning. */
export const readSqlFiles = async (db: Database, files: ReadonlyArray<string | SqlFile>, options: NamingOptions): Promise<Found> => {
  const tools: DbTool[] = []
  const skipped: { source: string; reason: string }[] = []
  const warnings: string[] = []
  const typeOf = typeReader(db)
  for (const f of files) {
    const file = typeof f === 'string' ? { path: f } : f
    const text = file.text ?? (await readFile(file.path, 'utf8'))
    const { comment, statement } = splitSqlFile(text)
    const a = annotations(comment, basename(file.path).replace(/\.sql$/i, ''))
    if (!a.tool) {
      warnings.push(`${file.path}: its leading comment does not carry @mcp; not served`)
      continue
    }
    warnings.push(...a.warnings)
    try {
      const made = await fileTool(db, typeOf, statement, comment, a, options)
      if (typeof made === 'string') skipped.push({ source: file.path, reason: made })
      else tools.push({ ...made, source: file.path })
    } catch (e) {
      skipped.push({ source: file.path, reason: `PostgreSQL cannot prepare its statement: ${e instanceof Error ? e.message : String(e)}` })
    }
  }
  return { tools, skipped, warnings }
}

// ---------------------------------------------------------------------------------------
// internals

type Shape = { readonly kind: 'query'; readonly fields: ReadonlyArray<{ readonly name: string; readonly dataTypeID: number }> } | { readonly kind: 'returning' | 'void' }

/** The parameter types and the shape of a statement. */
interface Described {
  readonly types: ReadonlyArray<number>
  readonly shape: Shape
}

/** Carries the description out of the transaction, which rolls back on the way: the statement may have written. */
class Rollback {
  constructor(readonly described: Described) {}
}

/** What PostgreSQL says of the statement, learnt in a transaction that is always rolled back. */
const describeStatement = async (db: Database, statement: string): Promise<Described> => {
  try {
    await db.transaction(async (q) => {
      await q.query(`PREPARE emcp_describe AS ${statement}`)
      let types: number[]
      try {
        const { rows } = await q.query(
          `SELECT to_jsonb(parameter_types::oid[]::int8[])::text AS types FROM pg_prepared_statements WHERE name = 'emcp_describe'`,
        )
        types = JSON.parse(String(rows[0]?.types ?? '[]')) as number[]
      } finally {
        // prepared statements outlive transactions
        await q.query('DEALLOCATE emcp_describe')
      }
      const nulls = types.map(() => 'NULL').join(', ')
      const attempt = async (sql: string): Promise<ReadonlyArray<{ name: string; dataTypeID: number }> | undefined> => {
        await q.query('SAVEPOINT emcp_try')
        try {
          await q.query(`PREPARE emcp_shape AS ${sql}`)
        } catch {
          await q.query('ROLLBACK TO SAVEPOINT emcp_try')
          return undefined
        }
        try {
          return (await q.query(`EXECUTE emcp_shape${types.length > 0 ? `(${nulls})` : ''}`)).fields
        } catch {
          await q.query('ROLLBACK TO SAVEPOINT emcp_try')
          return undefined
        } finally {
          await q.query('DEALLOCATE emcp_shape')
        }
      }
      const fields = await attempt(`SELECT * FROM (${statement}) AS r LIMIT 0`)
      const shape: Shape =
        fields !== undefined
          ? { kind: 'query', fields }
          : (await attempt(`WITH r AS (${statement}) SELECT * FROM r LIMIT 0`)) !== undefined
            ? { kind: 'returning' }
            : { kind: 'void' }
      throw new Rollback({ types, shape })
    })
  } catch (e) {
    if (e instanceof Rollback) return e.described
    throw e
  }
  throw new Error('emcp/postgres: the description was lost')
}

const fileTool = async (
  db: Database,
  typeOf: (oid: number) => Promise<PgType>,
  statement: string,
  comment: string,
  a: ReturnType<typeof annotations>,
  options: NamingOptions,
): Promise<Omit<DbTool, 'source'> | string> => {
  const name = toolName(a.name, options)
  if (typeof name !== 'string') return name.reason
  const learnt = await describeStatement(db, statement)
  const types = await Promise.all(learnt.types.map(typeOf))
  for (const t of types) if (baseOf(t).kind === 'composite' || baseOf(t).kind === 'pseudo') return `parameter of type ${t.sql} is not supported in .sql files (write a function)`
  const declared = comment
    .split(/\r?\n/)
    // `\S` after the blanks: `\s+(.*)` could split a run of blanks n ways (quadratic)
    .map((l) => /^\s*@param\s+([A-Za-z_][A-Za-z0-9_]*)(?:\s+(\S.*)?)?$/.exec(l))
    .filter((m): m is RegExpExecArray => m !== null)
  const names = types.map((_, i) => declared[i]?.[1] ?? `arg${i + 1}`)
  const props = names.map((n) => propertyName(n, names))
  const inputSchema: JsonSchema = {
    type: 'object',
    properties: Object.fromEntries(
      types.map((t, i) => {
        const description = declared[i]?.[2]?.trim()
        const s = schemaOf(t)
        return [props[i], description === undefined || description === '' ? s : { ...s, description }]
      }),
    ),
    ...(props.length > 0 ? { required: props } : {}),
    additionalProperties: false,
  }
  const params = (args: { readonly [key: string]: unknown }): ReadonlyArray<unknown> => types.map((t, i) => textForm(t, args[props[i] as string]))
  let output: JsonSchema | undefined
  let st: Statement
  const shape = learnt.shape
  if (shape.kind === 'query') {
    const columns = await Promise.all(shape.fields.map(async (f) => ({ name: f.name, type: await typeOf(f.dataTypeID) })))
    const item = objectOf(columns.map((c) => [c.name, toJson(c.type, `r.${quote(c.name)}`)]))
    output = {
      type: 'object',
      properties: {
        rows: {
          type: 'array',
          items: {
            type: 'object',
            properties: Object.fromEntries(columns.map((c) => [c.name, nullable(schemaOf(c.type))])),
            required: columns.map((c) => c.name),
            additionalProperties: false,
          },
        },
      },
      required: ['rows'],
      additionalProperties: false,
    }
    st = { sql: () => `SELECT jsonb_build_object('rows', coalesce(jsonb_agg(${item}), '[]'::jsonb))::text AS result FROM (${statement}) AS r`, params, result: 'json' }
  } else if (shape.kind === 'returning') {
    output = { type: 'object', properties: { rows: { type: 'array', items: { type: 'object' } } }, required: ['rows'], additionalProperties: false }
    st = { sql: () => `WITH r AS (${statement}) SELECT jsonb_build_object('rows', coalesce(jsonb_agg(to_jsonb(r)), '[]'::jsonb))::text AS result FROM r`, params, result: 'json' }
  } else st = { sql: () => statement, params, result: 'void' }
  const tool = emcp({
    name,
    description: withSuffix(a.description, options),
    input: inputSchema as { type: 'object' },
    ...(output === undefined ? {} : { output: output as { type: 'object' } }),
    annotations: shape.kind === 'query' ? { readOnlyHint: true, openWorldHint: false } : { openWorldHint: false },
  } as never) as unknown as AnyTool
  const fingerprint = JSON.stringify([tool.name, tool.description, tool.inputSchema, tool.outputSchema, a.authorize, statement])
  return { tool, authorize: a.authorize, statement: st, fingerprint }
}

const quote = (n: string): string => `"${n.replace(/"/g, '""')}"`

/** An argument in PostgreSQL's text form (data, never SQL): scalars, JSON, bytes, arrays of scalars. */
const textForm = (t: PgType, v: unknown): unknown => {
  if (v === undefined || v === null) return null
  const b = baseOf(t)
  if (b.kind === 'base' && (b.name === 'json' || b.name === 'jsonb')) return JSON.stringify(v)
  if (b.kind === 'base' && b.name === 'bytea') return Buffer.from(String(v), 'base64')
  if (b.kind === 'array') return `{${(v as ReadonlyArray<unknown>).map((e) => arrayElement(b.element, e)).join(',')}}`
  return String(v)
}

const arrayElement = (t: PgType, v: unknown): string => {
  if (v === null || v === undefined) return 'NULL'
  const b = baseOf(t)
  if (b.kind === 'array') return `{${(v as ReadonlyArray<unknown>).map((e) => arrayElement(b.element, e)).join(',')}}`
  const text = b.kind === 'base' && (b.name === 'json' || b.name === 'jsonb') ? JSON.stringify(v) : b.kind === 'base' && b.name === 'bytea' ? `\\x${Buffer.from(String(v), 'base64').toString('hex')}` : String(v)
  return `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`
}
