/**
 * `emcp proxy`: serves any MCP server through emcp, bridging any pair of transports: an HTTP
 * upstream (a URL) or a stdio one (a command after `--`), to a stdio front or an HTTP front
 * (`/mcp`, stateful: sessions and SSE streams, so that the upstream's questions reach the
 * client in both eras). The SDK client the proxy uses is loaded only here.
 *
 * @example
 * // emcp proxy http://127.0.0.1:3000/mcp --stdio
 * // emcp proxy --http --port 3001 -- node dist/examples/everything.js --stdio
 * import { proxyCommand } from './proxy.js'
 * await proxyCommand.run(['http://127.0.0.1:3000/mcp', '--stdio'], io)
 */
import { serveHttp } from '../transport/http.js'
import { serveStdio } from '../transport/stdio.js'
import type { UpstreamAuth, UpstreamTarget } from '../sources/proxy/upstream.js'
import type { UpstreamLimits } from '../client/bounds.js'
import { headersOption, lastOption, parseArgs, wholeOption, type Args } from './args.js'
import { listenError, UsageError, type Command } from './command.js'
import { counted } from '../util/counted.js'

const help = `Usage: emcp proxy <url> [--stdio | --http [--port N] [--host H]] [auth]
       emcp proxy [--stdio | --http [--port N] [--host H]] -- <command> [args...]

Serves another MCP server through emcp: its tools, prompts, resources and completions, in
both protocol eras whichever the upstream speaks, with progress, logging, cancellation,
elicitation, sampling, list changes and (2026-07-28) the tasks extension relayed both ways.
The upstream is a Streamable HTTP URL, or a command (after --) that speaks MCP over stdio.
An upstream that goes away gives isError results (HTTP 503 for other requests) until the
proxy reaches it again.

Options:
  --stdio              the front: newline-delimited JSON-RPC on stdin and stdout (default)
  --http               the front: Streamable HTTP at http://H:N/mcp, with sessions
  --port N             the HTTP port (default 3000; 0 picks a free one)
  --host H             the address to bind (default 127.0.0.1)
  --header "K: V"      a header on every request to an HTTP upstream (repeatable)
  --upstream-era E     the era asked of the upstream first: 2026-07-28 (default) or
                       2025-11-25 (the other when it is refused)
  --bearer-env NAME    a bearer token for the upstream, read from environment variable NAME
  --client-id ID       OAuth client credentials for the upstream: the client id,
  --client-secret-env NAME   the secret, read from environment variable NAME,
  --scope S            the scopes to ask for, and
  --issuer URL         the authorization server the credentials belong to

Bounds on what the upstream sends back (each a positive whole number):
  --max-answer-bytes N    one answer, SSE event or stdio line (default 16777216)
  --max-depth N           how deeply one message may nest (default 512)
  --max-list-pages N      the pages one tools/list, prompts/list, resources/list
                          walk follows (default 64)
  --request-timeout-ms N  how long a relayed request other than a tool call waits
                          (default 60000)
  --call-timeout-ms N     how long a tool call waits before it is cancelled upstream
                          (default 300000)
  --help               this text

Examples:
  emcp proxy http://127.0.0.1:3000/mcp --stdio
  emcp proxy https://mcp.example.com/mcp --http --port 3001 --bearer-env UPSTREAM_TOKEN
  emcp proxy --http --port 3001 -- node dist/examples/everything.js --stdio`

