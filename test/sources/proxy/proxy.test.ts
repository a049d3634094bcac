/**
 * emcp/proxy in process, over real sockets: an emcp upstream pinned to one era (2025-11-25
 * or 2026-07-28) on 127.0.0.1, a proxy of it served over stateful HTTP, and the official
 * clients of both eras (SDK 1.32.2, client 2.4.0) on the proxy; every pair of eras relays
 * structured results, tool errors, progress, elicitation and sampling, and (2025 clients)
 * logging and the upstream's tools/list_changed. Then an upstream that goes down and comes
 * back, and the typed manifest.
 */
import type { AddressInfo } from 'node:net'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Client as Client2025 } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport as Http2025 } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  LoggingMessageNotificationSchema,
  McpError,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js'
import { Client as Client2026, StreamableHTTPClientTransport as Http2026 } from '@modelcontextprotocol/client'
import { emcp, inMemoryClient, mcpServer, resource, resources, toolError, type Server } from '../../../src/index.js'
import { serveHttp, type RunningHttp } from '../../../src/transport/http.js'
import type { Era } from '../../../src/protocol/versions.js'
import { proxy, type ProxyServer } from '../../../src/sources/proxy/index.js'
import { modernClient } from '../../support/modern-client.js'
import { texts, until } from '../../interop/children.js'

// ---------------------------------------------------------------------------------------
// the upstream: an emcp server of one era

const add = emcp({
  name: 'add',
  description: 'Adds two numbers.',
  input: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'], additionalProperties: false },
  output: { type: 'object', properties: { sum: { type: 'number' } }, required: ['sum'] },
  annotations: { readOnlyHint: true },
})
const steps = emcp({ name: 'steps', description: 'Reports progress and logs each of n steps.', input: { type: 'object', properties: { n: { type: 'integer', minimum: 1, maximum: 10 } }, required: ['n'] } })
const ask = emcp({ name: 'ask', description: 'Asks the user for a name.', input: { type: 'object' } })
const think = emcp({ name: 'think', description: 'Asks the client’s model.', input: { type: 'object' } })
const boom = emcp({ name: 'boom', description: 'Always fails.', input: { type: 'object' } })
const later = emcp({ name: 'later', description: 'Added at run time.', input: { type: 'object' } })

const upstreamOf = (era: Era): Server =>
  mcpServer([add, steps, ask, think, boom], { name: `upstream-${era}`, version: '3.0.0' }, {
    eras: [era],
    features: [resources([resource({ uri: 'mem://note', name: 'note', mimeType: 'text/plain', read: () => 'a note' })])],
  }).implement({
    add: ({ a, b }) => ({ sum: a + b }),
    steps: async ({ n }, ctx) => {
      for (let i = 1; i <= n; i++) {
        ctx.progress(i, n, `step ${i}`)
        ctx.log('info', `step ${i} of ${n}`, 'steps')
      }
      return `${n} steps`
    },
    ask: async (_args, ctx) => {
      const r = await ctx.elicit({ message: 'Your name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } })
      return r.action === 'accept' ? `hello ${r.content.name}` : `no name (${r.action})`
    },
    think: async (_args, ctx) => {
      const r = await ctx.sample({ messages: [{ role: 'user', content: { type: 'text', text: 'One word?' } }], maxTokens: 5 })
      return `the model said ${JSON.stringify(r.content)}`
    },
    boom: () => toolError('it broke'),
  }) as unknown as Server

const sessions = { sessions: true, port: 0, host: '127.0.0.1' } as const

/** A 2025 client (SDK 1.32.2) that answers elicitation with Ada and sampling with "blue", and keeps the logs and list changes. */
const client2025 = async (url: string) => {
  const client = new Client2025({ name: 'proxy-test-2025', version: '0' }, { capabilities: { elicitation: { form: {} }, sampling: {} } })
  const logs: string[] = []
  let toolsChanged = 0
  client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content: { name: 'Ada' } }))
  client.setRequestHandler(CreateMessageRequestSchema, async () => ({ role: 'assistant', content: { type: 'text', text: 'blue' }, model: 'test' }))
  client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void logs.push(String(n.params.data)))
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => void toolsChanged++)
  await client.connect(new Http2025(new URL(url)))
  return { client, logs, toolsChanged: () => toolsChanged }
}

