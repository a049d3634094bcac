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
