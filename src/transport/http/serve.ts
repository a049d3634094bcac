/**
 * `serveHttp`: a Node server on 127.0.0.1 (by default) running the chain at `/mcp`, with a
 * graceful drain on SIGTERM and SIGINT: requests in flight are answered, new ones get 503,
 * then the server closes and the process exits with code 0. A second signal ends the drain
 * at once.
 *
 * @example
 * import { serveHttp } from 'emcp/http'
 * const running = await serveHttp(server, { port: 3000 }) // http://127.0.0.1:3000/mcp
 * await running.drain()
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { AnyTool } from '../../contract/emcp.js'
import type { Server } from '../../server/server.js'
import { heldByLoader } from '../loading.js'
import { defaultDrainTimeoutMs, exitSoon, onShutdownSignal } from '../drain.js'
import type { RunningHttp, ServeHttpOptions } from './model.js'
import { toNodeListener } from './node.js'
import { playgroundRoutes } from './playground.js'
import { serverCardRoute } from './server-card.js'

// ---------------------------------------------------------------------------------------
// constructors

/** Serves `server` over HTTP on 127.0.0.1 (by default) at `/mcp`. */
export const serveHttp = <U extends AnyTool>(server: Server<U>, options: ServeHttpOptions = {}): Promise<RunningHttp> => {
  // a module loaded by the emcp command line serves through the command, not on a port of its own
  const held = heldByLoader(server as Server)
  if (held !== undefined) return held
  const host = options.host ?? '127.0.0.1'
  const path = options.path ?? '/mcp'
  // the playground's routes come first among the `use` steps: after the Host and Origin guards
  const playground = options.playground === undefined || options.playground === false ? [] : [playgroundRoutes({ ...(options.playground === true ? {} : options.playground), endpoint: path })]
  const card = options.serverCard === undefined || options.serverCard === false ? [] : [serverCardRoute(server.info, { ...(options.serverCard === true ? {} : options.serverCard), endpoint: path })]
  const listener = toNodeListener(server, { ...options, path, use: [...playground, ...card, ...(options.use ?? [])] })
  const node = createServer(listener)
  // `Expect: 100-continue`: the client is told to send its body only once the chain reads it
  node.on('checkContinue', listener.onCheckContinue)
  return new Promise((resolve, reject) => {
    node.once('error', reject)
    node.listen(options.port ?? 3000, host, () => {
      node.off('error', reject)
      const port = (node.address() as AddressInfo).port
      const shown = host.includes(':') ? `[${host}]` : host
      const close = (): Promise<void> =>
        new Promise<void>((done) => {
          stopListening()
          listener.sessions?.close()
          listener.endStreams()
          node.close(() => done())
          node.closeIdleConnections()
          // ended streams finish writing a moment later: their keep-alive connections then idle
          setImmediate(() => node.closeIdleConnections())
          setTimeout(() => node.closeIdleConnections(), 50).unref()
        })
      let draining: Promise<void> | undefined
      const drain = (): Promise<void> =>
        (draining ??= listener.drain(options.drainTimeoutMs ?? defaultDrainTimeoutMs).then((drained) => {
          // past the deadline, connections still waiting on a call are cut; streams that are
          // no call (a 2026 subscriptions/listen) get a second to end before they are cut too
          if (!drained) node.closeAllConnections()
          setTimeout(() => node.closeAllConnections(), 1_000).unref()
          return close()
        }))
      // a second signal ends the drain at once
      const onSignal = (): void => {
        if (draining === undefined) void drain().then(() => exitSoon())
        else {
          node.closeAllConnections()
          void close().then(() => exitSoon(0))
        }
      }
      const stopListening = (options.handleSignals ?? true) ? onShutdownSignal(onSignal) : () => {}
      resolve({ url: `http://${shown}:${port}${path}`, port, server: node, close, drain })
    })
  })
}
