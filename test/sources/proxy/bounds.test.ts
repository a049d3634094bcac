/**
 * A hostile upstream behind emcp/proxy: a tiny MCP server on `node:http` (and one on stdio)
 * written here, which answers too much (a JSON body, a chunked body, an SSE event, a stdio
 * line), too deep, with endless list pages, or never. Each answer fails the one request it
 * answers with an error naming the proxy's limit, and the connection serves the next request.
 */
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { inMemoryClient, RpcCallError } from '../../../src/index.js'
import { serveHttp, type RunningHttp } from '../../../src/transport/http.js'
import { proxy, type ProxyServer } from '../../../src/sources/proxy/index.js'
import { texts } from '../../interop/children.js'

const limits = { maxAnswerBytes: 100_000, maxDepth: 64, maxListPages: 5, requestTimeoutMs: 300 }
const big = 'x'.repeat(300_000)
/** JSON nested `n` arrays deep, as text (JSON.stringify itself would overflow the stack). */
const deep = (n: number): string => `${'['.repeat(n)}1${']'.repeat(n)}`
const tools = ['fine', 'huge', 'chunked', 'sse', 'deep', 'never'].map((name) => ({ name, description: `${name} answer`, inputSchema: { type: 'object' } }))

/** What the hostile server saw: initializations, prompt pages asked for, cancellations. */
const seen = { initialize: 0, promptPages: 0, cancelled: [] as unknown[], onCancel: (): void => {} }

const answer = (res: ServerResponse, id: unknown, result: unknown): void => {
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id, result }))
}

/** An answer whose `_meta.nested` is `n` arrays deep. */
const answerDeep = (res: ServerResponse, id: unknown, result: object, n: number): void => {
  const body = JSON.stringify({ jsonrpc: '2.0', id, result: { ...result, _meta: { nested: 0 } } }).replace('"nested":0', `"nested":${deep(n)}`)
  res.writeHead(200, { 'content-type': 'application/json' }).end(body)
}

const toolCall = (res: ServerResponse, id: unknown, name: string): void => {
  const text = (t: string) => ({ content: [{ type: 'text', text: t }] })
  if (name === 'fine') return answer(res, id, text('ok'))
  if (name === 'huge') return answer(res, id, text(big))
  if (name === 'deep') return answerDeep(res, id, text('deep'), 5000)
  if (name === 'chunked') {
    // no content-length: the size shows only while reading
    res.writeHead(200, { 'content-type': 'application/json' })
    const body = JSON.stringify({ jsonrpc: '2.0', id, result: text(big) })
    for (let at = 0; at < body.length; at += 16_384) res.write(body.slice(at, at + 16_384))
    return void res.end()
  }
  if (name === 'sse') {
    res.writeHead(200, { 'content-type': 'text/event-stream' })
    return void res.end(`event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id, result: text(big) })}\n\n`)
  }
  // never: the answer never comes (the socket stays open until the client gives up)
}

const handle = (message: { id?: unknown; method?: string; params?: any }, res: ServerResponse): void => {
  const { id, method, params } = message
  if (method === 'initialize') {
    seen.initialize++
    return answer(res, id, { protocolVersion: params.protocolVersion, capabilities: { tools: {}, prompts: {}, resources: {} }, serverInfo: { name: 'hostile', version: '1.0.0' } })
  }
  if (method === 'notifications/cancelled') {
    seen.cancelled.push(params.requestId)
    seen.onCancel()
  }
  if (id === undefined) return void res.writeHead(202).end()
  if (method === 'tools/list') return answer(res, id, { tools })
  if (method === 'tools/call') return toolCall(res, id, params.name)
  if (method === 'prompts/list') {
    // pages without end: every page names a next one
    seen.promptPages++
    return answer(res, id, { prompts: [{ name: `p${seen.promptPages}` }], nextCursor: String(seen.promptPages) })
  }
  if (method === 'prompts/get') return // never answered
  if (method === 'resources/read') return answer(res, id, { contents: [{ uri: params.uri, text: big }] })
  if (method === 'resources/list') return answerDeep(res, id, { resources: [{ uri: 'mem://a', name: 'a' }] }, 1000)
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32601, message: 'no' } }))
}

const hostile = (): HttpServer =>
  createServer((req: IncomingMessage, res: ServerResponse) => {
    if (req.method !== 'POST') return void res.writeHead(405).end()
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => handle(JSON.parse(Buffer.concat(chunks).toString('utf8')), res))
  })

let http: HttpServer
let url: string
let proxied: ProxyServer
let front: RunningHttp

