/**
 * `emcp types`: writes the tool contracts of any MCP server (reached by URL, started as a
 * command, or read from a manifest or an emcp module) as a TypeScript module of const data,
 * so that `connect` is typed against it; `--check` reports the drift since, tool by tool.
 * The client (and its optional peer) is loaded only for URLs and commands.
 *
 * @example
 * // emcp types http://127.0.0.1:3000/mcp -o tools.ts
 * // emcp types --check tools.ts -- node server.js
 * import { types } from './types.js'
 * await types.run(['dist/examples/calculator.js'], io)
 */
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { resolve } from 'node:path'
import * as E from 'fp-ts/lib/Either.js'
import { maxModuleBytes, readTypesModule, typedTools, typesModule, type TypedTool } from '../client/listed.js'
import { diffManifests } from '../sources/manifest/diff.js'
import { lastOption, parseArgs, type Args } from './args.js'
import { UsageError, type Command, type CommandIO } from './command.js'
import { loadServer } from './load.js'
import { wireClient } from './wire.js'
import { counted } from '../util/counted.js'

const help = `Usage: emcp types <url | manifest.json | module> [-o file | --check file] [options]
       emcp types [-o file | --check file] [options] -- <command> [args...]

Writes the tool contracts of an MCP server (names, descriptions, input and output schemas,
as its tools/list gives them, sorted by name) as a TypeScript module of const data. A client
typed with it, \`connect(url, { contracts: tools })\` from emcp/client, checks tool names,
arguments and results at compile time, for servers emcp did not build too.

The server is reached by URL (Streamable HTTP), started as a command after --, or read
from a manifest file ({ "tools": [...] }) or an emcp module (its default-exported server).

Options:
  -o, --output F       write to file F instead of standard output
  --check F            compare file F with the server instead of writing: exit 0 when it is
                       up to date, exit 1 with the drift tool by tool (added, removed, and
                       each changed path)
  --protocol-version V the revision to speak (default: 2026-07-28 if the server has it)
  --header 'N: V'      an HTTP header on every request (repeatable)
  --bearer TOKEN       an OAuth access token for HTTP (the EMCP_BEARER variable, if set, too)
  --env K=V            an environment variable of the command (repeatable)
  --help               this text

Examples:
  emcp types http://127.0.0.1:3000/mcp -o src/weather-tools.ts
  emcp types --check src/weather-tools.ts http://127.0.0.1:3000/mcp
  emcp types -o tools.ts -- npx -y @modelcontextprotocol/server-everything`

/** The subcommand. */
export const types: Command = {
  name: 'types',
  summary: "Write a TypeScript module of any server's tool contracts, for typed clients",
  help,
  run: async (argv, io) => {
    const dash = argv.indexOf('--')
    const command = dash < 0 ? undefined : argv.slice(dash + 1)
    const args = parseArgs(dash < 0 ? argv : argv.slice(0, dash), { options: ['output', 'check', 'protocol-version', 'header', 'bearer', 'env'], aliases: { o: 'output' } })
    const [source, ...extra] = args.positionals
    if (extra.length > 0) throw new UsageError(`unexpected argument ${extra[0]}`)
    if (command !== undefined && (command.length === 0 || source !== undefined)) throw new UsageError('give either a source (url, manifest or module) or a command after --, not both')
    if (command === undefined && source === undefined) throw new UsageError('give the server: a URL, a manifest file, a module, or -- a command')
    const output = lastOption(args, 'output')
    const check = lastOption(args, 'check')
    if (output !== undefined && check !== undefined) throw new UsageError('give -o or --check, not both')
    const named = command === undefined ? (source as string) : `-- ${command.join(' ')}`
    const listed = await listedOf(source, command, args, io)
    const tools = E.getOrElseW((why: string) => {
      throw new UsageError(`${named}: ${why}`, 1)
    })(typedTools(listed))
    if (check !== undefined) return checkFile(resolve(io.cwd, check), check, tools, io)
    const text = typesModule(tools, named)
    if (text.length > maxModuleBytes) throw new UsageError(`${named}: the listing is larger than ${maxModuleBytes} bytes; refusing to write it`, 1)
    if (output === undefined) io.out(text)
    else {
      writeFileSync(resolve(io.cwd, output), text)
      io.err(`wrote ${counted(tools.length, 'tool contract')} to ${output}\n`)
    }
    return 0
  },
}

