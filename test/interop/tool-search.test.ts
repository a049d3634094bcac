/**
 * `emcp serve --search` through the official SDK clients: the 2000-tool catalog over stdio
 * (1.32.2 client) with a pinned tool, the same over stateful HTTP (2.4.0 client,
 * 2026-07-28), a manifest server whose `ask` policy still reviews a call made through
 * call_tool and whose `disabled` tool stays out of reach, and the usage errors of the flags.
 */
import { execFile } from 'node:child_process'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { Client as Client2026, StreamableHTTPClientTransport as Http2026 } from '@modelcontextprotocol/client'
import { StdioClientTransport as Stdio2026 } from '@modelcontextprotocol/client/stdio'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js'
import { describe, expect, it } from 'vitest'
import { connectStdio, example, root, spawnListening, stop, texts } from './children.js'

const bin = join(root, 'bin', 'emcp.js')
const run = promisify(execFile)

/** The names in a search_tools answer. */
const namesOf = (r: object): ReadonlyArray<string> => ((r as { structuredContent?: unknown }).structuredContent as { tools: Array<{ name: string }> }).tools.map((t) => t.name)

describe('emcp serve --search', () => {
  it('serves the catalog over stdio with the gateways and a pinned tool; search and call_tool reach the other tools', async () => {
    const c = await connectStdio(bin, ['serve', example('catalog'), '--search', '--pin', 'scalar.add_i8'])
    try {
      const { tools } = await c.client.listTools()
      expect(tools.map((t) => t.name)).toEqual(['search_tools', 'call_tool', 'scalar.add_i8'])
      const found = await c.client.callTool({ name: 'search_tools', arguments: { query: 'square root of each element of a f64 vector', limit: 5 } })
      expect(namesOf(found)[0]).toBe('vector.sqrt_f64')
      const r = await c.client.callTool({ name: 'call_tool', arguments: { name: 'scalar.add_i8', arguments: { a: 100, b: 27 } } })
      expect(r.structuredContent).toEqual({ result: 127 })
      const out = await c.client.callTool({ name: 'call_tool', arguments: { name: 'scalar.add_i8', arguments: { a: 100, b: 28 } } })
      expect(out.isError).toBe(true)
      expect(texts(out.content)[0]).toMatch(/does not fit i8/)
      const invalid = await c.client.callTool({ name: 'call_tool', arguments: { name: 'scalar.add_i8', arguments: { a: 'one' } } })
      expect(texts(invalid.content)[0]).toMatch(/^Invalid arguments for tool scalar\.add_i8: /)
    } finally {
      await c.dispose()
    }
  }, 120_000)

  it('serves over stateful HTTP to the 2026-07-28 client, with a curated subset: a tool left out cannot be reached through call_tool', async () => {
    const listening = await spawnListening(bin, (port) => ['serve', example('catalog'), '--http', '--port', String(port), '--sessions', '--category', 'vector', '--search'])
    const client = new Client2026({ name: 'v2', version: '1' }, { versionNegotiation: { mode: 'auto' } })
    try {
      await client.connect(new Http2026(new URL(listening.url)))
      expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28')
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['search_tools', 'call_tool'])
      const found = await client.callTool({ name: 'search_tools', arguments: { query: 'add two integers', limit: 50 } })
      expect(namesOf(found).length).toBeGreaterThan(0)
      expect(namesOf(found).every((n) => n.startsWith('vector.'))).toBe(true)
      const left = await client.callTool({ name: 'call_tool', arguments: { name: 'scalar.add_i8', arguments: { a: 1, b: 2 } } })
      expect(left.isError).toBe(true)
      expect(JSON.stringify(left.content)).toMatch(/no tool is named scalar\.add_i8/)
      const r = await client.callTool({ name: 'call_tool', arguments: { name: 'vector.add_i8', arguments: { xs: [1, 2], ys: [3, 4] } } })
      expect(r.structuredContent).toEqual({ result: [4, 6] })
    } finally {
      await client.close().catch(() => {})
      await stop(listening.child, listening.exited, 'SIGKILL')
    }
  }, 120_000)

  it("keeps a manifest tool's execution policy through call_tool: ask is reviewed by the user, disabled stays out of reach", async () => {
    const asked: string[] = []
    const client = new Client({ name: 'emcp-interop', version: '0.0.0' }, { capabilities: { elicitation: { form: {} } } })
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(String(request.params.message))
      return { action: 'decline' }
    })
    const c = await connectStdio(bin, ['serve', example('ops'), '--search'], {}, client)
    try {
      const declined = await c.client.callTool({ name: 'call_tool', arguments: { name: 'drop_table', arguments: { table: 'users' } } })
      expect(declined.isError).toBe(true)
      expect(asked).toHaveLength(1)
      const disabled = await c.client.callTool({ name: 'call_tool', arguments: { name: 'format_disk', arguments: {} } })
      expect(disabled.isError).toBe(true)
      expect(JSON.stringify(disabled.content)).toMatch(/no tool is named format_disk/)
      expect(namesOf(await c.client.callTool({ name: 'search_tools', arguments: { query: 'format disk' } }))).not.toContain('format_disk')
    } finally {
      await c.dispose()
    }
  }, 120_000)

  it('reviews an ask tool called through call_tool in the 2026-07-28 era too: input_required, answered by the client, then the call runs', async () => {
    const client = new Client2026({ name: 'v2', version: '1' }, { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: 'auto' } })
    const asked: string[] = []
    client.setRequestHandler('elicitation/create', async (req) => {
      asked.push(String((req.params as { message?: unknown }).message))
      return { action: 'accept', content: { table: 'users' } }
    })
    await client.connect(new Stdio2026({ command: process.execPath, args: [bin, 'serve', example('ops'), '--search'], stderr: 'pipe' }))
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28')
      const r = await client.callTool({ name: 'call_tool', arguments: { name: 'drop_table', arguments: { table: 'users' } } })
      expect(asked).toHaveLength(1)
      expect(r.content).toEqual([{ type: 'text', text: 'dropped users' }])
    } finally {
      await client.close()
    }
  }, 120_000)

  it('refuses --pin without --search, and a pinned name that is no tool, as usage errors', async () => {
    const fail = async (...args: string[]) => {
      try {
        await run(process.execPath, [bin, 'serve', example('calculator'), ...args], { cwd: root, timeout: 60_000 })
        return { code: 0, stderr: '' }
      } catch (e) {
        return e as { code: number; stderr: string }
      }
    }
    const alone = await fail('--pin', 'add')
    expect(alone.code).toBe(2)
    expect(alone.stderr).toMatch(/--pin needs --search/)
    const unknown = await fail('--search', '--pin', 'nosuch')
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toMatch(/--pin names no tool: nosuch/)
  }, 120_000)
})
