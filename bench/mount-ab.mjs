/**
 * An interleaved in-process A/B of a mount: the benchmark server (add plus TOOLS filler tools,
 * examples/bench.ts) served alone (A) and mounted whole into another (B), each driven through
 * its own `answerLine` (the path a stdio line takes: parse, route, answer, encode; no pipe,
 * no child) in this one process: tools/call add and tools/list, in short blocks that
 * alternate A B B A, so that a loaded machine slows both alike. Each block is timed twice:
 * wall time, and this process's CPU time, which a shared machine moves far less. Prints per round the calls
 * per second and the CPU nanoseconds per call, and the medians of the ratios B / A (calls/s)
 * and A / B (CPU per call), so that 1 or above means the mount costs no more than the part. Run after
 * `npm run build`:
 *
 *   node bench/mount-ab.mjs                    # TOOLS=2000, 15 rounds of 4 blocks of 5,000 calls and 5,000 lists
 *   TOOLS=10 ROUNDS=21 node bench/mount-ab.mjs
 *   ERA=2026-07-28 TOOLS=10 node bench/mount-ab.mjs   # each request carries the 2026-07-28 _meta
 *   NAMESPACE=calc TOOLS=10 node bench/mount-ab.mjs   # mounted under a namespace: calc_add, renamed per call
 *   FLIP=1 TOOLS=10 node bench/mount-ab.mjs           # another session of the mount has a switch (disableFor)
 */
import { performance } from 'node:perf_hooks'
import { mount, mounted as mounted_, newSession } from 'emcp'
import { benchServer } from '../dist/examples/bench.js'

const tools = Number(process.env.TOOLS ?? 2000)
const rounds = Number(process.env.ROUNDS ?? 15)
const calls = Number(process.env.CALLS ?? 5_000)
const lists = Number(process.env.LISTS ?? 5_000)
const era = process.env.ERA ?? '2025-11-25'

const alone = benchServer(tools)
// NAMESPACE=calc: the part mounted under a namespace, its tool called as calc_add (a renamed request per call)
const namespace = process.env.NAMESPACE ?? ''
const mounted = mount([namespace === '' ? benchServer(tools) : mounted_(benchServer(tools), namespace)], { name: 'bench', version: '1.0.0' })
const wholeName = namespace === '' ? 'add' : `${namespace}_add`

const modern = era === '2026-07-28'
const meta = { 'io.modelcontextprotocol/protocolVersion': era, 'io.modelcontextprotocol/clientCapabilities': {}, 'io.modelcontextprotocol/clientInfo': { name: 'ab', version: '1' } }
const withMeta = (params) => (modern ? { ...params, _meta: meta } : params)
const initialize = { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: era, capabilities: {}, clientInfo: { name: 'ab', version: '1' } } }
const callOf = (name) => JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: withMeta({ name, arguments: { a: 1, b: 2 } }) })
const list = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: withMeta({}) })

// the process's CPU time (getrusage: current to the microsecond, unlike a running thread's
// schedstat); in this one process it is the main thread's work and the GC's
const cpuNs = () => {
  const u = process.cpuUsage()
  return (u.user + u.system) * 1000
}

/** `n` sequential answers of `line` by `server` on `session`: calls per second and CPU ns per call. */
const measure = async (answer, session, line, n) => {
  const c0 = cpuNs()
  const t0 = performance.now()
  for (let i = 0; i < n; i++) {
    const out = answer(line, session)
    if (typeof out?.then === 'function') await out
  }
  const t1 = performance.now()
  const c1 = cpuNs()
  return { rate: (n / (t1 - t0)) * 1000, cpu: (c1 - c0) / n }
}

/** The stdio transport's way in: the server's answerLine (through answerText when not exposed). */
const answerOf = (server) => (line, session) => server.answerText(line, session)
const sessionOf = async (server) => {
  const s = newSession()
  if (!modern) {
    await server.dispatch(initialize, s)()
    await server.dispatch({ jsonrpc: '2.0', method: 'notifications/initialized' }, s)()
  }
  return s
}
// FLIP=1: a switch for another session, which the measured session's calls and lists must not pay for
if (process.env.FLIP === '1') mounted.disableFor(await sessionOf(mounted), wholeName)
const sides = [
  { server: alone, session: await sessionOf(alone), call: callOf('add') },
  { server: mounted, session: await sessionOf(mounted), call: callOf(wholeName) },
].map((s) => ({ ...s, answer: answerOf(s.server) }))
// the answers are right before anything is timed
for (const s of sides) {
  const out = await s.answer(s.call, s.session)
  if (!String(out?.value ?? out).includes('"sum":3')) throw new Error(`unexpected answer: ${JSON.stringify(out)}`)
}
// warm-up: both paths compiled before the first measured round
for (let i = 0; i < 4; i++)
  for (const s of sides) {
    await measure(s.answer, s.session, s.call, calls)
    await measure(s.answer, s.session, list, lists)
  }

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
const ratios = { callRate: [], callCpu: [], listRate: [], listCpu: [] }
for (let r = 1; r <= rounds; r++) {
  // A B B A: each side as often first as last in a round
  const got = [[], []]
  for (const i of [0, 1, 1, 0]) {
    const s = sides[i]
    got[i].push({ call: await measure(s.answer, s.session, s.call, calls), list: await measure(s.answer, s.session, list, lists) })
  }
  const [a, b] = got.map((xs) => ({
    call: { rate: (xs[0].call.rate + xs[1].call.rate) / 2, cpu: (xs[0].call.cpu + xs[1].call.cpu) / 2 },
    list: { rate: (xs[0].list.rate + xs[1].list.rate) / 2, cpu: (xs[0].list.cpu + xs[1].list.cpu) / 2 },
  }))
  ratios.callRate.push(b.call.rate / a.call.rate)
  ratios.callCpu.push(a.call.cpu / b.call.cpu)
  ratios.listRate.push(b.list.rate / a.list.rate)
  ratios.listCpu.push(a.list.cpu / b.list.cpu)
  console.log(
    `round ${r}: tools/call alone ${a.call.rate.toFixed(0)}/s ${a.call.cpu.toFixed(0)} ns, mounted ${b.call.rate.toFixed(0)}/s ${b.call.cpu.toFixed(0)} ns; ` +
      `tools/list alone ${a.list.rate.toFixed(0)}/s ${a.list.cpu.toFixed(0)} ns, mounted ${b.list.rate.toFixed(0)}/s ${b.list.cpu.toFixed(0)} ns`,
  )
}
const x = (k) => `${median(ratios[k]).toFixed(2)}x`
console.log(
  `TOOLS=${tools} ${era}${namespace === '' ? '' : ` NAMESPACE=${namespace}`}${process.env.FLIP === '1' ? ' FLIP=1' : ''}: median mounted / alone: tools/call ${x('callRate')} calls/s, ${x('callCpu')} by CPU per call; ` +
    `tools/list ${x('listRate')} lists/s, ${x('listCpu')} by CPU per list`,
)
