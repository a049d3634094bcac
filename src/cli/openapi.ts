/**
 * `emcp openapi`: serves an OpenAPI 3.0 or 3.1 document (a file or a URL) as MCP tools, one
 * per operation, over stdio or Streamable HTTP. The parser (an optional peer) is loaded only here.
 *
 * @example
 * // emcp openapi ./openapi.json --base-url http://127.0.0.1:8080 --tag pets
 * import { openapiCommand } from './openapi.js'
 * await openapiCommand.run(['openapi.json', '--base-url', 'http://127.0.0.1:8080'], io)
 */
import { resolve } from 'node:path'
import { serveHttp } from '../transport/http.js'
import { serveStdio } from '../transport/stdio.js'
import type { OpenApiOptions } from '../sources/openapi/from-openapi.js'
import { headersOption, lastOption, parseArgs, wholeOption, type Args } from './args.js'
import { listenError, UsageError, type Command } from './command.js'
import { counted } from '../util/counted.js'

const help = `Usage: emcp openapi <file|url> [--base-url URL] [--stdio | --http [--port N] [--host H]]

Serves an OpenAPI 3.0 or 3.1 document as MCP tools: one per operation, named by its
operationId, its input from the path, query and header parameters and the JSON body,
its output from the 2xx JSON response. Each call is made with fetch; a non-2xx answer
is an isError result with the status and an excerpt of the body.

Options:
  --base-url URL       where the API is (default: the document's first server)
  --operation ID       serve this operation (repeatable; with --tag: either matches)
  --tag T              serve the operations tagged T (repeatable)
  --exclude-operation ID   leave this operation out (repeatable)
  --exclude-tag T      leave the operations tagged T out (repeatable)
  --header "K: V"      a header on every call (repeatable)
  --bearer-env NAME    a bearer token for the API, read from environment variable NAME
  --stdio              serve over stdio (default)
  --http               serve Streamable HTTP at http://H:N/mcp
  --port N             the HTTP port (default 3000; 0 picks a free one)
  --host H             the address to bind (default 127.0.0.1)
  --help               this text

Examples:
  emcp openapi ./openapi.json --base-url http://127.0.0.1:8080
  emcp openapi https://api.example.com/openapi.json --http --port 3001 --tag pets`

/** The subcommand. */
export const openapiCommand: Command = {
  name: 'openapi',
  summary: 'Serve an OpenAPI document as MCP tools',
  help,
  run: async (argv, io) => {
    const args = parseArgs(argv, {
      options: ['base-url', 'operation', 'tag', 'exclude-operation', 'exclude-tag', 'header', 'bearer-env', 'port', 'host'],
      switches: ['stdio', 'http'],
    })
    const [document, ...extra] = args.positionals
    if (document === undefined) throw new UsageError('give the OpenAPI document: a file or an http(s) URL')
    if (extra.length > 0) throw new UsageError(`unexpected argument ${extra[0]}`)
    if (args.switches.has('stdio') && args.switches.has('http')) throw new UsageError('give --stdio or --http, not both')
    const http = args.switches.has('http')
    if (!http && (args.options.port !== undefined || args.options.host !== undefined)) throw new UsageError('--port and --host need --http')
    const port = wholeOption(args, 'port', 0, 65535) ?? 3000
    const { fromOpenApi } = await import('../sources/openapi/from-openapi.js')
    const source = /^https?:\/\//i.test(document) ? document : resolve(io.cwd, document)
    const api = await fromOpenApi(source, { ...optionsOf(args), onWarning: (m) => io.err(`${m}\n`) }).catch((e: unknown) => {
      throw new UsageError(e instanceof Error ? e.message : String(e), 1)
    })
    const what = `${api.server.info.name} ${api.server.info.version} (${counted(api.tools.length, 'tool')})`
    if (!http) {
      io.err(`emcp openapi: serving ${what} over stdio\n`)
      await serveStdio(api.server)
      return 0
    }
    const host = lastOption(args, 'host') ?? '127.0.0.1'
    const running = await serveHttp(api.server, { port, host }).catch((e: unknown) => {
      throw listenError(e, host, port)
    })
    io.err(`emcp openapi: serving ${what} on ${running.url}; Ctrl+C stops\n`)
    await new Promise<void>((done) => running.server.once('close', () => done()))
    return 0
  },
}

// ---------------------------------------------------------------------------------------
// internals

const optionsOf = (args: Args): OpenApiOptions => {
  const baseUrl = lastOption(args, 'base-url')
  if (baseUrl !== undefined && !/^https?:\/\//i.test(baseUrl)) throw new UsageError(`--base-url must be an http(s) URL, not ${baseUrl.slice(0, 200)}`)
  const include = filterOf(args.options.operation, args.options.tag)
  const exclude = filterOf(args.options['exclude-operation'], args.options['exclude-tag'])
  const token = lastOption(args, 'bearer-env')
  const bearer = token === undefined ? undefined : process.env[token]
  if (token !== undefined && (bearer === undefined || bearer === '')) throw new UsageError(`--bearer-env names ${token}, but that environment variable is not set`)
  return {
    ...(baseUrl === undefined ? {} : { baseUrl }),
    ...(include === undefined ? {} : { include }),
    ...(exclude === undefined ? {} : { exclude }),
    ...(args.options.header === undefined ? {} : { headers: headersOption(args.options.header) }),
    ...(bearer === undefined ? {} : { auth: { bearer } }),
  }
}

const filterOf = (operationIds: ReadonlyArray<string> | undefined, tags: ReadonlyArray<string> | undefined) =>
  operationIds === undefined && tags === undefined ? undefined : { ...(operationIds === undefined ? {} : { operationIds }), ...(tags === undefined ? {} : { tags }) }
