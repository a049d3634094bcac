/**
 * `emcp meos`: serve the MEOS catalog over stdio or HTTP, called in the real libmeos.
 *
 *   emcp meos --manifest FILE --catalog FILE [--library PATH] [--stdio | --http [--port N] [--host H]] [--category C]… [--workers N]
 *
 * The flags a server command takes (`--stdio`, `--http`, `--port`, `--host`, `--sessions`,
 * `--category`, `--search`, `--pin`) mean what they mean for `emcp serve`; the MEOS ones say
 * where the library, manifest and catalog are and how the workers run.
 *
 * @example
 * import { run } from './cli.js'
 * process.exitCode = await run(['--manifest', 'meos-mcp.json', '--catalog', 'meos-idl.json', '--http', '--port', '3000'], io)
 */
import { resolve } from 'node:path'
import { lastOption, parseArgs, wholeOption } from '../../cli/args.js'
import { listenError, UsageError, type CommandIO } from '../../cli/command.js'
import { serveHttp } from '../../transport/http.js'
import { startStdio } from '../../transport/stdio.js'
import { counted } from '../../util/counted.js'
import { defaultTimeoutMs, meosServer, type MeosServer } from './server.js'

/** The help text. */
export const help = `Usage: emcp meos --manifest FILE --catalog FILE [options]

Serves the MEOS catalog (MobilityDB's temporal and spatial types) as MCP tools, each call
made in libmeos in a worker process. Tools whose function libmeos does not export are left
out with one warning that lists them.

MEOS:
  --library PATH   libmeos.so (default: $MEOS_LIBRARY_PATH; .ci/meos builds one)
  --manifest FILE  the generated tool manifest (meos-mcp.json)
  --catalog FILE   the generated catalog (meos-idl.json): the C side of each call
  --workers N      worker processes (default: one per core, at most 4); a call that
                   ends its worker (exit, SIGSEGV) answers isError and the worker restarts
  --timeout MS     a call's deadline; its worker is ended past it (default ${defaultTimeoutMs})
  --decode MODE    universal (default): each argument's parser is picked from its value
                   (text by its form, HexWKB, MF-JSON); manifest: always the manifest's parser

Serving (as emcp serve):
  --stdio          newline-delimited JSON-RPC on standard input and output (default)
  --http           Streamable HTTP at http://H:N/mcp
  --port N         the HTTP port (default 3000; 0 picks a free one)
  --host H         the address to bind (default 127.0.0.1)
  --sessions       stateful HTTP (MCP-Session-Id, SSE streams)
  --category C     only tools of category C (x-meos.category: predicate, accessor,
                   transformation, …); repeatable
  --search         tool-search mode: search_tools and call_tool (and the pinned tools)
                   listed instead of 1650 tools; see docs/tool-search.md
  --pin NAME       with --search, keep tool NAME listed too (repeatable)

Examples:
  emcp meos --manifest meos-mcp.json --catalog meos-idl.json
  emcp meos --manifest meos-mcp.json --catalog meos-idl.json --http --port 3000 --category accessor
`

/** Runs `emcp meos` until stdio input ends, or the HTTP server closes (SIGINT, SIGTERM); resolves to the exit code. */
export const run = async (argv: ReadonlyArray<string>, io: CommandIO): Promise<number> => {
  const o = parse(argv, io.cwd)
  const meos = await meosServer({
    manifest: o.manifest,
    catalog: o.catalog,
    ...(o.library === undefined ? {} : { library: o.library }),
    ...(o.categories.length === 0 ? {} : { categories: o.categories }),
    ...(o.workers === undefined ? {} : { workers: o.workers }),
    ...(o.timeout === undefined ? {} : { timeoutMs: o.timeout }),
    decode: o.decode,
    onWarning: (w) => io.err(`${w}\n`),
  }).catch((e: unknown) => {
    throw new UsageError(e instanceof Error ? e.message.replace(/^emcp\/meos: /, '') : String(e), 1)
  })
  try {
    if (o.search !== undefined) searchMode(meos, o.search)
    return o.http ? await serveOverHttp(meos, o, io) : await serveOverStdio(meos, io)
  } finally {
    await meos.close()
  }
}

