/**
 * `connect` against a hostile server: a tiny MCP server on `node:http` (and one on stdio)
 * written here, whose answers are too large (sized, chunked, one SSE event, one stdio line),
 * too deep, of the wrong shape, endless (list pages) or never sent, the handshake included.
 * Each request fails with an error naming what was wrong, and the next request is served.
 */
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { connect } from '../../src/client/index.js'
import { RpcCallError } from '../../src/index.js'

const big = 'x'.repeat(300_000)
const text = (t: string) => ({ content: [{ type: 'text', text: t }] })
const tools = ['fine', 'huge', 'chunked', 'sse', 'deep', 'never', 'shapeless'].map((name) => ({ name, inputSchema: { type: 'object' } }))

/** How the server answers the next `tools/list` and `initialize`: as it should, with pages without end, a wrong shape, or never. */
const mode = { list: 'fine' as 'fine' | 'endless' | 'wrong', initialize: 'fine' as 'fine' | 'never' }

const send = (res: ServerResponse, body: string, type = 'application/json'): void => void res.writeHead(200, { 'content-type': type }).end(body)
const answer = (res: ServerResponse, id: unknown, result: unknown): void => send(res, JSON.stringify({ jsonrpc: '2.0', id, result }))

const toolCall = (res: ServerResponse, id: unknown, name: string): void => {
  if (name === 'fine') return answer(res, id, text('ok'))
  if (name === 'huge') return answer(res, id, text(big))
  // JSON nested 5000 arrays deep, written as text (JSON.stringify would overflow first)
  if (name === 'deep') return send(res, JSON.stringify({ jsonrpc: '2.0', id, result: { ...text('deep'), _meta: { nested: 0 } } }).replace('"nested":0', `"nested":${'['.repeat(5000)}${']'.repeat(5000)}`))
  if (name === 'shapeless') return answer(res, id, { content: 'not a list of blocks' })
  if (name === 'chunked') {
    res.writeHead(200, { 'content-type': 'application/json' })
    const body = JSON.stringify({ jsonrpc: '2.0', id, result: text(big) })
    for (let at = 0; at < body.length; at += 16_384) res.write(body.slice(at, at + 16_384))
    return void res.end()
  }
  if (name === 'sse') return send(res, `event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id, result: text(big) })}\n\n`, 'text/event-stream')
  // never: no answer
}

let pages = 0
const handle = (message: { id?: unknown; method?: string; params?: any }, res: ServerResponse): void => {
  const { id, method, params } = message
  if (method === 'initialize') {
    if (mode.initialize === 'never') return
    return answer(res, id, { protocolVersion: params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'hostile', version: '1.0.0' } })
  }
  if (id === undefined) return void res.writeHead(202).end()
  if (method === 'tools/list') {
    if (mode.list === 'wrong') return answer(res, id, { tools: 'none' })
    if (mode.list === 'endless') return answer(res, id, { tools: [], nextCursor: String(++pages) })
    return answer(res, id, { tools })
  }
  if (method === 'tools/call') return toolCall(res, id, params.name)
  send(res, JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32601, message: 'no' } }))
}

let http: HttpServer
let url: string

