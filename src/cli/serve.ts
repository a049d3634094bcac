/**
 * `emcp serve`: serves a module's default-exported server over stdio (the default) or
 * Streamable HTTP, optionally only a curated subset of its tools.
 *
 * @example
 * // emcp serve dist/examples/calculator.js --http --port 3000
 * import { serve } from './serve.js'
 * await serve.run(['dist/examples/calculator.js', '--stdio'], io)
 */
import { selected } from '../sources/manifest/catalog.js'
import { serveHttp } from '../transport/http.js'
import { serveStdio } from '../transport/stdio.js'
import { lastOption, parseArgs } from './args.js'
import { listenError, UsageError, type Command } from './command.js'
import { loadServer } from './load.js'
import { applySearch, searchHelp, searchOptions } from './search.js'
import { selectionHelp, selectionOf, selectionOptions } from './select.js'
import { counted } from '../util/counted.js'

const help = `Usage: emcp serve <module> [--stdio | --http [--port N] [--host H] [--sessions]] [--search [--pin NAME]...]

Serves the module's default-exported server. Over stdio (the default), standard output
carries only protocol messages; everything else goes to standard error.

Options:
  --stdio         newline-delimited JSON-RPC on standard input and output (default)
  --http          Streamable HTTP at http://H:N/mcp
  --port N        the HTTP port (default 3000; 0 picks a free one)
  --host H        the address to bind (default 127.0.0.1)
  --sessions      stateful HTTP (MCP-Session-Id, SSE streams)
${selectionHelp}
                  (the other tools are disabled: neither listed nor callable)
${searchHelp}
  --help          this text

Examples:
  emcp serve dist/examples/calculator.js
  emcp serve dist/examples/catalog.js --http --port 3001 --category vector
  emcp serve dist/examples/catalog.js --search --pin scalar.add_i8`

/** The subcommand. */
export const serve: Command = {
  name: 'serve',
  summary: "Serve a module's server over stdio or HTTP",
  help,
  run: async (argv, io) => {
    const args = parseArgs(argv, { options: ['port', 'host', ...selectionOptions, ...searchOptions.options], switches: ['stdio', 'http', 'sessions', ...searchOptions.switches] })
    const [modulePath, ...extra] = args.positionals
    if (extra.length > 0) throw new UsageError(`unexpected argument ${extra[0]}`)
    if (args.switches.has('stdio') && args.switches.has('http')) throw new UsageError('give --stdio or --http, not both')
    const http = args.switches.has('http')
    if (!http && (args.options.port !== undefined || args.options.host !== undefined || args.switches.has('sessions')))
      throw new UsageError('--port, --host and --sessions need --http')
    const rawPort = lastOption(args, 'port') ?? '3000'
    const port = Number(rawPort)
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port must be a port number (0-65535), not ${rawPort}`)
    const server = await loadServer(modulePath, io.cwd)
    const selection = selectionOf(args)
    if (selection !== undefined) {
      const keep = new Set(server.tools.filter(selected(selection)))
      if (keep.size === 0) throw new UsageError('no tool matches the selection', 1)
      // one batch: the list pages are computed once, not once per disabled tool
      server.batch(() => {
        for (const t of server.tools) if (!keep.has(t)) server.disableTool(t.name)
      })
      io.err(`serving ${keep.size} of ${counted(server.tools.length, 'tool')}\n`)
    }
    applySearch(server, args)
    if (!http) {
      io.err(`${server.info.name} ${server.info.version}: serving over stdio\n`)
      await serveStdio(server)
      return 0
    }
    const host = lastOption(args, 'host') ?? '127.0.0.1'
    const running = await serveHttp(server, { port, host, ...(args.switches.has('sessions') ? { sessions: true } : {}) }).catch((e: unknown) => {
      throw listenError(e, host, port)
    })
    io.err(`${server.info.name} ${server.info.version}: listening on ${running.url}${args.switches.has('sessions') ? ' (stateful)' : ''}; Ctrl+C stops\n`)
    // SIGTERM or SIGINT: serveHttp answers the calls in flight, refuses new ones (503), then closes
    await new Promise<void>((resolve) => running.server.once('close', () => resolve()))
    return 0
  },
}
