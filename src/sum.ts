/**
 * The typed sum of tool contracts: a non-empty list folded into one surface whose type
 * carries the union of names and, per name, the contract. Duplicate names are compile
 * errors with a readable message; `sumOf` repeats every check at run time for lists built
 * at run time.
 *
 * @example
 * import { emcp, sumOf } from 'emcp'
 * const ping = emcp({ name: 'ping2', input: { type: 'object' } })
 * const sum = sumOf([ping]) // Right(Map { 'ping2' => ping })
 */
import * as E from 'fp-ts/lib/Either.js'
import type { AnyTool } from './emcp.js'

// ---------------------------------------------------------------------------------------
// model

/** A non-empty list of tool contracts. */
export type ToolList = readonly [AnyTool, ...AnyTool[]]

/** The union of the names in a list of tools. */
export type NamesOf<T extends readonly AnyTool[]> = T[number]['name']

/** The contract of the tool named `K` within the union `U`. */
export type ToolNamed<U extends AnyTool, K extends string> = Extract<U, { readonly name: K }>

/** Each position of the list paired with its tool's name; distinct per position. */
type Entries<T extends readonly AnyTool[]> = { [I in keyof T]: { n: T[I]['name']; i: I } }[number]

/** Name -> union of the positions that carry it. */
type PositionsByName<T extends readonly AnyTool[]> = { [E in Entries<T> as E['n']]: E['i'] }

type IsUnion<U, A = U> = U extends unknown ? ([A] extends [U] ? false : true) : never

/** The names that occur more than once in the list. */
export type DuplicateNames<T extends readonly AnyTool[], P = PositionsByName<T>> = {
  [K in keyof P]: true extends IsUnion<P[K]> ? K : never
}[keyof P]

/**
 * `unknown` when the list is a valid sum; otherwise a message naming the problem. A
 * parameter typed `T & CheckedList<T>` turns a bad list into an error that quotes it.
 */
export type CheckedList<T extends readonly AnyTool[]> = T extends unknown
  ? T['length'] extends 0 // not `T extends readonly []`: that test re-instantiates every contract in the list
    ? 'a server needs at least one tool'
    : DuplicateNames<T> extends never // not `[X] extends [never]`: a tuple is one more type to resolve
      ? unknown
      : `duplicate tool name: ${DuplicateNames<T> & string}`
  : never

/** A problem found in a list of tools at run time. */
export interface SumError {
  readonly path: string
  readonly message: string
}

// ---------------------------------------------------------------------------------------
// constructors

const namePattern = /^[A-Za-z0-9._-]{1,128}$/

/** Checks a run-time list of tools: non-empty, valid names, no duplicates. */
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
  })
  return errors.length > 0 ? E.left(errors) : E.right(byName)
}