// ---------------------------------------------------------------------------------------
// internals

interface Parsed {
  readonly library?: string | undefined
  readonly manifest: string
  readonly catalog: string
  readonly categories: ReadonlyArray<string>
  readonly workers?: number | undefined
  readonly timeout?: number | undefined
  readonly decode: 'universal' | 'manifest'
  readonly http: boolean
  readonly port: number
  readonly host: string
  readonly sessions: boolean
  /** `--search`, with the `--pin`ned tools. */
  readonly search?: { readonly pinned?: ReadonlyArray<string> } | undefined
}

const spec = {
  options: ['library', 'manifest', 'catalog', 'workers', 'timeout', 'decode', 'port', 'host', 'category', 'pin'],
  switches: ['stdio', 'http', 'sessions', 'search'],
} as const

const parse = (argv: ReadonlyArray<string>, cwd: string): Parsed => {
  const args = parseArgs(argv, spec)
  if (args.positionals.length > 0) throw new UsageError(`unexpected argument ${args.positionals[0]}`)
  if (args.switches.has('stdio') && args.switches.has('http')) throw new UsageError('give --stdio or --http, not both')
  const http = args.switches.has('http')
  if (!http && (args.options.port !== undefined || args.options.host !== undefined || args.switches.has('sessions')))
    throw new UsageError('--port, --host and --sessions need --http')
  const file = (name: 'manifest' | 'catalog'): string => {
    const given = lastOption(args, name)
    if (given === undefined) throw new UsageError(`--${name} FILE is required (the generated ${name === 'manifest' ? 'meos-mcp.json' : 'meos-idl.json'})`)
    return resolve(cwd, given)
  }
  const decode = lastOption(args, 'decode') ?? 'universal'
  if (decode !== 'universal' && decode !== 'manifest') throw new UsageError(`--decode must be universal or manifest, not ${JSON.stringify(decode)}`)
  const library = lastOption(args, 'library')
  const pinned = args.options.pin
  if (pinned !== undefined && !args.switches.has('search')) throw new UsageError('--pin needs --search')
  return {
    library: library === undefined ? undefined : resolve(cwd, library),
    manifest: file('manifest'),
    catalog: file('catalog'),
    categories: args.options.category ?? [],
    workers: wholeOption(args, 'workers', 1, 64),
    timeout: wholeOption(args, 'timeout', 1),
    decode,
    http,
    port: wholeOption(args, 'port', 0, 65535) ?? 3000,
    host: lastOption(args, 'host') ?? '127.0.0.1',
    sessions: args.switches.has('sessions'),
    search: args.switches.has('search') ? (pinned === undefined ? {} : { pinned }) : undefined,
  }
}

/**
 * Tool-search mode, as `emcp serve --search` turns it on: through the server's
 * `setToolSearch` (docs/tool-search.md); its option errors name the flags.
 */
const searchMode = (meos: MeosServer, options: { readonly pinned?: ReadonlyArray<string> }): void => {
  try {
    meos.server.setToolSearch(options)
  } catch (e) {
    throw new UsageError(e instanceof Error ? e.message.replace(/^emcp: /, '').replace('toolSearch.pinned', '--pin') : String(e))
  }
}

const serveOverStdio = async (meos: MeosServer, io: CommandIO): Promise<number> => {
  const stdio = startStdio(meos.server)
  io.err(`emcp meos: serving ${counted(meos.server.tools.length, 'tool')} over stdio\n`)
  await stdio.done
  return 0
}

const serveOverHttp = async (meos: MeosServer, o: Parsed, io: CommandIO): Promise<number> => {
  const running = await serveHttp(meos.server, { port: o.port, host: o.host, ...(o.sessions ? { sessions: true } : {}) }).catch((e: unknown) => {
    throw listenError(e, o.host, o.port)
  })
  io.err(`emcp meos: serving ${counted(meos.server.tools.length, 'tool')}; listening on ${running.url}${o.sessions ? ' (stateful)' : ''}; Ctrl+C stops\n`)
  // SIGTERM or SIGINT: serveHttp answers the calls in flight, refuses new ones (503), then closes
  await new Promise<void>((resolve) => running.server.once('close', () => resolve()))
  return 0
}
