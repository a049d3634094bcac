/**
 * The bridge between schemas and types. A schema slot takes either a JSON Schema literal
 * (its static type comes from json-schema-to-ts) or an io-ts codec (its static type is
 * `t.TypeOf`, its JSON Schema is derived). At run time each slot becomes a compiled
 * validator whose failures carry JSON-pointer paths.
 *
 * @example
 * import { validatorOf } from 'emcp'
 * const v = validatorOf({ type: 'object', properties: { a: { type: 'number' } }, required: ['a'] })
 * v.decode({ a: 'x' }) // Left([{ path: '/a', message: 'must be number' }])
 */
import type { Ajv, ErrorObject, FormatDefinition, ValidateFunction } from 'ajv'
import * as E from 'fp-ts/lib/Either.js'
import * as t from 'io-ts'
import type { JSONSchema } from 'json-schema-to-ts'
import { clip } from '../util/clip.js'
import type { FastFromSchema } from './fast-schema.js'
import { escapeToken } from '../util/json-pointer.js'
import { codecToJsonSchema, schemaKey } from './codec-schema.js'
import { codeGenerationAllowed, interpretedCheck } from './interpreted.js'
import { plainValidator, type CheckMode, type PlainCheck } from './plain-validator.js'
import { loadedEngine } from './schema-engine.js'

// ---------------------------------------------------------------------------------------
// model

/** A JSON Schema object, as it travels on the wire. */
export type JsonSchema = { readonly [keyword: string]: unknown }

/** A JSON Schema literal as json-schema-to-ts reads it (write it `as const`). */
export type SchemaLiteral = Exclude<JSONSchema, boolean>

/** An io-ts codec whose input is anything. */
export type Codec = t.Type<any, any, unknown>

/** What a schema slot accepts: a JSON Schema literal or an io-ts codec. */
export type SchemaSpec = SchemaLiteral | Codec

/** The static type a schema slot describes (the decoded type, for codecs). */
export type TypeOfSpec<S> = S extends Codec ? t.TypeOf<S> : S extends SchemaLiteral ? FastFromSchema<S> : unknown

/** One validation failure: where (a JSON pointer into the value) and what. */
export interface Issue {
  readonly path: string
  readonly message: string
}

/** A compiled check of one schema slot: validate, then decode (codecs) or pass through. */
export interface Validator {
  /** The JSON Schema this validator checks. */
  readonly schema: JsonSchema
  /** Validates a wire value and decodes it (codecs turn e.g. a string into a Date). */
  readonly decode: (u: unknown) => E.Either<ReadonlyArray<Issue>, unknown>
  /** Encodes a value for the wire (codecs) and validates the result against the schema. */
  readonly encode: (a: unknown) => E.Either<ReadonlyArray<Issue>, unknown>
  /**
   * Present when a slot's value is the wire value itself (no codec): its issues, or undefined
   * when valid (an input gets its defaults filled in place). Callers on a hot path use it to
   * skip the Either that `decode` and `encode` wrap a valid value in.
   */
  readonly checkInput?: (u: unknown) => ReadonlyArray<Issue> | undefined
  /** As `checkInput`, for a result: never changes the value. */
  readonly checkOutput?: (u: unknown) => ReadonlyArray<Issue> | undefined
}

// ---------------------------------------------------------------------------------------
// constructors


/** Attaches a JSON Schema to a custom io-ts codec, for codecs the deriver cannot read. */
export const withSchema = <C extends t.Any>(codec: C, schema: JsonSchema): C => {
  Object.defineProperty(codec, schemaKey, { value: schema, configurable: true })
  return codec
}

/** A codec that decodes an RFC 3339 date-time string into a `Date` and encodes it back. */
export const DateFromISOString: t.Type<Date, string, unknown> = withSchema(
  new t.Type<Date, string, unknown>(
    'DateFromISOString',
    (u): u is Date => u instanceof Date && !Number.isNaN(u.getTime()),
    (u, c) => {
      if (typeof u !== 'string') return t.failure(u, c, 'must be a date-time string')
      const d = new Date(u)
      return Number.isNaN(d.getTime()) ? t.failure(u, c, 'must be a valid date-time') : t.success(d)
    },
    (d) => d.toISOString(),
  ),
  { type: 'string', format: 'date-time' },
)

/** True when a schema slot holds an io-ts codec rather than a JSON Schema literal. */
export const isCodec = (s: unknown): s is Codec =>
  s instanceof t.Type ||
  // a Standard Schema may have decode and encode too (zod 4): it is never taken for a codec
  (typeof s === 'object' && s !== null && typeof (s as Codec).decode === 'function' && typeof (s as Codec).encode === 'function' && !('~standard' in s))

/** The JSON Schema of a slot: the literal itself, or the one derived from a codec. */
export const jsonSchemaOf = (s: SchemaSpec | JsonSchema): JsonSchema => (isCodec(s) ? codecToJsonSchema(s) : (s as JsonSchema))

