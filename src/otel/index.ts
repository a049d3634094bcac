/**
 * `emcp/otel`: OpenTelemetry for an emcp server, by the semantic conventions for MCP. One
 * SERVER span per JSON-RPC request (`tools/call add`, `prompts/get greet`, `tools/list`…),
 * parented by the `traceparent`/`tracestate` of the request's `params._meta`, and the
 * histogram `mcp.server.operation.duration`. Needs the optional peer `@opentelemetry/api`;
 * a server without this middleware does no telemetry work at all. See docs/observability.md.
 *
 * @example
 * import { emcp, mcpServer } from 'emcp'
 * import { otel } from 'emcp/otel'
 * const ping = emcp({ name: 'ping', description: 'Answers pong.', input: { type: 'object' } })
 * mcpServer([ping], { name: 'traced', version: '1' }, { middleware: [otel()] }).implement({ ping: () => 'pong' })
 */
import type * as Api from '@opentelemetry/api'
import type { Middleware } from '../server/middleware.js'
import { otelMiddleware, type OtelOptions } from './middleware.js'

export { durationBuckets } from './attributes.js'
export { scopeName, type OtelOptions } from './middleware.js'

// Loaded here, once: importing emcp/otel without the package says what to install, and the
// rest of emcp never imports it.
const api: typeof Api = await import('@opentelemetry/api').catch((e: unknown) => {
  throw new Error(
    `emcp/otel needs the package @opentelemetry/api (an optional peer dependency of emcp): install it with npm install @opentelemetry/api. ${e instanceof Error ? e.message : String(e)}`,
  )
})

/**
 * The middleware that traces and measures every request of a server, with the global
 * tracer and meter providers unless `options` names others.
 */
export const otel = (options: OtelOptions = {}): Middleware => otelMiddleware(api, options)
