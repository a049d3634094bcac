/// <reference types="node" preserve="true" />
/**
 * `emcp/fastify`: the transport as a Fastify 5 plugin, `app.register(mcpFastify(server))`,
 * serving `path` (default `/mcp`) for POST, GET and DELETE. It only translates: in its own
 * scope it turns off Fastify's body parsing (the chain reads the body itself, with its own
 * limits and pace), hijacks the reply and lets the Node adapter write it. Fastify is not
 * imported: the plugin takes any instance of that shape.
 *
 * @example
 * import Fastify from 'fastify'
 * import { mcpFastify } from 'emcp/fastify'
 * const app = Fastify()
 * await app.register(mcpFastify(server, { path: '/mcp' }))
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { AnyTool } from '../../../contract/emcp.js'
import type { Server } from '../../../server/server.js'
import type { HttpOptions } from '../model.js'
import { toNodeListener } from '../node.js'

// ---------------------------------------------------------------------------------------
// model

/** The part of a Fastify instance the plugin uses. */
export interface FastifyLike {
  removeAllContentTypeParsers(): void
  addContentTypeParser(type: string, fn: (req: unknown, payload: unknown, done: (err: Error | null, body?: unknown) => void) => void): void
  route(options: { method: string[]; url: string; handler: (request: { readonly raw: IncomingMessage }, reply: { readonly raw: ServerResponse; hijack(): void }) => void }): void
}

/** The transport's options and the path the plugin serves. */
export interface FastifyOptions extends HttpOptions {
  readonly path?: string
}

// ---------------------------------------------------------------------------------------
// constructors

/** A Fastify plugin serving the endpoint at `options.path` (default `/mcp`). */
export const mcpFastify = <U extends AnyTool>(server: Server<U>, options: FastifyOptions = {}) => {
  const { path = '/mcp', ...rest } = options
  const listener = toNodeListener(server, rest)
  return async (app: FastifyLike): Promise<void> => {
    // the body stays unread for the chain: a parser that consumes nothing, in this plugin's scope only
    app.removeAllContentTypeParsers()
    app.addContentTypeParser('*', (_req, _payload, done) => done(null))
    app.route({
      method: ['POST', 'GET', 'DELETE', 'OPTIONS'],
      url: path,
      handler: (request, reply) => {
        reply.hijack()
        listener(request.raw, reply.raw)
      },
    })
  }
}
