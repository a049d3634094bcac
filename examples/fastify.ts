/**
 * The calculator inside a Fastify 5 app: `app.register(mcpFastify(server, { path: '/mcp' }))`
 * beside the app's own routes (the plugin turns off Fastify's body parsing in its own scope
 * only). Behind a platform's router, name the public host: `{ allowedHosts: ['api.example.com'] }`.
 *
 *   node dist/examples/fastify.js --port 3000   # http://127.0.0.1:3000/mcp
 */
import Fastify from 'fastify'
import type { AnyTool, Server } from 'emcp'
import { mcpFastify } from 'emcp/fastify'
import { calculator } from './calculator.js'
import { portOf, runMain } from './main.js'

/** An app with a health route and the MCP endpoint. */
export const fastifyApp = async <U extends AnyTool>(server: Server<U>, allowedHosts?: ReadonlyArray<string>) => {
  const app = Fastify()
  app.get('/health', async () => 'ok')
  await app.register(mcpFastify(server, { path: '/mcp', ...(allowedHosts === undefined ? {} : { allowedHosts }) }))
  return app
}

runMain(import.meta.url, { usage: 'node dist/examples/fastify.js [--port N]', options: { port: { type: 'string', default: '3000' } } }, async ({ port }) => {
  const app = await fastifyApp(calculator)
  console.log(`calculator (Fastify) on ${await app.listen({ port: portOf(port, 3000, '--port'), host: '127.0.0.1' })}/mcp`)
})
