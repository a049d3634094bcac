/**
 * What `implement` reads, and when: the tool list and the handler record as they were at the
 * call, whatever the caller does to them after (the tool table itself is made later, on first use).
 */
import { describe, expect, it } from 'vitest'
import * as O from 'fp-ts/lib/Option.js'
import { emcp, encode, mcpServer, newSession, type AnyTool, type Server } from '../../src/index.js'

const tool = (name: string): AnyTool => emcp({ name, description: `Tool ${name}.`, input: { type: 'object' } })

let id = 1

/** One request through the dispatcher, its answer as read off the wire. */
const ask = async (server: Server, method: string, params?: unknown) => {
  const out = await server.dispatch({ jsonrpc: '2.0', id: id++, method, ...(params === undefined ? {} : { params }) }, newSession())()
  if (O.isNone(out)) throw new Error(`no answer to ${method}`)
  return JSON.parse(encode(out.value)) as { result: { tools: { name: string }[]; content: { text: string }[] } }
}

describe('implement: the tool list as it was', () => {
  it('serves the tools and handlers given, though the list was reordered and emptied after implement', async () => {
    const tools = [tool('a'), tool('b')]
    const server = mcpServer(tools as any, { name: 'r', version: '1' }).implement({ a: () => 'from a', b: () => 'from b' } as any)
    tools.reverse()
    tools.push(tool('c'))
    expect(server.tools.map((t) => t.name)).toEqual(['a', 'b'])
    expect((await ask(server, 'tools/list')).result.tools.map((t) => t.name)).toEqual(['a', 'b'])
    expect((await ask(server, 'tools/call', { name: 'a', arguments: {} })).result.content[0]!.text).toBe('from a')
    expect((await ask(server, 'tools/call', { name: 'b', arguments: {} })).result.content[0]!.text).toBe('from b')
    tools.length = 0
    expect(server.tools.map((t) => t.name)).toEqual(['a', 'b'])
  })
})

describe('implement: the handler record', () => {
  it('names a handler for an unknown tool though an inherited one makes up the count', () => {
    const handlers = Object.assign(Object.create({ b: () => 'b' }) as object, { a: () => 'a', x: () => 'x' })
    expect(() => mcpServer([tool('a'), tool('b')] as any, { name: 'h', version: '1' }).implement(handlers as any)).toThrow(
      'emcp: handler for unknown tool x',
    )
  })

  it('names a handler for an unknown tool though a tool named after an Object method makes up the count', () => {
    expect(() => mcpServer([tool('a'), tool('constructor')] as any, { name: 'h', version: '1' }).implement({ a: () => 'a', x: () => 'x' } as any)).toThrow(
      /handler for unknown tool x/,
    )
  })
})
