/**
 * The official SDK client (@modelcontextprotocol/sdk 1.x) drives the built calculator
 * example as a real child process, over stdio and over stateless Streamable HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ErrorCode, LATEST_PROTOCOL_VERSION, McpError } from '@modelcontextprotocol/sdk/types.js'
import { supportedVersions } from '../../src/protocol/versions.js'
import { connectHttp, connectStdio, example, stop, type Connection } from './children.js'

type TextBlock = { readonly type: string; readonly text?: string }

const texts = (content: unknown): string[] =>
  (content as ReadonlyArray<TextBlock>).map((b) => {
    expect(b.type).toBe('text')
    return b.text ?? ''
  })

const transports = {
  stdio: () => connectStdio(example('calculator'), ['--stdio']),
  http: () => connectHttp(example('calculator'), (port) => ['--http', '--port', String(port), '--host', '127.0.0.1']),
} as const

describe.each(Object.keys(transports) as Array<keyof typeof transports>)('calculator over %s, official SDK client', (kind) => {
  let c: Connection

  beforeAll(async () => {
    c = await transports[kind]()
  })

  afterAll(async () => {
    await c?.dispose()
  })

  it('connects: server info, tools capability, instructions, negotiated protocol version', () => {
    expect(c.client.getServerVersion()).toEqual({ name: 'calculator', version: '1.0.0', title: 'Calculator' })
    expect(c.client.getServerCapabilities()?.tools).toBeDefined()
    expect(c.client.getInstructions()).toBe(
      'Use add for sums, add_days for calendar arithmetic, echo to test the connection.',
    )
    expect(c.protocolVersion()).toBe(LATEST_PROTOCOL_VERSION)
    expect(supportedVersions as ReadonlyArray<string>).toContain(c.protocolVersion())
  })

  it('lists the three tools with schemas and annotations', async () => {
    const { tools, nextCursor } = await c.client.listTools()
    expect(nextCursor).toBeUndefined()
    expect(tools.map((t) => t.name)).toEqual(['add', 'echo', 'add_days'])
    for (const t of tools) {
      expect(t.inputSchema.type).toBe('object')
      expect(t.description ?? '').not.toBe('')
    }
    const [add, echo, addDays] = tools
    expect(add?.title).toBe('Add')
    expect(add?.inputSchema.required).toEqual(['a', 'b'])
    expect(add?.inputSchema.properties).toMatchObject({ a: { type: 'number' }, b: { type: 'number' } })
    expect(add?.outputSchema).toMatchObject({ type: 'object', properties: { sum: { type: 'number' } }, required: ['sum'] })
    expect(add?.annotations).toEqual({ readOnlyHint: true, idempotentHint: true, openWorldHint: false })
    expect(echo?.outputSchema).toBeUndefined()
    expect(echo?.annotations).toEqual({ readOnlyHint: true })
    // derived from io-ts codecs
    expect(addDays?.inputSchema.properties).toMatchObject({
      date: { type: 'string', format: 'date-time' },
      days: { type: 'integer' },
    })
    expect(addDays?.outputSchema).toMatchObject({ type: 'object', properties: { date: { type: 'string' }, weekday: { type: 'string' } } })
    expect(addDays?.annotations).toEqual({ readOnlyHint: true, idempotentHint: true })
  })

  it('calls add(2, 3): structuredContent.sum is 5 and the text is the same JSON', async () => {
    // listTools first, so that the SDK validates structuredContent against the output schema
    await c.client.listTools()
    const r = await c.client.callTool({ name: 'add', arguments: { a: 2, b: 3 } })
    expect(r.isError ?? false).toBe(false)
    expect(r.structuredContent).toEqual({ sum: 5 })
    expect(texts(r.content)).toEqual(['{"sum":5}'])
  })

  it('answers bad arguments with isError and a text naming /a', async () => {
    const r = await c.client.callTool({ name: 'add', arguments: { a: 'x', b: 3 } })
    expect(r.isError).toBe(true)
    expect(r.structuredContent).toBeUndefined()
    expect(texts(r.content).join('\n')).toMatch(/\/a\b/)
  })

  it('rejects an unknown tool with McpError -32602', async () => {
    const call = c.client.callTool({ name: 'no_such_tool', arguments: {} })
    await expect(call).rejects.toBeInstanceOf(McpError)
    await expect(call).rejects.toMatchObject({ code: ErrorCode.InvalidParams })
    expect(ErrorCode.InvalidParams).toBe(-32602)
  })

  it('echoes text, including unicode and newlines', async () => {
    const text = 'héllo\nwörld ✓ 🎉 "quoted" \\ back'
    const r = await c.client.callTool({ name: 'echo', arguments: { text } })
    expect(r.isError ?? false).toBe(false)
    expect(texts(r.content)).toEqual([text])
  })

  it('add_days (io-ts): a date string in, the shifted date and its weekday out', async () => {
    await c.client.listTools()
    const r = await c.client.callTool({ name: 'add_days', arguments: { date: '2024-02-28T00:00:00Z', days: 2 } })
    expect(r.isError ?? false).toBe(false)
    expect(r.structuredContent).toEqual({ date: '2024-03-01T00:00:00.000Z', weekday: 'Friday' })
    expect(JSON.parse(texts(r.content)[0] ?? '')).toEqual(r.structuredContent)
    const bad = await c.client.callTool({ name: 'add_days', arguments: { date: 'yesterday', days: 1.5 } })
    expect(bad.isError).toBe(true)
    expect(texts(bad.content).join('\n')).toMatch(/\/date\b/)
    expect(texts(bad.content).join('\n')).toMatch(/\/days\b/)
  })

  it('never sends a sum that breaks the output schema (overflow to Infinity is an isError result)', async () => {
    await c.client.listTools()
    // JSON has no Infinity: a sum of 1e308 + 1e308 would go out as {"sum":null}, which the
    // SDK client rejects against the output schema
    const r = await c.client.callTool({ name: 'add', arguments: { a: 1e308, b: 1e308 } })
    expect(r.isError).toBe(true)
    expect(r.structuredContent).toBeUndefined()
  })

  it('answers ping', async () => {
    await expect(c.client.ping()).resolves.toEqual({})
  })

  it('answers 50 concurrent calls, each with its own result', async () => {
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) => c.client.callTool({ name: 'add', arguments: { a: i, b: 1000 } })),
    )
    expect(results.map((r) => (r.structuredContent as { sum: number }).sum)).toEqual(
      Array.from({ length: 50 }, (_, i) => i + 1000),
    )
  })

  if (kind === 'stdio')
    it('closes cleanly: the server exits with code 0 when its stdin closes', async () => {
      // StdioClientTransport.close ends stdin, then after 2 s sends SIGTERM, then SIGKILL:
      // record any signal it has to send
      const signals: unknown[] = []
      const kill = c.child.kill.bind(c.child)
      c.child.kill = (signal?: NodeJS.Signals | number) => {
        signals.push(signal)
        return kill(signal)
      }
      await c.client.close()
      expect(await c.exited, `stderr: ${c.output()}`).toEqual({ code: 0, signal: null })
      expect(signals).toEqual([])
    })
  else
    it('closes cleanly: the client closes, the server stays up, then stops with code 0 on SIGTERM', async () => {
      await c.client.close()
      expect(c.child.exitCode).toBeNull()
      await expect(stop(c.child, c.exited, 'SIGTERM')).resolves.toEqual({ code: 0, signal: null })
    })
})
