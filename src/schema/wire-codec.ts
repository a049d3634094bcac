/**
 * Wire codecs: a named decoder from an argument's wire string to a value, and an encoder
 * from a result value back to a string. A wire codec is an io-ts codec, so a contract uses
 * it like any other (`input: t.type({ shape: geometryWkt })`): the handler gets the decoded
 * value, a string that does not decode is an `isError` result naming the argument, and a
 * manifest lists the codec's name in the tool's dispatch metadata.
 *
 * @example
 * import * as t from 'io-ts'
 * import * as E from 'fp-ts/lib/Either.js'
 * import { emcp, wireCodec } from 'emcp'
 * const hexInt = wireCodec<number>({
 *   name: 'int/hex', description: 'An integer in hexadecimal', is: (u): u is number => Number.isInteger(u),
 *   decode: (s) => (/^[0-9a-f]+$/i.test(s) ? E.right(parseInt(s, 16)) : E.left('not hexadecimal')),
 *   encode: (n) => n.toString(16),
 * })
 * const double = emcp({ name: 'double', input: t.type({ n: hexInt }), output: t.type({ result: hexInt }) })
 */
import * as E from 'fp-ts/lib/Either.js'
import * as t from 'io-ts'
import { isObject } from '../util/json-object.js'
import { withSchema, type JsonSchema } from './schema.js'

// ---------------------------------------------------------------------------------------
// model

/** How a string on the wire becomes a value of type `A` and back. */
export interface WireCodecDef<A> {
  /** The codec's name as manifests list it, e.g. `geometry/wkt`. */
  readonly name: string
  /** What the wire string holds; becomes the argument schema's description. */
  readonly description: string
  /** Recognises a decoded value (a handler's result is checked with it before encoding). */
  readonly is: (u: unknown) => u is A
  /** Reads the wire string; a `Left` says what is wrong with it. */
  readonly decode: (wire: string) => E.Either<string, A>
  /** Writes the value as a string. */
  readonly encode: (value: A) => string
  /** Extra schema keywords for the wire string (e.g. `pattern`, `contentMediaType`). */
  readonly schema?: JsonSchema
  /**
   * Whether a wire string looks like this encoding (a cheap test of its shape, not a parse):
   * lets one argument take several encodings of a type (`anyEncoding`). Without it the
   * codec cannot be one of several.
   */
  readonly form?: (wire: string) => boolean
  /** A short name of the encoding for messages, e.g. `well-known text`; the codec's name when absent. */
  readonly label?: string
}

/** What `anyEncoding` takes: one name for the argument type, and the encodings it accepts. */
export interface AnyEncodingDef<A> {
  /** The codec's name as manifests list it, e.g. `geometry/any`. */
  readonly name: string
  /** What the wire string holds; becomes the argument schema's description. */
  readonly description: string
  /** The accepted encodings, each a wire codec with a `form`; results are written with the first. */
  readonly encodings: readonly [t.Type<A, string, unknown>, ...ReadonlyArray<t.Type<A, string, unknown>>]
}

/** Which wire codec each argument and each result property uses, as a manifest lists it. */
export interface Dispatch {
  readonly arguments?: { readonly [argument: string]: string }
  readonly result?: { readonly [property: string]: string }
}

// ---------------------------------------------------------------------------------------
// constructors

// on the codec under a registered symbol, not in a module-level map: every copy of emcp
// loaded in a process (the bundle and the compiled sources) reads the same name
const nameKey = Symbol.for('emcp/wire-codec')
const formKey = Symbol.for('emcp/wire-form')

/** How a codec's encoding is recognised, for `anyEncoding`. */
export interface WireForm {
  readonly test: (wire: string) => boolean
  readonly label: string
}

