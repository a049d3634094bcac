/**
 * The scaling benchmark server: tool `add` of the benchmark contract over HTTP on
 * 127.0.0.1:$PORT/mcp, through the package's own entry points, in the shape one cell asks for:
 *
 *   SESSIONS=1        stateful (2025-11-25 sessions); JSON_WITHIN_MS sets `jsonWithinMs` (0: every call on SSE)
 *   EMCP_STORE=url    the shared store of examples/shared-store.ts (redis://… or postgres://…);
 *                     `memory`: a `memoryStore()` given as `options.store`, as replicas in one process share one
 *   LEASE_MS=n        `sessions.leaseMs` (on a given store: how long a session is served without asking the store again)
 *   WORKERS=n         n `node:cluster` workers sharing the port (0 or absent: this process serves)
 *
 * It prints `listening` on stderr once every worker listens.
 */
import cluster from 'node:cluster'
import { emcp, mcpServer, memoryStore } from 'emcp'
import { serveHttp } from 'emcp/http'
import { storeFromUrl } from '../../dist/examples/shared-store.js'
import { add } from './contract.mjs'

const workers = Number(process.env.WORKERS ?? 0)

if (workers > 0 && cluster.isPrimary) {
  let listening = 0
  for (let i = 0; i < workers; i++) cluster.fork()
  cluster.on('listening', () => {
    if (++listening === workers) console.error('listening')
  })
  cluster.on('exit', () => process.exit(1))
} else {
  // a worker whose primary is gone ends too
  if (cluster.isWorker) process.on('disconnect', () => process.exit(0))
  const store = process.env.EMCP_STORE === 'memory' ? memoryStore() : await storeFromUrl(process.env.EMCP_STORE)
  const tool = emcp({ name: add.name, title: add.title, description: add.description, input: add.inputSchema, output: add.outputSchema, annotations: add.annotations })
  const server = mcpServer([tool], { name: 'bench', version: '1.0.0' }, store === undefined ? {} : { store }).implement({ add: ({ a, b }) => ({ sum: a + b }) })
  const lease = process.env.LEASE_MS === undefined ? {} : { leaseMs: Number(process.env.LEASE_MS) }
  const sessions = process.env.SESSIONS === '1' ? { jsonWithinMs: Number(process.env.JSON_WITHIN_MS ?? 5), maxSessionsPerCaller: 0, ...lease } : undefined
  await serveHttp(server, { port: Number(process.env.PORT ?? 3000), handleSignals: false, ...(sessions === undefined ? {} : { sessions }) })
  if (workers === 0) console.error('listening')
}
