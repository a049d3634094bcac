/**
 * PostgreSQL types as JSON: for each type, the JSON Schema of its values, the SQL that turns
 * a JSON argument into a value of the type, and the SQL that turns a value back into JSON.
 * Types are read from the catalog (`pg_type`, `pg_enum`, `pg_attribute`) once each.
 *
 * Choices (docs/postgres.md has the table): `numeric` comes back as a string (exact; a JSON
 * number would round) and is taken as a JSON number or a decimal string, `bigint` as a JSON
 * integer (exact up to 2^53), `bytea` as base64, dates and times as RFC 3339 strings, enums
 * as their labels, composites as objects (keys in column order: results are built as `json`,
 * not `jsonb`, which would sort them), arrays as arrays, domains as their base type (their
 * checks run in the database).
 *
 * @example
 * import { pglite } from 'emcp/postgres'
 * import { typeReader, schemaOf, fromJson } from './types.js'
 * const read = typeReader(await pglite())
 * const int4 = await read(23)
 * schemaOf(int4)                   // { type: 'integer', minimum: -2147483648, maximum: 2147483647 }
 * fromJson(int4, `($1::jsonb->'n')`) // (($1::jsonb->'n') #>> '{}')::integer
 */
import type { JsonSchema } from '../../schema/schema.js'
import { quoteIdent, type Queryable } from './database.js'

// ---------------------------------------------------------------------------------------
// model

/** A type as the catalog describes it, with what it is made of. */
export type PgType =
  | { readonly kind: 'base'; readonly oid: number; readonly name: string; readonly sql: string; readonly description?: string }
  | { readonly kind: 'enum'; readonly oid: number; readonly sql: string; readonly labels: ReadonlyArray<string>; readonly description?: string }
  | { readonly kind: 'array'; readonly oid: number; readonly sql: string; readonly element: PgType }
  | { readonly kind: 'domain'; readonly oid: number; readonly sql: string; readonly base: PgType; readonly notNull: boolean; readonly description?: string }
  | {
      readonly kind: 'composite'
      readonly oid: number
      readonly sql: string
      readonly fields: ReadonlyArray<{ readonly name: string; readonly type: PgType; readonly description?: string }>
      readonly description?: string
    }
  | { readonly kind: 'pseudo'; readonly oid: number; readonly sql: string }

// ---------------------------------------------------------------------------------------
// constructors

/** Reads types by oid from the catalog, each once. */
export const typeReader = (db: Queryable) => {
  const cache = new Map<number, Promise<PgType>>()
  const read = (oid: number): Promise<PgType> => {
    let t = cache.get(oid)
    if (t === undefined) cache.set(oid, (t = load(oid)))
    return t
  }
  const load = async (oid: number): Promise<PgType> => {
    const { rows } = await db.query(typeQuery, [oid])
    const text = rows[0]?.info
    if (typeof text !== 'string') throw new Error(`emcp/postgres: no type has oid ${oid}`)
    const r = JSON.parse(text) as TypeRow
    const description = r.description ?? undefined
    const more = description === undefined ? {} : { description }
    if (r.category === 'A' && r.elem !== 0) return { kind: 'array', oid, sql: r.sql, element: await read(r.elem) }
    switch (r.type) {
      case 'e':
        return { kind: 'enum', oid, sql: r.sql, labels: r.labels ?? [], ...more }
      case 'd':
        return { kind: 'domain', oid, sql: r.sql, base: await read(r.base), notNull: r.notnull, ...more }
      case 'c':
        return {
          kind: 'composite',
          oid,
          sql: r.sql,
          fields: await Promise.all(
            (r.fields ?? []).map(async (f) => ({ name: f.name, type: await read(f.type), ...(f.description === null ? {} : { description: f.description }) })),
          ),
          ...more,
        }
      case 'p':
        return { kind: 'pseudo', oid, sql: r.sql }
      default:
        return { kind: 'base', oid, name: r.name, sql: r.sql, ...more }
    }
  }
  return read
}

// ---------------------------------------------------------------------------------------
// functions

/**
 * The JSON Schema of the type's values (never null: see `nullable`): of the values a call
 * returns (`out`, the default), or of those an argument may take (`in`: a `numeric` may also
 * be a JSON number).
 */
