/**
 * The benchmark contract on emcp with zod: the tool `add` takes the SDK v1 server's zod
 * schemas (sdk1-common.mjs) in the form that server passes them, raw shapes, each property
 * validated by zod through its `~standard.validate`; the filler tools are JSON Schema
 * literals, as in examples/bench.ts.
 * Read through the package's own entry points (the bundles users get).
 *
 *   TOOLS=2000 node bench/servers/emcp-zod.mjs stdio
 *   TOOLS=2000 PORT=3000 node bench/servers/emcp-zod.mjs http   # stateless, 127.0.0.1:$PORT/mcp
 */
import { emcp, mcpServer } from 'emcp'
import * as z from 'zod'
import { add, fillers, port, toolCount } from './contract.mjs'

// the SDK v1 server's schemas for `add`, unchanged: the same raw shapes its registerTool takes
const addInput = { a: z.number().describe('First addend'), b: z.number().describe('Second addend') }
const addOutput = { sum: z.number() }

const addTool = emcp({ name: add.name, title: add.title, description: add.description, input: addInput, output: addOutput, annotations: add.annotations })
const fillerTools = fillers(toolCount()).map((t) => emcp({ name: t.name, description: t.description, input: t.inputSchema }))

const handlers = { add: ({ a, b }) => ({ sum: a + b }) }
for (const t of fillerTools) handlers[t.name] = (args) => JSON.stringify(args)
const server = mcpServer([addTool, ...fillerTools], { name: 'bench', version: '1.0.0' }).implement(handlers)

const mode = process.argv[2] ?? 'stdio'
if (mode === 'stdio') {
  const { serveStdio } = await import('emcp/stdio')
  await serveStdio(server)
} else if (mode === 'http') {
  const { serveHttp } = await import('emcp/http')
  const running = await serveHttp(server, { port: port() })
  console.error(`bench server on ${running.url}`)
} else throw new Error(`the mode is stdio or http (got ${mode})`)
