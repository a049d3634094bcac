/**
 * Type tests of `connect` (emcp/client): typed by a server value, by `typeof server`, by the
 * contracts given at run time, or by the tool list `emcp types` writes for a server emcp did
 * not build. A wrong tool name, a wrong argument and a wrong use of the result do not compile.
 */
import * as t from 'io-ts'
import { expectError, expectType } from 'tsd'
import { DateFromISOString, emcp, mcpServer, prompt, type CallToolResult, type ListedTool } from 'emcp'
import { connect, type RemoteClient, type ToolsOf } from 'emcp/client'

const add = emcp({
  name: 'add',
  input: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'], additionalProperties: false },
  output: { type: 'object', properties: { sum: { type: 'number' } }, required: ['sum'], additionalProperties: false },
})
const echo = emcp({ name: 'echo', input: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'], additionalProperties: false } })
const addDays = emcp({ name: 'add_days', input: t.type({ date: DateFromISOString, days: t.number }), output: t.type({ date: DateFromISOString }) })
const server = mcpServer([add, echo, addDays], { name: 'calc', version: '1' }).implement({
  add: ({ a, b }) => ({ sum: a + b }),
  echo: ({ text }) => text,
  add_days: ({ date, days }) => ({ date: new Date(date.getTime() + days * 86_400_000) }),
})

// what `emcp types` writes for a foreign server: its tools/list as const data
const tools = [
  {
    name: 'get_weather',
    inputSchema: { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer' } }, required: ['city'] },
    outputSchema: { type: 'object', properties: { temperature: { type: 'number' }, conditions: { type: 'string' } }, required: ['temperature', 'conditions'] },
  },
  { name: 'ping_host', inputSchema: { type: 'object', properties: { host: { type: 'string' } }, required: ['host'] } },
] as const

const chat = prompt({ name: 'weather_chat', arguments: { region: { required: true }, mood: {} }, get: ({ region }) => `Weather in ${region}?` })

const typed = async (): Promise<void> => {
  const local = await connect(server)
  expectType<RemoteClient<typeof add | typeof echo | typeof addDays>>(local)
  expectType<number>((await local.call('add', { a: 1, b: 2 })).sum)
  expectType<Date>((await local.call('add_days', { date: new Date(), days: 1 })).date)
  expectType<CallToolResult>(await local.call('echo', { text: 'hi' }))
  expectType<ReadonlyArray<ListedTool>>(await local.list())

  const remote = await connect<typeof server>('http://127.0.0.1:3000/mcp')
  expectType<number>((await remote.call('add', { a: 1, b: 2 }, { signal: AbortSignal.timeout(1000) })).sum)
  const inferred = await connect({ command: 'node', args: ['server.js'] }, { contracts: server, protocolVersion: '2026-07-28' })
  expectType<{ sum: number }>(await inferred.call('add', { a: 1, b: 2 }))

  const foreign = await connect<typeof tools>('http://127.0.0.1:3000/mcp')
  const weather = await foreign.call('get_weather', { city: 'Oslo' })
  expectType<number>(weather.temperature)
  expectType<string>(weather.conditions)
  expectType<CallToolResult>(await foreign.call('ping_host', { host: 'example.org' }))
  expectType<'get_weather' | 'ping_host'>(null as unknown as ToolsOf<typeof tools>['name'])

  // prompts given as values: names and arguments typed
  const withPrompts = await connect('http://127.0.0.1:3000/mcp', { contracts: server, prompts: [chat] })
  await withPrompts.prompts.get('weather_chat', { region: 'eu-north' })
  await withPrompts.prompts.get('weather_chat', { region: 'eu-north', mood: 'sunny' })
  expectError(withPrompts.prompts.get('weather', { region: 'eu-north' }))
  expectError(withPrompts.prompts.get('weather_chat', { mood: 'sunny' }))
  expectError(withPrompts.prompts.get('weather_chat', { region: 42 }))
  // without them, any name and string arguments
  await remote.prompts.get('anything', { any: 'string' })

  // a wrong tool name
  // message: /^Argument of type '"multiply"' is not assignable to parameter of type '"add" \| "/
  expectError(remote.call('multiply', { a: 1, b: 2 }))
  // message: /^Argument of type '"get_forecast"' is not assignable to parameter of type '"get_weather" \| "ping_host"'/
  expectError(foreign.call('get_forecast', { city: 'Oslo' }))
  // a wrong argument: of the wrong type, missing, or extra
  // message: /^Type 'string' is not assignable to type 'number'/
  expectError(remote.call('add', { a: '1', b: 2 }))
  expectError(remote.call('add', { a: 1 }))
  expectError(remote.call('add', { a: 1, b: 2, c: 3 }))
  expectError(remote.call('add_days', { date: '2025-01-01', days: 1 }))
  // message: /^Type 'number' is not assignable to type 'string'/
  expectError(foreign.call('get_weather', { city: 42 }))
  expectError(foreign.call('get_weather', { days: 2 }))
  // a wrong use of the result
  // message: /^Property 'total' does not exist on type '\{ sum: number; \}'/
  expectError((await remote.call('add', { a: 1, b: 2 })).total)
  expectError((await remote.call('add', { a: 1, b: 2 })).sum.toUpperCase())
  expectError((await foreign.call('get_weather', { city: 'Oslo' })).conditions.toFixed())
  expectError((await local.call('add_days', { date: new Date(), days: 1 })).date.toUpperCase())
  expectError((await foreign.call('ping_host', { host: 'a' })).temperature)
}
void typed
