/**
 * emcp/openapi: an OpenAPI 3.0 or 3.1 document served as MCP tools, one per operation,
 * called with `fetch`. The document is read with `@readme/openapi-parser`, an optional peer.
 * See docs/composition.md.
 *
 * @example
 * import { fromOpenApi } from 'emcp/openapi'
 * import { serveHttp } from 'emcp/http'
 * const api = await fromOpenApi('./openapi.json', { baseUrl: 'http://127.0.0.1:8080', exclude: { tags: ['admin'] } })
 * await serveHttp(api.server, { port: 3001 })
 */
export { fromOpenApi } from './from-openapi.js'
export type { OpenApiAuth, OpenApiOptions, OpenApiTools, OperationFilter } from './from-openapi.js'
export type { CallOptions } from './call.js'
export { excerptLength } from './call.js'
export { operationsOf, toolNameOf } from './operations.js'
export type { Operation, OperationProblem, Parameter, ParameterPlace } from './operations.js'
export { inlined, maxExpansions } from './refs.js'
