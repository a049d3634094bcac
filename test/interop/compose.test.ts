/**
 * A mount over real transports, with the official clients: the compose example (the calculator
 * whole, billing under `billing` with a transformed tool, ops under `ops` with visibility
 * rules), spawned and driven over stdio and Streamable HTTP by the 1.32.2 client (2025-11-25)
 * and the 2.4.0 client (2026-07-28); and in tool-search mode (`--search`) over stdio.
 */
import { describe, expect, it } from 'vitest'
import { Client as Client2026, StreamableHTTPClientTransport as Http2026 } from '@modelcontextprotocol/client'
import { StdioClientTransport as Stdio2026 } from '@modelcontextprotocol/client/stdio'
import { connectHttp, connectStdio, example, spawnListening, stop } from './children.js'

const script = example('compose')
const shopTools = ['add', 'echo', 'add_days', 'billing_pay', 'ops_status', 'reports_report']

/** What every client must see of the shop, whatever its era and transport. */
interface Shop {
  listTools(): Promise<{ tools: ReadonlyArray<{ name: string; inputSchema: unknown; outputSchema?: unknown }> }>
  callTool(p: { name: string; arguments: Record<string, unknown> }): Promise<unknown>
  getPrompt(p: { name: string; arguments: Record<string, string> }): Promise<{ messages: ReadonlyArray<{ content: unknown }> }>
  readResource(p: { uri: string }): Promise<{ contents: ReadonlyArray<unknown> }>
  listPrompts(): Promise<{ prompts: ReadonlyArray<{ name: string }> }>
}

const checkShop = async (client: Shop): Promise<void> => {
  const { tools } = await client.listTools()
  expect(tools.map((t) => t.name)).toEqual(shopTools)
  const pay = tools.find((t) => t.name === 'billing_pay')
  expect(pay?.inputSchema).toMatchObject({ properties: { cents: { type: 'integer', minimum: 1 }, note: { default: '' } }, required: ['cents'] })
  expect(Object.keys((pay?.inputSchema as { properties: object }).properties)).toEqual(['cents', 'note'])
  expect(pay?.outputSchema).toMatchObject({ properties: { receipt: { type: 'string' } }, required: ['receipt'] })
  expect(await client.callTool({ name: 'billing_pay', arguments: { cents: 250 } })).toMatchObject({ structuredContent: { receipt: 'guest-250EUR' } })
  expect(await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } })).toMatchObject({ structuredContent: { sum: 5 } })
  // a hidden tool is no tool at all
  await expect(client.callTool({ name: 'ops_restart', arguments: {} })).rejects.toThrow(/Unknown tool: ops_restart/)
  expect((await client.listPrompts()).prompts.map((p) => p.name)).toEqual(['billing_invoice'])
  expect((await client.getPrompt({ name: 'billing_invoice', arguments: { customer: 'Ada' } })).messages[0]?.content).toMatchObject({ text: 'Draft an invoice for Ada.' })
  expect((await client.readResource({ uri: 'billing://terms' })).contents[0]).toMatchObject({ text: 'Pay within 30 days.' })
}

describe('a mount with the 1.32.2 client (2025-11-25)', () => {
  it('over stdio', async () => {
    const c = await connectStdio(script, [])
    try {
      await checkShop(c.client as unknown as Shop)
    } finally {
      await c.dispose()
    }
  }, 60_000)

  it('over Streamable HTTP', async () => {
    const c = await connectHttp(script, (port) => ['--http', '--port', String(port)])
    try {
      await checkShop(c.client as unknown as Shop)
    } finally {
      await c.dispose()
    }
  }, 60_000)
})

describe('a mount in tool-search mode (--search) with the 1.32.2 client', () => {
  it('over stdio: lists the gateways and billing_pay, finds ops_status, calls it through call_tool, never the hidden ops_restart', async () => {
    const c = await connectStdio(script, ['--search'])
    try {
      expect((await c.client.listTools()).tools.map((t) => t.name)).toEqual(['search_tools', 'call_tool', 'billing_pay'])
      const hits = (await c.client.callTool({ name: 'search_tools', arguments: { query: 'service status' } })).structuredContent as { tools: ReadonlyArray<{ name: string }> }
      expect(hits.tools.map((t) => t.name)).toContain('ops_status')
      expect(hits.tools.map((t) => t.name)).not.toContain('ops_restart')
      const status = await c.client.callTool({ name: 'call_tool', arguments: { name: 'ops_status', arguments: {} } })
      expect(status.isError).not.toBe(true)
      const hidden = await c.client.callTool({ name: 'call_tool', arguments: { name: 'ops_restart', arguments: {} } })
      expect(hidden).toMatchObject({ isError: true, content: [{ text: expect.stringContaining('no tool is named ops_restart') }] })
      expect(await c.client.callTool({ name: 'call_tool', arguments: { name: 'billing_pay', arguments: { cents: 250 } } })).toMatchObject({ structuredContent: { receipt: 'guest-250EUR' } })
    } finally {
      await c.dispose()
    }
  }, 60_000)
})

describe('a mount with the 2.4.0 client (2026-07-28)', () => {
  const modern = () => new Client2026({ name: 'emcp-interop-2026', version: '0.0.0' }, { versionNegotiation: { mode: 'auto' } })

  it('over stdio', async () => {
    const client = modern()
    await client.connect(new Stdio2026({ command: process.execPath, args: [script], stderr: 'pipe' }))
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28')
      expect(client.getServerVersion()).toMatchObject({ name: 'shop', version: '1.0.0' })
      await checkShop(client as unknown as Shop)
    } finally {
      await client.close()
    }
  }, 60_000)

  it('over Streamable HTTP', async () => {
    const server = await spawnListening(script, (port) => ['--http', '--port', String(port)])
    const client = modern()
    try {
      await client.connect(new Http2026(new URL(server.url)))
      expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28')
      await checkShop(client as unknown as Shop)
    } finally {
      await client.close().catch(() => {})
      await stop(server.child, server.exited, 'SIGKILL')
    }
  }, 60_000)
})
