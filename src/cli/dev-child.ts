/**
 * One generation of `emcp dev`: a child process that imports the module afresh (a new
 * process is a new ES module cache, so the module and everything it imports load again),
 * serves it over stateful HTTP on a free loopback port, and tells its parent over IPC:
 * `{ ready: port, files }` or `{ failed: message, files }`, where `files` are the paths the
 * module graph loaded (found by ./dev-hooks.ts), for the parent to watch. The parent
 * proxies to it and ends it when the next generation is ready.
 *
 * @example
 * // fork(new URL('./cli-dev-child.js', import.meta.url), ['dist/examples/calculator.js'])
 */
import { existsSync } from 'node:fs'
import { register } from 'node:module'
import { fileURLToPath } from 'node:url'
import { MessageChannel } from 'node:worker_threads'
import type { RunningHttp } from '../transport/http/model.js'
import { serveHttp } from '../transport/http/serve.js'
import { loadServer } from './load.js'

/** What a generation tells its parent: its port or why it failed, and the files its module loaded. */
export type ChildMessage = ({ readonly ready: number } | { readonly failed: string }) & { readonly files: ReadonlyArray<string> }

const tell = (message: ChildMessage): Promise<void> =>
  new Promise((resolve) => (process.send === undefined ? resolve() : process.send(message, () => resolve())))

/** Starts recording the files loaded from now on; `files()` resolves once every one posted so far is read. */
const recordLoads = (): (() => Promise<ReadonlyArray<string>>) => {
  const seen = new Set<string>()
  // the hooks beside this file: the bundle's (cli-dev-hooks.js) or the compiled sources' (dev-hooks.js)
  const hooks = ['./cli-dev-hooks.js', './dev-hooks.js'].map((p) => new URL(p, import.meta.url)).find((u) => existsSync(fileURLToPath(u)))
  if (hooks === undefined) return () => Promise.resolve([])
  const { port1, port2 } = new MessageChannel()
  const flushed: Array<() => void> = []
  port1.on('message', (m: unknown) => {
    if (m === 'flushed') flushed.shift()?.()
    else if (typeof m === 'string') seen.add(m)
  })
  port1.unref()
  try {
    register(hooks, { data: { port: port2 }, transferList: [port2] })
  } catch {
    // no hooks (a runtime without them): the module's folder is still watched
    port1.close()
    return () => Promise.resolve([])
  }
  return async () => {
    await new Promise<void>((resolve) => {
      flushed.push(resolve)
      port1.postMessage('flush')
    })
    return [...seen].map((u) => fileURLToPath(u))
  }
}

const [modulePath, cwd] = process.argv.slice(2)
let running: RunningHttp | undefined
// the parent going away (Ctrl+C, a crash, a newer generation) ends this one, even mid-load
process.once('disconnect', () => void (running === undefined ? process.exit(0) : running.drain().then(() => process.exit(0))))
const files = recordLoads()
try {
  const server = await loadServer(modulePath, cwd ?? process.cwd())
  running = await serveHttp(server, { port: 0, host: '127.0.0.1', sessions: true })
  await tell({ ready: running.port, files: await files() })
} catch (e) {
  await tell({ failed: e instanceof Error ? e.message : String(e), files: await files() })
  process.exit(1)
}
