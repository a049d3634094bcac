/**
 * A module loaded by a tool (the `emcp` command line) may serve its server at top level,
 * `await serveStdio(server)`, as a module run with `node` does. While such a load is under
 * way, `serveStdio` and `serveHttp` hand the server to the loader instead of serving it, and
 * their promise stays pending, so the module never takes stdin, a port or the signals from
 * the command that loaded it. The mark lives on `globalThis` under a registered symbol, so
 * that every copy of emcp in the process (a bundle, the sources) sees the same one.
 *
 * @example
 * import { loadingServers } from './loading.js'
 * const loaded = await loadingServers(() => import('./server.js'))
 * // { value: the module } or, when it served at top level, { served: the server }
 */
import type { Server } from '../server/server.js'

/** What a load resolves to: the import's value, or the server the module served at top level. */
export type Loaded<A> = { readonly value: A } | { readonly served: Server }

interface Loading {
  readonly served: (server: Server) => void
}

const mark = Symbol.for('emcp.loading-module')

const current = (): Loading | undefined => (globalThis as { [mark]?: Loading })[mark]

/**
 * Inside a transport's serve function: while a loader runs, tells it the server and returns
 * a promise that never settles (the module's top-level await stays parked); otherwise undefined.
 */
export const heldByLoader = (server: Server): Promise<never> | undefined => {
  const loading = current()
  if (loading === undefined) return undefined
  loading.served(server)
  return new Promise<never>(() => {})
}

/** Runs `load` (an import) with the mark set; settles with its value, or with the first server served meanwhile. */
export const loadingServers = async <A>(load: () => Promise<A>): Promise<Loaded<A>> => {
  const outer = current()
  // the executor runs at once: the mark is set with this load's resolve before `load` starts
  const serving = new Promise<Loaded<A>>((resolve) => {
    ;(globalThis as { [mark]?: Loading })[mark] = { served: (server) => resolve({ served: server }) }
  })
  try {
    return await Promise.race([load().then((value) => ({ value })), serving])
  } finally {
    ;(globalThis as { [mark]?: Loading })[mark] = outer
  }
}
