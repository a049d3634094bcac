/**
 * Annotated routines as tools: reads the functions and procedures of the chosen schemas
 * whose comment carries `@mcp`, and makes each a contract (input schema from the
 * parameters, output schema from the return type) with a handler that calls the routine in
 * one parameterized statement. Routines that cannot be served are reported with a reason.
 *
 * @example
 * import { pglite } from 'emcp/postgres'
 * import { readRoutines } from './routines.js'
 * const db = await pglite()
 * await db.exec(`create function hello(_who text) returns text language sql as $$ select 'hello ' || _who $$;
 *                comment on function hello(text) is '@mcp Greets someone.'`)
 * const { tools } = await readRoutines(db, { schemas: ['public'] })
 * tools[0]?.tool.inputSchema // { type: 'object', properties: { who: { type: 'string' } }, required: ['who'], ... }
 */
import { emcp, type AnyTool, type ToolAnnotations } from '../emcp.js'
import type { JsonSchema } from '../schema.js'
import { annotations } from './annotations.js'
import { quoteIdent, type Queryable } from './database.js'
import { fromJson, nullable, objectOf, schemaOf, toJson, typeReader, type PgType } from './types.js'

// ---------------------------------------------------------------------------------------
// model

/** How a served statement is run: the SQL for the arguments present, and how to read its answer. */
export interface Statement {
  /** The SQL text for a call whose arguments are `present` (names of the input properties); `$1` is the arguments as JSON. */
  readonly sql: (present: ReadonlySet<string>) => string
  /** The statement's parameters for these arguments. */
  readonly params: (args: { readonly [key: string]: unknown }) => ReadonlyArray<unknown>
  /** What the statement's one row, one column (`result`, JSON text) becomes: structured output, or none. */
  readonly result: 'json' | 'void'
}

/** A tool read from the database, before it has a handler. */
export interface DbTool {
  readonly tool: AnyTool
  /** Who may call it (see `Annotations.authorize`). */
  readonly authorize: ReadonlyArray<string> | undefined
  /** What it runs. */
  readonly statement: Statement
  /** Where it came from: `schema.routine(types)`, or a file's path. */
  readonly source: string
  /** A fingerprint of everything the tool is made of: equal fingerprints, same tool. */
  readonly fingerprint: string
}

/** A routine or file that carries `@mcp` but is not served, and why. */
export interface Skipped {
  readonly source: string
  readonly reason: string
}

/** What reading the catalog found. */
export interface Found {
  readonly tools: ReadonlyArray<DbTool>
  readonly skipped: ReadonlyArray<Skipped>
  readonly warnings: ReadonlyArray<string>
}

/** How tools are named and described. */
export interface NamingOptions {
  /** Prepended to every tool name. */
  readonly prefix?: string
  /** Appended (after a blank line) to every description. */
  readonly descriptionSuffix?: string
}

/** What to read. */
export interface RoutineOptions extends NamingOptions {
  /** The schemas scanned (default `['public']`). */
  readonly schemas?: ReadonlyArray<string>
}

// ---------------------------------------------------------------------------------------
// functions

/** Reads every annotated routine of the schemas. */
export const readRoutines = async (db: Queryable, options: RoutineOptions = {}): Promise<Found> => {
  const schemas = options.schemas ?? ['public']
  const { rows } = await db.query(routineQuery, [JSON.stringify(schemas)])
  const typeOf = typeReader(db)
  const tools: DbTool[] = []
  const skipped: Skipped[] = []
  const warnings: string[] = []
  for (const row of rows) {
    const r = JSON.parse(String(row.info)) as RoutineRow
    const source = `${r.schema}.${r.name}(${r.signature})`
    const a = annotations(r.comment, r.name)
    if (!a.tool) continue
    warnings.push(...a.warnings)
    const made = await routineTool(r, a, typeOf, options)
    if (typeof made === 'string') skipped.push({ source, reason: made })
    else tools.push({ ...made, source })
  }
  return { tools, skipped, warnings }
}

/** The tool name: the prefix and the name, checked. */
export const toolName = (name: string, options: NamingOptions): string | { readonly reason: string } => {
  const full = `${options.prefix ?? ''}${name}`
  return /^[A-Za-z0-9._-]{1,128}$/.test(full) ? full : { reason: `invalid tool name ${JSON.stringify(full)}: use 1-128 of A-Z a-z 0-9 _ - . (set @mcp_name)` }
}

