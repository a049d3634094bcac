/**
 * The benchmark contract: tool `add` exactly as in the calculator, plus `TOOLS=N` filler
 * tools `tool_0000`, `tool_0001`, ... each with a small object input of 2-3 described
 * properties.
 *
 *   TOOLS=2000 node dist/examples/bench.js stdio
 *   TOOLS=2000 PORT=3000 node dist/examples/bench.js http   # stateless, 127.0.0.1:$PORT/mcp
 */
// through the package's own entry points (the bundles users get), not the compiled sources
import { emcp, mcpServer, serveStdio, type AnyTool, type Handler } from 'emcp'
import { addDefinition } from './add.js'
import { isMain } from './is-main.js'

const add = emcp(addDefinition)

const kinds = ['string', 'number', 'integer', 'boolean'] as const

/** Filler tool number `i`: 2 or 3 described properties of varied types. */
const filler = (i: number): AnyTool => {
  const count = 2 + (i % 2)
  const properties: Record<string, { type: string; description: string }> = {}
  for (let p = 0; p < count; p++)
    properties[`p${p}`] = { type: kinds[(i + p) % kinds.length] as string, description: `Parameter ${p} of filler tool ${i}` }
  return emcp({
    name: `tool_${String(i).padStart(4, '0')}`,
    description: `Filler tool number ${i}, for benchmarks with many tools registered.`,
    input: { type: 'object', properties, required: ['p0'] } as { readonly type: 'object' },
  })
}

/** A benchmark server with `n` filler tools beside `add`. */
export const benchServer = (n: number) => {
  const fillers = Array.from({ length: n }, (_, i) => filler(i))
  // one handler for every filler tool, as the raw loop has one function for them; the record
  // is filled in place (a spread of 2000 keys into a new one cost about half a millisecond)
  const echo: Handler<AnyTool> = (args: unknown) => JSON.stringify(args)
  const handlers: { add: Handler<typeof add>; [name: string]: Handler<AnyTool> | Handler<typeof add> } = { add: ({ a, b }) => ({ sum: a + b }) }
  for (const f of fillers) handlers[f.name] = echo
  return mcpServer([add, ...fillers], { name: 'bench', version: '1.0.0' }).implement(handlers)
}

const usage = `The benchmark server: add plus TOOLS=N filler tools.

  TOOLS=2000 node dist/examples/bench.js [stdio]
  TOOLS=2000 PORT=3000 node dist/examples/bench.js http   # stateless, 127.0.0.1:$PORT/mcp`

/** Serves the bench server in `mode`: stdio from the core (the barrel has it), HTTP loaded only when asked for, as a server written for one transport would. */
const serve = async (mode: string): Promise<void> => {
  const server = benchServer(Number(process.env.TOOLS ?? 0))
  // serveStdio from the barrel, not emcp/stdio: each bare specifier costs Node's loader a
  // package resolution, the second about a millisecond (it compiles a check of export paths)
  if (mode === 'stdio') {
    await serveStdio(server)
    return
  }
  const { serveHttp } = await import('emcp/http')
  const running = await serveHttp(server, { port: Number(process.env.PORT ?? 3000) })
  // SIGTERM or SIGINT: serveHttp answers the calls in flight, refuses new ones (503), then exits with 0
  console.error(`bench server on ${running.url}`)
}

// The mode is read here, not through runMain (main.ts): its node:util parseArgs costs about
// 4M instructions of a start (3% of all), and the raw loop this start is compared with reads
// no options either. The rest behaves as runMain does: the usage on --help, exit 2 with the
// usage on an option it does not know or a mode that is not one.
if (isMain(import.meta.url)) {
  const args = process.argv.slice(2)
  const refuse = (why: string): void => {
    process.stderr.write(`bench: ${why}\n\n${usage}\n`)
    process.exitCode = 2
  }
  const option = args.find((a) => a.startsWith('-'))
  const [mode = 'stdio'] = args
  if (option === '--help' || option === '-h') process.stdout.write(`${usage}\n`)
  else if (option !== undefined) refuse(`Unknown option '${option}'`)
  else if (mode !== 'stdio' && mode !== 'http') refuse(`the mode is stdio or http (got ${mode})`)
  else
    serve(mode).catch((e: unknown) => {
      process.stderr.write(`bench: ${e instanceof Error ? e.message : String(e)}\n`)
      process.exit(1)
    })
}