beforeAll(async () => {
  http = hostile()
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve))
  url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`
  proxied = await proxy({ url }, { limits, callTimeoutMs: 1000 })
  front = await serveHttp(proxied, { port: 0, host: '127.0.0.1' })
})

afterAll(async () => {
  await front?.close()
  await proxied?.close()
  http?.closeAllConnections()
  await new Promise((resolve) => http?.close(resolve))
})

describe('emcp/proxy: what a hostile HTTP upstream sends back is bounded', () => {
  it('an answer past maxAnswerBytes (sized, chunked, or one SSE event) is an isError naming the limit; the next call is served', async () => {
    const c = inMemoryClient(proxied)
    for (const name of ['huge', 'chunked', 'sse']) {
      const r = await c.callResult(name, {})
      expect(r.isError, name).toBe(true)
      expect(texts(r.content)[0]).toBe(`${name}: the upstream’s answer is larger than the proxy's limits.maxAnswerBytes (100000 bytes); it was not passed on`)
      expect(texts((await c.callResult('fine', {})).content)).toEqual(['ok'])
    }
    // the connection was never given up for it
    expect(seen.initialize).toBe(1)
  })

  it('an answer past maxDepth is an isError naming the limit', async () => {
    const r = await inMemoryClient(proxied).callResult('deep', {})
    expect(r.isError).toBe(true)
    expect(texts(r.content)[0]).toBe("deep: the upstream’s answer nests deeper than the proxy's limits.maxDepth (64); it was not passed on")
    const list = inMemoryClient(proxied).request('resources/list', {})
    await expect(list).rejects.toBeInstanceOf(RpcCallError)
    await expect(list).rejects.toMatchObject({ code: -32603, message: expect.stringMatching(/limits\.maxDepth \(64\)/) })
  })

  it('a resource read past maxAnswerBytes is a JSON-RPC error naming the limit, for the official client too', async () => {
    const client = new Client({ name: 'bounds-test', version: '0' })
    await client.connect(new StreamableHTTPClientTransport(new URL(front.url)))
    try {
      await expect(client.readResource({ uri: 'mem://big' })).rejects.toThrow(/limits\.maxAnswerBytes \(100000 bytes\)/)
      expect((await client.callTool({ name: 'fine', arguments: {} })).content).toEqual([{ type: 'text', text: 'ok' }])
    } finally {
      await client.close()
    }
  })

  it('a list without end stops at maxListPages, with an error naming it', async () => {
    const before = seen.promptPages
    await expect(inMemoryClient(proxied).request('prompts/list', {})).rejects.toMatchObject({ message: expect.stringMatching(/went on past the proxy's limits\.maxListPages \(5 pages\)/) })
    expect(seen.promptPages - before).toBe(5)
  })

  it('a request never answered ends at requestTimeoutMs (-32001), a tool call at callTimeoutMs, cancelled upstream', async () => {
    await expect(inMemoryClient(proxied).request('prompts/get', { name: 'p1' })).rejects.toMatchObject({ code: -32001, message: expect.stringMatching(/did not answer prompts\/get within the proxy's limits\.requestTimeoutMs \(300 ms\)/) })
    const cancelled = new Promise<void>((resolve) => (seen.onCancel = resolve))
    const r = await inMemoryClient(proxied).callResult('never', {})
    expect(r.isError).toBe(true)
    expect(texts(r.content)[0]).toMatch(/timed out after 1000 ms \(callTimeoutMs\)/)
    await cancelled
    expect(seen.cancelled.length).toBeGreaterThan(0)
    expect(texts((await inMemoryClient(proxied).callResult('fine', {})).content)).toEqual(['ok'])
  })
})

describe('emcp/proxy: a relayed request cancelled downstream', () => {
  it('is cancelled upstream too, and the connection is kept', async () => {
    const p = await proxy({ url }, { limits: { requestTimeoutMs: 60_000 }, callTimeoutMs: 300 })
    try {
      const c = inMemoryClient(p)
      const connections = seen.initialize
      const cancelled = new Promise<void>((resolve) => (seen.onCancel = resolve))
      await expect(c.request('prompts/get', { name: 'p1' })).rejects.toMatchObject({ code: -32001, message: expect.stringMatching(/timed out after 300 ms \(callTimeoutMs\)/) })
      await cancelled
      expect(texts((await c.callResult('fine', {})).content)).toEqual(['ok'])
      expect(seen.initialize).toBe(connections)
    } finally {
      await p.close()
    }
  })
})

describe('emcp/proxy: limits themselves', () => {
  it('refuses a limit that is not a positive integer, naming it', async () => {
    await expect(proxy({ url }, { limits: { maxAnswerBytes: 0 } })).rejects.toThrow(/limits\.maxAnswerBytes must be a positive integer, not 0/)
  })
})

/** A stdio MCP server that answers `huge` with one line of 300 000 bytes and `fine` with ok. */
const stdioUpstream = `
const rl = require('node:readline').createInterface({ input: process.stdin })
const send = (m) => process.stdout.write(JSON.stringify(m) + '\\n')
rl.on('line', (line) => {
  const { id, method, params } = JSON.parse(line)
  if (id === undefined) return
  if (method === 'initialize') return send({ jsonrpc: '2.0', id, result: { protocolVersion: params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'hostile-stdio', version: '1' } } })
  if (method === 'tools/list') return send({ jsonrpc: '2.0', id, result: { tools: [{ name: 'huge', inputSchema: { type: 'object' } }, { name: 'fine', inputSchema: { type: 'object' } }] } })
  if (method === 'tools/call') return send({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: params.name === 'huge' ? 'x'.repeat(300000) : 'ok ' + process.pid }] } })
  send({ jsonrpc: '2.0', id, error: { code: -32601, message: 'no' } })
})
`

describe('emcp/proxy: a hostile stdio upstream', () => {
  it('a line past maxAnswerBytes is an isError naming the limit; the next call starts the upstream again', async () => {
    const p = await proxy({ command: process.execPath, args: ['-e', stdioUpstream] }, { limits: { maxAnswerBytes: 100_000 } })
    try {
      const c = inMemoryClient(p)
      const r = await c.callResult('huge', {})
      expect(r.isError).toBe(true)
      expect(texts(r.content)[0]).toBe("huge: the upstream’s answer to tools/call is larger than the proxy's limits.maxAnswerBytes (100000 bytes); it was not passed on")
      expect(texts((await c.callResult('fine', {})).content)[0]).toMatch(/^ok \d+$/)
    } finally {
      await p.close()
    }
  })
})
