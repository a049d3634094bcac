/**
 * Loading the server a command works on: a JavaScript module whose default export is a
 * server (or a function that returns one, possibly asynchronously), or that serves one at top
 * level (`await serveStdio(server)`: the server is taken, not served). Every way this can go
 * wrong gets a message that says what to do.
 *
 * @example
 * import { loadServer } from './load.js'
 * const server = await loadServer('dist/examples/calculator.js', process.cwd())
 */
import { existsSync, statSync } from 'node:fs'
import { relative, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { inspect } from 'node:util'
import type { Server } from '../server/server.js'
import { loadingServers, type Loaded } from '../transport/loading.js'
import { UsageError } from './command.js'
import { syntaxErrorAt } from './syntax.js'

/** True for something shaped like an emcp server. */
export const isServer = (u: unknown): u is Server =>
  typeof u === 'object' && u !== null && typeof (u as Server).dispatch === 'function' && Array.isArray((u as Server).tools)

/** True for a TypeScript source path (.ts, .mts, .cts, .tsx). */
export const isTypeScript = (path: string): boolean => /\.(c|m)?tsx?$/.test(path)

/**
 * The compiled module of a TypeScript source, as the getting-started tsconfig emits it
 * (`rootDir: "src"`, `outDir: "dist"`: src/app.ts becomes dist/app.js); a candidate already
 * on disk wins (dist/src/app.js from a tsconfig without rootDir, app.js beside the source).
 */
export const compiledPath = (path: string, cwd: string): string => {
  const js = path.replace(/^\.\//, '').replace(/\.(c|m)?tsx?$/, (_m, k: string | undefined) => `.${k ?? ''}js`)
  const flat = js.replace(/^src\//, '')
  const candidates = [`dist/${flat}`, `dist/${js}`, js]
  return candidates.find((c) => existsSync(resolve(cwd, c))) ?? candidates[0]!
}

/** Imports `path` (relative to `cwd`) and returns its default-exported server, or the server it serves at top level. */
export const loadServer = async (path: string | undefined, cwd: string): Promise<Server> => {
  if (path === undefined) throw new UsageError('which module? Give the path of a JavaScript module that default-exports a server')
  const file = resolve(cwd, path)
  // a TypeScript source is refused before loading, on every Node version: what runs is the compiled module
  if (isTypeScript(path)) throw new UsageError(`${path} is TypeScript: compile it (npx tsc) and give the .js module: ${compiledPath(path, cwd)}`)
  if (!existsSync(file)) throw new UsageError(`cannot find module ${path}`)
  if (statSync(file).isDirectory()) throw new UsageError(`${path} is a directory; give the module file`)
  let loaded: Loaded<Record<string, unknown>>
  try {
    // a module that awaits serveStdio(server) at top level hands the server over instead of serving
    loaded = await loadingServers(async () => (await import(pathToFileURL(file).href)) as Record<string, unknown>)
  } catch (e) {
    throw new UsageError(`cannot load ${path}: ${loadFailure(e, file, cwd)}`, 1)
  }
  if ('served' in loaded) return loaded.served
  const mod = loaded.value
  let value = mod.default
  if (typeof value === 'function' && !isServer(value)) value = await (value as () => unknown)()
  if (isServer(value)) return value
  const servers = Object.entries(mod).filter(([, v]) => isServer(v)).map(([k]) => k)
  const fix =
    servers.length > 0
      ? `; it exports a server as ${servers.join(', ')}: add \`export default ${servers[0]}\``
      : `; export one: \`export default mcpServer([...], { name, version }).implement({...})\``
  if (mod.default === undefined) throw new UsageError(`${path} has no default-exported server${fix}`)
  const what = typeof mod.default === 'function' ? `a function that returned ${describe(value)}` : describe(value)
  throw new UsageError(`the default export of ${path} is not a server: it is ${what}${fix}`)
}

/** The reason an import failed; a syntax error with the file, line and column where Node can tell. */
const loadFailure = (e: unknown, file: string, cwd: string): string => {
  const message = e instanceof Error ? e.message : String(e)
  if (!(e instanceof SyntaxError)) return message
  // thrown while the module ran (JSON.parse, new Function, …): the stack already names the place;
  // a module that does not parse: nothing in its graph ran, and a fresh import elsewhere runs nothing either
  const at = firstFileFrame(e.stack ?? '') ?? syntaxErrorAt(file)
  return at === undefined ? `SyntaxError: ${message}` : `${relative(cwd, at)}: SyntaxError: ${message}`
}

/** The first `file://…:line:column` of a stack as `path:line:column`, read line by line (one regular expression over the whole stack backtracked quadratically). */
const firstFileFrame = (stack: string): string | undefined => {
  for (const line of stack.split('\n')) {
    const start = line.indexOf('file://')
    if (start < 0) continue
    const token = line.slice(start).split(/[\s)]/, 1)[0] ?? ''
    const position = /:\d+:\d+$/.exec(token)
    if (position !== null) return `${fileURLToPath(token.slice(0, position.index))}${position[0]}`
  }
  return undefined
}

/** A value in a few words: its kind, and a short sample. */
const describe = (v: unknown): string => {
  if (v === null || v === undefined) return String(v)
  if (Array.isArray(v)) return `an array of ${v.length} item${v.length === 1 ? '' : 's'}`
  if (typeof v === 'object') {
    const keys = Object.keys(v).slice(0, 5)
    const name = Object.getPrototypeOf(v)?.constructor?.name
    return `${name !== undefined && name !== 'Object' ? `an instance of ${name}` : 'an object'}${keys.length > 0 ? ` with keys ${keys.join(', ')}` : ''}`
  }
  // what is left (string, number, bigint, boolean, symbol, function) all take 'a'
  return `a ${typeof v} (${inspect(v, { maxStringLength: 40 })})`
}
