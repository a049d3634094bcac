import { serve } from '@hono/node-server'
import type { AddressInfo } from 'node:net'
import { describe, it } from 'vitest'
import { calculator } from '../../../../examples/calculator.js'
import { honoApp } from '../../../../examples/hono.js'
import { adapterChecks, type Served } from './support.js'

const listen = (allowedHosts?: ReadonlyArray<string>): Promise<Served> =>
  new Promise((resolve) => {
    const server = serve({ fetch: honoApp(calculator, allowedHosts).fetch, port: 0, hostname: '127.0.0.1' }, (info: AddressInfo) =>
      resolve({ url: `http://127.0.0.1:${info.port}/mcp`, close: () => new Promise((done) => server.close(() => done())) }),
    )
  })

describe('emcp/hono', () => {
  it('serves the calculator from app.all("/mcp") to both official clients, guards on, allowedHosts honoured', async () => {
    await adapterChecks(listen)
  })
})
