/**
 * The static type of a JSON Schema literal, computed directly for the keywords tool schemas
 * use (type, properties, required, additionalProperties: boolean, items, enum, const,
 * anyOf/oneOf, defaults, annotations), with json-schema-to-ts's `FromSchema` as the fallback
 * for every (sub)schema that uses anything else ($ref/$defs, allOf, not, if, nullable,
 * patternProperties, tuple items, type arrays, schema-valued additionalProperties, ...).
 * Gives exactly `FromSchema`'s type (test/schema/fast-schema.test.ts compares the two on generated
 * schemas and edge cases) at a fraction of the instantiations. Internal: the public face is
 * `TypeOfSpec` in schema.ts.
 *
 * Written for the compiler's instantiation count, which a 1,000-tool server pays per
 * property. What it counts: every time a type that mentions a type parameter is instantiated
 * (the parameter itself, and each conditional, indexed access, `keyof`, tuple, intersection,
 * mapped type and alias made on the way; a type without type parameters in it is free). A
 * repeat is free only inside the same instantiation: the check type and the extends type of a
 * test, and each argument of an alias reached from a branch, are instantiated apart and pay
 * apart. So:
 * - a node is tested against named, non-generic shapes that say "this type and none of the
 *   keywords that change it" in one relation (`PlainString`), the commonest first (each test
 *   passed costs one); the commonest object of all (closed, with `required`, no defaults) has
 *   its own shape, tested first at the root and before other objects below it;
 * - a reference to the tested parameter inside a true branch is a substitution type (it
 *   costs about two more and a relation test at every use), and so is a one-element tuple
 *   test's: the parts of a schema are passed on once, as alias arguments, and `ClosedOf`
 *   compares two-element tuples;
 * - a part of the schema is read by indexed access rather than `infer` (an `infer` costs
 *   more: 14 more per closed object, measured);
 * - objects are single homomorphic mapped types, each behind an always-true test on a
 *   defaulted parameter (`X extends 0`) so that messages show the object, not the alias.
 * Measured (TypeScript 5.9, this type alone on 300 schema literals): a closed object with one
 * required number property costs 22 where it is computed and 12 more where the property is
 * read; with the property a string 33 in all, boolean 35, array 38, enum 41, nested closed
 * object 68; optional 28, open 50. bench:types and docs/type-performance.md have the
 * whole-server figures.
 *
 * @example
 * import type { FastFromSchema } from './fast-schema.js'
 * type Args = FastFromSchema<{ type: 'object'; properties: { a: { type: 'number' } }; required: ['a']; additionalProperties: false }>
 * // { a: number }
 */
import type * as t from 'io-ts'
import type { FromSchema, JSONSchema } from 'json-schema-to-ts'
import type { StandardTypedV1 } from './standard/spec.js'
import type { Optionalized, ShapeType, StandardShape, ZodInputs, ZodOutputs, ZodShape } from './standard/shape.js'

/**
 * The general (and costly) path; an io-ts codec (which no schema test above matches) is typed
 * here too, as what it decodes to, so that a contract's slot costs one conditional less on
 * the common path (a schema literal) than a codec test before the schema tests would.
 */
type Slow<S> = S extends Codec ? t.TypeOf<S> : S extends JSONSchema ? FromSchema<S> : unknown

/** An io-ts codec (as schema.ts's `Codec`). */
type Codec = t.Type<any, any, unknown>

// The shapes dispatch tests against. Each is "this `type`, and none of the keywords that would
// change the node's type": one relation check, which instantiates nothing.

/** Keywords that change a node's type beyond its `type` (json-schema-to-ts reads them). */
interface Plain {
  readonly '~standard'?: never // a Standard Schema (valibot's objects have `type: 'object'`) is never a literal
  readonly $ref?: never
  readonly allOf?: never
  readonly anyOf?: never
  readonly oneOf?: never
  readonly const?: never
  readonly enum?: never
  readonly not?: never
  readonly if?: never
  readonly nullable?: never
}
// Interfaces, not intersections: a named non-generic interface is never instantiated again.
interface PlainString extends Plain {
  readonly type: 'string'
}
interface PlainNumber extends Plain {
  readonly type: 'number' | 'integer'
}
interface PlainBoolean extends Plain {
  readonly type: 'boolean'
}
interface PlainNull extends Plain {
  readonly type: 'null'
}
interface PlainObject extends Plain {
  readonly type: 'object'
  readonly additionalProperties?: boolean
  readonly patternProperties?: never
  readonly unevaluatedProperties?: never
  readonly dependentRequired?: never
  readonly dependentSchemas?: never
  readonly dependencies?: never
}
/** The commonest root: an object schema without `$defs` (which only the general path reads). */
interface RootObject extends PlainObject {
  readonly $defs?: never
  readonly definitions?: never
}
/** The commonest object of all: closed, with `required`, no property with a `default`. */
interface ClosedRequiredObject extends PlainObject {
  readonly properties: NoDefaults
  readonly required: ReadonlyArray<string>
  readonly additionalProperties: false
}
/** A closed object with `required` at the root (every output schema, most inputs): one test. */
interface RootClosedRequired extends ClosedRequiredObject {
  readonly $defs?: never
  readonly definitions?: never
}
/** `items` a single schema (an array of them is the tuple form); the index signature keeps it from being a weak type. */
interface PlainArray extends Plain {
  readonly type: 'array'
  readonly prefixItems?: never
  readonly items?: { readonly length?: never; readonly [keyword: string]: unknown }
}

