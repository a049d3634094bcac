/**
 * Loading the server a command works on: a JavaScript module whose default export is a
 * server (or a function that returns one, possibly asynchronously). Every way this can go
 * wrong gets a message that says what to do.
 *
 * @example
 * import { loadServer } from './load.js'
 * const server = await loadServer('dist/examples/calculator.js', process.cwd())
 */
import { existsSync, statSync } from 'node:fs'
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { Server } from '../server/server.js'
import { UsageError } from './command.js'

/** True for something shaped like an emcp server. */
export const isServer = (u: unknown): u is Server =>
  typeof u === 'object' && u !== null && typeof (u as Server).dispatch === 'function' && Array.isArray((u as Server).tools)

/** Imports `path` (relative to `cwd`) and returns its default-exported server. */
export const loadServer = async (path: string | undefined, cwd: string): Promise<Server> => {
  if (path === undefined) throw new UsageError('which module? Give the path of a JavaScript module that default-exports a server')
  const file = resolve(cwd, path)
  // a TypeScript source is refused before loading, on every Node version: what runs is the compiled module
  if (/\.(c|m)?tsx?$/.test(path)) throw new UsageError(`${path} is TypeScript: compile it and give the .js module (e.g. ${path.replace(/^(\.\/)?/, 'dist/').replace(/\.(c|m)?tsx?$/, '.$1js')})`)
  if (!existsSync(file)) throw new UsageError(`cannot find module ${path}`)
  if (statSync(file).isDirectory()) throw new UsageError(`${path} is a directory; give the module file`)
  let mod: Record<string, unknown>
  try {
    mod = (await import(pathToFileURL(file).href)) as Record<string, unknown>
  } catch (e) {
    throw new UsageError(`cannot load ${path}: ${e instanceof Error ? e.message : String(e)}`, 1)
  }
  let value = mod.default
  if (typeof value === 'function' && !isServer(value)) value = await (value as () => unknown)()
  if (isServer(value)) return value
  const servers = Object.entries(mod).filter(([, v]) => isServer(v)).map(([k]) => k)
  const fix =
    servers.length > 0
      ? `; it exports a server as ${servers.join(', ')}: add \`export default ${servers[0]}\``
      : `; export one: \`export default mcpServer([...], { name, version }).implement({...})\``
  throw new UsageError(`${path} has no default-exported server${fix}`)
}
