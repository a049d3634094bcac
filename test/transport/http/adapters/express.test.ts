import type { Server as NodeServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { describe, it } from 'vitest'
import { calculator } from '../../../../examples/calculator.js'
import { expressApp } from '../../../../examples/express.js'
import { adapterChecks, type Served } from './support.js'

const listen = (allowedHosts?: ReadonlyArray<string>): Promise<Served> =>
  new Promise((resolve) => {
    const server: NodeServer = expressApp(calculator, allowedHosts).listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`,
        close: () => new Promise((done) => (server.closeAllConnections(), server.close(() => done()))),
      }),
    )
  })

describe('emcp/express', () => {
  it('serves the calculator behind express.json() to both official clients, guards on, allowedHosts honoured', async () => {
    await adapterChecks(listen)
  })
})