type WithDefs = { readonly $defs: unknown } | { readonly definitions: unknown }
interface WithItems {
  readonly items: object
}
interface WithEnum {
  readonly enum: ReadonlyArray<unknown>
}
/** `enum` without a keyword that combines it with other schemas: its values are the type (whatever `type` says). */
interface PlainEnum extends WithEnum {
  readonly $ref?: never
  readonly allOf?: never
  readonly anyOf?: never
  readonly oneOf?: never
}
type WithDefault = { readonly default: unknown }
/** Properties none of which has a `default` (the inner index signature keeps `{ default?: undefined }` from being a weak type). */
type NoDefaults = { readonly [key: string]: { readonly default?: undefined; readonly [keyword: string]: unknown } }
/** An object schema none of whose properties has a `default` (the common case; `emcp` tests it before `DefaultedOf`). */
export type WithPlainProperties = { readonly properties: NoDefaults }
type WithRequired = { readonly required: ReadonlyArray<string> }
type Closed = { readonly additionalProperties: false }
/** What an open object (the JSON Schema default) adds: any other key, of unknown type. */
type Open = { [x: string]: unknown }

/** What may not accompany `enum` or `const` on the fast path. */
type Combined = { readonly $ref: unknown } | { readonly allOf: unknown } | { readonly anyOf: unknown } | { readonly oneOf: unknown }

/** What may not accompany `anyOf`/`oneOf` on the fast path. */
type Qualified = { readonly type: unknown } | { readonly $ref: unknown } | { readonly allOf: unknown } | { readonly properties: unknown }

/**
 * The static type of schema `S` (or of an io-ts codec: what it decodes to; or of a Standard
 * Schema: its type `K`, the output for arguments and the input for results). The commonest
 * literal root (a closed object with `required`) is tested first; a shape of zod schemas
 * second, before any other literal root (which pays one test more for it, about 0.4 per
 * tool on the bench), and mapped here directly rather than through `ShapeType`'s direction
 * test and `Each`'s zod test (14 per zod tool less on the bench's 300 in all).
 */
export type FastFromSchema<S, K extends 'input' | 'output' = 'output'> = S extends RootClosedRequired
  ? ClosedOf<S['properties'], S['required'][number]>
  : S extends ZodShape
    ? {} extends S // `{}` (a schema that accepts anything) or a shape of unknown keys; a relation test, cheaper than `keyof`
      ? [keyof S] extends [never] ? Node<S> : ShapeType<S & StandardShape, K>
      : K extends 'output' ? ZodOutputs<S> : Optionalized<ZodInputs<S>> // inline: an alias here cost 4 per tool
    : S extends RootObject
      ? ObjectOf<S>
      : S extends StandardTypedV1
        ? NonNullable<S['~standard']['types']>[K]
        : S extends StandardShape
          ? [keyof S] extends [never]
            ? Node<S> // `{}`: a schema that accepts anything, not an empty shape
            : ShapeType<S, K>
          : S extends WithDefs
            ? Slow<AnchorFree<S>>
            : Node<S>

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

/**
 * One test per kind, the commonest first (each test passed costs one instantiation): strings
 * and numbers, then booleans, arrays and enums, objects (whose own tests follow), null.
 */
type Node<S> = S extends PlainString
  ? string
  : S extends PlainNumber
    ? number
    : S extends PlainBoolean
      ? boolean
      : S extends PlainArray
        ? S extends WithItems ? Node<S['items']>[] : unknown[]
        : S extends PlainEnum
          ? S['enum'][number]
          : S extends ClosedRequiredObject
            ? ClosedOf<S['properties'], S['required'][number]>
            : S extends PlainObject
              ? ObjectOf<S>
              : S extends PlainNull
                ? null
                : Special<S>