/**
 * A validator for a schema slot: `schema` (by default the slot's own) is what the wire value
 * is checked against. Compilation is deferred to the first use, so a server with thousands of
 * tools starts without compiling any of them.
 */
export const validatorOf = (spec: JsonSchema | Codec, schema: JsonSchema = jsonSchemaOf(spec as SchemaSpec)): Validator => {
  let forInput: PlainCheck | undefined
  let forOutput: PlainCheck | undefined
  // arguments get the schema's `default`s filled in (the static type promises them);
  // results are checked without touching the handler's value
  const inputIssues = (u: unknown): ReadonlyArray<Issue> | undefined => (forInput ??= checkOf(schema, 'input'))(u)
  const outputIssues = (u: unknown): ReadonlyArray<Issue> | undefined => (forOutput ??= checkOf(schema, 'output'))(u)
  const checkInput = (u: unknown): E.Either<ReadonlyArray<Issue>, unknown> => {
    const issues = inputIssues(u)
    return issues === undefined ? E.right(u) : E.left(issues)
  }
  const checkOutput = (u: unknown): E.Either<ReadonlyArray<Issue>, unknown> => {
    const issues = outputIssues(u)
    return issues === undefined ? E.right(u) : E.left(issues)
  }
  if (!isCodec(spec)) return { schema, decode: checkInput, encode: checkOutput, checkInput: inputIssues, checkOutput: outputIssues }
  const codec = spec
  return {
    schema,
    decode: (u) => {
      const checked = checkInput(u)
      if (E.isLeft(checked)) return checked
      const decoded = codec.decode(u)
      return E.isRight(decoded) ? decoded : E.left(codecIssues(decoded.left))
    },
    encode: (a) => {
      if (!codec.is(a)) {
        // a JavaScript caller can return anything: report it against the codec, not the wire
        const decoded = codec.decode(a)
        if (E.isLeft(decoded)) return E.left(codecIssues(decoded.left))
      }
      let wire: unknown
      try {
        wire = codec.encode(a)
      } catch (e) {
        return E.left([{ path: '', message: `cannot be encoded: ${e instanceof Error ? e.message : String(e)}` }])
      }
      return checkOutput(wire)
    },
  }
}

// ---------------------------------------------------------------------------------------
// functions

/**
 * Renders issues as one readable line: `/a: must be number; /b: is required`. Paths carry
 * the client's property names, so each is clipped, and at most 20 issues are named (an
 * object with 100 000 unknown members would otherwise be echoed back whole).
 */
export const formatIssues = (issues: ReadonlyArray<Issue>): string => {
  const named = issues.slice(0, maxIssuesNamed).map((i) => `${i.path === '' ? '(root)' : clip(i.path)}: ${i.message}`)
  return issues.length > maxIssuesNamed ? `${named.join('; ')}; and ${issues.length - maxIssuesNamed} more` : named.join('; ')
}

/** The most issues an invalid-input answer names (and carries in its data). */
export const maxIssuesNamed = 20

/**
 * Where a schema breaks its dialect's meta-schema (a keyword whose value has the wrong kind:
 * `type: "nope"`, `minLength: "3"`, `required: "a"`): issues whose paths point into the
 * schema. Loads the validator engine; compiles nothing.
 */
export const metaSchemaIssues = (schema: JsonSchema): ReadonlyArray<Issue> => {
  if (loadedEngine() === undefined) throw new Error('the schema engine (ajv) is not loaded yet here: await loadSchemaEngine() first')
  const engine = engineFor(dialectOf(schema), 'output')
  // the dialect comes from $schema; a $schema naming another one is checked against that one's meta-schema
  const { $schema: _dialect, ...rest } = schema
  if (engine.validateSchema(rest) === true) return []
  return (engine.errors ?? []).map((e) => ({ path: e.instancePath, message: e.message ?? `fails "${e.keyword}"` }))
}

export { codecToJsonSchema } from './codec-schema.js'

// ---------------------------------------------------------------------------------------
// internals

type Mode = CheckMode
type Dialect = '2020-12' | '2019-09' | 'draft-07'

// strictNumbers: NaN and ±Infinity are not JSON numbers (they would go out as null), so they fail `number`
const optionsFor = (mode: Mode) =>
  ({ allErrors: true, strict: false, validateFormats: true, strictNumbers: true, useDefaults: mode === 'input' }) as const

const dialectOf = (schema: JsonSchema): Dialect => {
  const d = typeof schema.$schema === 'string' ? schema.$schema : ''
  if (d.includes('draft-07') || d.includes('draft-06') || d.includes('draft-04')) return 'draft-07'
  return d.includes('2019-09') ? '2019-09' : '2020-12'
}

/** A new engine; Ajv itself is loaded on the first one (schema-engine.ts), never at startup. */
const newEngine = (dialect: Dialect, mode: Mode): Ajv => {
  const classes = loadedEngine()
  if (classes === undefined) throw new Error('the schema engine (ajv) is not loaded yet here: await loadSchemaEngine() first')
  const Engine = dialect === 'draft-07' ? classes.Ajv : dialect === '2019-09' ? classes.Ajv2019 : classes.Ajv2020
  return boundFormats(classes.addFormats(new Engine(optionsFor(mode))))
}

