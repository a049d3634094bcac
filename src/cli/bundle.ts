/**
 * `emcp bundle`: an MCP Bundle (`.mcpb`) of a module's server, installable with a click in
 * clients that take bundles. The module and everything it imports (emcp included) are bundled
 * by esbuild into one `server/index.js` that serves the default-exported server over stdio;
 * `manifest.json` (MCPB 0.3, see distribution/mcpb.ts) lists its tools; fflate writes the zip.
 * Both are optional peers, loaded here only.
 *
 * @example
 * // emcp bundle dist/server.js -o weather.mcpb --env API_KEY="The weather service key"
 * import { bundle } from './bundle.js'
 * await bundle.run(['dist/server.js', '-o', 'server.mcpb'], io)
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join, resolve } from 'node:path'
import { lastOption, parseArgs } from './args.js'
import { UsageError, type Command } from './command.js'
import { entryPoint, mcpbManifest, type EnvNeed } from './distribution/mcpb.js'
import { loadServer } from './load.js'
import { wireClient } from './wire.js'
import { counted } from '../util/counted.js'

const help = `Usage: emcp bundle <module> -o <name.mcpb> [--env NAME[=description]]... [--author NAME]

Builds an MCP Bundle: a zip with manifest.json (MCPB manifest 0.3: name, version and
description from the server and the nearest package.json, its tools, a Node entry point,
and a user_config field for each --env variable) and server/index.js, the module and all
it imports bundled into one file that serves its default-exported server over stdio.
Needs the packages esbuild and fflate.

Options:
  -o, --output F     the bundle to write (name.mcpb)
  --env N[=text]     an environment variable the server needs, asked of the user at
                     install (repeatable; names with KEY, TOKEN, SECRET or PASSWORD are
                     kept secret)
  --author NAME      the author (default: package.json's author)
  --description T    the description (default: the server's, or package.json's)
  --help             this text

Example:
  emcp bundle dist/server.js -o weather.mcpb --env WEATHER_API_KEY="Your weather service key"`

/** The subcommand. */
export const bundle: Command = {
  name: 'bundle',
  summary: "Build an MCP Bundle (.mcpb) of a module's server",
  help,
  run: async (argv, io) => {
    const args = parseArgs(argv, { options: ['output', 'env', 'author', 'description'], aliases: { o: 'output' } })
    const [modulePath, ...extra] = args.positionals
    if (extra.length > 0) throw new UsageError(`unexpected argument ${extra[0]}`)
    const output = lastOption(args, 'output')
    if (output === undefined || !output.endsWith('.mcpb')) throw new UsageError('give the bundle to write: -o name.mcpb')
    const env = (args.options.env ?? []).map(envNeed)
    const server = await loadServer(modulePath, io.cwd)
    const module = resolve(io.cwd, modulePath as string)
    const pkg = nearestPackage(module)
    const author = lastOption(args, 'author') ?? authorName(pkg?.author)
    if (author === undefined) throw new UsageError('a bundle names its author: give --author NAME (or an author in package.json)')
    const tools = await (await wireClient(server)).list()
    const description = lastOption(args, 'description') ?? server.info.description ?? (typeof pkg?.description === 'string' ? pkg.description : undefined)
    const manifest = mcpbManifest({
      info: server.info,
      tools,
      author: { name: author },
      ...(description === undefined ? {} : { description }),
      ...(typeof pkg?.license === 'string' ? { license: pkg.license } : {}),
      env,
    })
    const code = await bundled(module)
    const { zipSync, strToU8 } = await import('fflate').catch(() => {
      throw new UsageError('emcp bundle needs the package fflate to write the zip (npm install fflate)', 1)
    })
    const zip = zipSync({ 'manifest.json': strToU8(`${JSON.stringify(manifest, null, 2)}\n`), [entryPoint]: strToU8(code) }, { level: 9, mtime: new Date('2000-01-01T00:00:00Z') })
    writeFileSync(resolve(io.cwd, output), zip)
    io.err(`wrote ${output}: ${manifest.name} ${manifest.version}, ${counted(tools.length, 'tool')}, ${Math.ceil(zip.length / 1024)} KiB\n`)
    return 0
  },
}

/** `--env NAME[=description]`. */
const envNeed = (spec: string): EnvNeed => {
  const eq = spec.indexOf('=')
  const name = eq < 0 ? spec : spec.slice(0, eq)
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new UsageError(`--env ${JSON.stringify(spec)}: a variable name is letters, digits and _, not starting with a digit`)
  return eq < 0 ? { name } : { name, description: spec.slice(eq + 1) }
}

/** The nearest package.json above the module, parsed; undefined when there is none. */
const nearestPackage = (module: string): { readonly [key: string]: unknown } | undefined => {
  for (let dir = dirname(module); ; dir = dirname(dir)) {
    const file = join(dir, 'package.json')
    if (existsSync(file)) {
      try {
        return JSON.parse(readFileSync(file, 'utf8')) as { readonly [key: string]: unknown }
      } catch {
        return undefined
      }
    }
    if (dirname(dir) === dir) return undefined
  }
}

/** package.json's author, as a string (`Name <email> (url)`) or an object. */
const authorName = (author: unknown): string | undefined => {
  if (typeof author === 'string') {
    const cut = author.search(/[<(]/) // the name ends where the email or the url begins
    return (cut < 0 ? author : author.slice(0, cut)).trim() || undefined
  }
  if (typeof author === 'object' && author !== null && typeof (author as { name?: unknown }).name === 'string') return (author as { name: string }).name
  return undefined
}

/** Optional packages emcp loads only when used: bundled when the module's project has them, left out otherwise. */
const optional = ['jose', 'pg', 'redis', '@electric-sql/pglite', '@opentelemetry/api', '@modelcontextprotocol/client', 'yaml', 'esbuild', 'fflate']

/** The module and all it imports as one ES module that serves its default-exported server over stdio. */
const bundled = async (module: string): Promise<string> => {
  const esbuild = await import('esbuild').catch(() => {
    throw new UsageError('emcp bundle needs the package esbuild to bundle the server (npm install esbuild)', 1)
  })
  const from = createRequire(module)
  const missing = optional.filter((p) => {
    try {
      from.resolve(p)
      return false
    } catch {
      return true
    }
  })
  const entry = [
    `import * as m from ${JSON.stringify(module)}`,
    "import { serveStdio } from 'emcp/stdio'",
    "const given = typeof m.default === 'function' && typeof m.default.dispatch !== 'function' ? await m.default() : m.default",
    "if (given === undefined || given === null || typeof given.dispatch !== 'function') throw new Error('the bundled module has no default-exported server')",
    'await serveStdio(given)',
  ].join('\n')
  const out = await esbuild.build({
    stdin: { contents: entry, resolveDir: dirname(module), loader: 'js', sourcefile: 'mcpb-entry.js' },
    bundle: true,
    write: false,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: missing,
    // CommonJS dependencies bundled into an ES module still call require for Node's own modules
    banner: { js: "import { createRequire as __emcpRequire } from 'node:module'; const require = __emcpRequire(import.meta.url);" },
    logLevel: 'silent',
  }).catch((e: unknown) => {
    throw new UsageError(`cannot bundle ${module}: ${e instanceof Error ? e.message.split('\n').slice(0, 4).join(' ') : String(e)}`, 1)
  })
  const file = out.outputFiles[0]
  if (file === undefined) throw new UsageError(`cannot bundle ${module}: esbuild wrote nothing`, 1)
  return file.text
}
