/**
 * The JSON Schema (2020-12) of an io-ts codec, derived from its structure: the schema a
 * codec slot publishes in `tools/list` and validates with. A codec may carry its own schema
 * (`withSchema`), which wins. Internal; `codecToJsonSchema` is re-exported by schema.ts.
 *
 * @example
 * import * as t from 'io-ts'
 * import { codecToJsonSchema } from './codec-schema.js'
 * codecToJsonSchema(t.type({ a: t.number })) // { type: 'object', properties: { a: { type: 'number' } }, required: ['a'] }
 */
import * as t from 'io-ts'
import type { JsonSchema } from './schema.js'

// kept on the codec under a registered symbol rather than in a module-level map: a process
// may load emcp twice (the bundle users import and the compiled sources), and every copy
// must read what another attached
export const schemaKey = Symbol.for('emcp/json-schema')

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
