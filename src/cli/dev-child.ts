/**
 * One generation of `emcp dev`: a child process that imports the module afresh (a new
 * process is a new ES module cache, so the module and everything it imports load again),
 * serves it over stateful HTTP on a free loopback port, and tells its parent over IPC:
 * `{ ready: port }` or `{ failed: message }`. The parent proxies to it and ends it when the
 * next generation is ready.
 *
 * @example
 * // fork(new URL('./cli-dev-child.js', import.meta.url), ['dist/examples/calculator.js'])
 */
import type { RunningHttp } from '../transport/http/model.js'
import { serveHttp } from '../transport/http/serve.js'
import { loadServer } from './load.js'

/** What a generation tells its parent. */
export type ChildMessage = { readonly ready: number } | { readonly failed: string }

const tell = (message: ChildMessage): Promise<void> =>
  new Promise((resolve) => (process.send === undefined ? resolve() : process.send(message, () => resolve())))

const [modulePath, cwd] = process.argv.slice(2)
let running: RunningHttp | undefined
// the parent going away (Ctrl+C, a crash, a newer generation) ends this one, even mid-load
process.once('disconnect', () => void (running === undefined ? process.exit(0) : running.drain().then(() => process.exit(0))))
try {
  const server = await loadServer(modulePath, cwd ?? process.cwd())
  running = await serveHttp(server, { port: 0, host: '127.0.0.1', sessions: true })
  await tell({ ready: running.port })
} catch (e) {
  await tell({ failed: e instanceof Error ? e.message : String(e) })
  process.exit(1)
}
