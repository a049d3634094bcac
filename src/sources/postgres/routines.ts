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
import type { ToolAnnotations } from '../../contract/emcp.js'
import { runtimeTool, type RuntimeTool } from '../../contract/runtime-tool.js'
import type { JsonSchema } from '../../schema/schema.js'
import { annotations, type Annotations } from './annotations.js'
import { quoteIdent, type Queryable } from './database.js'
import { indexOfName, resolvedOf, substitute, unresolvable } from './resolved.js'
import { paramClaims } from './param-claims.js'
import { fromJson, literal, nullable, objectOf, schemaOf, toJson, typeReader, type PgType } from './types.js'

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
  /** Fills the resolved parameters of `params`, inside the call's transaction (`.sql` files; routines compute them in `sql`). */
  readonly resolve?: (q: Queryable, params: ReadonlyArray<unknown>) => Promise<ReadonlyArray<unknown>>
  /**
   * The call as one statement that sets the caller's identity itself (`$1` the arguments as
   * JSON, `$2` the subject, `$3` the roles), run alone in one round trip when no role is to be
   * set (functions have it; procedures and files run in a transaction).
   */
  readonly alone?: (present: ReadonlySet<string>) => string
}

/** A tool read from the database, before it has a handler. */
export interface DbTool {
  readonly tool: RuntimeTool
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
    // NpgsqlRest's tags of a routine, for its `for`, `disabled` and `enabled` lines
    const tags = [r.kind === 'p' ? 'procedure' : 'function', { i: 'immutable', s: 'stable', v: 'volatile' }[r.volatility]]
    const a = annotations(r.comment, r.name, { tags })
    if (!a.tool) continue
    if (a.disabled) {
      skipped.push({ source, reason: 'its comment says disabled (NpgsqlRest)' })
      continue
    }
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
WHERE n.nspname IN (SELECT jsonb_array_elements_text($1::jsonb)) AND p.prokind IN ('f', 'p') AND d.description ILIKE '%mcp%'
ORDER BY n.nspname, p.proname, p.oid`

interface Param {
  readonly name: string | undefined
  readonly type: PgType
  readonly mode: string
  readonly hasDefault: boolean
}

const routineTool = async (
  r: RoutineRow,
  a: Annotations,
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
  const params = inputs.map((p, i) => ({ ...p, hasDefault: i >= inputs.length - r.ndefaults }))
  for (const p of params) if (p.type.kind === 'pseudo') return `parameter of pseudo-type ${p.type.sql} cannot be given as JSON`
  const resolved = resolvedOf(a.assignments, params.map((p) => p.name ?? ''))
  const refused = unresolvable(resolved, params.map((p) => p.name ?? ''))
  if (refused !== undefined) return refused
  const args = argumentsOf(params, resolved)
  const bound = paramClaims(a, params.map((p, i) => p.name ?? `arg${i + 1}`), args.props, resolved)
  if (typeof bound === 'string') return bound
  const callee = `${quoteIdent(r.schema)}.${quoteIdent(r.name)}`
  const made = await callOf(r, outputs, await typeOf(r.ret), callee, args)
  if (typeof made === 'string') return made
  const hints: ToolAnnotations =
    r.kind === 'f' && r.volatility !== 'v' ? { readOnlyHint: true, idempotentHint: true, openWorldHint: false } : { openWorldHint: false }
  const tool = runtimeTool({
    name,
    description: withSuffix(a.description, options),
    input: args.inputSchema,
    ...(made.output === undefined ? {} : { output: made.output }),
    ...bound,
    annotations: hints,
  })
  const fingerprint = JSON.stringify([tool.name, tool.description, tool.inputSchema, tool.outputSchema, a.authorize, bound.claims, r, made.statement.sql(new Set(args.props))])
  return { tool, authorize: a.authorize, statement: made.statement, fingerprint }
}

/** How a call passes its arguments: the input schema, and the SQL argument list for the arguments present. */
interface Arguments {
  readonly inputSchema: JsonSchema
  /** The input properties, in the parameters' order. */
  readonly props: ReadonlyArray<string>
  /** Which optional arguments are present: calls with the same key have the same SQL. */
  readonly key: (present: ReadonlySet<string>) => string
  /** The argument list reading the arguments' JSON from `src`, and whether it reads it at all. */
  readonly list: (present: ReadonlySet<string>, src: string) => { readonly text: string; readonly usesArgs: boolean }
}

/**
 * The input schema from the parameters (without the resolved ones, which the server fills),
 * and the argument list: each argument read from the call's JSON by its type, each resolved
 * parameter computed by its SQL, in named notation when every parameter has a name (then a
 * missing argument with a default is left out, to its default).
 */
const argumentsOf = (params: ReadonlyArray<Param>, resolved: ReadonlyMap<number, string>): Arguments => {
  const named = params.every((p) => p.name !== undefined)
  const paramNames = params.map((p, i) => p.name ?? `arg${i + 1}`)
  const props = paramNames.map((p) => propertyName(p, paramNames))
  const given = params.flatMap((p, i) => (resolved.has(i) ? [] : [{ p, i, prop: props[i] as string }]))
  const inputSchema: JsonSchema = {
    type: 'object',
    properties: Object.fromEntries(given.map(({ p, prop }) => [prop, argumentSchema(p.type)])),
    ...(given.some(({ p }) => !(named && p.hasDefault)) ? { required: given.flatMap(({ p, prop }) => (named && p.hasDefault ? [] : [prop])) } : {}),
    additionalProperties: false,
  }
  const optional = given.filter(({ p }) => named && p.hasDefault).map(({ prop }) => prop)
  const key = (present: ReadonlySet<string>): string => optional.map((o) => (present.has(o) ? '1' : '0')).join('')
  const build = (present: ReadonlySet<string>, src: string): { text: string; usesArgs: boolean } => {
    const read = (i: number): string => fromJson((params[i] as Param).type, `(${src} -> ${literal(props[i] as string)})`)
    // each resolved parameter's SQL, with {name} standing for an argument or an earlier resolved value
    const computed = new Map<number, string>()
    const readers = new Set<number>()
    for (const [i, sql] of resolved) {
      const value = substitute(sql, (ph) => {
        const j = indexOfName(ph, paramNames)
        if (j === -1) return undefined
        if (!resolved.has(j) || readers.has(j)) readers.add(i)
        return resolved.has(j) ? (computed.get(j) ?? 'NULL') : read(j)
      })
      computed.set(i, `(${value})::${(params[i] as Param).type.sql}`)
    }
    let usesArgs = false
    const text = params
      .flatMap((p, i) => {
        const prop = props[i] as string
        if (!resolved.has(i) && named && p.hasDefault && !present.has(prop)) return []
        usesArgs ||= !resolved.has(i) || readers.has(i)
        const value = computed.get(i) ?? read(i)
        const variadic = p.mode === 'v' ? 'VARIADIC ' : ''
        return [named ? `${variadic}${quoteIdent(p.name as string)} => ${value}` : `${variadic}${value}`]
      })
      .join(', ')
    return { text, usesArgs }
  }
  return { inputSchema, props, key, list: memo((present, src) => `${src}|${key(present)}`, build) }
}

/** `f`, remembering its answers by `keyOf` (at most 256: the combinations of optional arguments are few). */
const memo = <A extends unknown[], R>(keyOf: (...a: A) => string, f: (...a: A) => R): ((...a: A) => R) => {
  const cache = new Map<string, R>()
  return (...a) => {
    const k = keyOf(...a)
    let made = cache.get(k)
    if (made === undefined) {
      made = f(...a)
      if (cache.size < 256) cache.set(k, made)
    }
    return made
  }
}

/** An argument's schema: its type's, or null (SQL NULL), unless a NOT NULL domain refuses it. */
const argumentSchema = (t: PgType): JsonSchema => (t.kind === 'domain' && t.notNull ? schemaOf(t, 'in') : nullable(schemaOf(t, 'in')))

/** The call's one statement, its result the SQL expression `value`, setting the caller's identity first: `$1` the arguments, `$2` the subject, `$3` the roles. */
const alone = (value: string): string =>
  // the settings row is computed before the select list that runs the routine; OFFSET 0 keeps it a row of its own
  `SELECT ${value} AS result FROM (SELECT CAST($1 AS jsonb) AS a, set_config('emcp.subject', $2, true) AS subject, set_config('emcp.roles', $3, true) AS roles OFFSET 0) AS emcp_call`

/** `toJson(t, x)` as a function of `x`, when it reads `x` once (a routine called there runs once); else undefined. */
const toJsonOnce = (t: PgType): ((x: string) => string) | undefined => {
  const mark = 'emcp_value_once'
  const parts = toJson(t, mark).split(mark)
  return parts.length === 2 ? (x) => `${parts[0] as string}${x}${parts[1] as string}` : undefined
}

/** The statement of a call, and its output schema, by what the routine returns; or why it cannot be served. */
const callOf = async (
  r: RoutineRow,
  outputs: ReadonlyArray<Param>,
  ret: PgType,
  callee: string,
  args: Arguments,
): Promise<{ readonly output: JsonSchema | undefined; readonly statement: Statement } | string> => {
  // the arguments travel as one JSON parameter, when the statement reads them
  const params = (values: { readonly [key: string]: unknown }): ReadonlyArray<unknown> =>
    args.list(new Set(Object.keys(values)), '$1::jsonb').usesArgs ? [JSON.stringify(values)] : []
  const list = (present: ReadonlySet<string>, src = '$1::jsonb'): string => args.list(present, src).text
  /** The statement from the SQL query of the call (`inner`), in a transaction and alone. */
  const statement = (inner: (present: ReadonlySet<string>, src?: string) => string, result: 'json' | 'void'): Statement => ({
    sql: memo(args.key, (present) => inner(present)),
    params,
    result,
    alone: memo(args.key, (present) => alone(`(${inner(present, 'emcp_call.a')})`)),
  })
  /**
   * The statement from a SQL expression of the call (`value`): the routine called in the
   * select list, not as a row source, so PostgreSQL can inline a SQL function and runs no
   * function scan or subquery for it (measured on add(a, b): about 6 of PostgreSQL's 45-55 µs of CPU per call).
   */
  const expression = (value: (present: ReadonlySet<string>, src: string) => string, result: 'json' | 'void'): Statement => ({
    sql: memo(args.key, (present) => `SELECT ${value(present, '$1::jsonb')} AS result`),
    params,
    result,
    alone: memo(args.key, (present) => alone(value(present, 'emcp_call.a'))),
  })
  const call = (present: ReadonlySet<string>, src: string): string => `${callee}(${list(present, src)})`
  if (r.kind === 'p') {
    if (outputs.length > 0) return 'procedures with OUT or INOUT parameters are not served (write a function)'
    return { output: undefined, statement: { sql: memo(args.key, (present) => `CALL ${callee}(${list(present)})`), params, result: 'void' } }
  }
  if (ret.kind === 'pseudo' && ret.sql === 'void') return { output: undefined, statement: expression((present, src) => `${call(present, src)}::text`, 'void') }
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
    const output = {
      type: 'object',
      properties: { rows: { type: 'array', description: `the rows ${r.name} returns, in its order`, items: itemSchema } },
      required: ['rows'],
      additionalProperties: false,
    }
    const inner = (present: ReadonlySet<string>, src?: string): string =>
      `SELECT json_build_object('rows', coalesce(json_agg(${item} ORDER BY r.o), '[]'::json))::text AS result FROM ${callee}(${list(present, src)}) WITH ORDINALITY AS r(${aliases.join(', ')}, o)`
    return { output, statement: statement(inner, 'json') }
  }
  const output =
    columns === undefined
      ? { type: 'object', properties: { value: { ...itemSchema, description: `the ${ret.sql} ${r.name} returns` } }, required: ['value'], additionalProperties: false }
      : itemSchema
  // a scalar whose JSON reads it once: the routine in the select list; else a row source, read by column
  const once = columns === undefined ? toJsonOnce(ret) : undefined
  if (once !== undefined) return { output, statement: expression((present, src) => `(json_build_object('value', ${once(call(present, src))}))::text`, 'json') }
  const body = columns === undefined ? `json_build_object('value', ${item})` : item
  const inner = (present: ReadonlySet<string>, src?: string): string => `SELECT (${body})::text AS result FROM ${callee}(${list(present, src)}) AS r(${aliases.join(', ')})`
  return { output, statement: statement(inner, 'json') }
}
