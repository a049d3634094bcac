/**
 * An early answer reaches every client: a 20 MB POST gets its 413 through Node's `http`
 * client (with Content-Length and chunked), `fetch` and curl, instead of a reset connection;
 * so do refusals before the body (415, 401). The rest of the body is read and thrown away for
 * a bounded time and size only: past either, the server closes the connection.
 */
import { execFile } from 'node:child_process'
import { writeFile, rm, mkdtemp } from 'node:fs/promises'
import { Agent, request, type IncomingMessage } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { serveHttp, type RunningHttp, type ServeHttpOptions } from '../../../src/transport/http.js'
import { echoCall, echoServer, readAll, settled, V26, type Answer } from './hostile.js'

const MB20 = 20 * 1000 * 1000
const big = Buffer.alloc(MB20, 'x')
const headers = (extra: Record<string, string> = {}) => ({
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': V26,
  'mcp-method': 'tools/call',
  'mcp-name': 'echo',
  ...extra,
})

let running: RunningHttp | undefined
const serve = async (options: ServeHttpOptions = {}) => (running = await serveHttp(echoServer(), { port: 0, handleSignals: false, ...options }))
afterEach(async () => {
  await running?.close()
  running = undefined
})

/** A 20 MB POST with Node's `http` client, in one write (Content-Length) or in 1 MB chunks (chunked). */
const postBig = (url: string, chunked: boolean, extra: Record<string, string> = {}): Promise<Answer> =>
  new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', agent: new Agent(), headers: chunked ? headers(extra) : { ...headers(extra), 'content-length': String(MB20) } }, (res) =>
      readAll(res).then(resolve, reject),
    )
    req.on('error', reject)
    if (!chunked) return req.end(big)
    for (let i = 0; i < 20; i++) req.write(big.subarray(i * 1_000_000, (i + 1) * 1_000_000))
    req.end()
  })

const curl = (args: ReadonlyArray<string>): Promise<string> =>
  new Promise((resolve, reject) => execFile('curl', ['-s', '-o', '/dev/null', '-w', '%{http_code}', ...args], (e, out) => (e ? reject(e) : resolve(out))))

describe('413 for an oversized body, read by every client', () => {
  let dir = ''
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'emcp-413-'))
    await writeFile(join(dir, 'big.json'), big)
  })
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true })
  })

  it('Node http, with Content-Length: 413, then the next request is served', async () => {
    const { url } = await serve()
    const agent = new Agent({ keepAlive: true, maxSockets: 1 })
    const first = await new Promise<Answer>((resolve, reject) => {
      const req = request(url, { method: 'POST', agent, headers: { ...headers(), 'content-length': String(MB20) } }, (res) => readAll(res).then(resolve, reject))
      req.on('error', reject)
      req.end(big)
    })
    expect(first.status).toBe(413)
    expect(first.text).toMatch(/maxBodyBytes/)
    const next = await new Promise<Answer>((resolve, reject) => {
      const req = request(url, { method: 'POST', agent, headers: headers() }, (res) => readAll(res).then(resolve, reject))
      req.on('error', reject)
      req.end(JSON.stringify(echoCall('next')))
    })
    expect(next.status).toBe(200)
    agent.destroy()
  })

  it('Node http asking to close the connection (agent: false), with Content-Length and chunked: 413, no write error, then the connection closes', async () => {
    const { url } = await serve()
    for (const chunked of [false, true]) {
      const outcome = await new Promise<{ status: number; error: string }>((resolve) => {
        const seen = { status: 0, error: '' }
        const req = request(url, { method: 'POST', agent: false, headers: chunked ? headers() : { ...headers(), 'content-length': String(MB20) } }, (res) => {
          seen.status = res.statusCode ?? 0
          res.resume()
        })
        req.on('error', (e: NodeJS.ErrnoException) => (seen.error = e.code ?? e.message))
        // 'close': the request is over, its connection closed (by the server once the body was read away)
        req.on('close', () => resolve(seen))
        if (!chunked) return req.end(big)
        for (let i = 0; i < 20; i++) req.write(big.subarray(i * 1_000_000, (i + 1) * 1_000_000))
        req.end()
      })
      expect(outcome).toEqual({ status: 413, error: '' })
    }
  })

  it('Node http, chunked: 413', async () => {
    const { url } = await serve()
    expect((await postBig(url, true)).status).toBe(413)
  })

  it('fetch: 413', async () => {
    const { url } = await serve()
    const res = await fetch(url, { method: 'POST', headers: headers(), body: big })
    expect(res.status).toBe(413)
    expect(await res.text()).toMatch(/Payload Too Large/)
  })

  it('fetch, chunked (a stream body): 413', async () => {
    const { url } = await serve()
    let sent = 0
    const body = new ReadableStream<Uint8Array>({
      pull: (c) => {
        if (sent === 20) return c.close()
        c.enqueue(big.subarray(sent * 1_000_000, ++sent * 1_000_000))
      },
    })
    const res = await fetch(url, { method: 'POST', headers: headers(), body, duplex: 'half' } as RequestInit)
    expect(res.status).toBe(413)
    expect(await res.text()).toMatch(/Payload Too Large/)
  })

  it('curl, with Content-Length and chunked: 413', async () => {
    const { url } = await serve()
    const h = Object.entries(headers()).flatMap(([k, v]) => ['-H', `${k}: ${v}`])
    expect(await curl([...h, '--data-binary', `@${join(dir, 'big.json')}`, url])).toBe('413')
    expect(await curl([...h, '-H', 'transfer-encoding: chunked', '--data-binary', `@${join(dir, 'big.json')}`, url])).toBe('413')
  })
})

