/**
 * `emcp pg`: serve a database's annotated routines over stdio or HTTP.
 *
 *   emcp pg [--url URL | --pglite DIR] [--init FILE]... [--sql FILE]... [--schema NAME]... [--stdio | --http [--port N] [--host H]]
 *
 * Without `--url` (or `DATABASE_URL`) the database is PGlite: in memory, or kept in `--pglite
 * DIR`. `--init` files are setup scripts (a schema, seed data), run once at start, in order;
 * `--sql` files are tools, never run at start: one without an MCP annotation is left out with
 * a warning.
 *
 * @example
 * import { run } from './cli.js'
 * process.exitCode = await run(['--init', 'schema.sql', '--sql', 'find.sql', '--http', '--port', '3000'])
 */
import { readFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import { lastOption, parseArgs, wholeOption } from '../../cli/args.js'
import { UsageError } from '../../cli/command.js'
import { enableSearch, searchOf } from '../../cli/search.js'
import type { ToolSearchOptions } from '../../features/tool-search/mode.js'
import type { Identity } from '../../server/session.js'
import { serveHttp } from '../../transport/http.js'
import { startStdio } from '../../transport/stdio.js'
import { pglite, postgres, type Database } from './database.js'
import { fromPostgres, type PostgresTools } from './from-postgres.js'
import { counted } from '../../util/counted.js'

// ---------------------------------------------------------------------------------------
// model

/** Where the command writes, and what it may know of its surroundings (the shape of the CLI's CommandIO). */
export interface PgIO {
  readonly out: (text: string) => void
  readonly err: (text: string) => void
  readonly cwd: string
  /** The environment (`DATABASE_URL`); the process's when absent. */
  readonly env?: { readonly [name: string]: string | undefined }
}

/** A started server: where it listens (HTTP), and how to stop it. */
export interface RunningPg {
  readonly url: string | undefined
  readonly tools: PostgresTools
  /** Settles when the server stops on its own (stdio input ended). */
  readonly done: Promise<void>
  readonly close: () => Promise<void>
}

/** The help text. */
export const help = `Usage: emcp pg [options]

Serves the functions and procedures whose comment carries @mcp as MCP tools.

Database (one of):
  --url URL            a PostgreSQL server (default: $DATABASE_URL)
  --pglite DIR         an embedded PGlite database kept in DIR (default: in memory)

Setup:
  --init FILE          a setup script (a schema, seed data) run once at start, statement by
                       statement; an error names the file and line and stops; repeatable

What to serve:
  --sql FILE           a .sql file served as a tool when its comments carry @mcp,
                       @mcp_description, @mcp_desc or @mcp_name; one without is left out
                       with a warning and never run; repeatable
  --schema NAME        a schema to scan (default: public); repeatable
  --prefix TEXT        prepended to every tool name
  --name NAME          the server's name (default: the database's name)
  --listen CHANNEL     reload the catalog on NOTIFY CHANNEL
  --timeout MS         statement timeout per call (default 30000; 0: none)
  --set-role           run each call under the caller's role (SET LOCAL ROLE)

Tool search:
  --search             list search_tools and call_tool (and the pinned tools) instead of
                       every tool; see docs/tool-search.md
  --pin NAME           with --search, keep tool NAME listed too (repeatable)

Transport (one of):
  --stdio              newline-delimited JSON-RPC on stdin/stdout (default)
  --identity WHO       stdio: who the caller is, as SUBJECT or SUBJECT:ROLE,ROLE
                       (default: anonymous, so @authorize tools are hidden)
  --http               Streamable HTTP (stateful) at http://HOST:PORT/mcp
  --port N             HTTP port (default 3000; 0 picks one)
  --host H             HTTP address (default 127.0.0.1)
  --tokens FILE        HTTP bearer tokens: a JSON object token -> { "subject", "roles" }
`

// ---------------------------------------------------------------------------------------
// functions

/** Opens the database, reads the catalog and starts serving; throws on a bad flag or an empty catalog. */
export const start = async (argv: ReadonlyArray<string>, io: PgIO): Promise<RunningPg> => {
  const o = parse(argv)
  const url = o.url ?? (io.env ?? process.env).DATABASE_URL
  if (url !== undefined && o.pglite !== undefined) throw new UsageError('give --url or --pglite, not both')
  const db: Database = url !== undefined && url !== '' ? await postgres(url) : await pglite(o.pglite === undefined ? undefined : resolve(io.cwd, o.pglite))
  try {
    // files are named in messages as the user gave them, and read from the working directory
    const files = async (names: ReadonlyArray<string>) => Promise.all(names.map(async (f) => ({ path: f, text: await readFile(resolve(io.cwd, f), 'utf8') })))
    const init = await files(o.init)
    const toolFiles = await files(o.sql)
    const tools = await fromPostgres(db, {
      init,
      ...(o.schema.length > 0 ? { schemas: o.schema } : {}),
      ...(o.prefix === undefined ? {} : { prefix: o.prefix }),
      ...(o.name === undefined ? {} : { name: o.name }),
      ...(o.listen === undefined ? {} : { listen: o.listen }),
      ...(o.timeout === undefined ? {} : { timeoutMs: o.timeout }),
      setRole: o.setRole,
      sqlFiles: toolFiles,
      onWarning: (w) => io.err(`emcp pg: ${w}\n`),
    })
    enableSearch(tools.server, o.search)
    const stopAll = async (): Promise<void> => {
      await tools.close()
      await db.close()
    }
    if (!o.http) {
      const stdio = startStdio(tools.server, o.identity === undefined ? {} : { identity: o.identity })
      io.err(`emcp pg: serving ${counted(tools.tools().length, 'tool')} over stdio\n`)
      return { url: undefined, tools, done: stdio.done.then(stopAll), close: async () => stdio.close() }
    }
    const verify = o.tokens === undefined ? undefined : await tokenTable(resolve(io.cwd, o.tokens))
    const running = await serveHttp(tools.server, {
      port: o.port ?? 3000,
      host: o.host ?? '127.0.0.1',
      sessions: true,
      ...(verify === undefined ? {} : { auth: { verify } }),
    })
    io.out(`emcp pg: serving ${counted(tools.tools().length, 'tool')} at ${running.url}\n`)
    let closed: () => void = () => undefined
    const done = new Promise<void>((r) => (closed = r))
    return {
      url: running.url,
      tools,
      done,
      close: async () => {
        await running.close()
        await stopAll()
        closed()
      },
    }
  } catch (e) {
    await db.close().catch(() => undefined)
    throw e
  }
}

/** Runs `emcp pg` until stdio input ends or SIGINT/SIGTERM; resolves to the exit code. */
export const run = async (argv: ReadonlyArray<string>, io: PgIO = defaultIO()): Promise<number> => {
  if (argv.includes('--help') || argv.includes('-h')) {
    io.out(help)
    return 0
  }
  let running: RunningPg
  try {
    running = await start(argv, io)
  } catch (e) {
    if (!(e instanceof UsageError)) {
      io.err(`emcp pg: ${e instanceof Error ? e.message : String(e)}\n`)
      return 1
    }
    io.err(`emcp pg: ${e.message}${e.exitCode === 2 ? ' (see emcp pg --help)' : ''}\n`)
    return e.exitCode
  }
  const stop = (): void => {
    void running.close()
  }
  process.once('SIGINT', stop)
  process.once('SIGTERM', stop)
  await running.done
  process.off('SIGINT', stop)
  process.off('SIGTERM', stop)
  return 0
}

// ---------------------------------------------------------------------------------------
// internals

interface Parsed {
  readonly url?: string | undefined
  readonly pglite?: string | undefined
  readonly init: ReadonlyArray<string>
  readonly sql: ReadonlyArray<string>
  readonly schema: ReadonlyArray<string>
  readonly prefix?: string | undefined
  readonly name?: string | undefined
  readonly listen?: string | undefined
  readonly timeout?: number | undefined
  readonly setRole: boolean
  readonly http: boolean
  readonly port?: number | undefined
  readonly host?: string | undefined
  readonly tokens?: string | undefined
  readonly identity?: Identity | undefined
  readonly search?: ToolSearchOptions | undefined
}

const spec = {
  options: ['url', 'pglite', 'init', 'sql', 'schema', 'prefix', 'name', 'listen', 'timeout', 'port', 'host', 'tokens', 'identity', 'pin'],
  switches: ['set-role', 'stdio', 'http', 'search'],
} as const

const parse = (argv: ReadonlyArray<string>): Parsed => {
  const args = parseArgs(argv, spec)
  if (args.positionals.length > 0) throw new UsageError(`unexpected argument ${args.positionals[0]}`)
  if (args.switches.has('stdio') && args.switches.has('http')) throw new UsageError('give --stdio or --http, not both')
  const one = (name: (typeof spec.options)[number]): string | undefined => lastOption(args, name)
  return {
    url: one('url'),
    pglite: one('pglite'),
    init: args.options.init ?? [],
    sql: args.options.sql ?? [],
    schema: args.options.schema ?? [],
    prefix: one('prefix'),
    name: one('name'),
    listen: one('listen'),
    timeout: wholeOption(args, 'timeout'),
    setRole: args.switches.has('set-role'),
    http: args.switches.has('http'),
    port: wholeOption(args, 'port', 0, 65535),
    host: one('host'),
    tokens: one('tokens'),
    identity: identityOf(one('identity')),
    search: searchOf(args),
  }
}

/** `SUBJECT` or `SUBJECT:ROLE,ROLE`. */
const identityOf = (given: string | undefined): Identity | undefined => {
  if (given === undefined) return undefined
  const [subject = '', roles = ''] = given.split(':')
  if (subject === '') throw new UsageError('--identity needs SUBJECT or SUBJECT:ROLE,ROLE')
  return { subject, roles: roles.split(',').map((r) => r.trim()).filter((r) => r !== '') }
}

/** A verifier from a JSON file of tokens. */
const tokenTable = async (path: string): Promise<(token: string) => Identity | undefined> => {
  const table = JSON.parse(await readFile(path, 'utf8')) as Record<string, { subject?: unknown; roles?: unknown }>
  const ids = new Map<string, Identity>()
  for (const [token, id] of Object.entries(table)) {
    if (typeof id?.subject !== 'string' || !Array.isArray(id.roles) || !id.roles.every((r) => typeof r === 'string'))
      throw new UsageError(`${path}: token entries must be { "subject": string, "roles": string[] }`)
    ids.set(token, { subject: id.subject, roles: id.roles as string[] })
  }
  return (token) => ids.get(token)
}

const defaultIO = (): PgIO => ({
  out: (t) => process.stdout.write(t),
  err: (t) => process.stderr.write(t),
  cwd: process.cwd(),
  env: process.env,
})
