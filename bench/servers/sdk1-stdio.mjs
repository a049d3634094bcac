/** SDK v1 over stdio: one McpServer, StdioServerTransport. */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import { buildServer } from './sdk1-common.mjs'

await buildServer().connect(new StdioServerTransport())