describe('refusals before the body', () => {
  it('415 for a 20 MB body of the wrong type, read by Node http', async () => {
    const { url } = await serve()
    expect((await postBig(url, false, { 'content-type': 'text/plain' })).status).toBe(415)
  })

  it('401 for a 20 MB body without a token, read by Node http', async () => {
    const { url } = await serve({ auth: { verify: () => undefined, required: true } })
    expect((await postBig(url, false)).status).toBe(401)
  })
})

describe('the lingering close is bounded', () => {
  /** A POST declaring 20 MB that sends `sent` bytes, then waits: its answer, and when the server closed the connection. */
  const stalled = (url: string, sent: number, extra: Record<string, string> = {}) => {
    let response: ((res: IncomingMessage) => void) | undefined
    const answered = new Promise<IncomingMessage>((resolve) => (response = resolve))
    // the server closing the connection: the socket closes (a write after it may fail with EPIPE, which says the same)
    let destroy = (): void => {}
    const closed = new Promise<void>((resolve) => {
      // a keep-alive agent: the client itself keeps the socket open after the answer, while it still has to write
      const req = request(url, { method: 'POST', agent: new Agent({ keepAlive: true }), headers: { ...headers(extra), 'content-length': String(MB20) } }, (res) => {
        res.resume()
        response?.(res)
      })
      req.on('error', () => undefined)
      req.on('socket', (socket) => socket.once('close', () => resolve()))
      req.write(big.subarray(0, sent), () => undefined)
      destroy = () => req.destroy()
    })
    return { answered, closed, destroy: () => destroy() }
  }

  it('closes the connection once lingerMs has passed, after the 413', async () => {
    const { url } = await serve({ lingerMs: 200 })
    const s = stalled(url, 1_000)
    expect((await s.answered).statusCode).toBe(413)
    await s.closed
  })

  it('keeps the connection open while the rest of the body may still come (within both bounds)', async () => {
    const { url } = await serve({ lingerMs: 600_000 })
    const s = stalled(url, 1_000)
    const answer = await s.answered
    expect(answer.statusCode).toBe(413)
    // another client's call, answered after the 413: the first connection is still open
    const other = await fetch(url, { method: 'POST', headers: headers(), body: JSON.stringify(echoCall('other')) })
    expect(other.status).toBe(200)
    expect(await settled(s.closed)).toBe(false)
    s.destroy()
    await s.closed
  })

  it('closes the connection past maxLingerBytes: a client writing 20 MB after its 415 is cut off', async () => {
    const { url } = await serve({ maxLingerBytes: 1_000_000, lingerMs: 600_000 })
    const outcome = await new Promise<string>((resolve) => {
      const req = request(url, { method: 'POST', agent: new Agent({ keepAlive: true }), headers: { ...headers({ 'content-type': 'text/plain' }), 'content-length': String(MB20) } }, (res) =>
        res.resume(),
      )
      // 'finish': all 20 MB went out, which they cannot once the server stops reading after 1 MB
      req.on('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? e.message))
      req.on('finish', () => resolve('finished'))
      req.end(big)
    })
    expect(['EPIPE', 'ECONNRESET']).toContain(outcome)
  })
})
