import { describe, it } from 'vitest'
import { calculator } from '../../../../examples/calculator.js'
import { fastifyApp } from '../../../../examples/fastify.js'
import { adapterChecks, type Served } from './support.js'

const listen = async (allowedHosts?: ReadonlyArray<string>): Promise<Served> => {
  const app = await fastifyApp(calculator, allowedHosts)
  const address = await app.listen({ port: 0, host: '127.0.0.1' })
  return { url: `${address}/mcp`, close: () => app.close() }
}

describe('emcp/fastify', () => {
  it('serves the calculator from its plugin to both official clients, guards on, allowedHosts honoured', async () => {
    await adapterChecks(listen)
  })
})
