/**
 * The calculator inside an Express 5 app: `app.all('/mcp', mcpExpress(server))` beside the
 * app's own routes. `express.json()` before it is fine (the parsed body is handed over).
 * Behind a platform's router, name the public host: `mcpExpress(server, { allowedHosts: ['api.example.com'] })`.
 *
 *   node dist/examples/express.js --port 3000   # http://127.0.0.1:3000/mcp
 */
import express from 'express'
import type { AnyTool, Server } from 'emcp'
import { mcpExpress } from 'emcp/express'
import { calculator } from './calculator.js'
import { portOf, runMain } from './main.js'

/** An app with a health route, JSON parsing, and the MCP endpoint. */
export const expressApp = <U extends AnyTool>(server: Server<U>, allowedHosts?: ReadonlyArray<string>) => {
  const app = express()
  app.use(express.json({ limit: '4mb' }))
  app.get('/health', (_req, res) => void res.send('ok'))
  app.all('/mcp', mcpExpress(server, allowedHosts === undefined ? {} : { allowedHosts }))
  return app
}

runMain(import.meta.url, { usage: 'node dist/examples/express.js [--port N]', options: { port: { type: 'string', default: '3000' } } }, ({ port }) => {
  const p = portOf(port, 3000, '--port')
  expressApp(calculator).listen(p, '127.0.0.1', () => console.log(`calculator (Express) on http://127.0.0.1:${p}/mcp`))
})
