/**
 * `emcp server-json`: the MCP registry's `server.json` for a server, published as an npm
 * package (a module: name and version from its package.json, whose `mcpName` must be the
 * server's registry name) or as a remote Streamable HTTP endpoint (a URL: version and
 * description from the live server).
 *
 * @example
 * // emcp server-json dist/server.js --name io.github.ada/weather -o server.json
 * import { serverJsonCommand } from './server-json.js'
 * await serverJsonCommand.run(['dist/server.js', '--name', 'io.github.ada/weather'], io)
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { registryName, serverJson, type PackageEnv, type Publication } from '../server/server-card.js'
import type { ServerInfo } from '../server/server.js'
import { lastOption, parseArgs, type Args } from './args.js'
import { UsageError, type Command, type CommandIO } from './command.js'
import { loadServer } from './load.js'

const help = `Usage: emcp server-json <module | url> --name io.github.owner/name [-o server.json] [options]

Writes the MCP registry's server.json (schema 2025-12-11) for the server:
- a module: published as the npm package whose package.json is nearest to it (its name and
  version); the registry checks that its "mcpName" is the server's name, so a package.json
  without it, or with another, is refused here first, naming both;
- a URL: a remote Streamable HTTP server; version and description are asked of it.

Options:
  --name N          the registry name, reverse-DNS namespace/name (io.github.owner/name)
  -o, --output F    write to file F instead of standard output
  --env N[=text]    an environment variable the package needs (repeatable)
  --version V       the version (default: package.json's, or the live server's)
  --description T   the description (default: the server's; at most 100 characters)
  --help            this text

Examples:
  emcp server-json dist/server.js --name io.github.ada/weather -o server.json
  emcp server-json https://weather.example.org/mcp --name org.example/weather`

/** The subcommand. */
export const serverJsonCommand: Command = {
  name: 'server-json',
  summary: "Write the MCP registry's server.json for an npm package or a remote server",
  help,
  run: async (argv, io) => {
    const args = parseArgs(argv, { options: ['name', 'output', 'env', 'version', 'description'], aliases: { o: 'output' } })
    const [source, ...extra] = args.positionals
    if (extra.length > 0) throw new UsageError(`unexpected argument ${extra[0]}`)
    if (source === undefined) throw new UsageError('give the server: a module (an npm package) or a URL (a remote server)')
    const name = lastOption(args, 'name')
    if (name === undefined) throw new UsageError('give the registry name: --name io.github.owner/name')
    if (!registryName.test(name) || name.length > 200) throw new UsageError(`--name ${JSON.stringify(name)}: a registry name is namespace/name, reverse-DNS (io.github.owner/name)`)
    const { info, publication } = /^https?:\/\//i.test(source) ? await remote(source, name, args) : await npmPackage(source, name, args, io)
    const version = lastOption(args, 'version')
    const description = lastOption(args, 'description')
    if (description !== undefined && description.length > 100) throw new UsageError(`--description is ${description.length} characters; the registry takes at most 100`)
    const json = serverJson(info, { ...publication, ...(version === undefined ? {} : { version }), ...(description === undefined ? {} : { description }) })
    const text = `${JSON.stringify(json, null, 2)}\n`
    const output = lastOption(args, 'output')
    if (output === undefined) io.out(text)
    else {
      writeFileSync(resolve(io.cwd, output), text)
      io.err(`wrote ${output} for ${name}\n`)
    }
    return 0
  },
}

/** A module published as its npm package: package.json's name, version and mcpName checked. */
const npmPackage = async (source: string, name: string, args: Args, io: CommandIO): Promise<{ readonly info: ServerInfo; readonly publication: Publication }> => {
  const server = await loadServer(source, io.cwd)
  const found = packageJsonOf(resolve(io.cwd, source))
  if (found === undefined) throw new UsageError(`${source} is in no npm package: no package.json above it`)
  const { path, pkg } = found
  if (typeof pkg.name !== 'string' || typeof pkg.version !== 'string') throw new UsageError(`${path} has no name and version`, 1)
  if (pkg.mcpName === undefined) throw new UsageError(`${path} has no "mcpName": add "mcpName": "${name}" (the registry checks that the package names the server)`, 1)
  if (pkg.mcpName !== name) throw new UsageError(`${path} says "mcpName": ${JSON.stringify(pkg.mcpName)}, but --name is "${name}": the registry refuses a package whose mcpName is not the server's name`, 1)
  const env: PackageEnv[] = (args.options.env ?? []).map((spec) => {
    const eq = spec.indexOf('=')
    return eq < 0 ? { name: spec } : { name: spec.slice(0, eq), description: spec.slice(eq + 1) }
  })
  const repository = repositoryOf(pkg.repository)
  return {
    info: server.info,
    publication: { name, version: pkg.version, npm: { identifier: pkg.name, version: pkg.version, env }, ...(repository === undefined ? {} : { repository }) },
  }
}

/** A remote server: asked for its name, version and description (through emcp/client). */
const remote = async (url: string, name: string, args: Args): Promise<{ readonly info: ServerInfo; readonly publication: Publication }> => {
  if ((args.options.env ?? []).length > 0) throw new UsageError('--env names variables of a package; a remote server takes none')
  const { connect } = await import('../client/connect.js').catch((e: unknown) => {
    throw new UsageError(`emcp server-json needs the package @modelcontextprotocol/client to ask a remote server: ${e instanceof Error ? e.message : String(e)}`, 1)
  })
  const client = await connect(url, { clientInfo: { name: 'emcp server-json', version: '0.1.0' } }).catch((e: unknown) => {
    throw new UsageError(`cannot reach ${url}: ${e instanceof Error ? e.message : String(e)}`, 1)
  })
  try {
    const info = client.serverInfo() ?? { name, version: '0.0.0' }
    return { info, publication: { name, remote: new URL(url).href } }
  } finally {
    await client.close()
  }
}

/** The nearest package.json above `file`. */
const packageJsonOf = (file: string): { readonly path: string; readonly pkg: { readonly [key: string]: unknown } } | undefined => {
  for (let dir = dirname(file); ; dir = dirname(dir)) {
    const path = join(dir, 'package.json')
    if (existsSync(path)) {
      try {
        return { path, pkg: JSON.parse(readFileSync(path, 'utf8')) as { readonly [key: string]: unknown } }
      } catch (e) {
        throw new UsageError(`${path} is not JSON: ${e instanceof Error ? e.message : String(e)}`, 1)
      }
    }
    if (dirname(dir) === dir) return undefined
  }
}

/** package.json's repository as the registry's `{ url, source }` (GitHub and GitLab URLs). */
const repositoryOf = (repository: unknown): { readonly url: string; readonly source: string } | undefined => {
  const raw = typeof repository === 'string' ? repository : typeof repository === 'object' && repository !== null ? (repository as { url?: unknown }).url : undefined
  if (typeof raw !== 'string') return undefined
  const url = raw.replace(/^git\+/, '').replace(/\.git$/, '').replace(/^github:/, 'https://github.com/')
  const source = /github\.com/.test(url) ? 'github' : /gitlab\.com/.test(url) ? 'gitlab' : undefined
  return source === undefined || !/^https:\/\//.test(url) ? undefined : { url, source }
}
