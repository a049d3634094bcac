/**
 * Resumption with opaque event ids, by the official SDK clients (1.x and 2.x): a call's SSE
 * stream is cut after its first progress event, the call ends meanwhile, and the client
 * resumes with GET and `Last-Event-ID`, getting the answer from the event store. The ids it
 * sends back say nothing of the session: a logged `Last-Event-ID` is no credential.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { Client as Client2, StreamableHTTPClientTransport as Transport2 } from '@modelcontextprotocol/client'
import { emcp, mcpServer } from '../../src/index.js'
import { serveHttp, type RunningHttp } from '../../src/transport/http.js'
import { until } from './children.js'

const wait = emcp({
  name: 'wait',
  description: 'Report progress, then answer once the test opens the gate.',
  input: { type: 'object', properties: { gate: { type: 'string' } }, required: ['gate'] },
})

const gates = new Map<string, () => void>()
const opened = (name: string): Promise<void> => new Promise((resolve) => gates.set(name, resolve))

const server = mcpServer([wait], { name: 'resume', version: '1' }).implement({
  wait: async ({ gate }, ctx) => {
    const open = opened(gate)
    ctx.progress(1)
    await open
    return `opened ${gate}`
  },
})

/** One request as the client sent it. */
interface Sent {
  readonly method: string
  readonly sessionId: string | null
  readonly lastEventId: string | null
  status?: number
}

/**
 * A fetch that records requests and cuts the first SSE answer to a tools/call once its
 * progress event has passed: the connection is dropped (the server sees it go) and the
 * client's read fails, as on a network fault. `cut` resolves then.
 */
const cuttingFetch = (sent: Sent[]) => {
  let cutDone: () => void = () => {}
  const cut = new Promise<void>((resolve) => (cutDone = resolve))
  let armed = true
  const f = async (url: string | URL, init?: RequestInit): Promise<Response> => {
    const headers = new Headers(init?.headers)
    const record: Sent = { method: init?.method ?? 'GET', sessionId: headers.get('mcp-session-id'), lastEventId: headers.get('last-event-id') }
    sent.push(record)
    const isCall = typeof init?.body === 'string' && init.body.includes('"tools/call"')
    const controller = new AbortController()
    init?.signal?.addEventListener('abort', () => controller.abort(), { once: true })
    const res = await fetch(url, { ...init, signal: controller.signal })
    record.status = res.status
    if (!armed || !isCall || res.body === null || !(res.headers.get('content-type') ?? '').startsWith('text/event-stream')) return res
    armed = false
    const reader = res.body.getReader()
    const decoder = new TextDecoder()
    let seen = ''
    const body = new ReadableStream<Uint8Array>({
      pull: async (c) => {
        const { done, value } = await reader.read()
        if (done) return c.close()
        seen += decoder.decode(value, { stream: true })
        c.enqueue(value)
        if (seen.includes('notifications/progress')) {
          // what was read so far reaches the client; then the connection goes
          controller.abort()
          c.error(new TypeError('network connection lost'))
          cutDone()
        }
      },
    })
    return new Response(body, { status: res.status, headers: res.headers })
  }
  return { fetch: f, cut }
}

const reconnection = { initialReconnectionDelay: 20, maxReconnectionDelay: 50, reconnectionDelayGrowFactor: 1, maxRetries: 3 }

describe('resumption with opaque event ids, official SDK clients', () => {
  let running: RunningHttp
  beforeAll(async () => {
    running = await serveHttp(server, { port: 0, handleSignals: false, sessions: { retryMs: 20 } })
  })
  afterAll(async () => {
    await running.close()
  })

  const clients = [
    [
      '@modelcontextprotocol/sdk 1.x',
      (f: typeof fetch) => {
        const transport = new StreamableHTTPClientTransport(new URL(running.url), { fetch: f, reconnectionOptions: reconnection })
        const client = new Client({ name: 'resume-1', version: '1' })
        return {
          connect: () => client.connect(transport),
          call: (gate: string, onprogress: (p: { progress: number }) => void) => client.callTool({ name: 'wait', arguments: { gate } }, undefined, { onprogress }),
          close: () => client.close(),
          sessionId: () => transport.sessionId,
        }
      },
    ],
    [
      '@modelcontextprotocol/client 2.x',
      (f: typeof fetch) => {
        const transport = new Transport2(new URL(running.url), { fetch: f, reconnectionOptions: reconnection })
        const client = new Client2({ name: 'resume-2', version: '1' })
        return {
          connect: () => client.connect(transport),
          call: (gate: string, onprogress: (p: { progress: number }) => void) => client.callTool({ name: 'wait', arguments: { gate } }, { onprogress }),
          close: () => client.close(),
          sessionId: () => transport.sessionId,
        }
      },
    ],
  ] as const

  it.each(clients)('%s resumes a cut call stream with Last-Event-ID and gets the answer', async (name, make) => {
    const sent: Sent[] = []
    const cutting = cuttingFetch(sent)
    const client = make(cutting.fetch as typeof fetch)
    await client.connect()
    try {
      const gate = `g-${name}`
      const progress: number[] = []
      const result = client.call(gate, (p) => progress.push(p.progress))
      await cutting.cut
      // the call ends while no connection carries its stream: the answer goes to the store
      await until(() => gates.has(gate), 'the call to start')
      gates.get(gate)?.()
      expect(await result).toMatchObject({ content: [{ type: 'text', text: `opened ${gate}` }] })
      expect(progress).toEqual([1])
      const resumes = sent.filter((s) => s.method === 'GET' && s.lastEventId !== null)
      expect(resumes.length).toBeGreaterThan(0)
      const sid = client.sessionId() as string
      for (const r of resumes) {
        expect(r.status).toBe(200)
        expect(r.sessionId).toBe(sid)
        // the event id is opaque: no part of the session id is in it
        expect(r.lastEventId).not.toContain(sid)
        expect(r.lastEventId).not.toContain(sid.slice(0, 8))
      }
    } finally {
      await client.close()
    }
  })
})
