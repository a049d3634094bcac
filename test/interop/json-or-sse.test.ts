/**
 * The official SDK clients (1.x and 2.x, Streamable HTTP) against a stateful emcp server that
 * answers a tool call as JSON when it finishes at once and on an SSE stream when it notifies:
 * both kinds of answer reach the client, every progress and log message in order.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js'
import { Client as Client2, StreamableHTTPClientTransport as Transport2 } from '@modelcontextprotocol/client'
import { emcp, mcpServer } from '../../src/index.js'
import { serveHttp, type RunningHttp } from '../../src/transport/http.js'

const add = emcp({
  name: 'add',
  description: 'Add two numbers.',
  input: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'], additionalProperties: false },
  output: { type: 'object', properties: { sum: { type: 'number' } }, required: ['sum'] },
})
const count = emcp({ name: 'count', description: 'Report progress 1..3 with a log line each, then answer.', input: { type: 'object' } })

const server = mcpServer([add, count], { name: 'json-or-sse', version: '1' }).implement({
  add: ({ a, b }) => ({ sum: a + b }),
  count: async (_args, ctx) => {
    for (let i = 1; i <= 3; i++) {
      ctx.progress(i, 3)
      ctx.log('info', `step ${i}`)
      await Promise.resolve()
    }
    return 'counted'
  },
})

/** The content type of each tools/call answer, in order. */
const recording = (types: string[]) => async (url: string | URL, init?: RequestInit): Promise<Response> => {
  const res = await fetch(url, init)
  if (typeof init?.body === 'string' && init.body.includes('"tools/call"')) types.push(res.headers.get('content-type') ?? '')
  return res
}

describe('JSON or SSE per tool call, official SDK clients', () => {
  let running: RunningHttp
  beforeAll(async () => {
    running = await serveHttp(server, { port: 0, handleSignals: false, sessions: true })
  })
  afterAll(async () => {
    await running.close()
  })

  const clients = [
    [
      '@modelcontextprotocol/sdk 1.x',
      (f: typeof fetch, logs: string[]) => {
        const transport = new StreamableHTTPClientTransport(new URL(running.url), { fetch: f })
        const client = new Client({ name: 'json-or-sse-1', version: '1' })
        client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void logs.push(String(n.params.data)))
        return {
          connect: () => client.connect(transport),
          level: () => client.setLoggingLevel('info'),
          add: () => client.callTool({ name: 'add', arguments: { a: 2, b: 3 } }),
          count: (onprogress: (p: { progress: number }) => void) => client.callTool({ name: 'count', arguments: {} }, undefined, { onprogress }),
          close: () => client.close(),
        }
      },
    ],
    [
      '@modelcontextprotocol/client 2.x',
      (f: typeof fetch, logs: string[]) => {
        const transport = new Transport2(new URL(running.url), { fetch: f })
        const client = new Client2({ name: 'json-or-sse-2', version: '1' })
        client.setNotificationHandler('notifications/message', (n) => void logs.push(String(n.params.data)))
        return {
          connect: () => client.connect(transport),
          level: () => client.setLoggingLevel('info'),
          add: () => client.callTool({ name: 'add', arguments: { a: 2, b: 3 } }),
          count: (onprogress: (p: { progress: number }) => void) => client.callTool({ name: 'count', arguments: {} }, { onprogress }),
          close: () => client.close(),
        }
      },
    ],
  ] as const

  it.each(clients)('%s gets a quick call as JSON and a notifying one as SSE, with every notification in order', async (_name, make) => {
    const types: string[] = []
    const logs: string[] = []
    const client = make(recording(types) as typeof fetch, logs)
    await client.connect()
    try {
      await client.level()
      expect(await client.add()).toMatchObject({ structuredContent: { sum: 5 } })
      const progress: number[] = []
      expect(await client.count((p) => progress.push(p.progress))).toMatchObject({ content: [{ type: 'text', text: 'counted' }] })
      expect(progress).toEqual([1, 2, 3])
      expect(logs).toEqual(['step 1', 'step 2', 'step 3'])
      expect(await client.add()).toMatchObject({ structuredContent: { sum: 5 } })
      expect(types).toEqual(['application/json', 'text/event-stream', 'application/json'])
    } finally {
      await client.close()
    }
  })
})
