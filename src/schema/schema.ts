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
import { createRequire } from 'node:module'
import type { Ajv, ErrorObject, FormatDefinition, ValidateFunction } from 'ajv'
import * as E from 'fp-ts/lib/Either.js'
import * as t from 'io-ts'
import type { JSONSchema } from 'json-schema-to-ts'
import { clip } from '../util/clip.js'
import type { FastFromSchema } from './fast-schema.js'
import { escapeToken } from '../util/json-pointer.js'
import { plainValidator, type CheckMode, type PlainCheck } from './plain-validator.js'

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
}

// ---------------------------------------------------------------------------------------
// constructors

// kept on the codec under a registered symbol rather than in a module-level map: a process
// may load emcp twice (the bundle users import and the compiled sources), and every copy
// must read what another attached
const schemaKey = Symbol.for('emcp/json-schema')

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
  s instanceof t.Type || (typeof s === 'object' && s !== null && typeof (s as Codec).decode === 'function' && typeof (s as Codec).encode === 'function')

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
  const checkInput = (u: unknown): E.Either<ReadonlyArray<Issue>, unknown> => {
    const issues = (forInput ??= checkOf(schema, 'input'))(u)
    return issues === undefined ? E.right(u) : E.left(issues)
  }
  const checkOutput = (u: unknown): E.Either<ReadonlyArray<Issue>, unknown> => {
    const issues = (forOutput ??= checkOf(schema, 'output'))(u)
    return issues === undefined ? E.right(u) : E.left(issues)
  }
  if (!isCodec(spec)) return { schema, decode: checkInput, encode: checkOutput }
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

const maxIssuesNamed = 20

/**
 * Where a schema breaks its dialect's meta-schema (a keyword whose value has the wrong kind:
 * `type: "nope"`, `minLength: "3"`, `required: "a"`): issues whose paths point into the
 * schema. Loads the validator engine; compiles nothing.
 */
export const metaSchemaIssues = (schema: JsonSchema): ReadonlyArray<Issue> => {
  const engine = engineFor(dialectOf(schema), 'output')
  // the dialect comes from $schema; a $schema naming another one is checked against that one's meta-schema
  const { $schema: _dialect, ...rest } = schema
  if (engine.validateSchema(rest) === true) return []
  return (engine.errors ?? []).map((e) => ({ path: e.instancePath, message: e.message ?? `fails "${e.keyword}"` }))
}

/** Derives a JSON Schema (2020-12) from an io-ts codec. */
export const codecToJsonSchema = (codec: t.Any): JsonSchema => {
  const attached = (codec as unknown as { readonly [schemaKey]?: JsonSchema })[schemaKey]
  if (attached !== undefined) return attached
  const c = codec as t.Any & { readonly _tag?: string } & Record<string, any>
  switch (c._tag) {
    case 'StringType':
      return { type: 'string' }
    case 'NumberType':
      return { type: 'number' }
    case 'BigIntType':
      return { type: 'integer' }
    case 'BooleanType':
      return { type: 'boolean' }
    case 'NullType':
      return { type: 'null' }
    case 'UnknownType':
    case 'AnyType':
      return {}
    case 'UnknownRecordType':
    case 'AnyDictionaryType':
    case 'ObjectType':
      return { type: 'object' }
    case 'UnknownArrayType':
    case 'AnyArrayType':
      return { type: 'array' }
    case 'LiteralType':
      return literalSchema(c.value)
    case 'KeyofType':
      return { type: 'string', enum: Object.keys(c.keys) }
    case 'ArrayType':
    case 'ReadonlyArrayType':
      return { type: 'array', items: codecToJsonSchema(c.type) }
    case 'TupleType':
      return {
        type: 'array',
        prefixItems: c.types.map(codecToJsonSchema),
        items: false,
        minItems: c.types.length,
        maxItems: c.types.length,
      }
    case 'InterfaceType':
      return objectSchema(c.props, true)
    case 'PartialType':
      return objectSchema(c.props, false)
    case 'ExactType':
    case 'StrictType':
      return closedSchema(codecToJsonSchema(c.type))
    case 'ReadonlyType':
      return codecToJsonSchema(c.type)
    case 'DictionaryType':
      return dictionarySchema(c.domain, c.codomain)
    case 'IntersectionType':
      return intersectionSchema(c.types)
    case 'UnionType':
      return unionSchema(c.types)
    case 'RefinementType':
      return c.name === 'Int' ? { ...codecToJsonSchema(c.type), type: 'integer' } : codecToJsonSchema(c.type)
    case 'RecursiveType':
      return {}
    default:
      // an unknown custom codec: accept anything here and let the codec's own decode judge
      return {}
  }
}

// ---------------------------------------------------------------------------------------
// internals

/**
 * The validator engine is loaded on the first compile, not at import: a server starts
 * without paying for it, and a server whose tools are never called never loads it. ajv is
 * CommonJS, so a synchronous require works here.
 */