beforeAll(async () => {
  http = createServer((req: IncomingMessage, res: ServerResponse) => {
    if (req.method !== 'POST') return void res.writeHead(405).end()
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => handle(JSON.parse(Buffer.concat(chunks).toString('utf8')), res))
  })
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve))
  url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`
})

afterAll(async () => {
  http?.closeAllConnections()
  await new Promise((resolve) => http?.close(resolve))
})

const client = () => connect(url, { protocolVersion: '2025-11-25', maxAnswerBytes: 100_000, maxDepth: 64, maxListPages: 5, timeoutMs: 2_000 })

describe('connect: what a hostile server sends back is bounded', () => {
  it('an answer past maxAnswerBytes (sized, chunked, or one SSE event) is an RpcCallError naming the limit; the next call is served', async () => {
    const c = await client()
    try {
      for (const name of ['huge', 'chunked', 'sse']) {
        const refused = c.callResult(name as never, {} as never)
        await expect(refused, name).rejects.toBeInstanceOf(RpcCallError)
        await expect(refused).rejects.toMatchObject({ code: -32603, message: "the server’s answer is larger than the client's maxAnswerBytes (100000 bytes); it was not passed on", data: { limit: 'maxAnswerBytes' } })
        expect((await c.callResult('fine' as never, {} as never)).content).toEqual([{ type: 'text', text: 'ok' }])
      }
    } finally {
      await c.close()
    }
  })

  it('an answer past maxDepth is an RpcCallError naming the limit', async () => {
    const c = await client()
    try {
      await expect(c.callResult('deep' as never, {} as never)).rejects.toMatchObject({ code: -32603, message: "the server’s answer nests deeper than the client's maxDepth (64); it was not passed on" })
    } finally {
      await c.close()
    }
  })

  it('an answer of the wrong shape is an error saying what is wrong, not a crash', async () => {
    const c = await client()
    try {
      await expect(c.callResult('shapeless' as never, {} as never)).rejects.toThrow(/content/)
      mode.list = 'wrong'
      await expect(c.list()).rejects.toThrow(/tools/)
    } finally {
      mode.list = 'fine'
      await c.close()
    }
  })

  it('a list without end stops at maxListPages; a call never answered at timeoutMs (-32001)', async () => {
    const c = await client()
    try {
      mode.list = 'endless'
      const before = pages
      await expect(c.list()).rejects.toMatchObject({ code: -32603, message: expect.stringMatching(/went on past the client's maxListPages \(5 pages\)/) })
      expect(pages - before).toBe(5)
      await expect(c.callResult('never' as never, {} as never, { timeoutMs: 300 })).rejects.toMatchObject({ code: -32001, message: 'the server did not answer within timeoutMs (300 ms)' })
    } finally {
      mode.list = 'fine'
      await c.close()
    }
  })

  it('a handshake never answered: connect rejects at timeoutMs, saying so', async () => {
    mode.initialize = 'never'
    try {
      await expect(connect(url, { protocolVersion: '2025-11-25', timeoutMs: 300 })).rejects.toMatchObject({ code: -32001, message: 'the server did not answer within timeoutMs (300 ms)' })
    } finally {
      mode.initialize = 'fine'
    }
  })

  it('refuses a limit that is not a positive integer, naming it', async () => {
    await expect(connect(url, { maxDepth: -1 })).rejects.toThrow("emcp/client: the client's maxDepth must be a positive integer, not -1")
  })
})

/** A stdio MCP server that answers `huge` with one line of 300 000 bytes and `fine` with ok. */
const stdioServer = `
const rl = require('node:readline').createInterface({ input: process.stdin })
const send = (m) => process.stdout.write(JSON.stringify(m) + '\\n')
rl.on('line', (line) => {
  const { id, method, params } = JSON.parse(line)
  if (id === undefined) return
  if (method === 'initialize') return send({ jsonrpc: '2.0', id, result: { protocolVersion: params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'hostile-stdio', version: '1' } } })
  if (method === 'tools/call') return send({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: params.name === 'huge' ? 'x'.repeat(300000) : 'ok' }] } })
  send({ jsonrpc: '2.0', id, error: { code: -32601, message: 'no' } })
})
`

describe('connect: a hostile stdio server', () => {
  it('a line past maxAnswerBytes is an RpcCallError naming the limit, not a hang', async () => {
    const c = await connect({ command: process.execPath, args: ['-e', stdioServer] }, { protocolVersion: '2025-11-25', maxAnswerBytes: 100_000 })
    try {
      await expect(c.callResult('huge' as never, {} as never)).rejects.toMatchObject({
        code: -32603,
        message: "the server’s answer to tools/call is larger than the client's maxAnswerBytes (100000 bytes); it was not passed on",
      })
    } finally {
      await c.close()
    }
  })
})