/** The tools of the server named by the arguments. */
const listedOf = async (source: string | undefined, command: ReadonlyArray<string> | undefined, args: Args, io: CommandIO): Promise<ReadonlyArray<unknown>> => {
  if (command !== undefined) {
    const [bin = '', ...rest] = command
    return viaClient({ command: bin, args: rest, env: envOf(args), cwd: io.cwd, stderr: 'inherit' }, args)
  }
  const from = source as string
  if (/^https?:\/\//i.test(from)) return viaClient(from, args)
  if (/\.json$/i.test(from)) return manifestTools(resolve(io.cwd, from), from)
  return (await wireClient(await loadServer(from, io.cwd))).list()
}

/** Lists the tools through `connect` (loaded here: it needs the optional peer). */
const viaClient = async (target: string | { readonly command: string; readonly args: ReadonlyArray<string>; readonly env: Record<string, string>; readonly cwd: string; readonly stderr: 'inherit' }, args: Args): Promise<ReadonlyArray<unknown>> => {
  const { connect } = await import('../client/connect.js').catch((e: unknown) => {
    throw new UsageError(`emcp types needs the package @modelcontextprotocol/client to reach a server (npm install @modelcontextprotocol/client): ${e instanceof Error ? e.message : String(e)}`, 1)
  })
  const bearer = lastOption(args, 'bearer') ?? process.env.EMCP_BEARER
  const version = lastOption(args, 'protocol-version')
  const client = await connect(target as string, {
    ...(version === undefined ? {} : { protocolVersion: version }),
    ...(bearer === undefined ? {} : { auth: { bearer } }),
    headers: headersOf(args),
    clientInfo: { name: 'emcp types', version: '0.1.0' },
  })
  try {
    return await client.list()
  } finally {
    await client.close()
  }
}

/** `--header 'Name: value'` options as a record. */
const headersOf = (args: Args): Record<string, string> =>
  Object.fromEntries(
    (args.options.header ?? []).map((h) => {
      const colon = h.indexOf(':')
      if (colon <= 0) throw new UsageError(`--header wants 'Name: value', not ${JSON.stringify(h)}`)
      return [h.slice(0, colon).trim(), h.slice(colon + 1).trim()]
    }),
  )

/** `--env K=V` options as a record. */
export const envOf = (args: Args): Record<string, string> =>
  Object.fromEntries(
    (args.options.env ?? []).map((kv) => {
      const eq = kv.indexOf('=')
      if (eq <= 0) throw new UsageError(`--env wants NAME=value, not ${JSON.stringify(kv)}`)
      return [kv.slice(0, eq), kv.slice(eq + 1)]
    }),
  )

/** The tools of a manifest file (`{ tools: [...] }`, or a bare array). */
const manifestTools = (path: string, named: string): ReadonlyArray<unknown> => {
  if (!existsSync(path)) throw new UsageError(`${named}: no such file`)
  if (statSync(path).size > maxModuleBytes) throw new UsageError(`${named}: larger than ${maxModuleBytes} bytes`, 1)
  let parsed: unknown
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'))
  } catch (e) {
    throw new UsageError(`${named} is not JSON: ${e instanceof Error ? e.message : String(e)}`, 1)
  }
  const tools = Array.isArray(parsed) ? parsed : (parsed as { tools?: unknown } | null)?.tools
  if (!Array.isArray(tools)) throw new UsageError(`${named} has no "tools" array`, 1)
  return tools
}

/** `--check`: the drift from the file to the server, tool by tool. */
const checkFile = (path: string, named: string, now: ReadonlyArray<TypedTool>, io: CommandIO): number => {
  if (!existsSync(path)) throw new UsageError(`${named}: no such file to check`)
  const before = E.getOrElseW((why: string) => {
    throw new UsageError(`${named} cannot be checked: ${why}`, 1)
  })(readTypesModule(readFileSync(path, 'utf8')))
  const drift = diffManifests({ tools: before }, { tools: now })
  if (drift.length === 0) {
    io.err(`${named} is up to date (${counted(now.length, 'tool')})\n`)
    return 0
  }
  io.out(`${named} has drifted from the server:\n`)
  for (const d of drift) {
    if (d.kind === 'added') io.out(`  + ${d.tool}: new on the server\n`)
    else if (d.kind === 'removed') io.out(`  - ${d.tool}: no longer on the server\n`)
    else for (const c of d.changes) io.out(`  ~ ${d.tool}${c.path}: ${show(c.before)} -> ${show(c.after)}\n`)
  }
  return 1
}

/** A value in a drift line, clipped. */
const show = (v: unknown): string => {
  const s = v === undefined ? '(absent)' : JSON.stringify(v)
  return s.length > 120 ? `${s.slice(0, 119)}…` : s
}
