/**
 * The compile-time form of keywords.ts: a JSON Schema literal whose keys (at any depth of
 * subschemas) include one that is not a JSON Schema keyword, an annotation `x-*` or
 * `$comment`, does not compile, and the error names the key and the nearest keyword, as the
 * run-time check does: `unknown JSON Schema keyword "requird" (did you mean "required"?)`.
 *
 * Why a union of every key first: the common case (no unknown key) is then one relation test
 * per schema, and the key-by-key message (which reads each unknown key against every keyword)
 * is made only for a schema that has one. The nearest keyword is found within one edit
 * (a letter added, left out, changed, or two swapped; case ignored): the run-time check looks
 * further (up to three edits in a long key), so a key two edits away gets the suggestion only
 * when the server is built. Types only.
 *
 * @example
 * import type { KeywordChecked } from './keyword-check.js'
 * declare function literal<const S>(s: KeywordChecked<S>): S
 * literal({ type: 'object', required: ['a'] }) // compiles
 * // literal({ type: 'object', requird: ['a'] })
 * // Type 'string[]' is not assignable to type '"unknown JSON Schema keyword \"requird\" (did you mean \"required\"?)"'
 */
import type { keywordList } from './keywords.js'

/** Every JSON Schema keyword, in the order the nearest is looked for (the run-time check's list). */
type Keywords = typeof keywordList

/** The keys a schema may carry: keywords, annotations, and symbols (TypeBox marks its schemas with some). */
export type Allowed = Keywords[number] | `x-${string}` | symbol

/** The keywords whose value is a subschema or a list of them. */
type SchemaValued =
  | 'not' | 'if' | 'then' | 'else' | 'contains' | 'additionalProperties' | 'propertyNames' | 'unevaluatedItems'
  | 'unevaluatedProperties' | 'additionalItems' | 'contentSchema' | 'items' | 'allOf' | 'anyOf' | 'oneOf' | 'prefixItems'

/** The keywords whose value maps names to subschemas. */
type MapValued = 'properties' | 'patternProperties' | '$defs' | 'definitions' | 'dependentSchemas' | 'dependencies'

/**
 * Every key used in schema `S` and its subschemas (data keywords such as `enum`, `const` and
 * `default` are not walked: their keys are values). A list of subschemas is walked by its
 * elements; a boolean schema has no keys; an object with an index signature (TypeBox's
 * schemas have one) is left to the run-time check.
 */
export type KeysIn<S> = S extends object
  ? string extends keyof S
    ? never // an index signature (or \`any\`): the keys are not known here, the run-time check reads them
    : S extends ReadonlyArray<unknown>
      ? KeysIn<S[number]>
      : keyof S | KeysIn<S[keyof S & SchemaValued]> | KeysIn<ValuesOf<S[keyof S & MapValued]>>
  : never

/** The values of an object (or of each member of a union of objects). */
type ValuesOf<M> = M extends object ? M[keyof M] : never

/** The unknown keys of schema `S`, at any depth (`never` for a clean one). */
export type UnknownKeys<S> = Exclude<KeysIn<S>, Allowed>

/**
 * The keys the compiler checks in every literal: the root's and each property's (where nearly
 * every typo is: `requird`, `addtionalProperties`, `minLenght`, `formt`). Deeper subschemas
 * (a nested object's properties, `items`, `anyOf`) are checked when the contract is made, as
 * every key is: walking them here cost the compiler about 110 instantiations per tool more
 * (docs/type-performance.md). No test of the schema itself: `emcp` reads these keys from
 * every slot, a library's schema too (whose keys fail `Allowed`, and which it then gives back
 * as it is).
 */
export type CheckedKeys<S> = keyof S | PropertyKeys<S['properties' & keyof S]> // no properties: PropertyKeys<never>, never

/**
 * The keys of every property schema: one distributive test over the union of the property
 * schemas. A mapped type over the properties (`{ [K in keyof P]: keyof P[K] }[keyof P]`)
 * cost about 19 instantiations per tool more on the bench's 300 literal tools: its template
 * reads two type parameters per property.
 */
