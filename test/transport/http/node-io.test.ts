/** The Node adapter's body reader against clients that leave before their body is read. */
import { createServer, request, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import { expect, it } from 'vitest'
import { readNodeBody } from '../../../src/transport/http/node-io.js'

it('a body read for a client that went away rejects, whether it left before or during the read', async () => {
  const arrived: Array<(req: IncomingMessage) => void> = []
  const server = createServer((req) => arrived.shift()?.(req))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  /** A request whose headers promise 1000 bytes, of which 10 arrive before the client leaves. */
  const leave = async (): Promise<{ req: IncomingMessage; cut: () => Promise<void> }> => {
    const got = new Promise<IncomingMessage>((resolve) => arrived.push(resolve))
    const client = request({ host: '127.0.0.1', port, method: 'POST', headers: { 'content-length': '1000' } })
    client.on('error', () => undefined)
    client.write('x'.repeat(10))
    const req = await got
    const cut = async (): Promise<void> => {
      const closed = new Promise((resolve) => req.once('close', resolve))
      client.destroy()
      await closed
    }
    return { req, cut }
  }
  try {
    const before = await leave()
    await before.cut()
    await expect(readNodeBody(before.req, 4096)).rejects.toThrow('the client went away before its body was read')
    const during = await leave()
    const reading = readNodeBody(during.req, 4096)
    await during.cut()
    // Node reports this one itself ('aborted'), before the close
    await expect(reading).rejects.toThrow(/aborted|went away/)
  } finally {
    server.closeAllConnections()
    server.close()
  }
})

it('a body that has all arrived when it is read is taken whole from the buffer: its text, 413 past the limit, its bytes counted', async () => {
  const arrived: Array<(req: IncomingMessage) => void> = []
  const server = createServer((req) => arrived.shift()?.(req))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  /** A request sent whole (chunked when `length` is false), handed over once Node has all of it. */
  const whole = async (body: string, length: boolean): Promise<IncomingMessage> => {
    const got = new Promise<IncomingMessage>((resolve) => arrived.push(resolve))
    const client = request({ host: '127.0.0.1', port, method: 'POST', headers: length ? { 'content-length': String(Buffer.byteLength(body)) } : {} })
    client.on('error', () => undefined)
    client.end(body)
    const req = await got
    // the rest of it arrives in a later turn of the event loop, at the latest as many turns later as it has packets
    for (let turns = 0; !req.complete && turns < 1000; turns++) await new Promise((resolve) => setImmediate(resolve))
    expect(req.complete).toBe(true)
    return req
  }
  try {
    const text = '{"jsonrpc":"2.0","id":1,"method":"ping","params":{"s":"é"}}'
    const small = await whole(text, true)
    expect(small.complete).toBe(true)
    const reserved: number[] = []
    expect(await readNodeBody(small, 4096, { timeoutMs: 60_000, minBytesPerSecond: 1024, reserve: (n) => (reserved.push(n), undefined) })).toEqual({ text })
    expect(reserved).toEqual([Buffer.byteLength(text)])
    // chunked, no declared length: the limit is checked on what arrived
    const large = await whole('x'.repeat(5000), false)
    expect(await readNodeBody(large, 4096)).toBe('too-large')
    // a share that must grow is waited for before the body is handed over
    let grant: () => void = () => undefined
    const growing = await whole('y'.repeat(3000), true)
    let done = false
    const reading = readNodeBody(growing, 4096, { timeoutMs: 60_000, minBytesPerSecond: 1024, reserve: () => new Promise<void>((resolve) => (grant = resolve)) }).then((r) => ((done = true), r))
    await new Promise((resolve) => setImmediate(resolve))
    expect(done).toBe(false)
    grant()
    expect(await reading).toEqual({ text: 'y'.repeat(3000) })
  } finally {
    server.closeAllConnections()
    server.close()
  }
})
