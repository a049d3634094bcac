/**
 * Instructions per stdio call, and to the first answer, counted with valgrind's callgrind on
 * the server process (instruction counts do not move with the machine's load, wall time does).
 * Each server runs twice, with a small and a large number of `tools/call add` requests sent in
 * bursts; the difference of the two totals divided by the difference of the counts is the cost
 * of one call, with startup and exit cancelled out. A third run answers only `initialize` and
 * exits: its total is the cost from process start to first answer (plus exit).
 *
 *   npm run build && node bench/stdio-profile.mjs                   # emcp beside raw
 *   node bench/stdio-profile.mjs --tools 2000 --calls 2000,12000
 *   node bench/stdio-profile.mjs --only emcp --keep                 # keep callgrind.out files
 *   node bench/stdio-profile.mjs --only emcp,mount                  # the same server mounted whole into another
 *   node bench/stdio-profile.mjs --only emcp,emcpZod --calls 4000,24000   # the zod tool beside the literal
 *   node bench/stdio-profile.mjs --tools 2000 --first               # only the cost to the first answer
 *
 * The callgrind files go to bench/.work/callgrind/ (git-ignored); read them with
 * `callgrind_annotate --inclusive=yes FILE`.
 */
import { spawn } from 'node:child_process'
import { mkdirSync, readFileSync, rmSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const outDir = join(root, 'bench', '.work', 'callgrind')
const argv = process.argv.slice(2)
const flag = (name, d) => {
  const i = argv.indexOf(name)
  return i === -1 ? d : argv[i + 1]
}
const tools = Number(flag('--tools', 0))
const [small, large] = flag('--calls', '1000,6000').split(',').map(Number)
const burst = Number(flag('--burst', 500))
const only = flag('--only', 'emcp,raw').split(',')
const keep = argv.includes('--keep')
const firstOnly = argv.includes('--first')
const servers = {
  emcp: ['dist/examples/bench.js', 'stdio'],
  emcpZod: ['bench/servers/emcp-zod.mjs', 'stdio'],
  mount: ['bench/servers/emcp-mount.mjs', 'stdio'],
  raw: ['bench/servers/raw-stdio.mjs'],
}
if (!(small >= 0 && large > small) || only.some((s) => servers[s] === undefined)) {
  console.error('usage: node bench/stdio-profile.mjs [--tools N] [--calls SMALL,LARGE] [--burst N] [--only emcp,emcpZod,mount,raw] [--first] [--keep]')
  process.exit(2)
}
mkdirSync(outDir, { recursive: true })

const init =
  '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"profile","version":"1"}}}\n' +
  '{"jsonrpc":"2.0","method":"notifications/initialized"}\n'
const call = (id) => `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"add","arguments":{"a":${id},"b":1}}}\n`

/** Runs `server` under callgrind, sends `calls` calls after initialize, returns the instruction total. */
const run = async (server, calls, tag) => {
  const file = join(outDir, `callgrind.out.${server}.${tools}.${tag}`)
  const child = spawn(
    'valgrind',
    ['--tool=callgrind', '--smc-check=all-non-file', `--callgrind-out-file=${file}`, process.execPath, ...servers[server]],
    { cwd: root, env: { ...process.env, TOOLS: String(tools) }, stdio: ['pipe', 'pipe', 'pipe'] },
  )
  let stderr = ''
  child.stderr.setEncoding('utf8').on('data', (s) => (stderr += s))
  let answered = 0
  let waiter
  child.stdout.setEncoding('utf8').on('data', (s) => {
    for (let i = s.indexOf('\n'); i !== -1; i = s.indexOf('\n', i + 1)) answered++
    if (waiter !== undefined && answered >= waiter.n) waiter.resolve()
  })
  const until = (n) => new Promise((resolve) => (answered >= n ? resolve() : (waiter = { n, resolve })))
  const exited = new Promise((resolve) => child.once('exit', resolve))
  child.stdin.write(init)
  await until(1)
  let id = 1
  while (id <= calls) {
    const lines = []
    for (let i = 0; i < burst && id <= calls; i++) lines.push(call(id++))
    child.stdin.write(lines.join(''))
    await until(id)
  }
  child.stdin.end()
  const code = await exited
  if (code !== 0) throw new Error(`${server} exited with ${code}:\n${stderr}`)
  const text = readFileSync(file, 'utf8')
  const total = Number(/^(?:summary|totals): (\d+)/m.exec(text)?.[1])
  if (!keep) rmSync(file)
  return total
}

const m = (x) => `${(x / 1e6).toFixed(1)} M`
const rows = {}
for (const server of only) {
  const first = await run(server, 0, 'first')
  const a = firstOnly ? NaN : await run(server, small, `n${small}`)
  const b = firstOnly ? NaN : await run(server, large, `n${large}`)
  rows[server] = { first, perCall: (b - a) / (large - small) }
  console.log(
    `${server.padEnd(5)} tools=${tools}  to first answer (and exit): ${m(first)} instr` +
      (firstOnly ? '' : `   per call: ${Math.round(rows[server].perCall)} instr`),
  )
}
if (rows.emcp !== undefined && rows.raw !== undefined)
  console.log(
    `emcp/raw  first answer ${(rows.emcp.first / rows.raw.first).toFixed(2)}x` +
      (firstOnly ? '' : `   per call ${(rows.emcp.perCall / rows.raw.perCall).toFixed(2)}x`),
  )
