/**
 * The conformance server: every tool that the official MCP conformance suite
 * (`@modelcontextprotocol/conformance`, server scenarios) calls, written with emcp. Each tool
 * does exactly what its scenario expects; docs/conformance.md lists the scenarios, what each
 * one checks, and which pass today. The server itself is in everything-server.ts (it imports
 * only `emcp`, so Deno, Bun and workerd serve it too: examples/runtimes/); this file adds the
 * environment's keys and store, and the Node transports.
 *
 *   PORT=3000 node dist/examples/everything.js     # HTTP on http://127.0.0.1:3000/mcp
 *   node dist/examples/everything.js --stdio       # the same server over stdio
 *
 * `npm run conformance` builds this file, serves it on a free port and runs the suite
 * against it. Logging, progress, sampling and elicitation need a channel to the client:
 * stdio has one; over HTTP they need a session with a stream (stateless HTTP has none).
 *
 * `EMCP_REQUEST_STATE_KEYS` (comma-separated, the first signs, all verify) shares and rotates
 * the 2026-07-28 `requestState` keys between processes; without it each process has its own.
 * `EMCP_STORE` makes the process one replica of many: `redis://…`/`rediss://…` (emcp/redis) or
 * `postgres://…`/`postgresql://…` (emcp/postgres-store), the same value for every replica; any
 * other value stops it at start with one line and exit code 1. Without it, it is one process
 * with its state in memory, as the conformance suite runs it.
 *
 *   EMCP_STORE=redis://127.0.0.1:6379 EMCP_REQUEST_STATE_KEYS=k1-of-16-bytes-or-more PORT=3001 node dist/examples/everything.js
 */
import { requestStateKeysFrom } from 'emcp'
import { serveHttp } from 'emcp/http'
import { serveStdio } from 'emcp/stdio'
import { everythingServer } from './everything-server.js'
import { isMain, portOf, runMain } from './main.js'
import { storeFromUrl } from './shared-store.js'

export * from './everything-server.js'

/** The rotating requestState keys from `EMCP_REQUEST_STATE_KEYS`; as a program, an empty item ends it with one line and exit 1. */
const requestStateKeys = ((): ReturnType<typeof requestStateKeysFrom> => {
  try {
    return requestStateKeysFrom(process.env.EMCP_REQUEST_STATE_KEYS)
  } catch (e) {
    if (!isMain(import.meta.url)) throw e
    process.stderr.write(`everything: ${e instanceof Error ? e.message : String(e)}\n`)
    process.exit(1)
  }
})()

/** The replicas' shared store from `EMCP_STORE`, or undefined (this process's memory); as a program, a bad value ends it with one line and exit 1. */
const store = await storeFromUrl(process.env.EMCP_STORE, requestStateKeys, process.env.EMCP_STORE_NAMESPACE).catch((e: unknown) => {
  if (!isMain(import.meta.url)) throw e
  process.stderr.write(`everything: ${e instanceof Error ? e.message : String(e)}\n`)
  process.exit(1)
})

/** The conformance server of this process, with its keys and store. */
export const everything = everythingServer({ requestStateKeys, store })

export default everything

// ---------------------------------------------------------------------------------------
// run

const usage = `The everything server: every feature of both eras, for the conformance suites.

  PORT=3000 node dist/examples/everything.js     over HTTP on http://127.0.0.1:3000/mcp
  node dist/examples/everything.js --stdio       the same server over stdio`

runMain(import.meta.url, { usage, options: { stdio: { type: 'boolean' } } }, async ({ stdio }) => {
  if (stdio === true) {
    await serveStdio(everything)
    return
  }
  const port = portOf(process.env.PORT, 3000, 'PORT')
  const running = await serveHttp(everything, { port, host: '127.0.0.1', sessions: true })
  console.log(`everything MCP server listening on ${running.url}`)
  // on SIGTERM or SIGINT, serveHttp answers the calls in flight, refuses new ones (503), then exits with 0
})
