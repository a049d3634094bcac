/**
 * The benchmark contract on the official SDK v2 (@modelcontextprotocol/server): McpServer
 * with registerTool and zod object schemas. The schemas are built once per process; the
 * server is built by the factory that serveStdio calls per connection and createMcpHandler
 * per HTTP request.
 */
import { McpServer } from '@modelcontextprotocol/server'
import * as z from 'zod'
import { add, addResult, fillerResult, fillers, toolCount, zodShape } from './contract.mjs'

const fillerTools = fillers(toolCount()).map((t) => ({ ...t, schema: z.object(zodShape(z, t)) }))
const addInput = z.strictObject({ a: z.number().describe('First addend'), b: z.number().describe('Second addend') })
const addOutput = z.strictObject({ sum: z.number() })

export const buildServer = () => {
  const server = new McpServer({ name: 'bench', version: '1.0.0' }, { capabilities: { tools: {} } })
  server.registerTool(
    'add',
    { title: add.title, description: add.description, inputSchema: addInput, outputSchema: addOutput, annotations: add.annotations },
    async ({ a, b }) => addResult(a, b),
  )
  for (const t of fillerTools)
    server.registerTool(t.name, { description: t.description, inputSchema: t.schema }, async (args) => fillerResult(args))
  return server
}
