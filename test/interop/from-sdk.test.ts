/**
 * The server ported from the official SDK (examples/from-sdk.ts, docs/from-sdk.md), built and
 * run as a child process, driven by the official SDK client over stdio and over Streamable
 * HTTP; and beside it, in this process, the SDK server it was ported from, with the same zod
 * schemas: the two list the same argument properties, accept the same arguments and refuse
 * the same ones, and the port adds the checks the SDK does not make.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js'
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js'
import { AddNoteInput, AddNoteOutput, DeleteInput, SearchInput, SearchOutput, SummarizeArgs } from '../../examples/from-sdk.js'
import { connectHttp, connectStdio, example, texts, type Connection } from './children.js'

/** The SDK server of docs/from-sdk.md, with the example's schemas (a subset of its behaviour). */
const sdkServer = (): McpServer => {
  const server = new McpServer({ name: 'notes', version: '1.0.0' })
  const notes = new Map([['n1', { title: 'Welcome', body: 'Hello from emcp.', tags: ['intro'] }]])
  server.registerTool('add_note', { title: 'Add a note', description: 'Store a note and answer its id.', inputSchema: AddNoteInput, outputSchema: AddNoteOutput }, ({ title, body, tags }) => {
    notes.set(`n${notes.size + 1}`, { title, body, tags })
    const structuredContent = { id: `n${notes.size}`, tags: tags.length }
    return { content: [{ type: 'text', text: JSON.stringify(structuredContent) }], structuredContent }
  })
  server.registerTool('search_notes', { description: 'Find notes.', inputSchema: SearchInput, outputSchema: SearchOutput }, () => ({ content: [], structuredContent: { hits: [] } }))
  server.registerTool('delete_note', { description: 'Delete a note.', inputSchema: DeleteInput }, ({ id }) => ({ content: [{ type: 'text', text: `deleted ${id}` }] }))
  server.registerPrompt('summarize_notes', { description: 'Ask the model to summarize the notes, or those with one tag.', argsSchema: SummarizeArgs }, ({ tag }) => ({
    messages: [{ role: 'user', content: { type: 'text', text: `Summarize the notes${tag === undefined ? '' : ` tagged ${tag}`}` } }],
  }))
  server.registerResource('note', new ResourceTemplate('notes://{id}', { list: undefined }), { mimeType: 'text/plain' }, (uri, { id }) => ({
    contents: [{ uri: uri.href, text: notes.get(String(id))?.body ?? '' }],
  }))
  return server
}

const sdkClient = async (): Promise<Client> => {
  const [a, b] = InMemoryTransport.createLinkedPair()
  const client = new Client({ name: 'from-sdk-test', version: '0.0.0' })
  await Promise.all([sdkServer().connect(a), client.connect(b)])
  return client
}

const transports = {
  stdio: () => connectStdio(example('from-sdk'), ['--stdio']),
  http: () => connectHttp(example('from-sdk'), (port) => ['--http', '--port', String(port), '--host', '127.0.0.1']),
} as const

describe.each(Object.keys(transports) as Array<keyof typeof transports>)('the ported notes server over %s, official SDK client', (kind) => {
  let c: Connection
  let sdk: Client

  beforeAll(async () => {
    ;[c, sdk] = await Promise.all([transports[kind](), sdkClient()])
  })

  afterAll(async () => {
    await Promise.all([c?.dispose(), sdk?.close()])
  })

  it('lists the tools with the argument properties the SDK server lists for the same zod schemas', async () => {
    const [ported, original] = await Promise.all([c.client.listTools(), sdk.listTools()])
    expect(ported.tools.map((t) => t.name)).toEqual(['add_note', 'search_notes', 'delete_note'])
    for (const t of ported.tools) {
      const o = original.tools.find((x) => x.name === t.name)
      expect(t.inputSchema.type).toBe('object')
      expect(t.inputSchema.properties).toEqual(o?.inputSchema.properties)
    }
    expect(ported.tools[0]?.inputSchema.properties?.title).toEqual({ type: 'string', minLength: 1, maxLength: 100, description: 'A short title' })
    expect(ported.tools[1]?.outputSchema?.required).toEqual(['hits'])
  })

  it('lists the prompt with the arguments the SDK server lists for the same raw shape', async () => {
    const [ported, original] = await Promise.all([c.client.listPrompts(), sdk.listPrompts()])
    const [p, o] = [ported.prompts[0], original.prompts[0]]
    expect(p).toMatchObject({ name: o?.name, description: o?.description })
    // the same argument; the SDK spells "not required" out, emcp leaves `required` out
    expect(o?.arguments).toEqual([{ name: 'tag', description: 'Only the notes with this tag', required: false }])
    expect(p?.arguments).toEqual([{ name: 'tag', description: 'Only the notes with this tag' }])
  })

  it('calls a tool: zod applies its default, the result is structured and checked by the client', async () => {
    const r = await c.client.callTool({ name: 'add_note', arguments: { title: 'Milk', body: 'buy milk' } })
    expect(r.isError).toBeUndefined()
    expect(r.structuredContent).toEqual({ id: expect.stringMatching(/^n\d+$/), tags: 0 })
    const found = await c.client.callTool({ name: 'search_notes', arguments: { query: 'milk' } })
    expect(found.structuredContent).toEqual({ hits: [{ id: (r.structuredContent as { id: string }).id, title: 'Milk' }] })
  })

  it('refuses the arguments the SDK refuses, with zod\'s own message and the path', async () => {
    const bad = { title: 'x', body: 'y', tags: ['Not lowercase'] }
    const [ported, original] = await Promise.all([c.client.callTool({ name: 'add_note', arguments: bad }), sdk.callTool({ name: 'add_note', arguments: bad })])
    expect(original.isError).toBe(true)
    expect(texts(original.content)).toEqual(['MCP error -32602: Input validation error: Invalid arguments for tool add_note: tags are lowercase words at tags[0]'])
    expect(ported.isError).toBe(true)
    expect(texts(ported.content)).toEqual(['Invalid arguments for tool add_note: /tags/0: tags are lowercase words'])
  })

  it('a tool that is not there is a JSON-RPC error -32602, where the SDK answers a result with isError', async () => {
    await expect(c.client.callTool({ name: 'nope', arguments: {} })).rejects.toMatchObject({ code: -32602 })
    const original = await sdk.callTool({ name: 'nope', arguments: {} })
    expect(original).toMatchObject({ isError: true, content: [{ type: 'text', text: 'MCP error -32602: Tool nope not found' }] })
  })

  it('a handler\'s toolError is a result with isError, and a prompt and a template resource answer', async () => {
    const gone = await c.client.callTool({ name: 'delete_note', arguments: { id: 'n999' } })
    expect(gone).toMatchObject({ isError: true, content: [{ type: 'text', text: 'no note n999' }] })
    const p = await c.client.getPrompt({ name: 'summarize_notes', arguments: { tag: 'intro' } })
    expect(p.messages[0]?.content).toEqual({ type: 'text', text: 'Summarize these notes:\n\n# Welcome\nHello from emcp.' })
    const read = await c.client.readResource({ uri: 'notes://n1' })
    expect(read.contents).toEqual([{ uri: 'notes://n1', mimeType: 'text/plain', text: 'Hello from emcp.' }])
    await expect(c.client.readResource({ uri: 'notes://nope' })).rejects.toMatchObject({ code: -32002 })
  })
})