/**
 * The date and time formats fail a string longer than any real one (256 characters) before
 * their own check, which splits the whole string: a 1 MB argument took 450 ms there.
 */
const boundFormats = (ajv: Ajv): Ajv => {
  for (const name of ['date', 'time', 'date-time', 'iso-time', 'iso-date-time']) {
    // ajv-formats defines each of these as a function or as { validate: function, compare }
    const f = ajv.formats[name]
    const check = typeof f === 'function' ? f : typeof f === 'object' && 'validate' in f && typeof f.validate === 'function' ? f.validate : undefined
    if (check === undefined) continue
    const validate = (s: string): boolean => s.length <= maxFormatLength && (check as (s: string) => boolean)(s)
    const bounded: FormatDefinition<string> = typeof f === 'object' && 'compare' in f && typeof f.compare === 'function' ? { type: 'string', validate, compare: f.compare as FormatDefinition<string>['compare'] } : { type: 'string', validate }
    ajv.addFormat(name, bounded)
  }
  return ajv
}
const maxFormatLength = 256

/** One shared validator engine per dialect and mode, created on first use; 2020-12 is the default. */
const engines = new Map<string, Ajv>()
const engineFor = (dialect: Dialect, mode: Mode): Ajv => {
  const key = `${dialect} ${mode}`
  let engine = engines.get(key)
  if (engine === undefined) engines.set(key, (engine = newEngine(dialect, mode)))
  return engine
}

const compile = (schema: JsonSchema, mode: Mode): ValidateFunction => {
  const dialect = dialectOf(schema)
  const engine = engineFor(dialect, mode)
  // a schema with an $id is registered under it: the same schema reuses its validator, and
  // a different schema claiming the same $id gets an engine of its own instead of the other's
  if (typeof schema.$id === 'string') {
    const known = engine.getSchema(schema.$id)
    if (known !== undefined) return known.schema === schema ? known : newEngine(dialect, mode).compile(schema)
  }
  return engine.compile(schema)
}

/** A plain schema's own check; the general engine for every other one (the interpreted one where code cannot be generated). */
const checkOf = (schema: JsonSchema, mode: Mode): PlainCheck => {
  const plain = plainValidator(schema, mode)
  if (plain !== undefined) return plain
  if (!codeGenerationAllowed()) return interpretedCheck(schema, dialectOf(schema), mode)
  // where Ajv cannot be loaded synchronously (a bundle), the checks made while it loads are interpreted
  if (loadedEngine() === undefined) return interpretedUntilLoaded(schema, mode)
  const validate = compile(schema, mode)
  return (u) => (validate(u) ? undefined : issuesOf(validate.errors ?? []))
}

/** The interpreted check, until Ajv has arrived; then Ajv's own, compiled once. */
const interpretedUntilLoaded = (schema: JsonSchema, mode: Mode): PlainCheck => {
  const interpreted = interpretedCheck(schema, dialectOf(schema), mode)
  let compiled: PlainCheck | undefined
  return (u) => {
    if (compiled === undefined && loadedEngine() === undefined) return interpreted(u)
    return (compiled ??= checkOf(schema, mode))(u)
  }
}

const issuesOf = (errors: ReadonlyArray<ErrorObject>): ReadonlyArray<Issue> => {
  const out: Issue[] = []
  for (const e of errors) {
    const p = e.params as Record<string, unknown>
    if (e.keyword === 'required')
      out.push({ path: `${e.instancePath}/${escapeToken(String(p.missingProperty))}`, message: 'is required' })
    else if (e.keyword === 'additionalProperties')
      out.push({ path: `${e.instancePath}/${escapeToken(String(p.additionalProperty))}`, message: 'is not allowed' })
    else if (e.keyword === 'enum')
      out.push({ path: e.instancePath, message: `must be one of ${JSON.stringify(p.allowedValues)}` })
    else if (e.keyword === 'const')
      out.push({ path: e.instancePath, message: `must be ${JSON.stringify(p.allowedValue)}` })
    else out.push({ path: e.instancePath, message: e.message ?? `fails "${e.keyword}"` })
  }
  return out
}

const codecIssues = (errors: t.Errors): ReadonlyArray<Issue> =>
  errors.map((e) => ({ path: codecPath(e.context), message: e.message ?? `must be ${lastType(e.context)}` }))

/** The JSON pointer of an io-ts context: keys that pick a union or intersection member are not data. */
const codecPath = (context: t.Context): string => {
  let path = ''
  for (let i = 1; i < context.length; i++) {
    const parent = context[i - 1]?.type as { readonly _tag?: string } | undefined
    if (parent?._tag === 'UnionType' || parent?._tag === 'IntersectionType') continue
    path += `/${escapeToken(context[i]?.key ?? '')}`
  }
  return path
}

const lastType = (context: t.Context): string => context[context.length - 1]?.type.name ?? 'valid'
