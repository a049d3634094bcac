#!/usr/bin/env node
/**
 * The server's own cost of a zod tool beside the same tool as a JSON Schema literal: `add`
 * (the runtime bench's contract, bench/servers/contract.mjs) served twice in one process,
 * once with the literal and once with SDK v1's zod schemas (raw shapes, as it takes them), each called
 * through `dispatchText` (no transport: what is left is validation, the handler and the
 * result), in rounds that alternate the two, timed by the process's CPU time (which moves
 * less than the clock when other processes compete for the cores). Both eras: 2025-11-25
 * after an `initialize`, 2026-07-28 with `_meta` on each request.
 *
 *   npm run build && node bench/zod-calls.mjs                  # 20 000 calls a round, 7 rounds, both
 *   node bench/zod-calls.mjs --calls 50000 --rounds 9
 *   valgrind --tool=callgrind --callgrind-out-file=/dev/null node bench/zod-calls.mjs --only zod --rounds 1
 *                                                              # instructions, steady on a busy machine:
 *                                                              # run --only literal and --only zod at two
 *                                                              # --calls and divide the differences
 */
import { parseArgs } from 'node:util'
import { emcp, mcpServer, newSession } from '../dist/bundle/index.js'
import * as z from 'zod'
import { add } from './servers/contract.mjs'

const { values } = parseArgs({ options: { calls: { type: 'string', default: '20000' }, rounds: { type: 'string', default: '7' }, only: { type: 'string' }, era: { type: 'string', default: '2025-11-25' } } })
const calls = Number(values.calls)
const rounds = Number(values.rounds)
const era = values.era
if (!(calls > 0 && rounds > 0) || !['2025-11-25', '2026-07-28'].includes(era) || ![undefined, 'literal', 'zod'].includes(values.only)) {
  console.error('usage: node bench/zod-calls.mjs [--calls N] [--rounds N] [--era 2025-11-25|2026-07-28] [--only literal|zod]')
  process.exit(2)
}

const tools = {
  literal: emcp({ name: 'add', description: add.description, input: add.inputSchema, output: add.outputSchema }),
  // the SDK v1 server's schemas, as bench/servers/emcp-zod.mjs passes them: raw shapes
  zod: emcp({ name: 'add', description: add.description, input: { a: z.number().describe('First addend'), b: z.number().describe('Second addend') }, output: { sum: z.number() } }),
}
const servers = Object.fromEntries(Object.entries(tools).map(([k, t]) => [k, mcpServer([t], { name: 'bench', version: '1.0.0' }).implement({ add: ({ a, b }) => ({ sum: a + b }) })]))

const meta = { 'io.modelcontextprotocol/protocolVersion': era, 'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': {} }
const sessions = {}
for (const [k, s] of Object.entries(servers)) {
  sessions[k] = newSession(era)
  if (era !== '2025-11-25') continue
  await s.dispatchText(JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: era, capabilities: {}, clientInfo: { name: 'bench', version: '1' } } }), sessions[k])()
  await s.dispatchText('{"jsonrpc":"2.0","method":"notifications/initialized"}', sessions[k])()
}
const request = (i) => JSON.stringify({ jsonrpc: '2.0', id: i, method: 'tools/call', params: { name: 'add', arguments: { a: i, b: 2 }, ...(era === '2025-11-25' ? {} : { _meta: meta }) } })
const call = (k, i) => servers[k].dispatchText(request(i), sessions[k])()

// both answer the same, or the comparison means nothing
for (const k of Object.keys(servers)) {
  const answer = JSON.parse((await call(k, 1)).value)
  if (answer.result?.structuredContent?.sum !== 3) throw new Error(`${k}: unexpected answer ${JSON.stringify(answer)}`)
}

const perSecond = { literal: [], zod: [] }
const order = values.only === undefined ? ['literal', 'zod'] : [values.only]
for (let r = 0; r < rounds; r++)
  for (const k of r % 2 === 0 ? order : [...order].reverse()) {
    const before = process.cpuUsage()
    for (let i = 0; i < calls; i++) await call(k, i)
    const used = process.cpuUsage(before)
    perSecond[k].push(calls / ((used.user + used.system) / 1e6))
  }
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
const line = order.map((k) => `${k} ${Math.round(median(perSecond[k]))} calls per CPU second`).join(', ')
const ratio = values.only === undefined ? `; zod / literal ${(median(perSecond.zod) / median(perSecond.literal)).toFixed(2)}x (target >= 0.9x)` : ''
console.log(`${era}, ${rounds} rounds of ${calls} calls: ${line}${ratio}`)
