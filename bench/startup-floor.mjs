/**
 * The floor under the start of a server with many tools: how fast the stdio bench example
 * could start if `emcp()` checked nothing. Four starts are timed, spawn to first answered
 * `ping`, in interleaved rounds whose order turns by one each round (so that none of them
 * always runs first, which measured 2 to 4 ms faster on a 2-core machine):
 *
 * - the example, as built (from a copy of the package beside the two below, so that all three
 *   start from the same kind of folder);
 * - the same example on a copy of the package whose `emcp()` makes each contract with no
 *   schema check at all: the definition's fields copied (its own copy function), the literal
 *   published as it is, frozen and marked made. Everything else is the build's own: the code
 *   cache, `mcpServer`, `implement`, stdio. No `emcp()` that checks its contracts can start
 *   faster than this;
 * - a second copy whose `emcp()` does even less: one object literal of the three fields the
 *   example's definitions have (no copy loop, so it would be wrong for any other definition),
 *   frozen and marked made: the floor of the floor;
 * - the raw loop with the same tool list (bench/servers/raw-stdio.mjs).
 *
 * It is evidence for a question a target raises ("can this be met while contracts are checked
 * when they are made?"), not a target of its own. Stdio pipes only, bounded in rounds, each
 * start killed after its first answer (or after 30 s). The copies under bench/.work are removed
 * when it ends, whether it ends well, on an error, or on Ctrl-C.
 *
 *   npm run build && node bench/startup-floor.mjs           # 2000 tools, 40 rounds
 *   node bench/startup-floor.mjs --tools 0 --rounds 30
 */
import { spawn } from 'node:child_process'
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const work = join(root, 'bench', '.work', 'startup-floor')
const usage = 'usage: node bench/startup-floor.mjs [--tools 0..10000] [--rounds 1..500]\n'
/** The options, or the usage and exit 2 for anything else (exit 0 for --help). */
const parsed = (() => {
  try {
    return parseArgs({ options: { tools: { type: 'string', default: '2000' }, rounds: { type: 'string', default: '40' }, help: { type: 'boolean', short: 'h' } } }).values
  } catch (e) {
    process.stderr.write(`${e.message}\n${usage}`)
    process.exit(2)
  }
})()
if (parsed.help) {
  process.stdout.write(usage)
  process.exit(0)
}
/** A count in decimal digits within [min, max], or the usage and exit 2 naming the option (Number() would take '', ' 5', '1e3' and '0x10'). */
const count = (option, min, max) => {
  const text = parsed[option]
  const n = /^\d{1,6}$/.test(text) ? Number(text) : NaN
  if (n >= min && n <= max) return n
  process.stderr.write(`--${option} ${JSON.stringify(text)}: expected a whole number from ${min} to ${max}\n${usage}`)
  process.exit(2)
}
const tools = count('tools', 0, 10000)
const rounds = count('rounds', 1, 500)

/** The bodies `emcp()` gets in the copies (the names are the core's own): its copy of the fields, or a literal of the example's three; either way the literal published as it is, frozen and marked made. */
const bodies = {
  unchecked: 'const{input:i,output:o,claims:c,...t}=def;t.inputSchema=i;t.input=i;return markMade(Object.freeze(t),"error",!0);',
  literal: 'return markMade(Object.freeze({name:def.name,description:def.description,inputSchema:def.input,input:def.input}),"error",!0);',
}

