/**
 * The static type of a JSON Schema literal, computed directly for the keywords tool schemas
 * use (type, properties, required, additionalProperties: boolean, items, enum, const,
 * anyOf/oneOf, defaults, annotations), with json-schema-to-ts's `FromSchema` as the fallback
 * for every (sub)schema that uses anything else ($ref/$defs, allOf, patternProperties, tuple
 * items, type arrays, schema-valued additionalProperties, ...). Gives exactly `FromSchema`'s
 * type (checked on 1,500 generated schemas and 36 edge cases) at about a third of the
 * instantiations. Internal: the public face is `TypeOfSpec` in schema.ts.
 *
 * Written for the compiler's instantiation count, which a 1,000-tool server pays per
 * property: dispatch goes through named shapes (a named, non-generic type is not
 * re-instantiated on every test, a literal `{ ... }` in an `extends` clause is), through
 * plain `A extends B` tests rather than `[A] extends [B]` (a tuple is a new type to resolve),
 * and through `infer` only where a part of the schema must be read; objects are single
 * homomorphic mapped types (no key remapping, no intersections to flatten).
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

// The shapes dispatch tests against; named so that testing against them costs nothing.
type StringSchema = { readonly type: 'string' }
type NumberSchema = { readonly type: 'number' | 'integer' }
type BooleanSchema = { readonly type: 'boolean' }
type ObjectSchema = { readonly type: 'object' }
type ArraySchema = { readonly type: 'array' }
type WithDefs = { readonly $defs: unknown } | { readonly definitions: unknown }
type WithRequired = { readonly required: unknown }
type WithDefault = { readonly default: unknown }
type ClosedSchema = { readonly additionalProperties: false }

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

type ArrayRare = Rare | { readonly prefixItems: unknown } | { readonly items: ReadonlyArray<unknown> }

/** What may not accompany `enum` or `const` on the fast path. */
type Combined = { readonly $ref: unknown } | { readonly allOf: unknown } | { readonly anyOf: unknown } | { readonly oneOf: unknown }

/** What may not accompany `anyOf`/`oneOf` on the fast path. */
type Qualified = { readonly type: unknown } | { readonly $ref: unknown } | { readonly allOf: unknown } | { readonly properties: unknown }

/** The static type of schema `S`. */
export type FastFromSchema<S> = S extends WithDefs ? Slow<AnchorFree<S>> : Node<S>

/**
 * `$ref`s to an `$anchor` (`"#name"`) dropped: json-schema-to-ts cannot follow them (it
 * reports a circular type), so such a node is `unknown` statically; the validator still
 * checks it. Only schemas with `$defs` walk this, the others never meet it.
 */
type AnchorFree<S> = S extends { readonly $ref: `#${infer R}` }
  ? R extends '' | `/${string}`
    ? S
    : { readonly [K in Exclude<keyof S, '$ref'>]: AnchorFree<S[K]> }
  : S extends object
    ? { readonly [K in keyof S]: AnchorFree<S[K]> }
    : S

/** The commonest `type`s first; `null` and `type` unions last, as `Scalars[T]`. */
type Node<S> = S extends StringSchema
  ? S extends Rare ? Special<S> : string
  : S extends NumberSchema
    ? S extends Rare ? Special<S> : number
    : S extends ObjectSchema
      ? S extends ObjectRare ? Slow<S> : ObjectOf<S>
      : S extends BooleanSchema
        ? S extends Rare ? Special<S> : boolean
        : S extends ArraySchema
          ? S extends ArrayRare ? Slow<S> : S extends { readonly items: infer I } ? Node<I>[] : unknown[]
          : S extends { readonly type: infer T extends keyof Scalars }
            ? S extends Rare ? Special<S> : Scalars[T]
            : Special<S>

/** $anchor references, enum, const, anyOf/oneOf alone, and the rest. */
type Special<S> = S extends { readonly $ref: `#${infer R}` }
  ? R extends '' | `/${string}` ? Slow<S> : unknown // an $anchor reference: see AnchorFree
  : S extends { readonly enum: ReadonlyArray<infer E> }
    ? S extends Combined ? Slow<S> : E
    : S extends { readonly const: infer C }
      ? S extends Combined ? Slow<S> : C
      : S extends { readonly anyOf: ReadonlyArray<infer A> } | { readonly oneOf: ReadonlyArray<infer A> }
        ? S extends Qualified ? Slow<S> : Node<A>
        : Slow<S>

/** Closed objects have no index signature; open ones (the JSON Schema default) have `[x: string]: unknown`. */
type Rest<S> = S extends ClosedSchema ? {} : { [x: string]: unknown }

type Req<S> = S extends { readonly required: ReadonlyArray<infer R> } ? R : never

/** Properties with a `default` are required in the handler's view: input validation fills them in. */
type Defaulted<P> = { [K in keyof P]: P[K] extends WithDefault ? K : never }[keyof P]

/** A schema without `default` (the index signature keeps it from being a weak type). */
type NoDefault = { readonly default?: undefined; readonly [keyword: string]: unknown }

/** The keys the handler always gets; one relation check spares the per-key walk when nothing has a default. */
type Given<P, S> = P[keyof P] extends NoDefault ? Req<S> : Req<S> | Defaulted<P>

/** A `required` name missing from `properties` goes the general way (json-schema-to-ts has its own answer). */
type ObjectOf<S> = S extends { readonly properties: infer P }
  ? Req<S> extends keyof P ? Props<P, Given<P, S>, Rest<S>> : Slow<S>
  : S extends WithRequired ? Slow<S> : Rest<S>

/**
 * One mapped type over the properties: homomorphic over `properties` when all are required
 * or all optional, otherwise over a key set that carries each key's optionality (so that no
 * key remapping or intersection has to be resolved per property). `X` is `Rest<S>`. The
 * mapped types are written here rather than behind aliases of their own, so that messages
 * show the object, not an alias.
 */
type Props<P, R, X> = keyof X extends never
  ? keyof P extends R
    ? { -readonly [K in keyof P]: Node<P[K]> }
    : R & keyof P extends never
      ? { -readonly [K in keyof P]?: Node<P[K]> }
      : { -readonly [K in keyof Shape<P, R & keyof P>]: Node<P[K]> }
  : // open: the properties and `X`'s `[x: string]: unknown`, as one object type
    { -readonly [K in keyof (Shape<P, R & keyof P> & X)]: K extends keyof P ? Node<P[K]> : unknown }

/** The keys of `P`, those in `R` required and the others optional. */
type Shape<P, R extends keyof P> = { [K in keyof P]?: 0 } & { [K in R]: 0 }