/** The description with the suffix. */
export const withSuffix = (description: string, options: NamingOptions): string =>
  options.descriptionSuffix === undefined || options.descriptionSuffix === '' ? description : `${description}\n\n${options.descriptionSuffix}`

/** The property name of a parameter: without one leading underscore (unless that makes it clash or vanish). */
export const propertyName = (param: string, all: ReadonlyArray<string>): string => {
  const bare = param.startsWith('_') ? param.slice(1) : param
  return bare === '' || (bare !== param && all.includes(bare)) ? param : bare
}

// ---------------------------------------------------------------------------------------
// internals

interface RoutineRow {
  readonly schema: string
  readonly name: string
  readonly signature: string
  readonly kind: 'f' | 'p'
  readonly comment: string | null
  readonly set: boolean
  readonly ret: number
  readonly argtypes: ReadonlyArray<number>
  readonly modes: ReadonlyArray<string> | null
  readonly names: ReadonlyArray<string> | null
  readonly ndefaults: number
  readonly volatility: 'i' | 's' | 'v'
}

const routineQuery = `SELECT jsonb_build_object(
  'schema', n.nspname, 'name', p.proname, 'signature', pg_get_function_identity_arguments(p.oid),
  'kind', p.prokind, 'comment', d.description, 'set', p.proretset, 'ret', p.prorettype::int8,
  'argtypes', coalesce(p.proallargtypes::int8[], p.proargtypes::oid[]::int8[]),
  'modes', p.proargmodes, 'names', p.proargnames, 'ndefaults', p.pronargdefaults,
  'volatility', p.provolatile)::text AS info
FROM pg_proc p
JOIN pg_namespace n ON n.oid = p.pronamespace
JOIN pg_description d ON d.objoid = p.oid AND d.classoid = 'pg_proc'::regclass AND d.objsubid = 0
WHERE n.nspname IN (SELECT jsonb_array_elements_text($1::jsonb)) AND p.prokind IN ('f', 'p') AND d.description LIKE '%@mcp%'
ORDER BY n.nspname, p.proname, p.oid`

interface Param {
  readonly name: string | undefined
  readonly type: PgType
  readonly mode: string
  readonly hasDefault: boolean
}