/** A copy of the built package (package.json, dist, a link to node_modules) in `dir`, whose core's `emcp()` runs `body` and returns (with no body, as built). */
const copyWith = (dir, body) => {
  mkdirSync(dir, { recursive: true })
  cpSync(join(root, 'package.json'), join(dir, 'package.json'))
  cpSync(join(root, 'dist'), join(dir, 'dist'), { recursive: true, filter: (from) => !from.endsWith('.v8cache') })
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'), 'dir')
  const bundle = join(dir, 'dist', 'bundle')
  const name = readdirSync(bundle).find((f) => f.endsWith('.script.js'))
  if (name === undefined) throw new Error('no core script in dist/bundle: run npm run build first')
  const source = readFileSync(join(bundle, name), 'latin1')
  const entry = 'contractOf=def=>{'
  // the core must still have the names the bodies call, and one contractOf: say so rather than time something else
  for (const needed of [entry, 'markMade='])
    if (source.split(needed).length !== 2) throw new Error(`the core script has ${source.split(needed).length - 1} of "${needed}" (expected one): update the bodies`)
  if (body !== undefined) writeFileSync(join(bundle, name), source.replace(entry, entry + body), 'latin1')
  return join(dir, 'dist', 'examples', 'bench.js')
}

/** The environment of every start: this one's, without NODE_EXTRA_CA_CERTS (whose certificates would add one fixed cost to all). */
const env = (() => {
  const { NODE_EXTRA_CA_CERTS: _ignored, ...rest } = process.env
  return { ...rest, TOOLS: String(tools) }
})()

const ping = '{"jsonrpc":"2.0","id":1,"method":"ping"}\n'

/** Milliseconds from spawn to the first line the server writes, the server then killed; `settle` keeps it alive a while first (a code cache is written a second after the core loads). */
const start = (file, settle = 0) =>
  new Promise((resolve, reject) => {
    const t0 = performance.now()
    const child = spawn(process.execPath, [file, 'stdio'], { env, stdio: ['pipe', 'pipe', 'inherit'] })
    children.add(child)
    const timer = setTimeout(() => child.kill('SIGKILL'), 30000)
    let text = ''
    child.on('error', reject)
    child.on('exit', (code, signal) => {
      children.delete(child)
      clearTimeout(timer)
      if (!text.includes('\n')) reject(new Error(`${file} exited (${code ?? signal}) before answering`))
    })
    child.stdout.on('data', (d) => {
      if (text.includes('\n')) return
      text += d
      if (!text.includes('\n')) return
      resolve(performance.now() - t0)
      setTimeout(() => child.kill(), settle)
    })
    child.stdin.write(ping)
  })

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1]

/** The children alive now: killed, with the copies removed, however this ends. */
const children = new Set()
const cleanUp = () => {
  for (const child of children) child.kill('SIGKILL')
  rmSync(work, { recursive: true, force: true })
}
process.on('exit', cleanUp)
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.once(signal, () => process.exit(130))

rmSync(work, { recursive: true, force: true })
const servers = [
  // a copy as built too, beside the others: a package in another folder starts a little differently (its path, the link to node_modules)
  { label: 'emcp (the bench example)', file: copyWith(join(work, 'built'), undefined) },
  { label: 'emcp, emcp() checking nothing', file: copyWith(join(work, 'unchecked'), bodies.unchecked) },
  { label: 'emcp, emcp() one literal', file: copyWith(join(work, 'literal'), bodies.literal) },
  { label: 'raw loop', file: join(root, 'bench', 'servers', 'raw-stdio.mjs') },
]
// each copy writes its code cache on a first start and may grow it on a second, as a deployed server's first starts do
for (const s of servers) for (let i = 0; i < 2; i++) await start(s.file, 1300)
const samples = servers.map(() => [])
for (let r = 0; r < rounds; r++)
  for (let j = 0; j < servers.length; j++) {
    const i = (j + r) % servers.length
    samples[i].push(await start(servers[i].file))
  }
const raw = median(samples[3])
process.stdout.write(`startup, ${tools} tools, median of ${rounds} interleaved rounds (spawn to first answered ping):\n`)
servers.forEach((s, i) => {
  const m = median(samples[i])
  process.stdout.write(`  ${s.label.padEnd(30)} ${m.toFixed(1).padStart(6)} ms   ${(m / raw).toFixed(2)}x raw\n`)
})
const floor = median(samples[1])
process.stdout.write(`room left under 1.3x raw for every check emcp() makes: ${(1.3 * raw - floor).toFixed(1)} ms (the example spends ${(median(samples[0]) - floor).toFixed(1)} ms)\n`)
