/**
 * `runtimeTool` (src/contract/runtime-tool.ts): contracts from schemas known only at run time (parsed
 * JSON), served through the public API and checked on every call as `emcp`'s are.
 */
import * as t from 'io-ts'
import { describe, expect, it } from 'vitest'
import { DateFromISOString, inMemoryClient, mcpServer, runtimeTool, type CallToolResult, type Handler, type JsonSchema, type RuntimeTool, type Server } from '../../src/index.js'

/**
 * A `tools/call` through the in-memory client. (Its typed `call` looks tools up by a literal
 * name, which a run-time tool does not have: `ToolNamed<RuntimeTool, 'x'>` is never.)
 */
const callTool = async (server: Server, name: string, args: { readonly [key: string]: unknown }): Promise<CallToolResult> =>
  (await inMemoryClient(server).request('tools/call', { name, arguments: args })) as CallToolResult

/** A schema as a configuration file gives it: a JSON value, not a literal the compiler sees. */
const parsed = (text: string): JsonSchema => JSON.parse(text)

const lookup = runtimeTool({
  name: 'lookup',
  title: 'Look up',
  description: 'Find a row by id.',
  input: parsed('{"type":"object","properties":{"id":{"type":"integer","minimum":1}},"required":["id"],"additionalProperties":false}'),
  output: parsed('{"type":"object","properties":{"row":{"type":"string"}},"required":["row"]}'),
  annotations: { readOnlyHint: true },
  _meta: { 'example.com/table': 'rows' },
  'x-source': 'rows.sql',
})

describe('runtimeTool', () => {
  it('carries the definition as given, and its schemas as the wire schemas', () => {
    expect(lookup.name).toBe('lookup')
    expect(lookup.title).toBe('Look up')
    expect(lookup.inputSchema).toEqual({ type: 'object', properties: { id: { type: 'integer', minimum: 1 } }, required: ['id'], additionalProperties: false })
    expect(lookup.outputSchema).toEqual({ type: 'object', properties: { row: { type: 'string' } }, required: ['row'] })
    expect(lookup['x-source' as keyof RuntimeTool]).toBe('rows.sql')
    expect(Object.isFrozen(lookup)).toBe(true)
  })

  it('serves through mcpServer: arguments and results are checked against the run-time schemas', async () => {
    const server = mcpServer([lookup], { name: 'rows', version: '1' }).implement({
      lookup: ({ id }) => (id === 13 ? { row: 13 } : { row: `row ${String(id)}` }),
    })
    expect((await inMemoryClient(server).list()).map((x) => x.name)).toEqual(['lookup'])
    expect((await callTool(server, 'lookup', { id: 2 })).structuredContent).toEqual({ row: 'row 2' })
    const bad = await callTool(server, 'lookup', { id: 0 })
    expect(bad.isError).toBe(true)
    expect(JSON.stringify(bad.content)).toContain('/id')
    // a result that fails the output schema is never sent as a success
    const wrong = await callTool(server, 'lookup', { id: 13 })
    expect(wrong.isError).toBe(true)
    expect(wrong.structuredContent).toBeUndefined()
  })

  it('keeps the definition\'s keys in order, then the slots, as rest and spread syntax would, and claims only as the checked copy', () => {
    expect(Object.keys(lookup)).toEqual(['name', 'title', 'description', 'annotations', '_meta', 'x-source', 'input', 'inputSchema', 'output', 'outputSchema'])
    const bound = runtimeTool({ claims: { user: 'sub' }, name: 'mine', input: parsed('{"type":"object","properties":{"user":{"type":"string"},"q":{"type":"string"}}}'), tags: ['a'] })
    expect(Object.keys(bound)).toEqual(['name', 'tags', 'input', 'inputSchema', 'wholeInputSchema', 'claims'])
    expect(bound.claims).toEqual({ user: 'sub' })
    expect(bound.inputSchema).toEqual({ type: 'object', properties: { q: { type: 'string' } } })
  })

  it('adds an object root where the input schema has none, and leaves out the output schema when not given', () => {
    const plain = runtimeTool({ name: 'plain', input: parsed('{"properties":{"q":{"type":"string"}}}') })
    expect(plain.inputSchema).toEqual({ type: 'object', properties: { q: { type: 'string' } } })
    expect('outputSchema' in plain).toBe(false)
    expect('output' in plain).toBe(false)
  })

  it('refuses a schema that cannot be served, naming the tool', () => {
    expect(() => runtimeTool({ name: 'list_rows', input: parsed('{"type":"array"}') })).toThrow(
      'emcp: tool list_rows: the input schema must describe an object (type "object"), not "array"',
    )
    expect(() => runtimeTool({ name: 'remote', input: parsed('{"type":"object","properties":{"a":{"$ref":"https://example.com/a.json"}}}') })).toThrow(
      /^emcp: tool remote: the input schema cannot be served: /,
    )
  })

  it('takes io-ts codecs, whose decoded values reach the handler', async () => {
    const when = runtimeTool({ name: 'weekday', input: t.type({ day: DateFromISOString }), output: t.type({ weekday: t.number }) })
    expect(when.inputSchema).toMatchObject({ type: 'object', properties: { day: { type: 'string', format: 'date-time' } } })
    const server = mcpServer([when], { name: 'w', version: '1' }).implement({
      weekday: ({ day }) => ({ weekday: day instanceof Date ? day.getUTCDay() : -1 }),
    })
    expect((await callTool(server, 'weekday', { day: '2026-12-01T00:00:00Z' })).structuredContent).toEqual({ weekday: 2 })
  })

  it('makes a server of a list built at run time, whose names and duplicates are checked then', async () => {
    const names = ['a', 'b', 'a']
    const tools = names.map((n) => runtimeTool({ name: n, input: { type: 'object' } }))
    const handlers: Record<string, Handler<RuntimeTool>> = Object.fromEntries(names.map((n) => [n, () => n]))
    expect(() => mcpServer(tools, { name: 'd', version: '1' }).implement(handlers)).toThrow('duplicate tool name')
    const server = mcpServer(tools.slice(0, 2), { name: 'd', version: '1' }).implement(handlers)
    server.addTool(runtimeTool({ name: 'c', input: { type: 'object' } }), () => 'c')
    expect((await inMemoryClient(server).list()).map((x) => x.name)).toEqual(['a', 'b', 'c'])
    expect(() => mcpServer([runtimeTool({ name: 'no spaces', input: { type: 'object' } })], { name: 'd', version: '1' })).toThrow('invalid tool list')
  })
})
