/**
 * `emcp/fetch`: the core and the Web-standard handler in one entry that needs no Node
 * module, for Deno, Bun, Cloudflare Workers (workerd, without `nodejs_compat`), Vercel and
 * any framework that speaks `Request`/`Response`. Its request path uses Web Crypto,
 * `TextEncoder`, `Uint8Array` and web streams only; schemas are checked by Ajv where code may
 * be generated and by an interpreting validator where it may not (workerd). The stateful
 * sessions (`sessions: true`) need a runtime that lives on between requests (Deno, Bun, Node),
 * or on Workers a Durable Object per session (`emcp/workers`).
 *
 * @example
 * import { emcp, mcpServer, toFetchHandler } from 'emcp/fetch'
 * const echo = emcp({ name: 'echo', description: 'Echo the text.', input: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } as const })
 * const server = mcpServer([echo], { name: 'edge', version: '1.0.0' }).implement({ echo: ({ text }) => text })
 * export default { fetch: toFetchHandler(server, { path: '/mcp' }) } // a worker; Deno.serve(handler) and Bun.serve({ fetch: handler }) take it too
 */
// the walker, for the first schema checked where code cannot be generated (workerd): no require there to load it later
import '../schema/walker.js'
export * from '../index.js'
export { toFetchHandler, type FetchHandler, type FetchOptions } from './http/fetch.js'
export { compose } from './http/compose.js'
export type { BearerAuth, BodyPace, BodyRead, HttpHandler, HttpMiddleware, HttpOptions, HttpReply, HttpRequest, HttpRequestHead } from './http/model.js'