type PropertyKeys<P> = KeysOfEach<P[keyof P]>

/** The keys of each member of a union (of `never`: `never`). */
type KeysOfEach<U> = U extends unknown ? keyof U : never

/**
 * What a slot holding `S` must be when a literal slot of its contract has an unknown key: a
 * literal with each unknown key (at any depth) typed as the message naming it, so that the
 * compiler reports the error at that key; anything else as it is.
 */
export type MarkedLiteral<S> = S extends StandardLike ? S : S extends object ? (string extends keyof S ? S : Bare extends S ? S : Marked<S, UnknownKeys<S>>) : S

/**
 * Assignable to a slot's constraint (`InputShape`, `SchemaShape`), which the compiler reads a
 * literal by while it infers: those are recursive types, never walked; no literal with an
 * unknown key is as bare as this.
 */
type Bare = { readonly type: 'object' }

/** A library's schema: a Standard Schema (a `~standard` with `validate`) or a codec (`encode`), never walked. */
type StandardLike = { readonly '~standard': { readonly validate: unknown } } | { readonly encode: unknown; readonly validate: unknown }

/** The message for unknown key `K`, in the run-time check's words. */
export type UnknownKeyword<K> = K extends '~standard'
  ? 'unknown JSON Schema keyword "~standard" (this is not a Standard Schema v1, version 1 with a validate function: pass the schema itself, as the library made it)'
  : K extends string
  ? Nearest<K> extends infer N extends string
    ? [N] extends [never]
      ? `unknown JSON Schema keyword "${K}" (annotations start with "x-")`
      : `unknown JSON Schema keyword "${K}" (did you mean "${N}"?)`
    : never
  : never

// ---------------------------------------------------------------------------------------
// internals: only a schema with an unknown key reaches these

/** `S` with the keys in `U` (at any depth) given the message as their type. */
type Marked<S, U> = S extends ReadonlyArray<unknown>
  ? { [I in keyof S]: Marked<S[I], U> }
  : S extends object
    ? {
        [K in keyof S]: K extends U
          ? UnknownKeyword<K>
          : K extends SchemaValued
            ? Marked<S[K], U>
            : K extends MapValued
              ? { [P in keyof S[K]]: Marked<S[K][P], U> }
              : S[K]
      }
    : S

/** The first keyword the same as `K` but for case, else the first one edit away; `never` when none is. */
type Nearest<K extends string> = FirstSame<Lowercase<K>, Keywords> extends infer F extends string
  ? [F] extends [never]
    ? FirstNear<Lowercase<K>, Keywords>
    : F
  : never

type FirstSame<K extends string, L> = L extends readonly [infer W extends string, ...infer R]
  ? Lowercase<W> extends K
    ? W
    : FirstSame<K, R>
  : never

type FirstNear<K extends string, L> = L extends readonly [infer W extends string, ...infer R]
  ? OneEdit<K, Lowercase<W>> extends true
    ? W
    : FirstNear<K, R>
  : never

/** Whether `A` and `B` differ by one edit: a letter added, left out or changed, or two adjacent swapped. */
type OneEdit<A extends string, B extends string> = A extends `${infer X}${infer RA}`
  ? B extends `${infer Y}${infer RB}`
    ? X extends Y
      ? OneEdit<RA, RB> // the same first letter: the edit is further on
      : RA extends B // X left out of B
        ? true
        : A extends RB // Y added in B
          ? true
          : RA extends RB // X changed to Y
            ? true
            : Swapped<A, B>
    : RA extends '' // B is empty: A is one letter
      ? true
      : false
  : B extends `${string}${infer RB}`
    ? RB extends '' // A is empty: B is one letter
      ? true
      : false
    : false

/** Whether `A` is `B` with its first two letters swapped. */
type Swapped<A extends string, B extends string> = A extends `${infer X}${infer Y}${infer R}` ? (B extends `${Y}${X}${R}` ? true : false) : false
