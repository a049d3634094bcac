/**
 * Tools whose schemas come from zod 4, valibot 1 (through @valibot/to-json-schema), arktype 2,
 * effect 4 and TypeBox, served over HTTP to the official clients of both eras (1.x: 2025-11-25, 2.x:
 * 2026-07-28) and to Node's own `http` client: the JSON Schema each library writes is listed,
 * arguments are validated by the library with its own messages, and results are checked by
 * the client against the listed output schema.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { Client as Client2, StreamableHTTPClientTransport as Transport2 } from '@modelcontextprotocol/client'
import { Type } from '@sinclair/typebox'
import { toStandardJsonSchema } from '@valibot/to-json-schema'
import { type } from 'arktype'
import { Schema } from 'effect'
import * as v from 'valibot'
import { z } from 'zod'
import { emcp, mcpServer, prompt, prompts } from '../../src/index.js'
import { serveHttp, type RunningHttp } from '../../src/transport/http.js'
import { postText } from '../support/http-post.js'

const post = emcp({
  name: 'post',
  description: 'Publish a post (valibot).',
  input: toStandardJsonSchema(v.object({ title: v.string(), tags: v.optional(v.array(v.string()), []) })),
  output: toStandardJsonSchema(v.object({ id: v.number() })),
})
const shout = emcp({
  name: 'shout',
  description: 'Shout a word (zod).',
  input: z.object({ word: z.string().min(1), times: z.number().int().positive().default(2) }),
  output: z.object({ text: z.string() }),
})
const greet = emcp({
  name: 'greet',
  description: 'Greet someone (arktype).',
  input: type({ name: 'string', 'age?': 'number.integer >= 0' }),
  output: type({ hello: 'string' }),
})
const search = emcp({
  name: 'search',
  description: 'Search (TypeBox).',
  input: Type.Object({ q: Type.String({ minLength: 1 }), n: Type.Optional(Type.Integer()) }),
  output: Type.Object({ hits: Type.Array(Type.String()) }),
})

const person = emcp({
  name: 'person',
  description: 'Describe a person (effect).',
  input: Schema.toStandardJSONSchemaV1(Schema.toStandardSchemaV1(Schema.Struct({ name: Schema.String, age: Schema.optional(Schema.Number) }))),
  output: Schema.toStandardJSONSchemaV1(Schema.toStandardSchemaV1(Schema.Struct({ line: Schema.String }))),
})

const review = prompt({
  name: 'review',
  description: 'Review code (zod arguments).',
  arguments: z.object({ code: z.string().min(1).describe('The code'), lines: z.string().regex(/^\d+$/, 'lines must be digits').transform(Number).optional() }),
  get: ({ code, lines }) => `Review ${lines === undefined ? 'all' : lines + 1} of ${code}`,
})

const server = mcpServer([post, shout, greet, search, person], { name: 'schemas', version: '1.0.0' }, { features: [prompts([review])] }).implement({
  post: ({ title, tags }) => ({ id: title.length + tags.length }),
  shout: ({ word, times }) => ({ text: Array.from({ length: times }, () => word.toUpperCase()).join(' ') }),
  greet: ({ name, age }) => ({ hello: age === undefined ? name : `${name} (${age})` }),
  search: ({ q, n }) => ({ hits: [q.repeat(n ?? 1)] }),
  person: ({ name, age }) => ({ line: age === undefined ? name : `${name}, ${age}` }),
})

interface Driver {
  readonly listTools: () => Promise<{ tools: Array<{ name: string; inputSchema: unknown; outputSchema?: unknown }> }>
  readonly callTool: (name: string, args: Record<string, unknown>) => Promise<{ isError?: boolean; content?: unknown; structuredContent?: unknown }>
  readonly listPrompts: () => Promise<{ prompts: Array<{ name: string; arguments?: unknown }> }>
  readonly getPrompt: (name: string, args: Record<string, string>) => Promise<{ messages: Array<{ content: { type: string; text?: string } }> }>
  readonly close: () => Promise<void>
}

let running: RunningHttp
beforeAll(async () => {
  running = await serveHttp(server, { port: 0, handleSignals: false })
})
afterAll(async () => {
  await running.close()
})

const clients: ReadonlyArray<readonly [string, () => Promise<Driver>]> = [
  [
    '@modelcontextprotocol/sdk 1.x (2025-11-25)',
    async () => {
      const client = new Client({ name: 'schemas-1', version: '1' })
      await client.connect(new StreamableHTTPClientTransport(new URL(running.url)))
      return {
        listTools: () => client.listTools(),
        callTool: (name, args) => client.callTool({ name, arguments: args }) as never,
        listPrompts: () => client.listPrompts(),
        getPrompt: (name, args) => client.getPrompt({ name, arguments: args }) as never,
        close: () => client.close(),
      }
    },
  ],
  [
    '@modelcontextprotocol/client 2.x (2026-07-28)',
    async () => {
      const client = new Client2({ name: 'schemas-2', version: '1' }, { versionNegotiation: { mode: 'auto' } })
      await client.connect(new Transport2(new URL(running.url)))
      expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28')
      return {
        listTools: () => client.listTools() as never,
        callTool: (name, args) => client.callTool({ name, arguments: args }) as never,
        listPrompts: () => client.listPrompts() as never,
        getPrompt: (name, args) => client.getPrompt({ name, arguments: args }) as never,
        close: () => client.close(),
      }
    },
  ],
]

describe.each(clients)('Standard Schema tools, %s over HTTP', (_, open) => {
  it('lists the JSON Schema each library writes, input and output', async () => {
    const c = await open()
    try {
      const { tools } = await c.listTools()
      const byName = Object.fromEntries(tools.map((t) => [t.name, t]))
      expect(byName.post?.inputSchema).toMatchObject({ type: 'object', properties: { title: { type: 'string' }, tags: { type: 'array', items: { type: 'string' }, default: [] } }, required: ['title'] })
      expect(byName.post?.outputSchema).toMatchObject({ type: 'object', properties: { id: { type: 'number' } }, required: ['id'] })
      expect(byName.shout?.inputSchema).toMatchObject({ type: 'object', properties: { word: { type: 'string', minLength: 1 }, times: { type: 'integer', exclusiveMinimum: 0, default: 2 } }, required: ['word'] })
      expect(byName.greet?.inputSchema).toMatchObject({ type: 'object', properties: { name: { type: 'string' }, age: { type: 'integer', minimum: 0 } }, required: ['name'] })
      expect(byName.person?.inputSchema).toMatchObject({ type: 'object', properties: { name: { type: 'string' } }, required: ['name'] })
      expect(byName.search?.inputSchema).toMatchObject({ type: 'object', properties: { q: { type: 'string', minLength: 1 }, n: { type: 'integer' } }, required: ['q'] })
      // nothing of the libraries' internals
      expect(JSON.stringify(tools)).not.toMatch(/"kind"|"expects"|~standard|_zod|"~run"/)
    } finally {
      await c.close()
    }
  })

  it('refuses { "title": 42 } with valibot\'s own message, and each library\'s issues the same way', async () => {
    const c = await open()
    try {
      const refused = async (name: string, args: Record<string, unknown>) => {
        const r = await c.callTool(name, args)
        expect(r.isError).toBe(true)
        return (r.content as Array<{ text: string }>)[0]?.text
      }
      expect(await refused('post', { title: 42 })).toBe('Invalid arguments for tool post: /title: Invalid type: Expected string but received 42')
      expect(await refused('shout', { word: '' })).toBe('Invalid arguments for tool shout: /word: Too small: expected string to have >=1 characters')
      expect(await refused('greet', { name: 1, age: -1 })).toBe('Invalid arguments for tool greet: /name: name must be a string (was a number); /age: age must be non-negative (was -1)')
      expect(await refused('person', { name: 1 })).toBe('Invalid arguments for tool person: /name: Expected string')
      expect(await refused('search', { q: '', n: 1.5 })).toBe('Invalid arguments for tool search: /q: must NOT have fewer than 1 characters; /n: must be integer')
    } finally {
      await c.close()
    }
  })

  it('calls each tool: defaults applied, results checked by the client against the listed output schema', async () => {
    const c = await open()
    try {
      expect((await c.callTool('post', { title: 'hello' })).structuredContent).toEqual({ id: 5 })
      expect((await c.callTool('shout', { word: 'hi' })).structuredContent).toEqual({ text: 'HI HI' })
      expect((await c.callTool('greet', { name: 'Ada', age: 36 })).structuredContent).toEqual({ hello: 'Ada (36)' })
      expect((await c.callTool('search', { q: 'ab', n: 2 })).structuredContent).toEqual({ hits: ['abab'] })
      expect((await c.callTool('person', { name: 'Ada', age: 36 })).structuredContent).toEqual({ line: 'Ada, 36' })
    } finally {
      await c.close()
    }
  })
})

describe.each(clients)('a prompt with zod arguments, %s over HTTP', (_, open) => {
  it('lists the derived arguments, gets the transformed values, and refuses with zod\'s message', async () => {
    const c = await open()
    try {
      expect((await c.listPrompts()).prompts).toEqual([
        { name: 'review', description: 'Review code (zod arguments).', arguments: [{ name: 'code', description: 'The code', required: true }, { name: 'lines' }] },
      ])
      expect((await c.getPrompt('review', { code: 'x', lines: '41' })).messages[0]?.content).toEqual({ type: 'text', text: 'Review 42 of x' })
      await expect(c.getPrompt('review', { code: 'x', lines: 'many' })).rejects.toThrow(/prompt review: invalid arguments: \/lines: lines must be digits/)
    } finally {
      await c.close()
    }
  })
})

describe('Standard Schema tools, Node http client', () => {
  /** One JSON-RPC request in a stateless 2025-11-25 exchange, through node:http. */
  const post_ = (body: unknown): Promise<{ status: number; text: string }> =>
    postText(running.url, { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' }, JSON.stringify(body))

  it('answers prompts/get with arguments zod refuses as -32602 naming the issue, and lists the derived arguments', async () => {
    const bad = await post_({ jsonrpc: '2.0', id: 2, method: 'prompts/get', params: { name: 'review', arguments: { code: 'x', lines: 'many' } } })
    expect(bad.status).toBe(200)
    expect(bad.text).toContain('"code":-32602')
    expect(bad.text).toContain('prompts/get: prompt review: invalid arguments: /lines: lines must be digits')
    const list = await post_({ jsonrpc: '2.0', id: 3, method: 'prompts/list', params: {} })
    expect(list.text).toContain('"arguments":[{"name":"code","description":"The code","required":true},{"name":"lines"}]')
  })

  it('answers the valibot case as invalid arguments, never a silent pass', async () => {
    const r = await post_({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'post', arguments: { title: 42 } } })
    expect(r.status).toBe(200)
    expect(r.text).toContain('Invalid arguments for tool post: /title: Invalid type: Expected string but received 42')
    expect(r.text).toContain('"isError":true')
  })
})
