/**
 * SDK v2 over stateless HTTP: createMcpHandler (a server from the factory per request; 2025-era
 * requests take its stateless legacy leg) wrapped by toNodeHandler, on node:http at
 * 127.0.0.1:$PORT/mcp.
 */
import { createServer } from 'node:http'
import { toNodeHandler } from '@modelcontextprotocol/node'
import { createMcpHandler } from '@modelcontextprotocol/server'
import { port } from './contract.mjs'
import { buildServer } from './sdk2-common.mjs'

const handle = toNodeHandler(createMcpHandler(() => buildServer()))

createServer((req, res) => {
  if (req.url !== '/mcp') {
    res.writeHead(404).end()
    return
  }
  void handle(req, res)
}).listen(port(), '127.0.0.1')
