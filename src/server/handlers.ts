/**
 * The handler record `implement` takes, checked: one handler per tool, none for a tool the
 * server does not have, and no result key that a closed output schema does not allow. Each
 * problem becomes a type the compiler reports where it is, the problem first; a valid record
 * costs one pass over its keys. Types only.
 *
 * @example
 * import { emcp, mcpServer } from 'emcp'
 * const echo = emcp({ name: 'echo', input: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } })
 * mcpServer([echo], { name: 'e', version: '1' }).implement({ echo: ({ text }) => text })
 * // .implement({ ehco: ({ text }) => text })
 * //   error: Property '"no tool is named ehco; did you mean echo?"' is missing in type ...
 */
import type { ToolError } from '../contract/content.js'
import type { AnyTool, ResultShape } from '../contract/emcp.js'

// ---------------------------------------------------------------------------------------
// model

/** A tool whose structured result is an object (or an array: its keys are those of any array, nothing to report). */
interface ObjectResult {
  readonly _S: true
  readonly _O: object
}

/**
 * The keys a structured result of `T` may have: those of its output object when that is
 * closed, `string` (any) when it is open, not an object, or the tool has no output schema.
 * One relation test (`ObjectResult`) decides the common cases.
 */
type OutputKeys<T extends AnyTool> = T extends ObjectResult ? Bounded<AllKeys<T['_O']>> : string

/** The keys of an object type, or `string` when it is open (has an index signature). */
type Bounded<K> = string extends K ? string : K & string

/**
 * What a handler record `H` must also be, besides `Handlers<U>`: `unknown` when each of its
 * keys names a tool; otherwise a type with one key that says which does not and which tool
 * it may have meant. `implement` takes `H extends Handlers<U> & KeyCheck<H, U['name']>`:
 * a key that names no tool makes the compiler check the record against this type, and
 * report that key as an excess property (`Object literal may only specify known
 * properties, and 'ehco' does not exist in type 'Handlers<...> & { "no tool is named ehco;
 * did you mean echo?": true }'`), or, for a record kept in a variable, the missing message
 * key. A record with an index signature (names known only at run time) passes: the server
 * checks it when it is built.
 *
 * A missing handler and a handler whose types do not fit fail `Handlers<U>` itself: the
 * compiler reports the missing name (`Property 'echo' is missing ...`), or the mismatch
 * inside that handler.
 */
export type KeyCheck<H, Names extends string> = string extends keyof H
  ? unknown
  : keyof H extends Names
    ? unknown
    : Misnamed<Exclude<keyof H, Names> & string, Exclude<Names, keyof H>>

/**
 * What a handler record `H` must also be, checked in `implement`'s constraint beside
 * `KeyCheck`: `unknown` when no handler returns a key its tool's closed output schema does not
 * allow; otherwise a type with one key that names it, `"result key extra of add is not in its
 * output schema (additionalProperties: false)"`, which the compiler reports as missing in the
 * record. The common case is one relation test (`Exact`); the key-by-key search runs only when
 * it fails.
 */
export type ResultCheck<H, U extends AnyTool> = string extends keyof H
  ? unknown
  : Exact<U['_R']> extends H
    ? unknown
    : Unfit<ExtraResultKeys<H, KeysByName<U>>>

// ---------------------------------------------------------------------------------------
// internals

/** Name -> the keys its results may have (only on the way to a message). */
type KeysByName<U extends AnyTool> = { [T in U as T['name']]: OutputKeys<T> }

/**
 * Per tool with an output schema, a handler whose result has every key the output allows, of
 * any type (the `ResultShape` read from each contract's `_R`, a handler itself). When this record is
 * assignable to the given one, every handler's result requires only allowed keys: the common
 * case, decided by one relation check, without a type made per handler. (Other tools: `any`,
 * nothing to check.) Made from the `_R` interfaces of literals rather than from the contracts:
 * the conditional test below instantiates its check type twice (permissive and restrictive
 * forms), which walked every contract of the union, its argument and result types with it.
 */
type Exact<R extends ResultShape<string, PropertyKey, boolean>> = { readonly [E in R as E['name']]: E }