const requireCjs = createRequire(import.meta.url)
type AjvClass = new (options: object) => Ajv
let engineClasses: { readonly [D in Dialect]: AjvClass } | undefined
let addFormats: ((ajv: Ajv) => Ajv) | undefined
const loadEngines = (): { readonly [D in Dialect]: AjvClass } => {
  if (engineClasses === undefined) {
    const cls = (m: { default?: AjvClass } & Record<string, unknown>, name: string): AjvClass => (m[name] ?? m.default) as AjvClass
    engineClasses = {
      'draft-07': cls(requireCjs('ajv'), 'Ajv'),
      '2019-09': cls(requireCjs('ajv/dist/2019'), 'Ajv2019'),
      '2020-12': cls(requireCjs('ajv/dist/2020'), 'Ajv2020'),
    }
    const formats = requireCjs('ajv-formats') as { default?: (ajv: Ajv) => Ajv } & ((ajv: Ajv) => Ajv)
    addFormats = formats.default ?? formats
  }
  return engineClasses
}

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

const newEngine = (dialect: Dialect, mode: Mode): Ajv => {
  const o = optionsFor(mode)
  const Engine = loadEngines()[dialect]
  return boundFormats((addFormats as (ajv: Ajv) => Ajv)(new Engine(o)))
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

/** A plain schema's own check; the general engine for every other one. */
const checkOf = (schema: JsonSchema, mode: Mode): PlainCheck => {
  const plain = plainValidator(schema, mode)
  if (plain !== undefined) return plain
  const validate = compile(schema, mode)
  return (u) => (validate(u) ? undefined : issuesOf(validate.errors ?? []))
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

const literalSchema = (value: unknown): JsonSchema => {
  const type = value === null ? 'null' : typeof value
  return type === 'string' || type === 'number' || type === 'boolean' || type === 'null'
    ? { type, const: value }
    : { const: value }
}

/** True when a property codec accepts `undefined`, i.e. the property may be left out. */
const acceptsUndefined = (codec: t.Any): boolean => {
  const c = codec as t.Any & { readonly _tag?: string; readonly types?: t.Any[] }
  if (c._tag === 'UndefinedType' || c._tag === 'VoidType') return true
  if (c._tag === 'UnionType') return (c.types ?? []).some(acceptsUndefined)
  return false
}

const objectSchema = (props: t.Props, requireAll: boolean): JsonSchema => {
  const properties: Record<string, JsonSchema> = {}
  const required: string[] = []
  for (const [key, codec] of Object.entries(props)) {
    properties[key] = codecToJsonSchema(codec)
    if (requireAll && !acceptsUndefined(codec)) required.push(key)
  }
  return required.length > 0 ? { type: 'object', properties, required } : { type: 'object', properties }
}

const dictionarySchema = (domain: t.Any, codomain: t.Any): JsonSchema => {
  const keys = codecToJsonSchema(domain)
  const values = codecToJsonSchema(codomain)
  if (Array.isArray(keys.enum) || keys.const !== undefined || Array.isArray(keys.anyOf))
    return { type: 'object', propertyNames: keys, additionalProperties: values }
  return { type: 'object', additionalProperties: values }
}

/**
 * An object schema of properties only, as an intersection merges them. A part's own
 * `additionalProperties: false` (an exact or strict member) does not close the merged object:
 * io-ts strips that member's extra keys, and the other members keep theirs.
 */
const isPlainObjectSchema = (s: JsonSchema): boolean =>
  s.type === 'object' &&
  Object.keys(s).every((k) => k === 'type' || k === 'properties' || k === 'required' || (k === 'additionalProperties' && s[k] === false))

/**
 * The schema of an exact or strict codec: an object that allows no property but its own.
 * `additionalProperties` only sees the `properties` beside it, so the names an intersection
 * left inside `allOf` are listed there too (as `{}`: their parts still check them).
 */
const closedSchema = (s: JsonSchema): JsonSchema => {
  const own = (s.properties ?? {}) as Record<string, unknown>
  const names = new Set<string>()
  const collect = (x: unknown): void => {
    if (typeof x !== 'object' || x === null) return
    const o = x as JsonSchema
    if (typeof o.properties === 'object' && o.properties !== null) for (const k of Object.keys(o.properties)) names.add(k)
    if (Array.isArray(o.allOf)) o.allOf.forEach(collect)
  }
  collect(s)
  const inner = [...names].filter((n) => !Object.hasOwn(own, n))
  if (inner.length === 0) return { ...s, additionalProperties: false }
  return { ...s, properties: { ...own, ...Object.fromEntries(inner.map((n) => [n, {}])) }, additionalProperties: false }
}

const intersectionSchema = (types: ReadonlyArray<t.Any>): JsonSchema => {
  const parts = types.map(codecToJsonSchema)
  if (!parts.every(isPlainObjectSchema)) return { allOf: parts }
  // plain objects merge into one, which reads better than allOf and keeps one `required`
  const properties: Record<string, unknown> = {}
  const required = new Set<string>()
  for (const p of parts) {
    Object.assign(properties, p.properties)
    for (const r of (p.required as string[] | undefined) ?? []) required.add(r)
  }
  return required.size > 0 ? { type: 'object', properties, required: [...required] } : { type: 'object', properties }
}

const unionSchema = (types: ReadonlyArray<t.Any>): JsonSchema => {
  const kept = types.filter((c) => !acceptsUndefined(c) || (c as { _tag?: string })._tag === 'UnionType')
  const parts = kept.map(codecToJsonSchema)
  if (parts.length === 1) return parts[0] as JsonSchema
  if (parts.every((p) => p.const !== undefined && Object.keys(p).every((k) => k === 'const' || k === 'type')))
    return { enum: parts.map((p) => p.const) }
  return { anyOf: parts }
}
