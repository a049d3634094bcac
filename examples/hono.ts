/**
 * The calculator inside a Hono app: `app.all('/mcp', mcpHono(server))` beside the app's own
 * routes. On Node through @hono/node-server here; the same app runs on Deno, Bun and
 * Cloudflare Workers (`export default app`). Behind a platform's router, whose Host is not
 * loopback, name it: `mcpHono(server, { allowedHosts: ['api.example.com'] })`.
 *
 *   node dist/examples/hono.js --port 3000      # http://127.0.0.1:3000/mcp
 */
import { serve } from '@hono/node-server'
import { Hono } from 'hono'
import type { AnyTool, Server } from 'emcp'
import { mcpHono } from 'emcp/hono'
import { calculator } from './calculator.js'
import { portOf, runMain } from './main.js'

/** An app with a health route and the MCP endpoint. */
export const honoApp = <U extends AnyTool>(server: Server<U>, allowedHosts?: ReadonlyArray<string>) => {
  const app = new Hono()
  app.get('/health', (c) => c.text('ok'))
  app.all('/mcp', mcpHono(server, allowedHosts === undefined ? {} : { allowedHosts }))
  return app
}

runMain(import.meta.url, { usage: 'node dist/examples/hono.js [--port N]', options: { port: { type: 'string', default: '3000' } } }, ({ port }) => {
  serve({ fetch: honoApp(calculator).fetch, port: portOf(port, 3000, '--port'), hostname: '127.0.0.1' }, (info) => console.log(`calculator (Hono) on http://127.0.0.1:${info.port}/mcp`))
})
