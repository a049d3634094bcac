/**
 * An interleaved in-process A/B of a mount: the benchmark server (add plus TOOLS filler tools,
 * examples/bench.ts) served alone (A) and mounted whole into another (B), each driven through
 * its own `dispatchText` in this one process (the path a stdio line takes: parse, route,
 * answer, encode; no pipe, no child): tools/call add, and
 * tools/list, in alternating rounds (A B A B ...), so that a loaded machine slows both alike.
 * Prints calls/s per round and the median ratio B / A. Run after `npm run build`:
 *
 *   node bench/mount-ab.mjs                    # TOOLS=2000, 7 rounds of 20,000 calls and 2,000 lists
 *   TOOLS=50 ROUNDS=5 node bench/mount-ab.mjs
 */
import { performance } from 'node:perf_hooks'
import { mount, newSession } from 'emcp'
import { benchServer } from '../dist/examples/bench.js'

const tools = Number(process.env.TOOLS ?? 2000)
const rounds = Number(process.env.ROUNDS ?? 7)
const calls = Number(process.env.CALLS ?? 20_000)
const lists = Number(process.env.LISTS ?? 2_000)

const alone = benchServer(tools)
const mounted = mount([benchServer(tools)], { name: 'bench', version: '1.0.0' })

const initialize = { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'ab', version: '1' } } }
const call = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'add', arguments: { a: 1, b: 2 } } }
const list = { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} }

/** Per second of `n` sequential dispatches of `message` (as a line of text) to `server` on `session`. */
const rate = async (server, session, message, n) => {
  const line = JSON.stringify(message)
  const t0 = performance.now()
  for (let i = 0; i < n; i++) await server.dispatchText(line, session)()
  return (n / (performance.now() - t0)) * 1000
}

const sessionOf = async (server) => {
  const s = newSession()
  await server.dispatch(initialize, s)()
  return s
}
const sessions = [await sessionOf(alone), await sessionOf(mounted)]
// warm-up: both paths compiled before the first measured round
for (const [i, server] of [alone, mounted].entries()) {
  await rate(server, sessions[i], call, calls / 4)
  await rate(server, sessions[i], list, lists / 4)
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
const ratios = { call: [], list: [] }
for (let r = 1; r <= rounds; r++) {
  const a = { call: await rate(alone, sessions[0], call, calls), list: await rate(alone, sessions[0], list, lists) }
  const b = { call: await rate(mounted, sessions[1], call, calls), list: await rate(mounted, sessions[1], list, lists) }
  for (const k of ['call', 'list']) ratios[k].push(b[k] / a[k])
  console.log(
    `round ${r}: tools/call alone ${a.call.toFixed(0)}/s mounted ${b.call.toFixed(0)}/s (${(b.call / a.call).toFixed(2)}x); ` +
      `tools/list alone ${a.list.toFixed(0)}/s mounted ${b.list.toFixed(0)}/s (${(b.list / a.list).toFixed(2)}x)`,
  )
}
console.log(`TOOLS=${tools}: median mounted / alone: tools/call ${median(ratios.call).toFixed(2)}x, tools/list ${median(ratios.list).toFixed(2)}x`)