/** A 2026 client (client 2.4.0, negotiating 2026-07-28) answering the same way. */
const client2026 = async (url: string) => {
  const client = new Client2026({ name: 'proxy-test-2026', version: '0' }, { capabilities: { elicitation: { form: {} }, sampling: {} }, versionNegotiation: { mode: { pin: '2026-07-28' } } })
  client.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: { name: 'Ada' } }))
  client.setRequestHandler('sampling/createMessage', async () => ({ role: 'assistant', content: { type: 'text', text: 'blue' }, model: 'test' }))
  await client.connect(new Http2026(new URL(url)))
  return client
}

// ---------------------------------------------------------------------------------------
// every pair of eras

describe.each(['2025-11-25', '2026-07-28'] as const)('a %s upstream through the proxy', (era) => {
  let upstream: RunningHttp
  let upstreamServer: Server
  let proxied: ProxyServer
  let front: RunningHttp

  beforeAll(async () => {
    upstreamServer = upstreamOf(era)
    upstream = await serveHttp(upstreamServer, sessions)
    proxied = await proxy({ url: upstream.url })
    front = await serveHttp(proxied, sessions)
  })

  afterAll(async () => {
    await front?.close()
    await proxied?.close()
    await upstream?.close()
  })

  it('is served under the upstream’s name, with its tools, schemas and annotations', async () => {
    expect(proxied.info).toEqual({ name: `upstream-${era}`, version: '3.0.0' })
    const listed = await inMemoryClient(proxied).list()
    expect(listed.map((t) => t.name)).toEqual(['add', 'steps', 'ask', 'think', 'boom'])
    expect(listed[0]).toMatchObject({ description: 'Adds two numbers.', annotations: { readOnlyHint: true }, inputSchema: add.inputSchema, outputSchema: add.outputSchema })
  })

  it('to a 2025-11-25 client: results, errors, progress, logging, elicitation and sampling', async () => {
    const { client, logs } = await client2025(front.url)
    try {
      await client.setLoggingLevel('debug')
      expect((await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } })).structuredContent).toEqual({ sum: 5 })
      const failed = await client.callTool({ name: 'boom', arguments: {} })
      expect(failed).toMatchObject({ isError: true, content: [{ type: 'text', text: 'it broke' }] })
      const progress: number[] = []
      const r = await client.callTool({ name: 'steps', arguments: { n: 3 } }, undefined, { onprogress: (p) => void progress.push(p.progress) })
      expect(texts(r.content)).toEqual(['3 steps'])
      expect(progress).toEqual([1, 2, 3])
      await until(() => logs.length >= 3, 'the three log messages')
      expect(logs).toEqual(['step 1 of 3', 'step 2 of 3', 'step 3 of 3'])
      expect(texts((await client.callTool({ name: 'ask', arguments: {} })).content)).toEqual(['hello Ada'])
      expect(texts((await client.callTool({ name: 'think', arguments: {} })).content)).toEqual(['the model said {"type":"text","text":"blue"}'])
      // arguments are checked at the proxy, against the upstream's schema
      expect(await client.callTool({ name: 'add', arguments: { a: 'x' } })).toMatchObject({ isError: true })
    } finally {
      await client.close()
    }
  })

  it('to a 2026-07-28 client: results, errors, progress, elicitation and sampling', async () => {
    const client = await client2026(front.url)
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28')
      expect((await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } })).structuredContent).toEqual({ sum: 5 })
      expect(await client.callTool({ name: 'boom', arguments: {} })).toMatchObject({ isError: true, content: [{ type: 'text', text: 'it broke' }] })
      const progress: number[] = []
      await client.callTool({ name: 'steps', arguments: { n: 2 } }, { onprogress: (p) => void progress.push(p.progress) })
      expect(progress).toEqual([1, 2])
      expect(texts((await client.callTool({ name: 'ask', arguments: {} })).content)).toEqual(['hello Ada'])
      expect(texts((await client.callTool({ name: 'think', arguments: {} })).content)).toEqual(['the model said {"type":"text","text":"blue"}'])
      const read = await client.readResource({ uri: 'mem://note' })
      expect(read.contents).toEqual([{ uri: 'mem://note', mimeType: 'text/plain', text: 'a note' }])
    } finally {
      await client.close()
    }
  })

  it('a 2026-07-28 client that did not declare sampling gets -32021 for the upstream’s question, as from the upstream itself', async () => {
    const bare = modernClient(front.url, 'fetch', undefined, {})
    const r = await bare.rpc('tools/call', { name: 'think', arguments: {} })
    expect(r.body.error).toMatchObject({ code: -32021, data: { requiredCapabilities: { sampling: {} } } })
  })

  it('the upstream’s tools/list_changed reaches the proxy’s clients, and the new tool is served', async () => {
    const { client, toolsChanged } = await client2025(front.url)
    try {
      upstreamServer.addTool(later, () => 'here now')
      await until(() => toolsChanged() > 0, 'notifications/tools/list_changed from the proxy')
      expect((await client.listTools()).tools.map((t) => t.name)).toContain('later')
      expect(texts((await client.callTool({ name: 'later', arguments: {} })).content)).toEqual(['here now'])
      upstreamServer.removeTool('later')
      await until(() => toolsChanged() > 1, 'the second notifications/tools/list_changed')
      expect((await client.listTools()).tools.map((t) => t.name)).not.toContain('later')
    } finally {
      await client.close()
    }
  })
})