/** The result a handler settles to: through a Promise, a TaskEither and a Right; a Left or a tool error has no keys to check. */
type Settled<R> = R extends PromiseLike<infer X>
  ? Settled<X>
  : R extends (...args: never) => infer X
    ? Settled<X>
    : R extends ToolError | { readonly _tag: 'Left' }
      ? never
      : R extends { readonly _tag: 'Right'; readonly right: infer A }
        ? A
        : R

/** Every key of every member of a union. */
type AllKeys<O> = O extends unknown ? keyof O : never

/** The keys of a handler's object result beyond `Allowed`. */
type ResultKeysBeyond<Fn, Allowed> = Fn extends (...args: never) => infer R
  ? 0 extends 1 & R // any: nothing to check
    ? never
    : Settled<R> extends infer X ? (X extends readonly unknown[] ? never : X extends object ? Exclude<keyof X, Allowed> & string : never) : never
  : never

/** Handler name -> the result keys it may not return (never for most). */
type ExtraResultKeys<H, K extends { readonly [name: string]: string }> = {
  [N in keyof H]: N extends keyof K ? (string extends K[N] ? never : ResultKeysBeyond<H[N], K[N]>) : never
}

/** A key saying which handler returns which key its output schema does not allow (one is enough: the next shows when it is fixed). */
type Unfit<X> = { [K in keyof X]: [X[K]] extends [never] ? never : K }[keyof X] extends infer K extends keyof X & string
  ? [K] extends [never]
    ? unknown
    : { readonly [P in `result key ${Join<X[K] & string>} of ${Join<K>} is not in its output schema (additionalProperties: false)`]: true }
  : unknown

/**
 * A key saying which key names no tool, and which tool without a handler it may have meant.
 * (The test, always true, keeps the alias out of messages, which then show the key itself.)
 */
type Misnamed<X extends string, Free extends string> = [X] extends [string]
  ? { readonly [P in `no tool is named ${Join<X>}${[X] extends [Last<X>] ? Suggestion<X, Free> : ''}`]: true }
  : never

/** `; did you mean echo?` when one of the tools still without a handler is the nearest to `K`, else nothing. */
type Suggestion<K extends string, Free extends string> = [Free] extends [never]
  ? ''
  : Nearest<K, Free, Up<K>> extends infer C extends string
    ? IsOne<C> extends true ? `; did you mean ${C}?` : ''
    : ''

/**
 * The candidates with the highest score, trying scores from `N`'s length down. A score is the
 * length of the common prefix plus that of the common suffix: a typo (a letter dropped,
 * doubled, changed or two swapped) keeps most of both.
 */
type Nearest<K extends string, C extends string, N extends 0[]> = N extends [0, ...infer Less extends 0[]]
  ? ScoreAtLeast<K, C, N> extends infer Best ? ([Best] extends [never] ? Nearest<K, C, Less> : Best) : never
  : C

type ScoreAtLeast<K extends string, C extends string, N extends 0[]> = C extends unknown
  ? [...Prefix<K, C>, ...Prefix<Reverse<K>, Reverse<C>>] extends [...N, ...0[]] ? C : never
  : never

/** The common prefix of two strings, as a tuple of its length. */
type Prefix<A extends string, B extends string, L extends 0[] = []> = A extends `${infer X}${infer RA}`
  ? B extends `${X}${infer RB}` ? Prefix<RA, RB, [...L, 0]> : L
  : L

type Reverse<S extends string, R extends string = ''> = S extends `${infer X}${infer Rest}` ? Reverse<Rest, `${X}${R}`> : R

/** `S`'s length as a tuple, twice (the highest score: a common prefix and suffix of the whole name). */
type Up<S extends string, L extends 0[] = []> = S extends `${string}${infer Rest}` ? Up<Rest, [...L, 0, 0]> : L

type IsOne<U, A = U> = U extends unknown ? ([A] extends [U] ? true : false) : never

/** A union of names as one string, `a, b, c` (in the compiler's order). */
type Join<U extends string> = Last<U> extends infer L extends string
  ? [Exclude<U, L>] extends [never] ? L : `${Join<Exclude<U, L>>}, ${L}`
  : never

type Last<U> = ((U extends unknown ? (f: (u: U) => void) => void : never) extends (f: infer I) => void ? I : never) extends (u: infer L) => void
  ? L
  : never