/** const, enum with a combinator, anyOf/oneOf alone, $anchor references, and the rest. */
type Special<S> = S extends WithEnum
  ? Slow<S> // with $ref, allOf, anyOf or oneOf (PlainEnum took the others)
  : S extends { readonly const: infer C }
    ? S extends Combined ? Slow<S> : C
    : S extends { readonly anyOf: ReadonlyArray<infer A> } | { readonly oneOf: ReadonlyArray<infer A> }
      ? S extends Qualified ? Slow<S> : Node<A>
      : S extends { readonly $ref: `#${infer R}` }
        ? R extends '' | `/${string}` ? Slow<S> : unknown // an $anchor reference: see AnchorFree
        : Slow<S>

/**
 * An object schema other than a closed one with `required` (its callers send those to
 * `ClosedOf` first): open or closed, with `required` or without, each its own mapped type.
 * Properties with a `default` are required in the handler's view (input validation fills
 * them in); such objects take the last branch, off the common path.
 */
type ObjectOf<S> = S extends WithPlainProperties
  ? S extends WithRequired
    ? OpenOf<S['properties'], S['required'][number]>
    : S extends Closed
      ? Optional<S['properties']>
      : OpenOf<S['properties'], never>
  : S extends { readonly properties: object }
    ? WithDefaults<S['properties'], Given<S>, S>
    : S extends WithRequired
      ? Slow<S>
      : S extends Closed ? {} : { [x: string]: unknown }

/**
 * The names of an object schema's properties that have a `default` (its top level only; a
 * codec or a schema without defaults: `never`). The typed client lets a caller leave them out.
 */
export type DefaultedOf<S> = S extends WithPlainProperties
  ? never // the common case, one relation test
  : S extends { readonly properties: object } ? Defaulted<S['properties']> & string : never

/** The names of the properties with a default. */
type Defaulted<P> = { [K in keyof P]: P[K] extends WithDefault ? K : never }[keyof P]

/** The names the handler always gets: the required ones and those with a default. */
type Given<S extends { readonly properties: object }> = (S extends WithRequired ? S['required'][number] : never) | Defaulted<S['properties']>

/**
 * A closed object whose `required` names properties it declares (otherwise no value fits:
 * `never`, as the general path says). All required, the commonest case, maps `P` as it is.
 * (Two-element tuples: a one-element tuple would make `R` a substitution type in the branch,
 * which costs on every use.)
 */
type ClosedOf<P, R extends PropertyKey> = [keyof P, R] extends [R, keyof P] ? Required<P> : [R] extends [keyof P] ? Mixed<P, R> : never

/** Every property required. (The test on `X`, always true, keeps the alias out of messages.) */
type Required<P, X = 0> = X extends 0 ? { -readonly [K in keyof P]: Node<P[K]> } : never

/** Every property optional. (The test on `X`, always true, keeps the alias out of messages.) */
type Optional<P, X = 0> = X extends 0 ? { -readonly [K in keyof P]?: Node<P[K]> } : never

/** Some properties required, some optional. (The test on `X`, always true, keeps the alias out of messages.) */
type Mixed<P, R extends keyof P, X = 0> = X extends 0 ? { -readonly [K in keyof ({ [K in keyof P]?: 0 } & { [K in R]: 0 })]: Node<P[K]> } : never

/** An object with defaults: as `ClosedOf` when closed; open, its properties, a required name it does not declare as `unknown`, and any other key. */
type WithDefaults<P, R extends PropertyKey, S> = S extends Closed
  ? ClosedOf<P, R>
  : OpenOf<P, R>

/**
 * An open object: its properties, a required name it does not declare as `unknown`, and any
 * other key. Each key's schema is read from `P & AnySchemas`: a declared one is `P[K]` (the
 * `{}` drops out of the intersection), any other `{}`, which is `unknown`; cheaper than a test
 * on every key. (The test on `X`, always true, keeps the alias out of messages; a test on `P`
 * would make every `P` below a substitution type, which costs on every key.)
 */
type OpenOf<P, R extends PropertyKey, X = 0> = X extends 0 ? { -readonly [K in keyof (Shape<P, R> & Open)]: Node<(P & AnySchemas)[K]> } : never

/** Any name, the schema that allows anything. */
type AnySchemas = { readonly [name: PropertyKey]: {} }

/** The keys of `P` and the names in `R`, those in `R` required and the others optional. */
type Shape<P, R extends PropertyKey> = { [K in keyof P]?: 0 } & { [K in R]: 0 }
