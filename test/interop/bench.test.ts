/**
 * The official SDK client against the built bench example with 2000 filler tools, over
 * stdio and over stateless Streamable HTTP: one `tools/list` page of 2001 tools, and calls.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { connectHttp, connectStdio, example, stop, type Connection } from './children.js'

const TOOLS = 2000

const transports = {
  stdio: () => connectStdio(example('bench'), ['stdio'], { TOOLS: String(TOOLS) }),
  http: () => connectHttp(example('bench'), () => ['http'], (port) => ({ TOOLS: String(TOOLS), PORT: String(port) })),
} as const

describe.each(Object.keys(transports) as Array<keyof typeof transports>)(`bench (TOOLS=${TOOLS}) over %s, official SDK client`, (kind) => {
  let c: Connection

  beforeAll(async () => {
    c = await transports[kind]()
  })

  afterAll(async () => {
    await c?.dispose()
  })

  it(`lists ${TOOLS + 1} tools in one page`, async () => {
    const { tools, nextCursor } = await c.client.listTools()
    expect(nextCursor).toBeUndefined()
    expect(tools).toHaveLength(TOOLS + 1)
    expect(tools[0]?.name).toBe('add')
    expect(tools[1]?.name).toBe('tool_0000')
    expect(tools[TOOLS]?.name).toBe(`tool_${TOOLS - 1}`)
    expect(new Set(tools.map((t) => t.name)).size).toBe(TOOLS + 1)
    for (const t of tools) expect(t.inputSchema.type).toBe('object')
  })

  it('calls add and a filler tool', async () => {
    await c.client.listTools()
    const r = await c.client.callTool({ name: 'add', arguments: { a: 2, b: 3 } })
    expect(r.structuredContent).toEqual({ sum: 5 })
    expect(r.content).toEqual([{ type: 'text', text: '{"sum":5}' }])
    const f = await c.client.callTool({ name: 'tool_1999', arguments: { p0: true, p1: 'x', p2: 1.5 } })
    expect(f.isError ?? false).toBe(false)
    expect(f.content).toEqual([{ type: 'text', text: '{"p0":true,"p1":"x","p2":1.5}' }])
    const bad = await c.client.callTool({ name: 'tool_1999', arguments: { p1: 'x' } })
    expect(bad.isError).toBe(true)
  })

  it('closes cleanly', async () => {
    await c.client.close()
    if (kind === 'stdio') await expect(c.exited).resolves.toEqual({ code: 0, signal: null })
    else await expect(stop(c.child, c.exited, 'SIGTERM')).resolves.toEqual({ code: 0, signal: null })
  })
})