/** The subcommand. */
export const proxyCommand: Command = {
  name: 'proxy',
  summary: 'Serve another MCP server (by URL or command) over stdio or HTTP',
  help,
  run: async (argv, io) => {
    const split = argv.indexOf('--')
    const own = split < 0 ? argv : argv.slice(0, split)
    const command = split < 0 ? [] : argv.slice(split + 1)
    const args = parseArgs(own, { options: ['port', 'host', 'header', 'bearer-env', 'client-id', 'client-secret-env', 'scope', 'issuer', 'upstream-era', ...limitOptions, 'call-timeout-ms'], switches: ['stdio', 'http'] })
    if (args.switches.has('stdio') && args.switches.has('http')) throw new UsageError('give --stdio or --http, not both')
    const http = args.switches.has('http')
    if (!http && (args.options.port !== undefined || args.options.host !== undefined)) throw new UsageError('--port and --host need --http')
    const target = targetOf(args, command)
    const auth = authOf(args)
    if (auth !== undefined && 'command' in target) throw new UsageError('--bearer-env and --client-id authenticate to an HTTP upstream, not to a command')
    const port = wholeOption(args, 'port', 0, 65535) ?? 3000
    const prefer = lastOption(args, 'upstream-era')
    if (prefer !== undefined && prefer !== '2025-11-25' && prefer !== '2026-07-28') throw new UsageError(`--upstream-era must be 2025-11-25 or 2026-07-28, not ${prefer.slice(0, 40)}`)
    const limits = limitsOf(args)
    const callTimeoutMs = wholeOption(args, 'call-timeout-ms', 1)
    const { proxy } = await import('../sources/proxy/proxy.js')
    const server = await proxy(target, {
      ...(auth === undefined ? {} : { auth }),
      ...(prefer === undefined ? {} : { prefer }),
      ...(limits === undefined ? {} : { limits }),
      ...(callTimeoutMs === undefined ? {} : { callTimeoutMs }),
      onWarning: (m: string) => io.err(`${m}\n`),
    }).catch((e: unknown) => {
      throw new UsageError(e instanceof Error ? e.message : String(e), 1)
    })
    const what = `${server.info.name} ${server.info.version} (${counted(server.tools.length, 'tool')}) from ${server.upstream.label}`
    try {
      if (!http) {
        io.err(`emcp proxy: serving ${what} over stdio\n`)
        await serveStdio(server)
        return 0
      }
      const host = lastOption(args, 'host') ?? '127.0.0.1'
      const running = await serveHttp(server, { port, host, sessions: true }).catch((e: unknown) => {
        throw listenError(e, host, port)
      })
      io.err(`emcp proxy: serving ${what} on ${running.url}; Ctrl+C stops\n`)
      await new Promise<void>((resolve) => running.server.once('close', () => resolve()))
      return 0
    } finally {
      await server.close()
    }
  },
}

// ---------------------------------------------------------------------------------------
// internals

/** The `--max-*` and `--request-timeout-ms` flags, each the `UpstreamLimits` key of the same name. */
const limitFlags = {
  'max-answer-bytes': 'maxAnswerBytes',
  'max-depth': 'maxDepth',
  'max-list-pages': 'maxListPages',
  'request-timeout-ms': 'requestTimeoutMs',
} as const satisfies Record<string, keyof UpstreamLimits>

const limitOptions = Object.keys(limitFlags)

/** The limits the flags set, or undefined when none is given (the proxy's defaults then hold). */
const limitsOf = (args: Args): UpstreamLimits | undefined => {
  const entries = Object.entries(limitFlags).flatMap(([flag, key]) => {
    const n = wholeOption(args, flag, 1)
    return n === undefined ? [] : [[key, n] as const]
  })
  return entries.length === 0 ? undefined : Object.fromEntries(entries)
}

const targetOf = (args: Args, command: ReadonlyArray<string>): UpstreamTarget => {
  const [url, ...extra] = args.positionals
  if (command.length > 0) {
    if (url !== undefined) throw new UsageError(`give the upstream as a URL or as a command after --, not both (got ${url} and ${command[0]})`)
    if (args.options.header !== undefined) throw new UsageError('--header is for an HTTP upstream, not a command')
    const [cmd, ...rest] = command as [string, ...string[]]
    return { command: cmd, args: rest }
  }
  if (url === undefined) throw new UsageError('give the upstream: a URL (http://host:port/mcp) or a command after --')
  if (extra.length > 0) throw new UsageError(`unexpected argument ${extra[0]} (a command to run goes after --)`)
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    throw new UsageError(`${url} is not a URL; a command to run goes after --`)
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new UsageError(`the upstream URL must be http: or https:, not ${parsed.protocol}`)
  return { url: parsed, ...(args.options.header === undefined ? {} : { headers: headersOption(args.options.header) }) }
}

/** A secret is read from the environment, never from the command line (where `ps` would show it). */
const secretFrom = (args: Args, option: string): string | undefined => {
  const name = lastOption(args, option)
  if (name === undefined) return undefined
  const value = process.env[name]
  if (value === undefined || value === '') throw new UsageError(`--${option} names ${name}, but that environment variable is not set`)
  return value
}

const authOf = (args: Args): UpstreamAuth | undefined => {
  const bearer = secretFrom(args, 'bearer-env')
  const clientId = lastOption(args, 'client-id')
  const clientSecret = secretFrom(args, 'client-secret-env')
  if (bearer !== undefined && (clientId !== undefined || clientSecret !== undefined)) throw new UsageError('give a bearer token or client credentials, not both')
  if (bearer !== undefined) return { bearer }
  if (clientId === undefined && clientSecret === undefined) {
    if (args.options.scope !== undefined || args.options.issuer !== undefined) throw new UsageError('--scope and --issuer go with --client-id and --client-secret-env')
    return undefined
  }
  if (clientId === undefined || clientSecret === undefined) throw new UsageError('client credentials need both --client-id and --client-secret-env')
  const scope = lastOption(args, 'scope')
  const issuer = lastOption(args, 'issuer')
  return { clientCredentials: { clientId, clientSecret, ...(scope === undefined ? {} : { scope }), ...(issuer === undefined ? {} : { issuer }) } }
}
