/**
 * Type tests of the in-memory client (src/transport/in-memory.ts): `call` takes a tool's typed arguments
 * and resolves to its typed output (the whole CallToolResult for tools without an output
 * schema); an unknown tool name or arguments of the wrong type do not compile.
 */
import * as t from 'io-ts'
import { expectAssignable, expectError, expectNotAssignable, expectType } from 'tsd'
import {
  DateFromISOString,
  emcp,
  inMemoryClient,
  InputRequiredError,
  mcpServer,
  RpcCallError,
  ToolCallError,
  type CallToolResult,
  type Client,
  type ClientOptions,
  type ListedTool,
  type ResultOf,
  type Server,
} from 'emcp'

const add = emcp({
  name: 'add',
  input: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'], additionalProperties: false },
  output: { type: 'object', properties: { sum: { type: 'number' } }, required: ['sum'], additionalProperties: false },
})
const echo = emcp({
  name: 'echo',
  input: { type: 'object', properties: { text: { type: 'string' }, loud: { type: 'boolean' } }, required: ['text'], additionalProperties: false },
})
const addDays = emcp({
  name: 'add_days',
  input: t.type({ date: DateFromISOString, days: t.number }),
  output: t.type({ date: DateFromISOString }),
})

const server = mcpServer([add, echo, addDays], { name: 'calc', version: '1' }).implement({
  add: ({ a, b }) => ({ sum: a + b }),
  echo: ({ text, loud }) => (loud === true ? text.toUpperCase() : text),
  add_days: ({ date, days }) => ({ date: new Date(date.getTime() + days * 86_400_000) }),
})
const client = inMemoryClient(server)
expectType<Client<typeof add | typeof echo | typeof addDays>>(client)
expectType<Client<typeof add>>(inMemoryClient(mcpServer([add], { name: 'a', version: '1' }).implement({ add: ({ a, b }) => ({ sum: a + b }) }), {
  protocolVersion: '2025-06-18',
  clientInfo: { name: 'tests', version: '0' },
}))
expectAssignable<ClientOptions>({})

const typedResults = async (): Promise<void> => {
  // the typed result of a tool with an output schema
  expectType<number>((await client.call('add', { a: 1, b: 2 })).sum)
  expectType<{ sum: number }>(await client.call('add', { a: 1, b: 2 }))
  // a codec output is decoded on the client side too
  expectType<Date>((await client.call('add_days', { date: new Date(), days: 3 })).date)
  // no output schema: the whole CallToolResult
  expectType<CallToolResult>(await client.call('echo', { text: 'hi' }))
  expectType<CallToolResult>(await client.call('echo', { text: 'hi', loud: true }))
  // callResult always gives the whole result
  expectType<CallToolResult>(await client.callResult('add', { a: 1, b: 2 }))
  expectType<ReadonlyArray<ListedTool>>(await client.list())
  expectType<void>(await client.ping())
  expectType<unknown>(await client.request('tools/list'))
}
void typedResults

// wrong argument types, missing and extra arguments
expectError(client.call('add', { a: '1', b: 2 }))
expectError(client.call('add', { a: 1 }))
expectError(client.call('add', { a: 1, b: 2, c: 3 }))
expectError(client.call('add'))
expectError(client.call('echo', { text: 42 }))
expectError(client.call('echo', { text: 'hi', loud: 'yes' }))
// a codec input takes the decoded type: a Date, not a string
expectError(client.call('add_days', { date: '2025-01-01T00:00:00Z', days: 1 }))
expectError(client.callResult('add', { a: 1, b: '2' }))
// an unknown tool name
expectError(client.call('multiply', { a: 1, b: 2 }))
expectError(client.callResult('nope', {}))
// a result is what the schema says, nothing more
const noExtra = async (): Promise<void> => {
  expectError((await client.call('add', { a: 1, b: 2 })).product)
  expectError((await client.call('echo', { text: 'x' })).sum)
}
void noExtra

// ResultOf as a type
expectType<{ sum: number }>({} as ResultOf<typeof add>)
expectType<CallToolResult>({} as ResultOf<typeof echo>)
expectType<{ date: Date }>({} as ResultOf<typeof addDays>)

// errors are data
declare const rpcError: RpcCallError
expectType<number>(rpcError.code)
expectType<unknown>(rpcError.data)
expectAssignable<Error>(rpcError)
declare const toolCallError: ToolCallError
expectType<CallToolResult>(toolCallError.result)
expectAssignable<Error>(toolCallError)

// ---------------------------------------------------------------------------------------
// 2026-07-28: no initialize, input_required answered by `answer`

expectAssignable<ClientOptions>({ protocolVersion: '2026-07-28', answer: ({ method }) => (method === 'roots/list' ? { roots: [] } : { action: 'decline' }) })
expectAssignable<ClientOptions>({ answer: async () => ({ action: 'cancel' }) })
expectNotAssignable<ClientOptions>({ answer: 'yes' })
expectType<{ readonly inputRequests?: unknown; readonly requestState?: string }>(new InputRequiredError({}).result)
expectAssignable<Error>(new InputRequiredError({ requestState: 's' }))

// arguments with a `default`: the handler always gets them, a caller may leave them out
const page = emcp({
  name: 'page',
  input: {
    type: 'object',
    properties: { version: { type: 'string' }, limit: { type: 'integer', default: 10 }, cursor: { type: 'string' } },
    required: ['version'],
    additionalProperties: false,
  },
})
const pages = inMemoryClient(
  mcpServer([page], { name: 'pages', version: '1' }).implement({
    page: ({ version, limit, cursor }) => {
      expectType<string>(version)
      expectType<number>(limit)
      expectType<string | undefined>(cursor)
      return `${version} ${limit}`
    },
  }),
)
expectType<Promise<CallToolResult>>(pages.call('page', { version: 'v1' }))
expectType<Promise<CallToolResult>>(pages.call('page', { version: 'v1', limit: 5 }))
expectType<Promise<CallToolResult>>(pages.callResult('page', { version: 'v1' }))
expectError(pages.call('page', { limit: 5 }))
expectError(pages.call('page', { version: 'v1', limit: '5' }))
expectError(pages.call('page', { version: 'v1', size: 5 }))

// a server typed only as `Server` (its tools known at run time): any name, any object of arguments
const anyServer = server as Server
expectType<Promise<CallToolResult>>(inMemoryClient(anyServer).callResult('add', { a: 1, b: 2 }))
expectType<Promise<CallToolResult>>(inMemoryClient(anyServer).callResult('anything', {}))
expectError(inMemoryClient(anyServer).callResult('add', 3))