const routineTool = async (
  r: RoutineRow,
  a: ReturnType<typeof annotations>,
  typeOf: (oid: number) => Promise<PgType>,
  options: NamingOptions,
): Promise<Omit<DbTool, 'source'> | string> => {
  const name = toolName(a.name, options)
  if (typeof name !== 'string') return name.reason
  const all: Param[] = []
  for (const [i, oid] of r.argtypes.entries()) {
    const mode = r.modes?.[i] ?? 'i'
    const pname = r.names?.[i]
    all.push({ name: pname === undefined || pname === '' ? undefined : pname, type: await typeOf(oid), mode, hasDefault: false })
  }
  const inputs = all.filter((p) => p.mode === 'i' || p.mode === 'b' || p.mode === 'v')
  const outputs = all.filter((p) => p.mode === 'o' || p.mode === 'b' || p.mode === 't')
  // the last pronargdefaults inputs have defaults
  const withDefaults = inputs.map((p, i) => ({ ...p, hasDefault: i >= inputs.length - r.ndefaults }))
  const named = withDefaults.every((p) => p.name !== undefined)
  const paramNames = withDefaults.map((p, i) => p.name ?? `arg${i + 1}`)
  const props = paramNames.map((p) => propertyName(p, paramNames))
  for (const p of withDefaults) if (p.type.kind === 'pseudo') return `parameter of pseudo-type ${p.type.sql} cannot be given as JSON`

  const properties = Object.fromEntries(withDefaults.map((p, i) => [props[i], schemaOf(p.type)]))
  const required = withDefaults.flatMap((p, i) => (named && p.hasDefault ? [] : [props[i] as string]))
  const inputSchema: JsonSchema = { type: 'object', properties, ...(required.length > 0 ? { required } : {}), additionalProperties: false }

  const callee = `${quoteIdent(r.schema)}.${quoteIdent(r.name)}`
  const argsSql = (present: ReadonlySet<string>): string =>
    withDefaults
      .flatMap((p, i) => {
        const prop = props[i] as string
        if (named && p.hasDefault && !present.has(prop)) return []
        const value = fromJson(p.type, `($1::jsonb -> ${`'${prop.replace(/'/g, "''")}'`})`)
        const variadic = p.mode === 'v' ? 'VARIADIC ' : ''
        return [named ? `${variadic}${quoteIdent(p.name as string)} => ${value}` : `${variadic}${value}`]
      })
      .join(', ')

  // the arguments travel as one JSON parameter, when the call passes any
  const params = (args: { readonly [key: string]: unknown }): ReadonlyArray<unknown> =>
    argsSql(new Set(Object.keys(args))) === '' ? [] : [JSON.stringify(args)]
  const ret = await typeOf(r.ret)
  let output: JsonSchema | undefined
  let statement: Statement
  if (r.kind === 'p') {
    if (outputs.length > 0) return 'procedures with OUT or INOUT parameters are not served (write a function)'
    statement = { sql: (present) => `CALL ${callee}(${argsSql(present)})`, params, result: 'void' }
  } else if (ret.kind === 'pseudo' && ret.sql === 'void') {
    statement = { sql: (present) => `SELECT ${callee}(${argsSql(present)})`, params, result: 'void' }
  } else {
    const columns: ReadonlyArray<{ readonly name: string; readonly type: PgType; readonly description?: string }> | undefined =
      ret.kind === 'composite'
        ? ret.fields
        : outputs.length >= 2 || outputs.some((p) => p.mode === 't')
          ? outputs.map((p, i) => ({ name: p.name ?? `column${i + 1}`, type: p.type }))
          : undefined
    if (columns === undefined && ret.kind === 'pseudo')
      return `returns ${ret.sql} without OUT parameters: its columns are unknown (declare OUT parameters or RETURNS TABLE)`
    const aliases = (columns ?? [{ name: 'value', type: ret }]).map((_, i) => `c${i + 1}`)
    const item = columns === undefined ? toJson(ret, 'r.c1') : objectOf(columns.map((c, i) => [c.name, toJson(c.type, `r.c${i + 1}`)]))
    const itemSchema: JsonSchema =
      columns === undefined
        ? nullable(schemaOf(ret))
        : {
            type: 'object',
            properties: Object.fromEntries(
              columns.map((c) => [c.name, c.description === undefined ? nullable(schemaOf(c.type)) : { ...nullable(schemaOf(c.type)), description: c.description }]),
            ),
            required: columns.map((c) => c.name),
            additionalProperties: false,
          }
    if (r.set) {
      output = {
        type: 'object',
        properties: { rows: { type: 'array', description: `the rows ${r.name} returns, in its order`, items: itemSchema } },
        required: ['rows'],
        additionalProperties: false,
      }
      statement = {
        sql: (present) =>
          `SELECT jsonb_build_object('rows', coalesce(jsonb_agg(${item} ORDER BY r.o), '[]'::jsonb))::text AS result FROM ${callee}(${argsSql(present)}) WITH ORDINALITY AS r(${aliases.join(', ')}, o)`,
        params,
        result: 'json',
      }
    } else {
      output =
        columns === undefined
          ? { type: 'object', properties: { value: { ...itemSchema, description: `the ${ret.sql} ${r.name} returns` } }, required: ['value'], additionalProperties: false }
          : itemSchema
      const body = columns === undefined ? `jsonb_build_object('value', ${item})` : item
      statement = { sql: (present) => `SELECT (${body})::text AS result FROM ${callee}(${argsSql(present)}) AS r(${aliases.join(', ')})`, params, result: 'json' }
    }
  }

  const hints: ToolAnnotations =
    r.kind === 'f' && r.volatility !== 'v' ? { readOnlyHint: true, idempotentHint: true, openWorldHint: false } : { openWorldHint: false }
  const tool = emcp({
    name,
    description: withSuffix(a.description, options),
    input: inputSchema as { type: 'object' },
    ...(output === undefined ? {} : { output: output as { type: 'object' } }),
    annotations: hints,
  } as never) as unknown as AnyTool
  const fingerprint = JSON.stringify([tool.name, tool.description, tool.inputSchema, tool.outputSchema, a.authorize, r, statement.sql(new Set(props))])
  return { tool, authorize: a.authorize, statement, fingerprint }
}
