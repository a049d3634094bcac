/**
 * `Expect: 100-continue` (curl sends it for large bodies): serveHttp says "100 Continue" only
 * when it reads the body, so a refusal (413 for a declared length over the limit, 401 without a
 * token) reaches the client before it uploads anything, and the connection is closed after it
 * (the body was never sent, so no later bytes may be read as one). A request that passes gets
 * its Continue, then its answer, on the same socket.
 */
import { connect, type Socket } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { serveHttp, type RunningHttp } from '../../../src/transport/http.js'
import { echoCall, echoServer, V26 } from './hostile.js'

let running: RunningHttp | undefined
afterEach(async () => {
  await running?.close()
  running = undefined
})

/** A raw socket to `url`'s host and port, with what it has received so far and a way to wait for more. */
const open = async (url: string) => {
  const { hostname, port } = new URL(url)
  const socket: Socket = connect(Number(port), hostname)
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject))
  let received = ''
  let closed = false
  const waiters: Array<() => void> = []
  const wake = (): void => {
    for (const w of waiters.splice(0)) w()
  }
  socket.on('data', (chunk: Buffer) => {
    received += chunk.toString('latin1')
    wake()
  })
  socket.on('close', () => {
    closed = true
    wake()
  })
  /** Resolves once the received text satisfies `test` (or the socket closed). */
  const until = async (test: (text: string) => boolean): Promise<string> => {
    while (!test(received) && !closed) await new Promise<void>((resolve) => waiters.push(resolve))
    return received
  }
  return { socket, until, isClosed: () => closed }
}

const head = (path: string, body: string | number, extra = ''): string =>
  `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n` +
  `MCP-Protocol-Version: ${V26}\r\nMcp-Method: tools/call\r\nMcp-Name: echo\r\nExpect: 100-continue\r\n` +
  `Content-Length: ${typeof body === 'number' ? body : Buffer.byteLength(body)}\r\n${extra}\r\n`

describe('Expect: 100-continue', () => {
  it('refuses a declared length over the limit before the upload: 413 without a Continue, then the connection closes', async () => {
    running = await serveHttp(echoServer(), { port: 0, handleSignals: false })
    const c = await open(running.url)
    c.socket.write(head(new URL(running.url).pathname, 20_000_000))
    const text = await c.until((t) => t.includes('\r\n\r\n') && c.isClosed())
    expect(text.startsWith('HTTP/1.1 413')).toBe(true)
    expect(text).not.toContain('100 Continue')
    expect(c.isClosed()).toBe(true)
  })

  it('refuses a request without a token before the upload: 401 without a Continue', async () => {
    running = await serveHttp(echoServer(), { port: 0, handleSignals: false, auth: { verify: () => undefined, required: true } })
    const c = await open(running.url)
    c.socket.write(head(new URL(running.url).pathname, 1000))
    const text = await c.until((t) => t.includes('\r\n\r\n') && c.isClosed())
    expect(text.startsWith('HTTP/1.1 401')).toBe(true)
    expect(text).not.toContain('100 Continue')
  })

  it('tells a request it will read to go on, then answers it on the same socket', async () => {
    running = await serveHttp(echoServer(), { port: 0, handleSignals: false })
    const c = await open(running.url)
    const body = JSON.stringify(echoCall('after continue'))
    c.socket.write(head(new URL(running.url).pathname, body))
    const interim = await c.until((t) => t.includes('\r\n\r\n'))
    expect(interim.startsWith('HTTP/1.1 100 Continue')).toBe(true)
    c.socket.write(body)
    const text = await c.until((t) => t.includes('after continue'))
    expect(text).toContain('HTTP/1.1 200')
    expect(text).toContain('after continue')
    c.socket.destroy()
  })
})
