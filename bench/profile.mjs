/**
 * A CPU profile of a benchmark server under the pipelined stdio load of `npm run bench`:
 * runs the server with `node --cpu-prof`, sends warm-up calls and then bursts of `tools/call
 * add` requests written at once, closes its input so that it exits and writes the profile,
 * and prints the functions with the most self time (and the time per category).
 *
 *   npm run build && node bench/profile.mjs                 # emcp, 20 bursts of 20,000 calls
 *   node bench/profile.mjs --server raw --bursts 10 --top 30
 *   node bench/profile.mjs --tools 2000                     # with 2000 filler tools
 *   node bench/profile.mjs --interval 50                    # sample every 50 µs (default 1000)
 *
 * The profile is written to bench/.work/profile/ (git-ignored); open it in Chrome DevTools.
 */
import { spawn } from 'node:child_process'
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const outDir = join(root, 'bench', '.work', 'profile')
const argv = process.argv.slice(2)
const flag = (name, d) => {
  const i = argv.indexOf(name)
  return i === -1 ? d : argv[i + 1]
}
const serverId = flag('--server', 'emcp')
const bursts = Number(flag('--bursts', 20))
const burstSize = Number(flag('--size', 20000))
const tools = Number(flag('--tools', 0))
const top = Number(flag('--top', 25))
const files = {
  emcp: ['dist/examples/bench.js', 'stdio'],
  sdk1: ['bench/servers/sdk1-stdio.mjs'],
  sdk2: ['bench/servers/sdk2-stdio.mjs'],
  raw: ['bench/servers/raw-stdio.mjs'],
  mount: ['bench/servers/emcp-mount.mjs', 'stdio'],
}
if (files[serverId] === undefined || !(bursts >= 1) || !(burstSize >= 1)) {
  console.error('usage: node bench/profile.mjs [--server emcp|mount|sdk1|sdk2|raw] [--bursts N] [--size N] [--tools N] [--top N] [--interval µs]')
  process.exit(2)
}

rmSync(outDir, { recursive: true, force: true })
mkdirSync(outDir, { recursive: true })
const child = spawn(process.execPath, ['--cpu-prof', `--cpu-prof-dir=${outDir}`, `--cpu-prof-interval=${flag('--interval', 1000)}`, ...files[serverId]], {
  cwd: root,
  env: { ...process.env, TOOLS: String(tools) },
  stdio: ['pipe', 'pipe', 'inherit'],
})
const killChild = () => {
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
}
process.on('exit', killChild)
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => process.exit(130))

let answered = 0
let waiter
let buf = ''
child.stdout.setEncoding('utf8')
child.stdout.on('data', (s) => {
  buf += s
  let nl
  while ((nl = buf.indexOf('\n')) !== -1) {
    buf = buf.slice(nl + 1)
    answered++
  }
  if (waiter !== undefined && answered >= waiter.n) {
    const w = waiter
    waiter = undefined
    w.resolve()
  }
})
const exited = new Promise((resolve) => child.once('exit', resolve))

let id = 1
const until = (n) => new Promise((resolve) => (answered >= n ? resolve() : (waiter = { n, resolve })))
child.stdin.write(
  `{"jsonrpc":"2.0","id":${id++},"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"profile","version":"1"}}}\n` +
    '{"jsonrpc":"2.0","method":"notifications/initialized"}\n',
)
await until(1)
const t0 = performance.now()
for (let b = 0; b < bursts; b++) {
  const lines = []
  for (let i = 0; i < burstSize; i++) lines.push(`{"jsonrpc":"2.0","id":${id++},"method":"tools/call","params":{"name":"add","arguments":{"a":${i},"b":1}}}\n`)
  child.stdin.write(lines.join(''))
  await until(id - 1)
}
const ms = performance.now() - t0
child.stdin.end()
const timer = setTimeout(killChild, 20000)
await exited
clearTimeout(timer)
console.log(`${serverId}: ${bursts} bursts of ${burstSize} calls, ${Math.round(((bursts * burstSize) / ms) * 1000)} calls/s overall`)

const file = readdirSync(outDir).find((f) => f.endsWith('.cpuprofile'))
if (file === undefined) {
  console.error('no profile was written (did the server exit on end of input?)')
  process.exit(1)
}
const profile = JSON.parse(readFileSync(join(outDir, file), 'utf8'))
const dt = new Map()
// time per sample: the gap to the next one
for (let i = 0; i < profile.samples.length; i++) {
  const gap = (profile.timeDeltas[i + 1] ?? 0) / 1000
  dt.set(profile.samples[i], (dt.get(profile.samples[i]) ?? 0) + gap)
}
const total = [...dt.values()].reduce((a, b) => a + b, 0)
const where = (cf) => {
  const url = cf.url.replace(`file://${root}/`, '').replace(root + '/', '')
  return url === '' ? '(native)' : `${url.replace(/^node_modules\//, '')}:${cf.lineNumber + 1}`
}
const byFunction = new Map()
const byCategory = new Map()
for (const node of profile.nodes) {
  const ms = dt.get(node.id) ?? 0
  if (ms === 0) continue
  const cf = node.callFrame
  const key = `${cf.functionName || '(anonymous)'}  ${where(cf)}`
  byFunction.set(key, (byFunction.get(key) ?? 0) + ms)
  const url = cf.url
  const category =
    cf.functionName === '(idle)' || cf.functionName === '(program)' || cf.functionName === '(garbage collector)'
      ? cf.functionName
      : url.includes('/dist/src/')
        ? 'emcp (dist/src)'
        : url.includes('/node_modules/')
          ? `node_modules/${url.split('/node_modules/')[1].split('/').slice(0, url.includes('/node_modules/@') ? 2 : 1).join('/')}`
          : url.startsWith('node:')
            ? 'node internals (node:*)'
            : url === ''
              ? 'native / builtins'
              : url.replace(`file://${root}/`, '')
  byCategory.set(category, (byCategory.get(category) ?? 0) + ms)
}
const pct = (x) => `${((x / total) * 100).toFixed(1).padStart(5)}%`
console.log(`\nprofile: ${(total / 1000).toFixed(2)} s sampled (bench/.work/profile/${file})\n\nself time by category:`)
for (const [k, v] of [...byCategory].sort((a, b) => b[1] - a[1])) console.log(`  ${pct(v)}  ${k}`)
console.log(`\ntop ${top} functions by self time:`)
for (const [k, v] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`  ${pct(v)}  ${(v).toFixed(0).padStart(6)} ms  ${k}`)
