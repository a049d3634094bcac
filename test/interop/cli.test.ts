/**
 * The official SDK client (@modelcontextprotocol/sdk 1.x) drives servers run by the `emcp`
 * executable: `emcp serve` over stdio (a curated subset of the 2000-tool catalog) and over
 * stateless HTTP, and a server imported from a manifest whose `ask` tool is reviewed through
 * the client's elicitation handler.
 */
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { ElicitRequestSchema, type ElicitRequest, type ElicitResult } from '@modelcontextprotocol/sdk/types.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { connectHttp, connectStdio, example, root, type Connection } from './children.js'

const bin = join(root, 'bin', 'emcp.js')

describe('emcp serve, official SDK client', () => {
  it('serves a curated subset of the catalog over stdio: only the geometry category is listed and callable', async () => {
    const c = await connectStdio(bin, ['serve', example('catalog'), '--category', 'geometry'])
    try {
      const { tools, nextCursor } = await c.client.listTools()
      expect(nextCursor).toBeUndefined()
      expect(tools).toHaveLength(18)
      expect(tools.every((t) => t.name.startsWith('geometry.'))).toBe(true)
      const r = await c.client.callTool({ name: 'geometry.translate_mfjson', arguments: { shape: '{"type":"Point","coordinates":[1,2]}', dx: 1, dy: -2 } })
      expect(r.structuredContent).toEqual({ result: '{"type":"Point","coordinates":[2,0]}' })
      await expect(c.client.callTool({ name: 'scalar.add_i8', arguments: { a: 1, b: 2 } })).rejects.toThrow(/disabled/)
      expect(c.output()).toContain('serving 18 of 2000 tools')
    } finally {
      await c.dispose()
    }
  }, 120_000)

  it('serves over stateless HTTP', async () => {
    const c = await connectHttp(bin, (port) => ['serve', example('calculator'), '--http', '--port', String(port)])
    try {
      const r = await c.client.callTool({ name: 'add', arguments: { a: 2, b: 3 } })
      expect(r.structuredContent).toEqual({ sum: 5 })
    } finally {
      await c.dispose()
    }
  }, 120_000)
})

describe('a manifest-imported server with execution policies, official SDK client', () => {
  let c: Connection
  let answer: (request: ElicitRequest) => ElicitResult = () => ({ action: 'cancel' })
  const asked: ElicitRequest[] = []

  beforeAll(async () => {
    const client = new Client({ name: 'emcp-interop', version: '0.0.0' }, { capabilities: { elicitation: { form: {} } } })
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request)
      return answer(request)
    })
    c = await connectStdio(bin, ['serve', example('ops')], {}, client)
  })

  afterAll(async () => {
    await c?.dispose()
  })

  it('lists the enabled tools only: a disabled tool is declared in the manifest but not served', async () => {
    const { tools } = await c.client.listTools()
    expect(tools.map((t) => t.name)).toEqual(['drop_table', 'row_count'])
    await expect(c.client.callTool({ name: 'format_disk', arguments: {} })).rejects.toThrow('Tool format_disk is disabled')
  })

  it('ask: a declined review leaves the table; an accepted one runs the handler with the arguments as the user left them', async () => {
    answer = () => ({ action: 'decline' })
    const declined = await c.client.callTool({ name: 'drop_table', arguments: { table: 'users' } })
    expect(declined.isError).toBe(true)
    expect(await c.client.callTool({ name: 'row_count', arguments: { table: 'users' } })).toMatchObject({ structuredContent: { rows: 42, exists: true } })
    // the user keeps the model's proposal, shown as the form's default
    answer = (request) => {
      const schema = 'requestedSchema' in request.params ? (request.params.requestedSchema as unknown as { properties: { table: { default: string } } }) : undefined
      return { action: 'accept', content: { table: schema?.properties.table.default ?? '' } }
    }
    const accepted = await c.client.callTool({ name: 'drop_table', arguments: { table: 'users' } })
    expect(accepted.content).toEqual([{ type: 'text', text: 'dropped users' }])
    expect(asked).toHaveLength(2)
    expect((asked[1]!.params as { requestedSchema?: unknown }).requestedSchema).toEqual({
      type: 'object',
      properties: { table: { type: 'string', description: 'The table to drop', default: 'users' } },
      required: ['table'],
    })
    expect(await c.client.callTool({ name: 'row_count', arguments: { table: 'users' } })).toMatchObject({ structuredContent: { rows: 0, exists: false } })
  })
})
