/**
 * `emcp/client`: the typed client of any MCP server. Its public surface: `connect`, its
 * options and types, the errors it rejects with, and `ToolsOf` (the contracts a value
 * describes). Needs the optional peer `@modelcontextprotocol/client`.
 *
 * @example
 * import { connect, ToolCallError } from 'emcp/client'
 * const c = await connect({ command: 'node', args: ['dist/examples/calculator.js'] })
 * try { await c.call('add', { a: 1, b: 2 }) } catch (e) { if (e instanceof ToolCallError) console.error(e.result) }
 */
export { connect, type ConnectOptions } from './connect.js'
export type { Auth } from './auth.js'
export type { Command, Target } from './target.js'
export type { CallOptions, Described, ListedContract, ListedAsContract, ListedPrompt, ListedResource, PromptMessage, RemoteClient, ResourceContents, ToolsOf } from './types.js'
export { InputRequiredError, RpcCallError, ToolCallError } from '../transport/in-memory.js'
export type { ArgsOf, ResultOf } from '../transport/in-memory.js'
