/**
 * The raw ceiling over HTTP: node:http, one JSON-RPC message per POST, JSON answers (202 for
 * notifications), no header checks and no validation; 127.0.0.1:$PORT/mcp.
 */
import { createServer } from 'node:http'
import { port } from './contract.mjs'
import { dispatch } from './raw-core.mjs'

createServer((req, res) => {
  const chunks = []
  req.on('data', (c) => chunks.push(c))
  req.on('end', () => {
    let msg
    try {
      msg = JSON.parse(chunks.length === 1 ? chunks[0].toString() : Buffer.concat(chunks).toString())
    } catch {
      msg = undefined
    }
    const out = dispatch(msg)
    if (out === undefined) {
      res.writeHead(202).end()
      return
    }
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(out) }).end(out)
  })
}).listen(port(), '127.0.0.1')