/** An io-ts codec between a wire string and `A`, registered under its name. */
export const wireCodec = <A>(def: WireCodecDef<A>): t.Type<A, string, unknown> => {
  const codec = new t.Type<A, string, unknown>(
    def.name,
    def.is,
    (u, c) => {
      if (typeof u !== 'string') return t.failure(u, c, `must be a string (${def.description})`)
      const decoded = def.decode(u)
      return E.isRight(decoded) ? t.success(decoded.right) : t.failure(u, c, `is not ${def.description}: ${decoded.left}`)
    },
    def.encode,
  )
  Object.defineProperty(codec, nameKey, { value: def.name })
  if (def.form !== undefined) Object.defineProperty(codec, formKey, { value: { test: def.form, label: def.label ?? def.name } satisfies WireForm })
  return withSchema(codec, { type: 'string', description: def.description, ...def.schema })
}

/**
 * A wire codec that reads any of several encodings of one type, each recognised by its form
 * (e.g. a geometry as well-known text, MF-JSON or hex WKB), and writes the first. A string
 * of no accepted form fails naming them all; one whose form matches but does not parse fails
 * with that encoding's reason.
 */
export const anyEncoding = <A>(def: AnyEncodingDef<A>): t.Type<A, string, unknown> => {
  const forms = def.encodings.map((codec) => {
    const form = formOf(codec)
    if (form === undefined) throw new TypeError(`emcp: anyEncoding ${def.name}: the codec ${codec.name} has no form (give its wireCodec a \`form\`)`)
    return { codec, form }
  })
  const accepted = forms.map((f) => f.form.label).join('; ')
  const [first] = def.encodings
  const codec = new t.Type<A, string, unknown>(
    def.name,
    first.is,
    (u, c) => {
      if (typeof u !== 'string') return t.failure(u, c, `must be a string (${def.description})`)
      const match = forms.find((f) => f.form.test(u))
      return match === undefined ? t.failure(u, c, `is in none of the accepted encodings: ${accepted}`) : match.codec.validate(u, c)
    },
    first.encode,
  )
  Object.defineProperty(codec, nameKey, { value: def.name })
  return withSchema(codec, { type: 'string', description: `${def.description}; accepted: ${accepted}` })
}

// ---------------------------------------------------------------------------------------
// functions

/** The name of a wire codec, or undefined for any other codec. */
export const wireNameOf = (codec: unknown): string | undefined => {
  const name = typeof codec === 'object' && codec !== null ? (codec as { readonly [nameKey]?: unknown })[nameKey] : undefined
  return typeof name === 'string' ? name : undefined
}

/** The form test and label of a wire codec made with a `form`, or undefined. */
export const formOf = (codec: unknown): WireForm | undefined =>
  typeof codec === 'object' && codec !== null ? (codec as { readonly [formKey]?: WireForm })[formKey] : undefined

/**
 * The dispatch metadata of a contract's slots: for each property of an io-ts object codec
 * (optional ones too), the name of its wire codec. Undefined when no property has one.
 */
export const dispatchOf = (input: unknown, output: unknown): Dispatch | undefined => {
  const args = wirePropsOf(input)
  const result = wirePropsOf(output)
  if (args === undefined && result === undefined) return undefined
  return { ...(args === undefined ? {} : { arguments: args }), ...(result === undefined ? {} : { result }) }
}

// ---------------------------------------------------------------------------------------
// internals

/** Property -> wire codec name, through exact/strict/readonly wrappers, intersections and optional unions. */
const wirePropsOf = (codec: unknown): Record<string, string> | undefined => {
  const out: Record<string, string> = {}
  const visit = (c: unknown): void => {
    if (!isObject(c)) return
    const tag = c._tag
    if (tag === 'InterfaceType' || tag === 'PartialType') {
      for (const [key, prop] of Object.entries(c.props as Record<string, unknown>)) {
        const name = wireNameOf(prop) ?? optionalWireName(prop)
        if (name !== undefined) out[key] = name
      }
    } else if (tag === 'ExactType' || tag === 'StrictType' || tag === 'ReadonlyType') visit(c.type)
    else if (tag === 'IntersectionType') for (const part of c.types as unknown[]) visit(part)
  }
  visit(codec)
  return Object.keys(out).length === 0 ? undefined : out
}

const optionalWireName = (prop: unknown): string | undefined => {
  if (!isObject(prop) || prop._tag !== 'UnionType') return undefined
  for (const member of prop.types as unknown[]) {
    const name = wireNameOf(member)
    if (name !== undefined) return name
  }
  return undefined
}
