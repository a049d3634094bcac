/**
 * Type tests of `emcp/workers` (src/transport/workers.ts): the Worker and the Durable Object
 * class take the `env` type of the server's maker, and the session options leave out what
 * one object per session fixes.
 */
import { expectError, expectType } from 'tsd'
import { emcp, mcpServer } from 'emcp'
import { durableSessions, type DurableSessions, type SessionObjectState } from 'emcp/workers'

const echo = emcp({ name: 'echo', input: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } })
interface Env {
  readonly GREETING: string
  readonly MCP_SESSIONS: unknown
}
const mcp = durableSessions((env: Env) => mcpServer([echo], { name: env.GREETING, version: '1' }).implement({ echo: ({ text }) => text }), { path: '/mcp' })

expectType<DurableSessions<Env>>(mcp)
expectType<Promise<Response>>(mcp.worker.fetch(new Request('http://127.0.0.1/mcp'), { GREETING: 'hi', MCP_SESSIONS: {} }))
expectType<Promise<Response>>(mcp.worker.fetch(new Request('http://127.0.0.1/mcp'), { GREETING: 'hi', MCP_SESSIONS: {} }, { waitUntil: () => undefined }))
// the bindings the maker reads must be there
expectError(mcp.worker.fetch(new Request('http://127.0.0.1/mcp'), { MCP_SESSIONS: {} }))

declare const state: SessionObjectState
const object = new mcp.Session(state, { GREETING: 'hi', MCP_SESSIONS: {} })
expectType<Promise<Response>>(object.fetch(new Request('http://127.0.0.1/mcp')))

// one object holds one session, named by the object: these are not the user's to set
expectError(durableSessions(() => mcpServer([echo], { name: 'e', version: '1' }).implement({ echo: ({ text }) => text }), { sessions: { maxSessions: 10 } }))
expectError(durableSessions(() => mcpServer([echo], { name: 'e', version: '1' }).implement({ echo: ({ text }) => text }), { sessions: { newId: () => 'x' } }))
durableSessions(() => mcpServer([echo], { name: 'e', version: '1' }).implement({ echo: ({ text }) => text }), { binding: 'SESSIONS', sessions: { idleMs: 60_000, maxGetStreams: 4 } })

// the maker may pass the store it is given on to mcpServer (a session then outlives its object)
durableSessions((env: Env, store) => mcpServer([echo], { name: env.GREETING, version: '1' }, { store }).implement({ echo: ({ text }) => text }))
