/**
 * `npm start`: the demos on one port of 127.0.0.1. The calculator at `/mcp` (stateless, as
 * before) and the PGlite-backed store at `/store/mcp` (stateful, bearer tokens: the demo
 * token gives the role `customer`, which `place_order` requires).
 *
 *   node dist/examples/start.js [--port 3000]
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { toNodeListener } from 'emcp/http'
import { calculator } from './calculator.js'
import { portOf, runMain } from './main.js'
import { demoToken, openStore, verifyDemoToken } from './store.js'

const usage = `npm start: the calculator at /mcp and the PGlite store at /store/mcp, on 127.0.0.1.

  node dist/examples/start.js [--port 3000]`

runMain(import.meta.url, { usage, options: { port: { type: 'string' } } }, async ({ port }) => {
  const store = await openStore()
  const calc = toNodeListener(calculator, { path: '/mcp' })
  const shop = toNodeListener(store.server, { path: '/store/mcp', sessions: true, auth: { verify: verifyDemoToken } })
  const node = createServer((req, res) => ((req.url ?? '/').startsWith('/store/') ? shop(req, res) : calc(req, res)))
  await new Promise<void>((resolve, reject) => {
    node.once('error', reject)
    node.listen(portOf(port, 3000), '127.0.0.1', resolve)
  })
  const base = `http://127.0.0.1:${(node.address() as AddressInfo).port}`
  console.log(`calculator MCP server: ${base}/mcp (stateless)
store MCP server:      ${base}/store/mcp (stateful; PGlite in memory)
  demo bearer token:   ${demoToken}   (role customer: place_order, my_orders)

Try them with the MCP Inspector:
  npx @modelcontextprotocol/inspector --transport http --server-url ${base}/mcp
  npx @modelcontextprotocol/inspector --transport http --server-url ${base}/store/mcp

Press Ctrl+C to stop.`)
  // SIGTERM or SIGINT: as serveHttp does, the calls in flight are answered while new requests
  // get 503; then the sessions end and the process exits with 0 (a second signal: at once)
  const drainTimeoutMs = Number(process.env.DRAIN_TIMEOUT_MS ?? 10_000)
  let draining = false
  const stop = (): void => {
    if (draining) {
      node.closeAllConnections()
      process.exit(0)
    }
    draining = true
    void Promise.all([calc.drain(drainTimeoutMs), shop.drain(drainTimeoutMs)]).then((drained) => {
      // past the deadline, connections still waiting on a call are cut
      if (!drained.every(Boolean)) node.closeAllConnections()
      node.close(() => process.exit(0))
      node.closeIdleConnections()
      setTimeout(() => process.exit(0), 1_000).unref()
    })
  }
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
  // `npm start` runs this under a shell that does not pass signals on: a SIGTERM or SIGINT sent
  // to npm ends npm and that shell, not this process. Their going away asks for the same stop.
  // Node has no event for a parent's exit, so it is looked for four times a second.
  const parent = process.ppid
  const orphaned = setInterval(() => {
    if (process.ppid === parent && alive(parent)) return
    clearInterval(orphaned)
    stop()
  }, 250)
  orphaned.unref()
})

/** Whether a process still exists (signal 0 tests without sending anything). */
const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
    return true
  } catch (e) {
    // EPERM: it exists, under another user
    return (e as { code?: string }).code === 'EPERM'
  }
}
