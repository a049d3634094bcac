/**
 * `emcp install`: puts a server into an MCP client's configuration (Claude Desktop, Claude
 * Code, Cursor, VS Code, Gemini CLI, Goose), or prints the entry and the install link, or
 * takes it out again. A module becomes a command that serves it over stdio with this emcp
 * (absolute paths, this Node: the client's PATH does not matter); a URL an HTTP entry.
 *
 * @example
 * // emcp install cursor dist/examples/calculator.js --name calc --env API_KEY=secret
 * // emcp install vscode https://example.org/mcp --print
 * import { install } from './install.js'
 * await install.run(['claude-code', 'dist/examples/calculator.js'], io)
 */
import { existsSync } from 'node:fs'
import { join, resolve } from 'node:path'
import * as E from 'fp-ts/lib/Either.js'
import { lastOption, parseArgs } from './args.js'
import { UsageError, type Command, type CommandIO } from './command.js'
import { clients, type McpClient, type ServerSpec } from './install/clients.js'
import { editConfig } from './install/config-file.js'
import { compiledPath, isTypeScript, loadServer } from './load.js'
import { envOf } from './types.js'
import { packageRoot } from './version.js'

const ids = Object.keys(clients)

const help = `Usage: emcp install <client> <module | url> [--name N] [--env K=V]... [--config F] [--print | --remove]

Adds the server to an MCP client's configuration file, keeping everything else the file
holds; running it again changes nothing. A module is served over stdio by this emcp
(\`node <emcp> serve <module>\`, absolute paths); a URL is a Streamable HTTP server.
A configuration file that does not parse is refused, named, and left untouched.

Clients and their files:
  claude-desktop   claude_desktop_config.json (mcpServers; a URL through mcp-remote)
  claude-code      .mcp.json in this directory (mcpServers, project scope)
  cursor           ~/.cursor/mcp.json (mcpServers)
  vscode           .vscode/mcp.json in this directory (servers)
  gemini           ~/.gemini/settings.json (mcpServers; a URL as httpUrl)
  goose            ~/.config/goose/config.yaml (extensions)

Options:
  --name N         the entry's name (default: the server's name, or the URL's host)
  --env K=V        an environment variable of the server process (repeatable)
  --config F       edit file F instead of the client's default
  --print          print the entry (and the client's install link or command) instead
  --remove         take the entry named --name (or the default name) out of the file
  --help           this text

Examples:
  emcp install claude-desktop dist/server.js --env API_KEY=sk-123
  emcp install vscode https://example.org/mcp --name example --print
  emcp install cursor dist/server.js --remove`

/** The subcommand. */
export const install: Command = {
  name: 'install',
  summary: 'Add a server to Claude Desktop, Claude Code, Cursor, VS Code, Gemini CLI or Goose',
  help,
  run: async (argv, io) => {
    const args = parseArgs(argv, { options: ['name', 'env', 'config'], switches: ['print', 'remove'] })
    const [clientId, source, ...extra] = args.positionals
    if (extra.length > 0) throw new UsageError(`unexpected argument ${extra[0]}`)
    const client = clientId === undefined ? undefined : clients[clientId]
    if (client === undefined || !Object.hasOwn(clients, clientId as string)) throw new UsageError(`name the client: one of ${ids.join(', ')}${clientId === undefined ? '' : ` (not ${clientId})`}`)
    if (source === undefined) throw new UsageError('give the server: a module or a URL')
    if (args.switches.has('print') && args.switches.has('remove')) throw new UsageError('give --print or --remove, not both')
    const env = envOf(args)
    for (const k of Object.keys(env)) if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(k)) throw new UsageError(`--env ${k}=…: a variable name is letters, digits and _, not starting with a digit`)
    const { server, name } = await serverOf(source, env, lastOption(args, 'name'), args.switches.has('remove'), io)
    if (!/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/.test(name)) throw new UsageError(`--name ${JSON.stringify(name)}: use 1-64 of A-Z a-z 0-9 _ . - (starting with a letter or digit)`)
    if (args.switches.has('print')) return printEntry(client, server, name, io)
    const config = lastOption(args, 'config')
    const path = config === undefined ? client.defaultFile(io.cwd) : resolve(io.cwd, config)
    const edit = args.switches.has('remove') ? ({ kind: 'remove', name } as const) : ({ kind: 'set', name, entry: client.entry(server, name) } as const)
    const outcome = await editConfig(path, client.format, client.key, edit)
    if (E.isLeft(outcome)) throw new UsageError(outcome.left, 1)
    const said = { written: edit.kind === 'remove' ? `removed ${name} from` : `installed ${name} in`, unchanged: `${name} is already installed as given in`, absent: `${name} was not installed in` }
    io.err(`${said[outcome.right]} ${path} (${client.title})\n`)
    return 0
  },
}

/** The server a module or URL names, and the entry's name. */
const serverOf = async (source: string, env: Record<string, string>, given: string | undefined, removing: boolean, io: CommandIO): Promise<{ readonly server: ServerSpec; readonly name: string }> => {
  if (/^https?:\/\//i.test(source)) {
    if (Object.keys(env).length > 0) throw new UsageError('--env sets variables of a server process; a URL names a server that runs elsewhere')
    const url = new URL(source)
    return { server: { kind: 'http', url: url.href }, name: given ?? url.hostname.replace(/[^A-Za-z0-9_.-]/g, '-') }
  }
  const module = resolve(io.cwd, isTypeScript(source) ? compiledPath(source, io.cwd) : source)
  if (!existsSync(module)) throw new UsageError(`${source}: no such module${isTypeScript(source) ? ` (compiled as ${module}; build it first)` : ''}`)
  // loaded to check that the module serves a server, and for its name (an entry removed by its given name needs neither)
  const name = removing && given !== undefined ? given : (given ?? (await loadServer(module, io.cwd)).info.name)
  if (!removing && given !== undefined) await loadServer(module, io.cwd)
  const root = packageRoot()
  if (root === undefined) throw new UsageError('cannot find the emcp package this command runs from (its package.json)', 1)
  const bin = join(root, 'bin', 'emcp.js')
  return { server: { kind: 'stdio', command: process.execPath, args: [bin, 'serve', module], env }, name }
}

/** `--print`: the entry as the client's file holds it, and its link or command. */
const printEntry = (client: McpClient, server: ServerSpec, name: string, io: CommandIO): number => {
  io.out(`${JSON.stringify({ [client.key]: { [name]: client.entry(server, name) } }, null, 2)}\n`)
  if (client.link !== undefined) io.out(`${client.link(server, name)}\n`)
  return 0
}
