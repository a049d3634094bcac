/**
 * The runtimes section's server (bench/runtimes.mjs bundles it with esbuild, platform
 * neutral): `add` plus TOOLS filler tools behind emcp's fetch handler (stateless), or a raw
 * fetch handler answering the same tools/call with the same JSON and no validation, the
 * ceiling of the runtime. One file for every runtime: a worker's `fetch` export (workerd,
 * MODE and TOOLS bindings), `Deno.serve`, `Bun.serve`, or Node through @hono/node-server
 * (argv: raw|emcp, tools, port), printing `listening on <url>`.
 */
import { emcp, mcpServer, runtimeTool, toFetchHandler, type FetchHandler } from 'emcp/fetch'
import { addDefinition } from '../../examples/add.js'

declare const Deno: { readonly args: ReadonlyArray<string>; readonly serve: (o: object, h: FetchHandler) => unknown } | undefined
declare const Bun: { readonly argv: ReadonlyArray<string>; readonly serve: (o: object) => { readonly port: number } } | undefined

const add = emcp(addDefinition)

/** emcp with `add` and `tools - 1` filler tools, stateless. */
const emcpHandler = (tools: number): FetchHandler => {
  const server = mcpServer([add], { name: 'bench', version: '1.0.0' }).implement({ add: ({ a, b }) => ({ sum: a + b }) })
  for (let i = 0; i < tools - 1; i++)
    server.addTool(runtimeTool({ name: `filler_${i}`, description: `Filler tool ${i}.`, input: { type: 'object', properties: { x: { type: 'number' } }, required: ['x'] } }), (args) => JSON.stringify(args))
  return toFetchHandler(server, { path: '/mcp' })
}

/**
 * `add` with a schema emcp's fast path does not take (an `anyOf`): the general validator
 * checks it, Ajv's compiled code where code may be generated, the interpreting one on workerd.
 */
const schemaHandler = (): FetchHandler => {
  const input = { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'], anyOf: [{ required: ['a'] }, { required: ['b'] }] }
  const output = { type: 'object', properties: { sum: { type: 'number' } }, required: ['sum'] }
  const addAnyOf = runtimeTool({ name: 'add', description: 'Add two numbers.', input, output })
  const server = mcpServer([addAnyOf], { name: 'bench', version: '1.0.0' }).implement({ add: (args) => ({ sum: (args.a as number) + (args.b as number) }) })
  return toFetchHandler(server, { path: '/mcp' })
}

/** The same answer to tools/call add, computed by hand: what any server must at least do. */
const rawHandler: FetchHandler = async (request) => {
  const m = (await request.json()) as { id: number; params: { arguments: { a: number; b: number } } }
  const sum = m.params.arguments.a + m.params.arguments.b
  const result = { content: [{ type: 'text', text: JSON.stringify({ sum }) }], structuredContent: { sum } }
  return new Response(JSON.stringify({ jsonrpc: '2.0', id: m.id, result }), { headers: { 'content-type': 'application/json' } })
}

const handlerOf = (mode: string, tools: number): FetchHandler => (mode === 'raw' ? rawHandler : mode === 'schema' ? schemaHandler() : emcpHandler(tools))

let worker: FetchHandler | undefined

/** workerd: the bindings say which handler; made on the first request. */
export default {
  fetch: (request: Request, env: { readonly MODE?: string; readonly TOOLS?: string }, ctx: unknown): Promise<Response> =>
    (worker ??= handlerOf(env.MODE ?? 'emcp', Number(env.TOOLS ?? '1')))(request, env, ctx),
}

const args = typeof Deno !== 'undefined' ? Deno.args : typeof Bun !== 'undefined' ? Bun.argv.slice(2) : ((globalThis as { process?: { argv: string[] } }).process?.argv.slice(2) ?? [])
const [mode = 'emcp', tools = '1', port = '0'] = args
const say = (p: number): void => console.log(`listening on http://127.0.0.1:${p}/mcp`)
const serveNode = async (): Promise<void> => {
  const { serve } = await import('@hono/node-server')
  serve({ fetch: handlerOf(mode, Number(tools)), port: Number(port), hostname: '127.0.0.1' }, (info) => say(info.port))
}
if (typeof Deno !== 'undefined') Deno.serve({ port: Number(port), hostname: '127.0.0.1', onListen: ({ port: p }: { port: number }) => say(p) }, handlerOf(mode, Number(tools)))
else if (typeof Bun !== 'undefined') say(Bun.serve({ port: Number(port), hostname: '127.0.0.1', fetch: handlerOf(mode, Number(tools)) }).port)
else if ((globalThis as { process?: { versions?: { node?: string } } }).process?.versions?.node !== undefined && args.length > 0) void serveNode()
