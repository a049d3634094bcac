/**
 * Type tests of `mcpServer` (src/server/server.ts): a duplicate name and an empty list do not
 * compile, `implement` is exhaustive (a missing or an extra handler does not compile), and
 * every handler's arguments are typed from its contract.
 */
import type * as O from 'fp-ts/lib/Option.js'
import type { Task } from 'fp-ts/lib/Task.js'
import * as t from 'io-ts'
import { expectAssignable, expectError, expectNotAssignable, expectType } from 'tsd'
import {
  DateFromISOString,
  emcp,
  mcpServer,
  newSession,
  type Reply,
  type Server,
  type ServerBuilder,
  type ServerInfo,
  type ServerOptions,
  type ToolContext,
} from 'emcp'

const add = emcp({
  name: 'add',
  input: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'], additionalProperties: false },
  output: { type: 'object', properties: { sum: { type: 'number' } }, required: ['sum'], additionalProperties: false },
})
const echo = emcp({ name: 'echo', input: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } })
const addDays = emcp({
  name: 'add_days',
  input: t.type({ date: DateFromISOString, days: t.Int }),
  output: t.type({ date: DateFromISOString }),
})
const add2 = emcp({ name: 'add', input: { type: 'object' } })
const info = { name: 'calc', version: '1.0.0' }

// ---------------------------------------------------------------------------------------
// the list

const builder = mcpServer([add, echo, addDays], info)
expectType<ServerBuilder<typeof add | typeof echo | typeof addDays>>(builder)
expectType<ServerBuilder<typeof add>>(mcpServer([add], info, { pageSize: 10, instructions: 'Use add.' }))
// a builder of some tools is not one of others (`implement` reads the tools from `this`)
expectNotAssignable<ServerBuilder<typeof echo>>(mcpServer([add], info))
// a builder kept in a variable implements its own tools
const addOnly = mcpServer([add], info)
expectType<Server<typeof add>>(addOnly.implement({ add: ({ a, b }) => ({ sum: a + b }) }))

// duplicate names: the same contract twice, and two contracts sharing a name
expectError(mcpServer([add, add], info))
expectError(mcpServer([add, echo, add2], info))
expectError(mcpServer([echo, add, addDays, echo], info))
// an empty list
expectError(mcpServer([], info))

// server info needs a name and a version; options are typed
expectError(mcpServer([add], { name: 'calc' }))
expectError(mcpServer([add], { version: '1' }))
expectError(mcpServer([add], info, { pageSize: '10' }))
expectAssignable<ServerInfo>({ name: 'n', version: '1', title: 'T', websiteUrl: 'https://example.com', icons: [{ src: 'x.png' }] })
expectAssignable<ServerOptions>({})
expectAssignable<ServerOptions>({ callTimeoutMs: 30_000 })
expectNotAssignable<ServerOptions>({ callTimeoutMs: '30s' })

// ---------------------------------------------------------------------------------------
// implement: exhaustive, typed

const server = builder.implement({
  add: ({ a, b }) => {
    expectType<number>(a)
    expectType<number>(b)
    return { sum: a + b }
  },
  echo: ({ text }, ctx) => {
    expectType<string>(text)
    expectType<ToolContext>(ctx)
    return text
  },
  add_days: ({ date, days }) => {
    expectType<Date>(date)
    expectType<t.Branded<number, t.IntBrand>>(days)
    return { date: new Date(date.getTime() + days * 86_400_000) }
  },
})
expectType<Server<typeof add | typeof echo | typeof addDays>>(server)
expectType<ReadonlyArray<typeof add | typeof echo | typeof addDays>>(server.tools)
expectType<ServerInfo>(server.info)
expectType<Task<O.Option<Reply>>>(server.dispatch({ jsonrpc: '2.0', id: 1, method: 'ping' }, newSession()))
expectType<Task<O.Option<string>>>(server.dispatchText('{}', newSession()))

// a missing handler
expectError(builder.implement({ add: ({ a, b }) => ({ sum: a + b }), echo: ({ text }) => text }))
expectError(mcpServer([add], info).implement({}))
// an extra handler (a tool that is not in the list)
expectError(
  mcpServer([add], info).implement({ add: ({ a, b }) => ({ sum: a + b }), multiply: ({ a, b }: { a: number; b: number }) => ({ product: a * b }) }),
)
// an extra handler in a variable (not only in an object literal)
const handlersWithExtra = { add: ({ a, b }: { a: number; b: number }) => ({ sum: a + b }), multiply: () => 'x' }
expectError(mcpServer([add], info).implement(handlersWithExtra))
const exactHandlers = { add: ({ a, b }: { a: number; b: number }) => ({ sum: a + b }) }
expectType<Server<typeof add>>(mcpServer([add], info).implement(exactHandlers))
// a misspelt one: both missing and extra
expectError(mcpServer([echo], info).implement({ ecco: ({ text }: { text: string }) => text }))
// a handler that is not a function
expectError(mcpServer([echo], info).implement({ echo: 'hello' }))

// a parameter key the schema does not have does not compile (the silent failure of hand-written manifests)
expectError(mcpServer([add], info).implement({ add: ({ a, c }) => ({ sum: a + c }) }))
// arguments are used at their schema type
expectError(mcpServer([echo], info).implement({ echo: ({ text }) => text.toFixed(2) }))
expectError(mcpServer([addDays], info).implement({ add_days: ({ date }) => ({ date: date.toUpperCase() }) }))
// a handler that asks for more than the schema gives
expectError(mcpServer([add], info).implement({ add: ({ a, b }: { a: number; b: number; c: number }) => ({ sum: a + b }) }))

// a list built at run time is accepted (and checked at run time)
declare const dynamic: ReadonlyArray<typeof echo>
expectType<ServerBuilder<typeof echo>>(mcpServer(dynamic, info))

// result keys: an open output (no additionalProperties: false) lets a handler return other
// keys, a closed one does not; an optional output key may be returned or left out
const openOut = emcp({ name: 'open_out', input: { type: 'object' }, output: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] } })
const closedOpt = emcp({
  name: 'closed_opt',
  input: { type: 'object' },
  output: { type: 'object', properties: { n: { type: 'number' }, note: { type: 'string' } }, required: ['n'], additionalProperties: false },
})
const keyed = mcpServer([openOut, closedOpt], { name: 'k', version: '1' })
expectType<Server<typeof openOut | typeof closedOpt>>(keyed.implement({ open_out: () => ({ n: 1, extra: 'kept' }), closed_opt: () => ({ n: 1, note: 'x' }) }))
expectType<Server<typeof openOut | typeof closedOpt>>(keyed.implement({ open_out: () => ({ n: 1 }), closed_opt: () => ({ n: 1 }) }))
expectError(keyed.implement({ open_out: () => ({ n: 1 }), closed_opt: () => ({ n: 1, extra: 'no' }) }))

// a contract written inside the list (or inside linkApp) keeps its name and types
const inline = mcpServer(
  [emcp({ name: 'inline_add', input: { type: 'object', properties: { a: { type: 'number' } }, required: ['a'], additionalProperties: false } })],
  { name: 'i', version: '1' },
)
expectError(inline.implement({ inline_add: ({ a }) => a.toUpperCase() }))
inline.implement({
  inline_add: ({ a }) => {
    expectType<number>(a)
    return String(a)
  },
})
expectError(inline.implement({ other: () => 'x' }))
