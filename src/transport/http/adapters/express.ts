/// <reference types="node" preserve="true" />
/**
 * `emcp/express`: the transport as an Express 5 handler, `app.all('/mcp', mcpExpress(server))`.
 * It only translates: Express's request and response are Node's, so the Node adapter serves
 * them; a body an earlier `express.json()` already parsed is handed to the chain as its text
 * (the same size limit applies), since its stream has been read. The chain is the one of
 * transport/http, guards included.
 *
 * @example
 * import express from 'express'
 * import { mcpExpress } from 'emcp/express'
 * const app = express()
 * app.all('/mcp', mcpExpress(server))
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { AnyTool } from '../../../contract/emcp.js'
import type { Server } from '../../../server/server.js'
import { httpCore } from '../index.js'
import type { HttpOptions } from '../model.js'
import { toNodeListener } from '../node.js'
import { send } from '../node-io.js'

// ---------------------------------------------------------------------------------------
// constructors

/** An Express handler for the route it is mounted on; errors go to Express's `next`. */
export const mcpExpress = <U extends AnyTool>(server: Server<U>, options: HttpOptions = {}) => {
  const listener = toNodeListener(server, options)
  const parsed = httpCore(server, options)
  return (req: IncomingMessage & { readonly body?: unknown; readonly path?: string }, res: ServerResponse, next?: (e?: unknown) => void): void => {
    // express.json() ran first: the stream is spent, its value is here
    if (req.body === undefined || !req.readableEnded) return listener(req, res)
    const text = typeof req.body === 'string' ? req.body : JSON.stringify(req.body)
    const head = { method: req.method ?? 'GET', path: req.path, remoteAddress: req.socket.remoteAddress, header: (name: string) => headerOf(req, name) }
    parsed(head, async (limit) => (new TextEncoder().encode(text).byteLength > limit ? 'too-large' : { text })).then(
      (reply) => send(res, reply),
      (e: unknown) => next?.(e),
    )
  }
}

// ---------------------------------------------------------------------------------------
// internals

const headerOf = (req: IncomingMessage, name: string): string | undefined => {
  const v = req.headers[name]
  return Array.isArray(v) ? v.join(', ') : v
}
