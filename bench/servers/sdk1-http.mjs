/**
 * SDK v1 over stateless HTTP, as its own stateless examples do it: for each request a new
 * McpServer and a StreamableHTTPServerTransport({sessionIdGenerator: undefined,
 * enableJsonResponse: true}), on node:http at 127.0.0.1:$PORT/mcp.
 */
import { createServer } from 'node:http'
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js'
import { port } from './contract.mjs'
import { buildServer } from './sdk1-common.mjs'

createServer(async (req, res) => {
  if (req.url !== '/mcp') {
    res.writeHead(404).end()
    return
  }
  try {
    const server = buildServer()
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true })
    res.on('close', () => {
      void transport.close()
      void server.close()
    })
    await server.connect(transport)
    await transport.handleRequest(req, res)
  } catch (e) {
    if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' })
    res.end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32603, message: String(e) } }))
  }
}).listen(port(), '127.0.0.1')
