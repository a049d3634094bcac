/**
 * The everything example on Deno or Bun: `Deno.serve` or `Bun.serve` with emcp's fetch
 * handler, from the same file. Both keep a process alive between requests, so besides the
 * stateless endpoint (`--stateless`) this serves stateful 2025-11-25 sessions with their SSE
 * streams (the default), and 2026-07-28 requests either way.
 *
 *   deno run --allow-net --allow-env examples/runtimes/serve.ts --port 3000
 *   bun examples/runtimes/serve.ts --port 3000 --stateless
 *
 * It prints one line, `listening on http://127.0.0.1:<port>/mcp`, once it serves (`--port 0`
 * picks a free port).
 *
 * @example
 * // deno run --allow-net examples/runtimes/serve.ts --port 0
 */
import { toFetchHandler, type FetchHandler } from 'emcp/fetch'
import { everythingServer } from '../everything-server.js'

/** The two runtimes' serve calls, as far as this file uses them. */
declare const Deno:
  | { readonly args: ReadonlyArray<string>; readonly serve: (options: { port: number; hostname: string; onListen: (a: { port: number }) => void }, handler: FetchHandler) => unknown }
  | undefined
declare const Bun:
  | { readonly argv: ReadonlyArray<string>; readonly serve: (options: { port: number; hostname: string; idleTimeout: number; fetch: FetchHandler }) => { readonly port: number } }
  | undefined

const args = typeof Deno !== 'undefined' ? Deno.args : typeof Bun !== 'undefined' ? Bun.argv.slice(2) : []
const portAt = args.indexOf('--port')
const port = portAt >= 0 ? Number(args[portAt + 1]) : 3000
if (!Number.isInteger(port) || port < 0 || port > 65535) throw new TypeError(`--port must be a port number, got ${String(args[portAt + 1])}`)

const handler = toFetchHandler(everythingServer(), { path: '/mcp', sessions: !args.includes('--stateless') })
const say = (p: number): void => console.log(`listening on http://127.0.0.1:${p}/mcp`)

if (typeof Deno !== 'undefined') Deno.serve({ port, hostname: '127.0.0.1', onListen: ({ port }) => say(port) }, handler)
// Bun ends a connection idle for 10 s by default: an SSE stream may be quiet longer (255 is its most)
else if (typeof Bun !== 'undefined') say(Bun.serve({ port, hostname: '127.0.0.1', idleTimeout: 255, fetch: handler }).port)
else throw new Error('examples/runtimes/serve.ts runs on Deno or Bun; on Node, use examples/everything.ts')
