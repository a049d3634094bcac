/**
 * Type tests of the typed sum (src/contract/sum.ts): the union of names, the contract per name, and
 * the list check that turns duplicates and an empty list into readable compile errors.
 */
import type * as E from 'fp-ts/lib/Either.js'
import { expectAssignable, expectNotAssignable, expectType } from 'tsd'
import {
  emcp,
  sumOf,
  type AnyTool,
  type CheckedList,
  type DuplicateNames,
  type NamesOf,
  type SumError,
  type ToolList,
  type ToolNamed,
} from 'emcp'

const add = emcp({
  name: 'add',
  input: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'], additionalProperties: false },
  output: { type: 'object', properties: { sum: { type: 'number' } }, required: ['sum'], additionalProperties: false },
})
const echo = emcp({ name: 'echo', input: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } })
const ping = emcp({ name: 'ping', input: { type: 'object' } })
// another contract under the name `add`
const add2 = emcp({ name: 'add', input: { type: 'object', properties: { x: { type: 'string' } } } })

type Three = readonly [typeof add, typeof echo, typeof ping]
type U = Three[number]

// the union of names
expectType<'add' | 'echo' | 'ping'>({} as NamesOf<Three>)
expectType<'add'>({} as NamesOf<readonly [typeof add]>)

// the contract per name
expectType<typeof add>({} as ToolNamed<U, 'add'>)
expectType<typeof echo>({} as ToolNamed<U, 'echo'>)
expectType<never>({} as ToolNamed<U, 'nope'>)
expectType<{ a: number; b: number }>({} as ToolNamed<U, 'add'>['_I'])

// duplicates: none, one, two, and the same contract listed twice
expectType<never>({} as DuplicateNames<Three>)
expectType<'add'>({} as DuplicateNames<readonly [typeof add, typeof echo, typeof add2]>)
expectType<'add'>({} as DuplicateNames<readonly [typeof add, typeof add]>)
expectType<'add' | 'echo'>({} as DuplicateNames<readonly [typeof add, typeof echo, typeof add2, typeof echo]>)

// the list check: `unknown` (no constraint) when valid, a message otherwise
expectType<unknown>({} as CheckedList<Three>)
expectType<'a server needs at least one tool'>({} as CheckedList<readonly []>)
expectType<'duplicate tool name: add'>({} as CheckedList<readonly [typeof add, typeof ping, typeof add2]>)
expectType<'duplicate tool name: add' | 'duplicate tool name: echo'>(
  {} as CheckedList<readonly [typeof add, typeof echo, typeof add, typeof echo]>,
)

// a non-empty list
expectAssignable<ToolList>([add] as const)
expectAssignable<ToolList>([add, echo, ping] as const)
expectNotAssignable<ToolList>([] as const)

// sumOf: the run-time check of lists built at run time
declare const runtimeTools: ReadonlyArray<AnyTool>
expectType<E.Either<ReadonlyArray<SumError>, ReadonlyMap<string, AnyTool>>>(sumOf(runtimeTools))
expectType<E.Either<ReadonlyArray<SumError>, ReadonlyMap<string, typeof add | typeof echo>>>(sumOf([add, echo]))
expectType<string>({} as SumError['path'])
expectType<string>({} as SumError['message'])