export const schemaOf = (t: PgType, mode: 'in' | 'out' = 'out'): JsonSchema => {
  switch (t.kind) {
    case 'enum':
      return described({ type: 'string', enum: [...t.labels] }, t.description)
    case 'array':
      return { type: 'array', items: nullable(schemaOf(t.element, mode)) }
    case 'domain':
      return described(schemaOf(t.base, mode), t.description ?? `${t.sql} (a domain over ${t.base.sql})`)
    case 'composite':
      return described(
        {
          type: 'object',
          properties: Object.fromEntries(t.fields.map((f) => [f.name, described(nullable(schemaOf(f.type, mode)), f.description)])),
          additionalProperties: false,
        },
        t.description,
      )
    case 'pseudo':
      return {}
    case 'base':
      return described(t.name === 'numeric' && mode === 'in' ? numericIn : baseSchema(t.name, t.sql), t.description)
  }
}

/** The schema of a value that may also be SQL NULL (JSON null). */
export const nullable = (s: JsonSchema): JsonSchema => {
  const type = s.type
  if (typeof type === 'string' || (Array.isArray(type) && !type.includes('null'))) {
    const e = s.enum
    return { ...s, type: [...(Array.isArray(type) ? type : [type]), 'null'], ...(Array.isArray(e) ? { enum: [...e, null] } : {}) }
  }
  return s
}

/** The type seen through its domains. */
export const baseOf = (t: PgType): PgType => (t.kind === 'domain' ? baseOf(t.base) : t)

/**
 * SQL turning the JSON (jsonb) expression `j` into a value of type `t`. Values are never
 * spliced into SQL: `j` reads from a statement parameter.
 */
export const fromJson = (t: PgType, j: string): string => {
  const b = baseOf(t)
  const value = (() => {
    switch (b.kind) {
      case 'array':
        return `(CASE WHEN jsonb_typeof(${j}) = 'array' THEN coalesce((SELECT array_agg(${fromJson(b.element, 'e.v')} ORDER BY e.i) FROM jsonb_array_elements(${j}) WITH ORDINALITY AS e(v, i)), '{}') END)::${b.sql}`
      case 'composite':
        return `(CASE WHEN jsonb_typeof(${j}) = 'object' THEN ROW(${b.fields.map((f) => fromJson(f.type, `(${j} -> ${literal(f.name)})`)).join(', ')})::${b.sql} END)`
      case 'base':
        if (b.name === 'jsonb') return `(CASE WHEN jsonb_typeof(${j}) <> 'null' THEN ${j} END)`
        if (b.name === 'json') return `(CASE WHEN jsonb_typeof(${j}) <> 'null' THEN ${j}::json END)`
        if (b.name === 'bytea') return `decode(${j} #>> '{}', 'base64')`
        return `(${j} #>> '{}')::${b.sql}`
      default:
        return `(${j} #>> '{}')::${b.sql}`
    }
  })()
  return t.kind === 'domain' ? `(${value})::${t.sql}` : value
}

/** SQL turning the expression `x` of type `t` into json, by the choices above. */
export const toJson = (t: PgType, x: string): string => {
  const b = baseOf(t)
  const v = t.kind === 'domain' ? `(${x})::${b.sql}` : x
  if (!needsCare(b)) return `to_json(${v})`
  switch (b.kind) {
    case 'array':
      return `(SELECT coalesce(json_agg(${toJson(b.element, 'e.v')} ORDER BY e.i), CASE WHEN ${v} IS NULL THEN 'null'::json ELSE '[]'::json END) FROM unnest(${v}) WITH ORDINALITY AS e(v, i))`
    case 'composite':
      return `(CASE WHEN ${v} IS NULL THEN 'null'::json ELSE ${objectOf(b.fields.map((f) => [f.name, toJson(f.type, `(${v}).${quoteIdent(f.name)}`)]))} END)`
    default:
      // numeric and the like: their text, exactly; bytea: base64 (without the line breaks encode() puts every 76 characters)
      return b.kind === 'base' && b.name === 'bytea' ? `to_json(translate(encode(${v}, 'base64'), E'\\n', ''))` : `to_json((${v})::text)`
  }
}

/**
 * A `json` object over (key, SQL json) pairs, keys in the order given (`jsonb` would sort
 * them): `json_build_object` within its 100-argument limit, an ordered aggregate beyond.
 */
export const objectOf = (pairs: ReadonlyArray<readonly [string, string]>): string => {
  if (pairs.length === 0) return `'{}'::json`
  if (pairs.length <= 50) return `json_build_object(${pairs.map(([k, x]) => `${literal(k)}, ${x}`).join(', ')})`
  const rows = pairs.map(([k, x], i) => `(${i}, ${literal(k)}, ${x})`).join(', ')
  return `(SELECT json_object_agg(o.k, o.v ORDER BY o.i) FROM (VALUES ${rows}) AS o(i, k, v))`
}

/** A string as an SQL literal (only ever names from the catalog, never arguments). */
export const literal = (s: string): string => `'${s.replace(/'/g, "''")}'`

// ---------------------------------------------------------------------------------------
// internals

