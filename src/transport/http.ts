/// <reference types="node" preserve="true" />
/**
 * `emcp/http`: the HTTP transport, a chain of small middlewares under ./http/ (see
 * ./http/core.ts for the order a request takes). This file keeps the subpath's entry point.
 *
 * @example
 * import { serveHttp } from 'emcp/http'
 * const running = await serveHttp(server, { port: 3000 }) // http://127.0.0.1:3000/mcp
 * await running.close()
 */
export * from './http/index.js'
