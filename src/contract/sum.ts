/**
 * The typed sum of tool contracts: a non-empty list folded into one surface whose type
 * carries the union of names and, per name, the contract. Duplicate names are compile
 * errors reported at each position that repeats a name, the name first; `sumOf` repeats
 * every check at run time for lists built at run time.
 *
 * @example
 * import { emcp, sumOf } from 'emcp'
 * const ping = emcp({ name: 'ping2', input: { type: 'object' } })
 * const sum = sumOf([ping]) // Right(Map { 'ping2' => ping })
 */
import * as E from 'fp-ts/lib/Either.js'
import type { AnyTool } from './emcp.js'
import { scopesProblem } from '../util/scope-token.js'
import { isObject } from '../util/json-object.js'
import { unknownKeywords } from '../schema/keywords.js'
import { isCodec } from '../schema/schema.js'
import { madeWith } from '../schema/slot-schema.js'
import { isStandardSchema } from '../schema/standard/detect.js'

// ---------------------------------------------------------------------------------------
// model

/** A non-empty list of tool contracts. */
export type ToolList = readonly [AnyTool, ...AnyTool[]]

/** The union of the names in a list of tools. */
export type NamesOf<T extends readonly AnyTool[]> = T[number]['name']

/**
 * The contract of the tool named `K` within the union `U`. Contracts whose names are not
 * literals (a server built from a manifest read at run time: `Tool<string, ...>`) are all
 * of `U`: any name may be one of them.
 */
export type ToolNamed<U extends AnyTool, K extends string> = string extends U['name'] ? U : Extract<U, { readonly name: K }>

/**
 * The names of a list, position by position: a tuple of string literals, which the compiler
 * can instantiate again for nothing (a tuple of contracts, whose types hold mapped types,
 * it walks whole every time). The constraint is an intersection, and the position is read
 * through its intersection with the numeric-string template: the compiler gives the key of a
 * homomorphic mapping over an array (`T extends ReadonlyArray<...>`) an implied numeric
 * constraint, a substitution type it instantiated at every position (1 per tool more).
 */
type Names<T extends ReadonlyArray<Named> & object> = { [I in keyof T]: T[I & `${number}`]['name'] }

/** Anything with a name: a contract, a manifest entry. */
type Named = { readonly name: string }

/** Name -> the position that carries it (the union of positions, for a name given twice). */
type Slots<N extends readonly string[]> = { [I in keyof N & `${number}` as N[I]]: I }

/**
 * A member that makes `Slots` an intersection, which the compiler reads as a plain object. Why:
 * before each lookup into a mapped type with an `as` clause, the compiler asks whether it is
 * generic by instantiating its name type with the whole key union (`N[keyof N]`: every name,
 * made into a union again); for `Slots` that made the duplicate check quadratic (a second of
 * check time at 1000 tools). It asks an intersection once, and stops at this member, which
 * has a property, when it tests for an index signature alone.
 */
declare const resolved: unique symbol
type Resolved = { readonly [resolved]?: never }

/** The names at positions whose name leads back to more than that position. */
type Repeated<N extends readonly string[], S extends { readonly [name: string]: unknown } = Resolved & Slots<N>> = {
  [I in keyof N & `${number}`]: S[N[I]] extends I ? never : N[I]
}[keyof N & `${number}`]

/** The names that occur more than once in the list. */
export type DuplicateNames<T extends readonly AnyTool[]> = Repeated<Names<T>>

/** The names that occur more than once in a list of named things (manifest entries, say). */
export type RepeatedNames<T extends ReadonlyArray<Named>> = Repeated<Names<T>>

/** `T` with each entry whose name is in `D` replaced by `DuplicateName` (so that each is reported where it is). */
export type MarkRepeated<T extends ReadonlyArray<Named>, D> = { [I in keyof T]: T[I]['name'] extends D ? DuplicateName<T[I]['name']> : T[I] }

/**
 * `unknown` when the list is a valid sum; otherwise a message naming the problem (the
 * message form of `CheckedTools`, for lists checked outside `mcpServer`).
 */
