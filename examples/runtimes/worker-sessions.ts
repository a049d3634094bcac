/**
 * The everything example on Cloudflare Workers (workerd) with 2025-11-25 sessions: each
 * session lives in a Durable Object of the class exported here (`McpSession`, bound as
 * `MCP_SESSIONS`), which keeps its SSE streams, answers the client's replies to sampling and
 * elicitation, and carries progress, logs and resource updates; the session's record is kept
 * in the object's storage, so the session outlives the object's eviction. Requests without a session
 * (2026-07-28, and 2025-11-25 without `initialize`) are served by the Worker statelessly, a
 * task's work kept running through `ctx.waitUntil`. No `nodejs_compat` flag is needed.
 *
 *   # wrangler.toml: main = "examples/runtimes/worker-sessions.ts"
 *   # [[durable_objects.bindings]] name = "MCP_SESSIONS", class_name = "McpSession"
 *   # [[migrations]] tag = "v1", new_sqlite_classes = ["McpSession"]
 *   npx wrangler deploy
 *
 * @example
 * import worker, { McpSession } from './worker-sessions.js'
 * // workerd calls worker.fetch(request, env, ctx) and constructs McpSession(state, env) per session
 */
import { requestStateKeysFrom } from 'emcp/fetch'
import { durableSessions } from 'emcp/workers'
import { everythingServer } from '../everything-server.js'

/** The bindings this worker reads. */
interface Env {
  readonly REQUEST_STATE_KEYS?: string
  readonly MCP_SESSIONS: unknown
}

// `store`: in a session's object, the session's record goes to the object's storage, so that it outlives the object's eviction
const mcp = durableSessions((env: Env, store) => everythingServer({ requestStateKeys: requestStateKeysFrom(env.REQUEST_STATE_KEYS), store }), { path: '/mcp', binding: 'MCP_SESSIONS' })

/** The Worker: routes a session's requests to its object, serves the rest. */
export default mcp.worker

/** The Durable Object class, one object per session. */
export const McpSession = mcp.Session
