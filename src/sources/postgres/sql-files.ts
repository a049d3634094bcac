/**
 * `.sql` files as tools. A file is a tool when its comments carry an MCP annotation
 * (`@mcp`, `@mcp <text>`, `@mcp_description`, `@mcp_desc`, `@mcp_name`; read by the same
 * parser as routines' comments, every comment of the file counts, as in NpgsqlRest); any
 * other file is left out with a warning and never run (setup scripts are `runScripts`'
 * business). Its one statement uses `$1`, `$2`, ... (or NpgsqlRest's named `:name`) whose
 * types PostgreSQL infers; the comments name (and may retype) them: NpgsqlRest's `@param $1
 * name [type]`, `@param $1 is name`, `@param $1 default null`, `@param :name type`, or
 * `@param name [description]` in order (otherwise `arg1`, ...). A query's rows come back typed (`{rows: [...]}`), a statement with `RETURNING` gives
 * its rows as objects; any other statement gives no structured output.
 *
 * @example
 * // queries/find_products.sql:
 * //   -- Products whose name contains the text.
 * //   -- @mcp
 * //   -- @param $1 text
 * //   select id, name from store.products where name ilike '%' || $1 || '%'
 * import { fromPostgres, pglite } from 'emcp/postgres'
 * const pg = await fromPostgres(await pglite(), { sqlFiles: ['queries/find_products.sql'] })
 */
import { readFile } from 'node:fs/promises'
import { basename } from 'node:path'
import { runtimeTool } from '../../contract/runtime-tool.js'
import { paramClaims } from './param-claims.js'
import type { JsonSchema } from '../../schema/schema.js'
import { annotations, type Annotations, type ParamLine } from './annotations.js'
import type { Database, Queryable } from './database.js'
import { indexOfName, resolvedOf, substitute, unresolvable } from './resolved.js'
import { propertyName, toolName, withSuffix, type DbTool, type Found, type NamingOptions, type Statement } from './routines.js'
import { describeStatement } from './sql-describe.js'
import { namedParams, replaceParams, scanSql } from './sql-text.js'
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

/**
 * A file's comments (every comment, without the comment marks, line by line) and its
 * statements (without their comments); `statement` is the first one.
 */
export const splitSqlFile = (text: string): { readonly comment: string; readonly statement: string; readonly statements: ReadonlyArray<string> } => {
  const { comments, statements } = scanSql(text.replace(/^\uFEFF/, ''))
  const codes = statements.map((st) => st.code)
  return { comment: comments.join('\n'), statement: codes[0] ?? '', statements: codes }
}

