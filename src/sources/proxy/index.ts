/**
 * emcp/proxy: any MCP server, served through emcp. `proxy({ url })` or
 * `proxy({ command, args })` connects with the official SDK client (an optional peer:
 * `@modelcontextprotocol/client`) and resolves to an ordinary server of the upstream's tools,
 * prompts and resources, in both eras, with progress, logging, cancellation, elicitation,
 * sampling, list changes and (2026-07-28) the tasks extension relayed. See docs/composition.md.
 *
 * @example
 * import { proxy } from 'emcp/proxy'
 * import { serveHttp } from 'emcp/http'
 * const server = await proxy({ command: 'node', args: ['server.js'] })
 * await serveHttp(server, { port: 3001 })
 */
export { proxy } from './proxy.js'
export type { ProxyOptions, ProxyServer } from './proxy.js'
export { upstream, UpstreamDown } from './upstream.js'
export type { Upstream, UpstreamAuth, UpstreamOptions, UpstreamTarget } from './upstream.js'
export type { UpstreamLimits } from '../../client/bounds.js'
