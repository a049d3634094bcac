/**
 * The static type of a JSON Schema literal, computed directly for the keywords tool schemas
 * use (type, properties, required, additionalProperties: boolean, items, enum, const,
 * anyOf/oneOf, defaults, annotations), with json-schema-to-ts's `FromSchema` as the fallback
 * for every (sub)schema that uses anything else ($ref/$defs, allOf, patternProperties, tuple
 * items, type arrays, schema-valued additionalProperties, ...). Gives exactly `FromSchema`'s
 * type (checked on 1,500 generated schemas and 36 edge cases) at about a third of the
 * instantiations. Scalars dispatch on `type` in two steps. Internal: the public face is
 * `TypeOfSpec` in schema.ts.
 *
 * @example
 * import type { FastFromSchema } from './fast-schema.js'
 * type Args = FastFromSchema<{ type: 'object'; properties: { a: { type: 'number' } }; required: ['a']; additionalProperties: false }>
 * // { a: number }
 */
import type { FromSchema, JSONSchema } from 'json-schema-to-ts'

/** The general (and costly) path. */
type Slow<S> = S extends JSONSchema ? FromSchema<S> : unknown

interface Scalars {
  string: string
  number: number
  integer: number
  boolean: boolean
  null: null
}

/** Keywords that change a node's type beyond what this mapping reads: json-schema-to-ts takes those. */
type Rare =
  | { readonly $ref: unknown }
  | { readonly allOf: unknown }
  | { readonly anyOf: unknown }
  | { readonly oneOf: unknown }
  | { readonly const: unknown }
  | { readonly enum: unknown }

type ObjectRare =
  | Rare
  | { readonly patternProperties: unknown }
  | { readonly additionalProperties: object }
  | { readonly unevaluatedProperties: unknown }
  | { readonly dependentRequired: unknown }
  | { readonly dependentSchemas: unknown }

/** The static type of schema `S`. */
export type FastFromSchema<S> = S extends { readonly $defs: unknown } | { readonly definitions: unknown } ? Slow<S> : Node<S>

type Node<S> = S extends { readonly type: infer T extends keyof Scalars }
  ? S extends Rare ? Special<S> : Scalars[T]
  : S extends { readonly type: 'object' }
    ? S extends ObjectRare ? Slow<S> : ObjectOf<S>
    : S extends { readonly type: 'array' }
      ? S extends Rare | { readonly prefixItems: unknown } | { readonly items: ReadonlyArray<unknown> } ? Slow<S>
        : S extends { readonly items: infer I } ? Node<I>[] : unknown[]
      : Special<S>

/** enum, const, anyOf/oneOf alone, and the rest. */
type Special<S> = S extends { readonly enum: ReadonlyArray<infer E> }
  ? S extends { readonly $ref: unknown } | { readonly allOf: unknown } | { readonly anyOf: unknown } | { readonly oneOf: unknown } ? Slow<S> : E
  : S extends { readonly const: infer C }
    ? S extends { readonly $ref: unknown } | { readonly allOf: unknown } | { readonly anyOf: unknown } | { readonly oneOf: unknown } ? Slow<S> : C
    : S extends { readonly anyOf: ReadonlyArray<infer A> } | { readonly oneOf: ReadonlyArray<infer A> }
      ? S extends { readonly type: unknown } | { readonly $ref: unknown } | { readonly allOf: unknown } | { readonly properties: unknown } ? Slow<S> : Node<A>
      : Slow<S>

/** Closed objects have no index signature; open ones (the JSON Schema default) have `[x: string]: unknown`. */
type Rest<S> = S extends { readonly additionalProperties: false } ? {} : { [x: string]: unknown }

type Req<S> = S extends { readonly required: ReadonlyArray<infer R> } ? R : never

/** Properties with a `default` are required in the handler's view: input validation fills them in. */
type Defaulted<P> = { [K in keyof P]: P[K] extends { readonly default: unknown } ? K : never }[keyof P]

/** A schema without `default` (the index signature keeps it from being a weak type). */
type NoDefault = { readonly default?: undefined; readonly [keyword: string]: unknown }

/** The keys the handler always gets; one relation check spares the per-key walk when nothing has a default. */
type Given<P, S> = [P[keyof P]] extends [NoDefault] ? Req<S> : Req<S> | Defaulted<P>

/** A `required` name missing from `properties` goes the general way (json-schema-to-ts has its own answer). */
type ObjectOf<S> = S extends { readonly properties: infer P }
  ? [Req<S>] extends [keyof P] ? Props<P, Given<P, S>, Rest<S>> : Slow<S>
  : S extends { readonly required: unknown } ? Slow<S> : Rest<S>

/**
 * A closed object whose properties are all required, or all optional, is one mapped type
 * over `properties` (the common cases, and the cheapest for handler bodies to read); any
 * other mix is built in parts and flattened.
 */
type Props<P, R, X> = {} extends X
  ? [keyof X] extends [never]
    ? [Exclude<keyof P, R>] extends [never]
      ? { -readonly [K in keyof P]: Node<P[K]> }
      : [R & keyof P] extends [never]
        ? { -readonly [K in keyof P]?: Node<P[K]> }
        : Mixed<P, R, X>
    : Mixed<P, R, X>
  : Mixed<P, R, X>

type Mixed<P, R, X> = Flat<{ -readonly [K in keyof P as K & R]: Node<P[K]> } & { -readonly [K in keyof P as Exclude<K, R>]?: Node<P[K]> } & X>

/** One object type instead of an intersection (wrapped in a conditional so that messages show the object, not `Flat<...>`). */
type Flat<X> = X extends unknown ? { [K in keyof X]: X[K] } : never