/** Reads the files; those without an MCP annotation are left out with a warning, never run. */
export const readSqlFiles = async (db: Database, files: ReadonlyArray<string | SqlFile>, options: NamingOptions): Promise<Found> => {
  const tools: DbTool[] = []
  const skipped: { source: string; reason: string }[] = []
  const warnings: string[] = []
  const typeOf = typeReader(db)
  for (const f of files) {
    const file = typeof f === 'string' ? { path: f } : f
    const text = file.text ?? (await readFile(file.path, 'utf8'))
    const { comment, statements } = splitSqlFile(text)
    const a = annotations(comment, basename(file.path).replace(/\.sql$/i, ''))
    if (!a.tool) {
      warnings.push(`${file.path}: no @mcp, @mcp_description, @mcp_desc or @mcp_name in its comments: not a tool, not served, not run (a setup script goes to --init)`)
      continue
    }
    warnings.push(...a.warnings)
    const why = a.disabled ? 'its comments say disabled (NpgsqlRest)' : statements.length !== 1 ? `it has ${statements.length} statements; a tool file has one` : undefined
    if (why !== undefined) {
      skipped.push({ source: file.path, reason: why })
      continue
    }
    try {
      const made = await fileTool(db, typeOf, statements[0] as string, a, options)
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

/** What the comments say of one parameter. */
interface FileParam {
  name?: string
  type?: string
  description?: string
  /** Absent from a call: this text (or NULL); the argument is then optional. */
  default?: string | null
}

const fileTool = async (db: Database, typeOf: (oid: number) => Promise<PgType>, code: string, a: Annotations, options: NamingOptions): Promise<Omit<DbTool, 'source'> | string> => {
  const name = toolName(a.name, options)
  if (typeof name !== 'string') return name.reason
  const named = namedParams(code)
  if (named.names.length > 0 && named.positional) return 'it mixes $n and :name parameters; use one style'
  const declared = fileParams(a.params, named.names)
  // a parameter retyped by its @param line is cast where the statement uses it
  const casts = new Map<number, string>()
  for (const [i, p] of declared) if (p.type !== undefined) casts.set(i + 1, (await typeOf(await typeOid(db, p.type))).sql)
  const statement = replaceParams(named.code, (n) => (casts.has(n) ? `$${n}::${casts.get(n) as string}` : `$${n}`))
  const learnt = await describeStatement(db, statement)
  const types = await Promise.all(learnt.types.map(typeOf))
  for (const t of types) if (baseOf(t).kind === 'composite' || baseOf(t).kind === 'pseudo') return `parameter of type ${t.sql} is not supported in .sql files (write a function)`
  const names = types.map((_, i) => declared.get(i)?.name ?? `arg${i + 1}`)
  const props = names.map((n) => propertyName(n, names))
  const resolved = resolvedOf(a.assignments, names)
  const refused = unresolvable(resolved, names)
  if (refused !== undefined) return refused
  const bound = paramClaims(a, names, props, resolved)
  if (typeof bound === 'string') return bound
  const given = types.flatMap((t, i) => (resolved.has(i) ? [] : [{ t, i, prop: props[i] as string, p: declared.get(i) ?? {} }]))
  const required = given.filter(({ p }) => p.default === undefined).map(({ prop }) => prop)
  const inputSchema: JsonSchema = {
    type: 'object',
    properties: Object.fromEntries(
      given.map(({ t, prop, p }) => {
        const s = nullable(schemaOf(t, 'in'))
        return [prop, p.description === undefined ? s : { ...s, description: p.description }]
      }),
    ),
    ...(required.length > 0 ? { required } : {}),
    additionalProperties: false,
  }
  const params = (args: { readonly [key: string]: unknown }): ReadonlyArray<unknown> =>
    types.map((t, i) => (resolved.has(i) ? null : (props[i] as string) in args ? textForm(t, args[props[i] as string]) : (declared.get(i)?.default ?? null)))
  const resolve = resolved.size === 0 ? undefined : resolver(resolved, names, types)
  const { output, st } = await outputOf(learnt.shape, statement, typeOf)
  const tool = runtimeTool({
    name,
    description: withSuffix(a.description, options),
    input: inputSchema,
    ...(output === undefined ? {} : { output }),
    ...bound,
    annotations: learnt.shape.kind === 'query' ? { readOnlyHint: true, openWorldHint: false } : { openWorldHint: false },
  })
  const fingerprint = JSON.stringify([tool.name, tool.description, tool.inputSchema, tool.outputSchema, a.authorize, bound.claims, statement, [...resolved]])
  return { tool, authorize: a.authorize, statement: { ...st, params, ...(resolve === undefined ? {} : { resolve }) }, fingerprint }
}

/** The output schema and the SQL of a call, by the statement's shape. */
const outputOf = async (
  shape: Awaited<ReturnType<typeof describeStatement>>['shape'],
  statement: string,
  typeOf: (oid: number) => Promise<PgType>,
): Promise<{ output: JsonSchema | undefined; st: Omit<Statement, 'params'> }> => {
  if (shape.kind === 'void') return { output: undefined, st: { sql: () => statement, result: 'void' } }
  if (shape.kind === 'returning')
    return {
      output: { type: 'object', properties: { rows: { type: 'array', items: { type: 'object' } } }, required: ['rows'], additionalProperties: false },
      st: { sql: () => `WITH r AS (${statement}) SELECT json_build_object('rows', coalesce(json_agg(to_json(r)), '[]'::json))::text AS result FROM r`, result: 'json' },
    }
  const columns = await Promise.all(shape.fields.map(async (f) => ({ name: f.name, type: await typeOf(f.dataTypeID) })))
  const item = objectOf(columns.map((c) => [c.name, toJson(c.type, `r.${quote(c.name)}`)]))
  const output: JsonSchema = {
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
  const sql = `SELECT json_build_object('rows', coalesce(json_agg(${item}), '[]'::json))::text AS result FROM (${statement}) AS r`
  return { output, st: { sql: () => sql, result: 'json' } }
}

/**
 * The `@param` lines, by parameter index: NpgsqlRest's forms address `$n` or a named
 * parameter (`named`, the `:name`s in order); emcp's `@param name [description]` lines name
 * the parameters in order.
 */
const fileParams = (lines: ReadonlyArray<ParamLine>, named: ReadonlyArray<string>): ReadonlyMap<number, FileParam> => {
  const out = new Map<number, FileParam>()
  named.forEach((name, i) => out.set(i, { name }))
  let next = 0
  const at = (i: number): FileParam => out.get(i) ?? (out.set(i, {}).get(i) as FileParam)
  for (const { words, text } of lines) {
    const n = /^\$([0-9]+)$/.exec(words[0] ?? '')
    const byName = n === null ? named.findIndex((x) => x.toLowerCase() === (words[0] ?? '').replace(/^:/, '').toLowerCase()) : -1
    if (byName !== -1) {
      // `name default v`, `name type is T`, `:name T`
      const p = at(byName)
      const lower = words.slice(1).map((w) => w.toLowerCase())
      if (lower[0] === 'default') p.default = defaultOf(text)
      else if (lower[0] === 'type' && lower[1] === 'is') p.type = words[3]
      else if (words[1] !== undefined) p.type = words[1]
      continue
    }
    if (n === null) {
      // emcp's positional form; in a file with named parameters, a line naming none of them is left alone
      if (named.length > 0) continue
      if (words[0] === undefined || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(words[0])) continue
      const p = at(next++)
      p.name = words[0]
      const description = text.slice(text.indexOf(words[0]) + words[0].length).trim()
      if (description !== '') p.description = description
      continue
    }
    const p = at(Number(n[1]) - 1)
    const after = words.slice(1)
    const lower = after.map((w) => w.toLowerCase())
    if (lower[0] === 'is' && ((lower[1] === 'hash' && lower[2] === 'of') || (lower[1] === 'upload' && lower[2] === 'metadata'))) continue
    if (lower[0] === 'default') p.default = defaultOf(text)
    else if (lower[0] === 'type' && lower[1] === 'is') p.type = after[2]
    else {
      // `$1 name [type]`, `$1 is name [type]`, either with `type is T` for the type
      const [newName, ...rest] = lower[0] === 'is' ? after.slice(1) : after
      if (newName !== undefined) p.name = newName
      const type = rest[0]?.toLowerCase() === 'type' && rest[1]?.toLowerCase() === 'is' ? rest[2] : rest[0]
      if (type !== undefined) p.type = type
    }
  }
  return out
}

/** The value after `default` in a `@param` line: NULL, or the text (a quoted literal unquoted). */
const defaultOf = (text: string): string | null => {
  const value = text.slice(text.toLowerCase().indexOf('default') + 'default'.length).trim()
  return /^null$/i.test(value) ? null : value.replace(/^'(.*)'$/s, '$1').replace(/''/g, "'")
}

/** The oid of a type named in a comment; throws when PostgreSQL knows no such type. */
const typeOid = async (db: Queryable, name: string): Promise<number> => {
  const { rows } = await db.query('SELECT to_regtype($1)::oid::int8 AS oid', [name])
  const oid = rows[0]?.oid
  if (oid === null || oid === undefined) throw new Error(`type ${name} of a @param line does not exist`)
  return Number(oid)
}

/** Works out the resolved parameters of a call, in order, each by its SQL with the values known so far. */
const resolver =
  (resolved: ReadonlyMap<number, string>, names: ReadonlyArray<string>, types: ReadonlyArray<PgType>) =>
  async (q: Queryable, params: ReadonlyArray<unknown>): Promise<ReadonlyArray<unknown>> => {
    const values = [...params]
    for (const [i, sql] of resolved) {
      const bound: unknown[] = []
      const text = substitute(sql, (ph) => {
        const j = indexOfName(ph, names)
        if (j === -1) return undefined
        bound.push(values[j])
        return `$${bound.length}::${(types[j] as PgType).sql}`
      })
      const { rows } = await q.query(`SELECT ((${text}))::text AS v`, bound)
      values[i] = rows[0]?.v ?? null
    }
    return values
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
