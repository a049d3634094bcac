/**
 * The server's own CPU time per stdio call, and its startup, for builds or servers side by
 * side: each server runs in turn (interleaved rounds, medians), with a warm-up burst and then
 * a measured one of `tools/call add` requests written at once; the on-CPU time of the server
 * process's main thread and of all its threads comes from /proc/<pid>/task/<tid>/schedstat
 * (Linux), so the driver's own work is not in it and a loaded machine moves it less than
 * wall time. Old and new code in one run: give a copy of a previous build (a folder holding
 * its package.json and dist/) as one of the servers.
 *
 *   npm run build && node bench/stdio-cpu.mjs                           # emcp beside raw
 *   node bench/stdio-cpu.mjs --tools 2000 --rounds 7
 *   node bench/stdio-cpu.mjs --servers old=../old/dist/examples/bench.js,new=dist/examples/bench.js
 */
import { spawn } from 'node:child_process'
import { onCpu } from './on-cpu.mjs'

const argv = process.argv.slice(2)
const flag = (name, d) => {
  const i = argv.indexOf(name)
  return i === -1 ? d : argv[i + 1]
}
const rounds = Number(flag('--rounds', 5))
const calls = Number(flag('--calls', 40000))
const burst = Number(flag('--burst', 20000))
const tools = String(Number(flag('--tools', 0)))
const servers = Object.fromEntries(
  flag('--servers', 'emcp=dist/examples/bench.js,raw=bench/servers/raw-stdio.mjs')
    .split(',')
    .map((s) => s.split('=')),
)
if (!(rounds >= 1 && calls >= 1 && burst >= 1) || Object.values(servers).some((f) => f === undefined)) {
  console.error('usage: node bench/stdio-cpu.mjs [--rounds N] [--calls N] [--burst N] [--tools N] [--servers name=file,...]')
  process.exit(2)
}

const init =
  '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"cpu","version":"1"}}}\n' +
  '{"jsonrpc":"2.0","method":"notifications/initialized"}\n'
const call = (id) => `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"add","arguments":{"a":${id},"b":1}}}\n`

/** One server process: startup, then a warm-up and a measured load. */
const sample = async (file) => {
  const t0 = performance.now()
  const child = spawn(process.execPath, [file, 'stdio'], { stdio: ['pipe', 'pipe', 'inherit'], env: { ...process.env, TOOLS: tools } })
  let answered = 0
  let waiter
  child.stdout.setEncoding('utf8').on('data', (s) => {
    for (let i = s.indexOf('\n'); i !== -1; i = s.indexOf('\n', i + 1)) answered++
    if (waiter !== undefined && answered >= waiter.n) {
      const w = waiter
      waiter = undefined
      w.resolve()
    }
  })
  const until = (n) => new Promise((resolve) => (answered >= n ? resolve() : (waiter = { n, resolve })))
  const exited = new Promise((resolve) => child.once('exit', resolve))
  child.stdin.write(init)
  await until(1)
  const startupMs = performance.now() - t0
  const startCpuMs = onCpu(child.pid).all / 1e6
  let id = 1
  const load = async (n) => {
    const end = id + n
    while (id < end) {
      const lines = []
      for (let i = 0; i < burst && id < end; i++) lines.push(call(id++))
      child.stdin.write(lines.join(''))
      await until(id)
    }
  }
  await load(calls)
  const c0 = onCpu(child.pid)
  const t1 = performance.now()
  await load(calls)
  const t2 = performance.now()
  const c1 = onCpu(child.pid)
  child.stdin.end()
  await exited
  return { startupMs, startCpuMs, mainNs: (c1.main - c0.main) / calls, allNs: (c1.all - c0.all) / calls, callsPerS: calls / ((t2 - t1) / 1000) }
}

const samples = Object.fromEntries(Object.keys(servers).map((k) => [k, []]))
for (let r = 0; r < rounds; r++) for (const [name, file] of Object.entries(servers)) samples[name].push(await sample(file))
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
console.log(`tools=${tools}, ${rounds} rounds, ${calls} calls measured in bursts of ${burst} (medians)`)
for (const [name, xs] of Object.entries(samples)) {
  const m = (key) => median(xs.map((x) => x[key]))
  console.log(
    `${name.padEnd(8)} startup ${m('startupMs').toFixed(1)} ms (CPU ${m('startCpuMs').toFixed(1)} ms)   ` +
      `per call: main thread ${m('mainNs').toFixed(0)} ns, all threads ${m('allNs').toFixed(0)} ns   ${Math.round(m('callsPerS'))} calls/s`,
  )
}
