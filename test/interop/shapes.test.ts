/**
 * Tools whose schemas are raw shapes of Standard Schemas (`{ title: z.string() }`, as the
 * official SDK's `registerTool` takes them; zod, valibot, arktype and effect mixed), served
 * over HTTP to the official clients of both eras (1.x: 2025-11-25, 2.x: 2026-07-28): one
 * object JSON Schema listed, arguments validated property by property with each library's
 * messages at their paths, unknown keys refused, defaults and transforms applied, and results
 * checked by the client against the listed output schema.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { Client as Client2, StreamableHTTPClientTransport as Transport2 } from '@modelcontextprotocol/client'
import { toStandardJsonSchema } from '@valibot/to-json-schema'
import { type } from 'arktype'
import { Schema } from 'effect'
import * as v from 'valibot'
import { z } from 'zod'
import { emcp, mcpServer } from '../../src/index.js'
import { serveHttp, type RunningHttp } from '../../src/transport/http.js'

const note = emcp({
  name: 'note',
  description: 'Save a note (a zod shape, as the SDK takes it).',
  input: { title: z.string().min(1, 'a title, please'), n: z.number().int().optional(), tag: z.string().default('misc'), body: z.string().transform((s) => s.trim()) },
  output: { id: z.string(), words: z.number().int() },
})
const mixed = emcp({
  name: 'mixed',
  description: 'One shape, four libraries.',
  input: {
    a: toStandardJsonSchema(v.pipe(v.string(), v.minLength(2, 'a is too short'))),
    b: type('number > 0'),
    c: Schema.toStandardJSONSchemaV1(Schema.toStandardSchemaV1(Schema.String)),
    d: z.boolean().optional(),
  },
  output: { line: z.string() },
})

// plain types only: emcp's own type tests judge a plainly valid call, zod every other (quick.ts)
const add = emcp({ name: 'add', description: 'Add (plain zod types).', input: { a: z.number().describe('First addend'), b: z.number() }, output: { sum: z.number() } })

const server = mcpServer([note, mixed, add], { name: 'shapes', version: '1.0.0' }).implement({
  add: ({ a, b }) => ({ sum: a === 7 ? NaN : a + b }),
  note: ({ title, n, tag, body }) => ({ id: `${tag}/${title}/${n ?? 0}`, words: body.split(/\s+/).length }),
  mixed: ({ a, b, c, d }) => ({ line: `${a} ${b} ${c} ${d ?? '-'}` }),
})

interface Driver {
  readonly listTools: () => Promise<{ tools: Array<{ name: string; inputSchema: unknown; outputSchema?: unknown }> }>
  readonly callTool: (name: string, args: Record<string, unknown>) => Promise<{ isError?: boolean; content?: unknown; structuredContent?: unknown }>
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
      const client = new Client({ name: 'shapes-1', version: '1' })
      await client.connect(new StreamableHTTPClientTransport(new URL(running.url)))
      return { listTools: () => client.listTools(), callTool: (name, args) => client.callTool({ name, arguments: args }) as never, close: () => client.close() }
    },
  ],
  [
    '@modelcontextprotocol/client 2.x (2026-07-28)',
    async () => {
      const client = new Client2({ name: 'shapes-2', version: '1' }, { versionNegotiation: { mode: 'auto' } })
      await client.connect(new Transport2(new URL(running.url)))
      expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28')
      return { listTools: () => client.listTools() as never, callTool: (name, args) => client.callTool({ name, arguments: args }) as never, close: () => client.close() }
    },
  ],
]

const textOf = (r: { content?: unknown }): string => JSON.stringify(r.content)

describe.each(clients)('raw shape tools, %s over HTTP', (_, open) => {
  it('lists one object schema assembled from the properties: input and output directions, required from the non-optional ones', async () => {
    const c = await open()
    try {
      const byName = Object.fromEntries((await c.listTools()).tools.map((t) => [t.name, t]))
      expect(byName.note?.inputSchema).toMatchObject({
        type: 'object',
        properties: { title: { type: 'string', minLength: 1 }, n: { type: 'integer' }, tag: { type: 'string', default: 'misc' }, body: { type: 'string' } },
        required: ['title', 'body'],
        additionalProperties: false,
      })
      expect(byName.note?.outputSchema).toMatchObject({ type: 'object', properties: { id: { type: 'string' }, words: { type: 'integer' } }, required: ['id', 'words'] })
      expect(byName.mixed?.inputSchema).toMatchObject({ type: 'object', properties: { a: { type: 'string', minLength: 2 }, b: { type: 'number', exclusiveMinimum: 0 }, c: { type: 'string' }, d: { type: 'boolean' } }, required: ['a', 'b', 'c'] })
      expect(JSON.stringify(byName)).not.toMatch(/"kind"|"expects"|~standard|_zod/)
    } finally {
      await c.close()
    }
  })

  it('calls them: defaults and transforms applied, the result checked by the client', async () => {
    const c = await open()
    try {
      expect((await c.callTool('note', { title: 'hi', body: '  one two  ' })).structuredContent).toEqual({ id: 'misc/hi/0', words: 2 })
      expect((await c.callTool('mixed', { a: 'xy', b: 2, c: 'z' })).structuredContent).toEqual({ line: 'xy 2 z -' })
    } finally {
      await c.close()
    }
  })

  it('refuses bad arguments with each library\'s message at its path, and an unknown key, as invalid arguments', async () => {
    const c = await open()
    try {
      const bad = await c.callTool('note', { title: '', n: 1.5, body: 3 })
      expect(bad.isError).toBe(true)
      expect(textOf(bad)).toContain('/title: a title, please')
      expect(textOf(bad)).toMatch(/\/n: .*int/i)
      expect(textOf(bad)).toContain('/body:')
      const extra = await c.callTool('note', { title: 't', body: 'b', titel: 'x' })
      expect(extra.isError).toBe(true)
      expect(textOf(extra)).toContain('/titel: is not a known property')
      const libs = await c.callTool('mixed', { a: 'x', b: -1, c: 4 })
      expect(libs.isError).toBe(true)
      expect(textOf(libs)).toContain('/a: a is too short')
      expect(textOf(libs)).toContain('/b: must be positive (was -1)')
      expect(textOf(libs)).toContain('/c: Expected string')
    } finally {
      await c.close()
    }
  })

  it('answers a shape of plain zod types as zod would: a valid call, a wrong type, a missing or unknown key, a result zod refuses', async () => {
    const c = await open()
    try {
      const ok = await c.callTool('add', { b: 2, a: 1 })
      expect(ok.structuredContent).toEqual({ sum: 3 })
      expect(ok.isError).toBeFalsy()
      const wrong = await c.callTool('add', { a: '1', b: 2 })
      expect(wrong.isError).toBe(true)
      expect(textOf(wrong)).toContain('/a: Invalid input: expected number, received string')
      expect(textOf(await c.callTool('add', { a: 1 }))).toContain('/b: Invalid input: expected number, received undefined')
      expect(textOf(await c.callTool('add', { a: 1, b: 2, c: 3 }))).toContain('/c: is not a known property')
      const nan = await c.callTool('add', { a: 7, b: 0 })
      expect(nan.isError).toBe(true)
      expect(textOf(nan)).toMatch(/does not match its output schema: \/sum: Invalid input: expected number, received NaN/)
    } finally {
      await c.close()
    }
  })
})
