/**
 * The benchmark contract on the official SDK v1 (@modelcontextprotocol/sdk): McpServer with
 * registerTool and zod shapes. The zod shapes are built once per process; the server (and its
 * registrations) is built by `buildServer`, which the stateless HTTP server calls per request,
 * as the SDK's own stateless examples do.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import * as z from 'zod'
import { add, addResult, fillerResult, fillers, toolCount, zodShape } from './contract.mjs'

const fillerTools = fillers(toolCount()).map((t) => ({ ...t, shape: zodShape(z, t) }))
const addInput = { a: z.number().describe('First addend'), b: z.number().describe('Second addend') }
const addOutput = { sum: z.number() }

export const buildServer = () => {
  const server = new McpServer({ name: 'bench', version: '1.0.0' })
  server.registerTool(
    'add',
    { title: add.title, description: add.description, inputSchema: addInput, outputSchema: addOutput, annotations: add.annotations },
    async ({ a, b }) => addResult(a, b),
  )
  for (const t of fillerTools)
    server.registerTool(t.name, { description: t.description, inputSchema: t.shape }, async (args) => fillerResult(args))
  return server
}