interface TypeRow {
  readonly name: string
  readonly sql: string
  readonly type: string
  readonly category: string
  readonly elem: number
  readonly base: number
  readonly notnull: boolean
  readonly labels: ReadonlyArray<string> | null
  readonly fields: ReadonlyArray<{ readonly name: string; readonly type: number; readonly description: string | null }> | null
  readonly description: string | null
}

const typeQuery = `SELECT jsonb_build_object(
  'name', t.typname, 'sql', format_type(t.oid, NULL), 'type', t.typtype, 'category', t.typcategory,
  'elem', t.typelem::int8, 'base', t.typbasetype::int8, 'notnull', t.typnotnull,
  'labels', (SELECT jsonb_agg(e.enumlabel ORDER BY e.enumsortorder) FROM pg_enum e WHERE e.enumtypid = t.oid),
  'fields', (SELECT jsonb_agg(jsonb_build_object('name', a.attname, 'type', a.atttypid::int8, 'description', col_description(a.attrelid, a.attnum)) ORDER BY a.attnum)
             FROM pg_attribute a WHERE t.typtype = 'c' AND a.attrelid = t.typrelid AND a.attnum > 0 AND NOT a.attisdropped),
  'description', CASE WHEN t.typnamespace <> 'pg_catalog'::regnamespace THEN obj_description(t.oid, 'pg_type') END)::text AS info
FROM pg_type t WHERE t.oid = $1::int8::oid`

/** Values whose `to_jsonb` form is not the JSON chosen for them (numeric, bytea, and what holds them). */
const needsCare = (t: PgType): boolean => {
  const b = baseOf(t)
  switch (b.kind) {
    case 'base':
      return careful.has(b.name)
    case 'array':
      return needsCare(b.element)
    case 'composite':
      return b.fields.some((f) => needsCare(f.type))
    default:
      return false
  }
}
const careful = new Set(['numeric', 'bytea', 'money'])

const described = (s: JsonSchema, description: string | undefined): JsonSchema =>
  description === undefined ? s : { ...s, description }

/** A `numeric` argument: a JSON number, or a decimal string (kept exactly); the pattern is linear-time. */
const numericIn: JsonSchema = {
  type: ['string', 'number'],
  pattern: '^[+-]?(?:[0-9]+(?:\\.[0-9]*)?|\\.[0-9]+)(?:[eE][+-]?[0-9]+)?$',
  description: 'numeric: a JSON number, or a decimal string for exact digits',
}

const integer = (bits: number): JsonSchema => ({ type: 'integer', minimum: -(2 ** (bits - 1)), maximum: 2 ** (bits - 1) - 1 })

const baseSchema = (name: string, sql: string): JsonSchema => {
  switch (name) {
    case 'int2':
      return integer(16)
    case 'int4':
      return integer(32)
    case 'int8':
      return { type: 'integer', description: 'bigint (exact up to 2^53 as JSON)' }
    case 'oid':
      return { type: 'integer', minimum: 0, maximum: 4294967295 }
    case 'float4':
    case 'float8':
      return { type: 'number' }
    case 'numeric':
      // one way only to split the digits: `\d+\.?\d*` had n of them for n digits, and backtracked quadratically
      return { type: 'string', pattern: '^-?(\\d+(\\.\\d*)?|\\.\\d+)([eE][-+]?\\d+)?$', description: 'numeric, as a decimal string (exact)' }
    case 'money':
      return { type: 'string', description: 'money, as text' }
    case 'bool':
      return { type: 'boolean' }
    case 'text':
    case 'varchar':
    case 'bpchar':
    case 'name':
    case 'citext':
    case 'char':
      return { type: 'string' }
    case 'json':
    case 'jsonb':
      return { description: `any JSON value (${name})` }
    case 'uuid':
      return { type: 'string', format: 'uuid' }
    case 'date':
      return { type: 'string', format: 'date' }
    case 'timestamptz':
      return { type: 'string', format: 'date-time' }
    case 'timestamp':
      return { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}[T ]\\d{2}:\\d{2}(:\\d{2}(\\.\\d+)?)?$', description: 'timestamp without time zone: YYYY-MM-DDTHH:MM:SS' }
    case 'timetz':
      return { type: 'string', format: 'time' }
    case 'time':
      return { type: 'string', pattern: '^\\d{2}:\\d{2}(:\\d{2}(\\.\\d+)?)?$', description: 'time of day without time zone: HH:MM:SS' }
    case 'bytea':
      return { type: 'string', contentEncoding: 'base64', description: 'bytes, base64-encoded' }
    default:
      return { type: 'string', description: `${sql}, in PostgreSQL's text form` }
  }
}
