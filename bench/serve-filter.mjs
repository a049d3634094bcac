/**
 * `emcp serve --category/--tag` starts in linear time: the time from spawn to the first
 * answered `tools/list` of the 2000-tool catalog (dist/examples/catalog.js) over stdio,
 * served whole and filtered (the tools outside the selection disabled in one batch), side
 * by side, as a ratio with a ceiling of 1.5x. Rounds are interleaved and medians taken.
 *
 *   npm run bench:serve                       # build, then 5 rounds
 *   node bench/serve-filter.mjs --rounds 9    # on a build already made
 *
 * Exits 1 when a filtered start takes more than 1.5x the unfiltered one.
 */
import { spawn } from 'node:child_process'
import { dirname, join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const argv = process.argv.slice(2)
const flag = (name) => {
  const i = argv.indexOf(name)
  return i === -1 ? undefined : argv[i + 1]
}
const rounds = Number(flag('--rounds') ?? 5)
const ceiling = 1.5

/** The selections timed: none, one category kept (most tools disabled), one tag. */
const variants = [
  { label: 'all 2000 tools', args: [] },
  { label: '--category scalar (292 kept)', args: ['--category', 'scalar'] },
  { label: '--category geometry (18 kept)', args: ['--category', 'geometry'] },
  { label: '--category vector (1080 kept)', args: ['--category', 'vector'] },
]

/** Spawns `emcp serve` on the catalog; resolves to the ms from spawn to the tools/list answer and how many tools it listed. */
const startOnce = (args) =>
  new Promise((resolve, reject) => {
    const t0 = performance.now()
    const child = spawn(process.execPath, [join(root, 'bin', 'emcp.js'), 'serve', join(root, 'dist', 'examples', 'catalog.js'), ...args], {
      cwd: root,
      stdio: ['pipe', 'pipe', 'pipe'],
    })
    let out = ''
    let err = ''
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`no answer within 120 s: ${err.slice(-500)}`))
    }, 120_000)
    child.stderr.on('data', (c) => (err += c))
    child.stdout.on('data', (c) => {
      out += c
      for (const line of out.split('\n').slice(0, -1)) {
        const m = JSON.parse(line)
        if (m.id !== 2) continue
        const ms = performance.now() - t0
        clearTimeout(timer)
        child.once('exit', () => resolve({ ms, listed: m.result.tools.length }))
        child.stdin.end()
        return
      }
    })
    child.once('error', reject)
    const send = (m) => child.stdin.write(`${JSON.stringify(m)}\n`)
    send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench', version: '1' } } })
    send({ jsonrpc: '2.0', method: 'notifications/initialized' })
    send({ jsonrpc: '2.0', id: 2, method: 'tools/list' })
  })

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b)
  const mid = Math.floor(s.length / 2)
  return s.length % 2 === 1 ? s[mid] : (s[mid - 1] + s[mid]) / 2
}

const samples = variants.map(() => [])
const listed = variants.map(() => 0)
// one warm-up start (disk caches), then the rounds, the variants interleaved
await startOnce([])
for (let r = 0; r < rounds; r++)
  for (const [i, v] of variants.entries()) {
    const { ms, listed: n } = await startOnce(v.args)
    samples[i].push(ms)
    listed[i] = n
  }

const base = median(samples[0])
let worst = 0
console.log(`emcp serve, the 2000-tool catalog over stdio: spawn to the first tools/list answer, median of ${rounds}`)
for (const [i, v] of variants.entries()) {
  const m = median(samples[i])
  const ratio = m / base
  if (i > 0) worst = Math.max(worst, ratio)
  console.log(`  ${v.label.padEnd(32)} ${m.toFixed(0).padStart(6)} ms  ${ratio.toFixed(2)}x  (${listed[i]} listed; samples ${samples[i].map((x) => x.toFixed(0)).join(', ')})`)
}
console.log(`filtered start within ${ceiling}x of the unfiltered one: ${worst <= ceiling ? 'yes' : 'NO'} (worst ${worst.toFixed(2)}x)`)
process.exit(worst <= ceiling ? 0 : 1)