// ---------------------------------------------------------------------------------------
// an upstream that goes away and comes back

describe('an upstream that goes down', () => {
  let upstream: RunningHttp
  let port: number
  const server = upstreamOf('2025-11-25')
  let proxied: ProxyServer
  let front: RunningHttp

  beforeAll(async () => {
    upstream = await serveHttp(server, sessions)
    port = (upstream.server.address() as AddressInfo).port
    proxied = await proxy({ url: upstream.url })
    front = await serveHttp(proxied, { port: 0, host: '127.0.0.1' })
  })

  afterAll(async () => {
    await front?.close()
    await proxied?.close()
    await upstream?.close()
  })

  it('gives isError for tools and 503 (-32004) for the rest, then reconnects once it is back', async () => {
    const c = inMemoryClient(proxied)
    expect(await c.call('add', { a: 1, b: 1 })).toEqual({ sum: 2 })
    await upstream.close()
    const down = await c.callResult('add', { a: 1, b: 1 })
    expect(down.isError).toBe(true)
    expect(texts(down.content)[0]).toMatch(/^the upstream MCP server http:\/\/127\.0\.0\.1:\d+\/mcp (did not answer add|cannot be reached)/)
    // the next request tries again, and says the upstream cannot be reached
    const again = await c.callResult('add', { a: 1, b: 1 })
    expect(texts(again.content)[0]).toMatch(/cannot be reached: (.*: )?fetch failed \(ECONNREFUSED\)/)
    const modern = await modernClient(front.url, 'fetch').rpc('resources/read', { uri: 'mem://note' })
    expect(modern.status).toBe(503)
    expect(modern.body.error).toMatchObject({ code: -32004, message: expect.stringMatching(/^resources\/read: the upstream MCP server .* cannot be reached/) })

    upstream = await serveHttp(server, { ...sessions, port })
    expect(await c.call('add', { a: 2, b: 2 })).toEqual({ sum: 4 })
  })
})