export type CheckedList<T extends readonly AnyTool[]> = T['length'] extends 0
  ? 'a server needs at least one tool'
  : DuplicateNames<T> extends never
    ? unknown
    : `duplicate tool name: ${DuplicateNames<T> & string}`

/** What a position holding a name given before (or after) must be: a type no contract is, whose one key says why. */
export type DuplicateName<N extends string> = { readonly [P in `duplicate tool name: ${N}`]: N }

/** What an empty list must be. */
export type NoTools = readonly [{ readonly 'a server needs at least one tool': true }]

/**
 * The type `mcpServer` takes its list as: the list itself when it is a valid sum; otherwise
 * the list with each position whose name is given twice replaced by `DuplicateName`, so that
 * the compiler reports each such position by itself, the problem first:
 * `Property '"duplicate tool name: add"' is missing in type 'Tool<"add", ...>' ...`.
 * (`NoInfer`: the list is inferred from the argument alone, never from this check.)
 */
export type CheckedTools<T extends readonly AnyTool[], D = DuplicateNames<T>> = T['length'] extends 0
  ? NoInfer<NoTools>
  : [D] extends [never]
    ? T
    : NoInfer<MarkRepeated<T, D>>

/** A problem found in a list of tools at run time. */
export interface SumError {
  readonly path: string
  readonly message: string
}

// ---------------------------------------------------------------------------------------
// constructors

const namePattern = /^[A-Za-z0-9._-]{1,128}$/

/** Checks a run-time list of tools: non-empty, valid names, no duplicates, scopes that are OAuth scope names. */
export const sumOf = <U extends AnyTool>(
  tools: ReadonlyArray<U>,
): E.Either<ReadonlyArray<SumError>, ReadonlyMap<string, U>> => {
  const errors: SumError[] = []
  const byName = new Map<string, U>()
  if (tools.length === 0) errors.push({ path: '', message: 'a server needs at least one tool' })
  tools.forEach((tool, i) => {
    const name: unknown = tool?.name
    if (typeof name !== 'string' || !namePattern.test(name))
      errors.push({ path: `/${i}/name`, message: `invalid tool name ${JSON.stringify(name)}: use 1-128 of A-Z a-z 0-9 _ - .` })
    else if (byName.has(name)) errors.push({ path: `/${i}/name`, message: `duplicate tool name: ${name}` })
    else byName.set(name, tool)
    const tags = tool?.tags
    if (tags !== undefined && !(Array.isArray(tags) && tags.every((t) => typeof t === 'string' && t.length > 0 && t.length <= 128)))
      errors.push({ path: `/${i}/tags`, message: `tool ${String(name)}: tags must be a list of 1-128 character strings` })
    const scopes = scopesProblem(tool?.scopes)
    if (scopes !== undefined) errors.push({ path: `/${i}/scopes`, message: `tool ${String(name)}: ${scopes}` })
    keywordErrors(tool, i, errors)
  })
  return errors.length > 0 ? E.left(errors) : E.right(byName)
}

// ---------------------------------------------------------------------------------------
// internals

/**
 * A contract built by hand (not by `emcp` or `runtimeTool`) reaches the server unchecked: its
 * literal schemas are checked here for unknown keywords, as `emcp` checks them. A contract
 * `emcp` or `runtimeTool` made was checked then (a manifest's keeps the warnings its reader
 * gave), and schemas a library wrote (a Standard Schema's, a codec's) are its own. Pushes onto `out`.
 */
const keywordErrors = (tool: AnyTool, i: number, out: SumError[]): void => {
  // nearly every contract was made by `emcp`: it costs one lookup, and nothing is allocated
  if (!isObject(tool) || madeWith(tool) !== undefined) return
  for (const [slot, spec] of [['inputSchema', tool.input], ['outputSchema', tool.output]] as const) {
    const schema: unknown = tool[slot]
    if (!isObject(schema) || isStandardSchema(spec) || isCodec(spec)) continue
    for (const p of unknownKeywords(schema)) out.push({ path: `/${i}/${slot}${p.path}`, message: `tool ${String(tool.name)}: ${p.message}` })
  }
}