describe('proxy(): what cannot start', () => {
  it('rejects, saying why, when the upstream cannot be reached', async () => {
    const gone = await serveHttp(upstreamOf('2025-11-25'), sessions)
    const url = gone.url
    await gone.close()
    await expect(proxy({ url })).rejects.toThrow(/^the upstream MCP server http:\/\/127\.0\.0\.1:\d+\/mcp cannot be reached: .*ECONNREFUSED/)
    await expect(proxy({ command: process.execPath, args: ['-e', 'process.exit(3)'] })).rejects.toThrow(/cannot be reached/)
  })

  it('rejects when the manifest names a tool the upstream lacks', async () => {
    const up = await serveHttp(upstreamOf('2025-11-25'), sessions)
    try {
      const manifest = { tools: [{ name: 'multiply', inputSchema: { type: 'object' } }] } as const
      await expect(proxy({ url: up.url }, { manifest })).rejects.toThrow(/has no tool multiply, which the manifest names/)
    } finally {
      await up.close()
    }
  })

  it('a manifest types the proxy’s tools for every typed helper', async () => {
    const up = await serveHttp(upstreamOf('2025-11-25'), sessions)
    const manifest = {
      tools: [
        {
          name: 'add',
          inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'], additionalProperties: false },
          outputSchema: { type: 'object', properties: { sum: { type: 'number' } }, required: ['sum'] },
        },
      ],
    } as const
    const typed = await proxy({ url: up.url }, { manifest })
    try {
      const { sum } = await inMemoryClient(typed).call('add', { a: 20, b: 22 })
      const n: number = sum
      expect(n).toBe(42)
      // @ts-expect-error: b must be a number, as the manifest says
      await inMemoryClient(typed).callResult('add', { a: 1, b: 'two' })
      // @ts-expect-error: the manifest has no tool named multiply
      await inMemoryClient(typed).callResult('multiply', {}).catch(() => undefined)
    } finally {
      await typed.close()
      await up.close()
    }
  })
})

void McpError

describe('a stdio upstream that dies', () => {
  it('the call it died in is an isError, and the next call starts it again', async () => {
    const p = await proxy({ command: process.execPath, args: [fileURLToPath(new URL('./crashy-upstream.mjs', import.meta.url))] })
    try {
      const c = inMemoryClient(p)
      const first = texts((await c.callResult('count', {})).content)[0]
      expect(first).toMatch(/^1 \(pid \d+\)$/)
      const died = await c.callResult('crash', {})
      expect(died.isError).toBe(true)
      expect(texts(died.content)[0]).toMatch(/^the upstream MCP server .*crashy-upstream\.mjs did not answer crash: .*; the proxy connects again on the next request$/)
      const again = texts((await c.callResult('count', {})).content)[0]
      // a new process: its own count, its own pid
      expect(again).toMatch(/^1 \(pid \d+\)$/)
      expect(again).not.toBe(first)
    } finally {
      await p.close()
    }
  })
})

describe('the keys of an upstream’s questions (conformance: input-required-result-basic-elicitation)', () => {
  const named = emcp({ name: 'named', description: 'Asks for a name under the key user_name.', input: { type: 'object' } })
  const both = mcpServer([named], { name: 'both-eras', version: '1' }).implement({
    named: async (_args, ctx) => {
      const r = await ctx.elicit({ message: 'What is your name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } }, { key: 'user_name' })
      return r.action === 'accept' ? `Hello, ${r.content.name}!` : 'Hello, stranger!'
    },
  }) as unknown as Server

  it.each([[undefined], ['2025-11-25' as const]])('prefer %s: a 2026-07-28 client is asked under the upstream’s key only when the upstream is reached the 2026 way', async (prefer) => {
    const up = await serveHttp(both, sessions)
    const p = await proxy({ url: up.url }, prefer === undefined ? {} : { prefer })
    const front = await serveHttp(p, sessions)
    try {
      const client = modernClient(front.url, 'fetch', undefined, { elicitation: { form: {} } })
      const first = (await client.rpc('tools/call', { name: 'named', arguments: {} })).body.result
      expect(first.resultType).toBe('input_required')
      const [key] = Object.keys(first.inputRequests)
      // by default the proxy reaches a server of both eras the 2026 way, and its keys pass
      if (prefer === undefined) expect(key).toBe('user_name')
      else expect(key).not.toBe('user_name')
      const retry = await client.rpc('tools/call', { name: 'named', arguments: {}, inputResponses: { [key as string]: { action: 'accept', content: { name: 'Ada' } } }, requestState: first.requestState })
      expect(texts(retry.body.result.content)).toEqual(['Hello, Ada!'])
    } finally {
      await front.close()
      await p.close()
      await up.close()
    }
  })
})
