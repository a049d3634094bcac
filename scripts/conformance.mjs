// `npm run conformance`: the official MCP conformance suite against examples/everything.ts,
// in three runs:
//
//   0.1.16       @modelcontextprotocol/conformance@0.1.16 server --suite all
//   2025-11-25   @modelcontextprotocol/conformance@0.2.0-alpha.12 server --requirements 2025-11-25
//   2026-07-28   @modelcontextprotocol/conformance@0.2.0-alpha.12 server --requirements 2026-07-28
//
// Each run:
//   1. (once) builds (npm run build);
//   2. makes sure the tool folder .cache/tools holds its suite version and a Node 22 binary
//      (the suites need Node 22; the npm package node-<platform>-<arch>@22, newest 22.x at
//      first install, in .cache/tools/node22), installing them with `npm install --prefix
//      <folder> --no-save` only when absent: 0.1.16 in .cache/tools itself, 0.2.0-alpha.12 in
//      .cache/tools/conformance-0.2.0-alpha.12. None of them is a dependency of emcp, and a
//      filled cache works offline;
//   3. serves dist/examples/everything.js on a free port of 127.0.0.1 (a fresh server per run);
//   4. runs the suite against http://localhost:PORT/mcp, streaming its output (per-scenario
//      results are also written to .cache/conformance/<run>/results/);
//   5. stops the server, prints every failed check and warning, and a line
//      `conformance: <run>: Total: N passed, M failed` (the suite's own summary; with
//      --requirements it counts the unscored scenarios too).
// The last line is `conformance: N passed, M failed`, summed over the runs; the exit code is
// non-zero on any failure.
//
// Arguments: `--run <name>` (repeatable) picks runs; anything else goes to the suite of each
// picked run instead of its default selection (the alpha runs then add `--spec-version
// <revision>`, unless given), e.g.
//   npm run conformance -- --run 2026-07-28 --scenario tasks-lifecycle
//   npm run conformance -- --scenario tools-call-error        # the one scenario in all three
// Every step is bounded in time (CONFORMANCE_TIMEOUT_MS per suite run, default 300000) and
// every child process is ended when this script ends.
import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { createConnection } from 'node:net'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { freePort } from './free-port.mjs'

const suitePackage = '@modelcontextprotocol/conformance'
const nodeMajor = 22
const nodePackage = `node-${process.platform}-${process.arch}`

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const tools = join(root, '.cache', 'tools')
const work = join(root, '.cache', 'conformance')
// a folder of its own: a later install into the suites' folder would remove a package it did not name
const nodePrefix = join(tools, `node${nodeMajor}`)

const alpha = '0.2.0-alpha.12'
/** The runs, in order: a name, the suite version, where it is installed, its default selection. */
const runs = [
  { name: '0.1.16', version: '0.1.16', prefix: tools, selection: ['--suite', 'all'] },
  { name: '2025-11-25', version: alpha, prefix: join(tools, `conformance-${alpha}`), selection: ['--requirements', '2025-11-25'], revision: '2025-11-25' },
  { name: '2026-07-28', version: alpha, prefix: join(tools, `conformance-${alpha}`), selection: ['--requirements', '2026-07-28'], revision: '2026-07-28' },
]

const minutes = (n) => n * 60_000
const suiteTimeout = Number(process.env.CONFORMANCE_TIMEOUT_MS ?? minutes(5))
const isWindows = process.platform === 'win32'
const npm = isWindows ? 'npm.cmd' : 'npm'

const shown = (p) => relative(root, p) || '.'
const say = (line) => console.log(`conformance: ${line}`)

// ---------------------------------------------------------------------------------------
// children: every process started here is ended when this script ends

const children = new Set()

/** Ends a child and everything it started (its process group), by its id. */
const stop = (child, signal = 'SIGTERM') => {
  if (child.exitCode !== null || child.signalCode !== null) return
  try {
    if (isWindows) child.kill(signal)
    else process.kill(-child.pid, signal)
  } catch {
    // already gone
  }
}

const stopAll = () => {
  for (const child of children) stop(child, 'SIGKILL')
}

process.on('exit', stopAll)
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'])
  process.once(signal, () => {
    stopAll()
    process.exit(130)
  })

/**
 * Runs a command in its own process group; resolves with its exit code (and its output when
 * `capture` is set) once it ended, or ends it after `timeoutMs`.
 */
const run = (cmd, args, { timeoutMs, capture = false, env = process.env, onOutput } = {}) =>
  new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: root, env, detached: !isWindows, stdio: ['ignore', 'pipe', 'pipe'] })
    children.add(child)
    let output = ''
    let timedOut = false
    const take = (sink) => (chunk) => {
      const text = chunk.toString()
      if (capture) output += text
      onOutput?.(text)
      sink.write(text)
    }
    child.stdout.on('data', take(process.stdout))
    child.stderr.on('data', take(process.stderr))
    const timer = setTimeout(() => {
      timedOut = true
      console.error(`conformance: ${cmd} ${args.join(' ')} took longer than ${timeoutMs} ms; ending it`)
      stop(child)
      setTimeout(() => stop(child, 'SIGKILL'), 5_000).unref()
    }, timeoutMs)
    const finish = (code) => {
      clearTimeout(timer)
      children.delete(child)
      resolve({ code: timedOut ? 124 : code, output, timedOut })
    }
    child.on('error', (e) => {
      console.error(`conformance: cannot run ${cmd}: ${e.message}`)
      finish(127)
    })
    child.on('close', (code, signal) => finish(code ?? (signal === null ? 1 : 128)))
  })

/** The final line, then the exit. */
const finish = (passed, failed, code = failed > 0 ? 1 : 0) => {
  console.log(`\nconformance: ${passed} passed, ${failed} failed`)
  process.exit(code)
}

// ---------------------------------------------------------------------------------------
// the tool folder

/** Where a run's suite is installed. */
const suiteDirOf = (r) => join(r.prefix, 'node_modules', ...suitePackage.split('/'))

const installedVersion = (dir) => {
  try {
    return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).version
  } catch {
    return undefined
  }
}

/** The Node binary the suites run on: this one if it is 22 or later, else the cached one. */
const node22 = () => {
  if (Number(process.versions.node.split('.')[0]) >= nodeMajor) return { path: process.execPath, needed: false }
  const dir = join(nodePrefix, 'node_modules', nodePackage)
  const bin = join(dir, 'bin', isWindows ? 'node.exe' : 'node')
  const version = installedVersion(dir)
  const ok = existsSync(bin) && version !== undefined && Number(version.split('.')[0]) === nodeMajor
  return { path: bin, needed: true, ok }
}

const suiteBin = (r) => {
  const dir = suiteDirOf(r)
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'))
  const bin = typeof pkg.bin === 'string' ? pkg.bin : (pkg.bin?.conformance ?? Object.values(pkg.bin ?? {})[0])
  if (typeof bin !== 'string') throw new Error(`${suitePackage} declares no bin`)
  return join(dir, bin)
}

/** npm install into `prefix`, outside emcp's own dependencies; true when it worked. */
const install = async (prefix, specs) => {
  say(`installing ${specs.join(' and ')} into ${shown(prefix)} (not a dependency of emcp)`)
  mkdirSync(prefix, { recursive: true })
  const r = await run(npm, ['install', '--prefix', prefix, '--no-save', '--no-package-lock', '--no-audit', '--no-fund', '--loglevel=error', ...specs], {
    timeoutMs: minutes(5),
  })
  return r.code === 0
}

/** The Node 22 binary, installed when missing; undefined when it cannot be had. */
const ensureNode = async () => {
  const node = node22()
  if (!node.needed || node.ok) return node.path
  await install(nodePrefix, [`${nodePackage}@${nodeMajor}`])
  const after = node22()
  if (!after.ok) {
    console.error(`conformance: installing ${nodePackage}@${nodeMajor} failed`)
    return undefined
  }
  return after.path
}

/** A run's suite, installed when missing; false when it cannot be had. */
const ensureSuite = async (r) => {
  if (installedVersion(suiteDirOf(r)) === r.version) {
    say(`using the cached ${suitePackage}@${r.version} in ${shown(r.prefix)}`)
    return true
  }
  await install(r.prefix, [`${suitePackage}@${r.version}`])
  if (installedVersion(suiteDirOf(r)) === r.version) return true
  console.error(`conformance: installing ${suitePackage}@${r.version} failed`)
  return false
}

// ---------------------------------------------------------------------------------------
// the server

const accepts = (port) =>
  new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port })
    const done = (ok) => {
      socket.destroy()
      resolve(ok)
    }
    socket.once('connect', () => done(true))
    socket.once('error', () => done(false))
    socket.setTimeout(1_000, () => done(false))
  })

/** Starts the everything server on `port`; resolves once it accepts connections (undefined if it never does). */
const startServer = async (port) => {
  const entry = join(root, 'dist', 'examples', 'everything.js')
  if (!existsSync(entry)) {
    console.error(`conformance: ${shown(entry)} is missing after the build`)
    return undefined
  }
  const child = spawn(process.execPath, [entry], {
    cwd: root,
    env: { ...process.env, PORT: String(port) },
    detached: !isWindows,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  children.add(child)
  const prefix = (sink) => (chunk) => {
    for (const line of chunk.toString().split('\n')) if (line !== '') sink.write(`[server] ${line}\n`)
  }
  child.stdout.on('data', prefix(process.stdout))
  child.stderr.on('data', prefix(process.stderr))
  const deadline = Date.now() + 20_000
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      console.error(`conformance: the server exited (${child.exitCode ?? child.signalCode}) before accepting connections`)
      return undefined
    }
    if (await accepts(port)) return child
    await new Promise((r) => setTimeout(r, 100))
  }
  console.error('conformance: the server did not accept connections within 20 s')
  await stopServer(child)
  return undefined
}

/** Stops the server: SIGTERM, then SIGKILL after 5 s. */
const stopServer = (child) =>
  new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve()
    const timer = setTimeout(() => stop(child, 'SIGKILL'), 5_000)
    child.once('close', () => {
      clearTimeout(timer)
      children.delete(child)
      resolve()
    })
    stop(child)
  })

// ---------------------------------------------------------------------------------------
// the summary

// eslint-disable-next-line no-control-regex
const plain = (text) => text.replace(/\x1b\[[0-9;]*m/g, '')

/**
 * The suite's own tally: `Total: N passed, M failed` after a suite, or
 * `Passed: N/D, M failed, W warnings` after a single scenario.
 */
const tallyOf = (output) => {
  const text = plain(output)
  const total = [...text.matchAll(/^Total: (\d+) passed, (\d+) failed\s*$/gm)].at(-1)
  if (total !== undefined) return { passed: Number(total[1]), failed: Number(total[2]) }
  const single = [...text.matchAll(/^Passed: (\d+)\/\d+, (\d+) failed/gm)].at(-1)
  if (single !== undefined) return { passed: Number(single[1]), failed: Number(single[2]) }
  return undefined
}

/**
 * In suite mode the suite prints only a tally per scenario; the reasons are in the
 * checks.json it saved per scenario. Prints every failed check and every warning.
 */
const printReasons = (resultsDir) => {
  let dirs = []
  try {
    dirs = readdirSync(resultsDir)
  } catch {
    return
  }
  const runs = dirs
    .map((d) => {
      const m = /^server-(.+)-(\d{4}-\d{2}-\d{2}T[\d-]+Z)$/.exec(d)
      return m === null ? undefined : { dir: d, scenario: m[1], at: m[2] }
    })
    .filter((r) => r !== undefined)
    .sort((a, b) => a.at.localeCompare(b.at))
  const lines = { FAILURE: [], WARNING: [] }
  for (const r of runs) {
    let checks = []
    try {
      checks = JSON.parse(readFileSync(join(resultsDir, r.dir, 'checks.json'), 'utf8'))
    } catch {
      continue
    }
    for (const c of checks) {
      if (!(c.status in lines)) continue
      const why = c.errorMessage ?? c.details?.message ?? c.description
      lines[c.status].push(`  ${r.scenario} ${c.name}: ${why}`)
    }
  }
  if (lines.FAILURE.length > 0) console.log(`\nFailed checks:\n${lines.FAILURE.join('\n')}`)
  if (lines.WARNING.length > 0) console.log(`\nWarnings (not counted as failures):\n${lines.WARNING.join('\n')}`)
}

// ---------------------------------------------------------------------------------------
// main

/** Splits the arguments into the runs picked (`--run`) and what goes to the suites. */
const parseArgs = (argv) => {
  const picked = []
  const rest = []
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--run') picked.push(argv[++i])
    else if (argv[i].startsWith('--run=')) picked.push(argv[i].slice('--run='.length))
    else rest.push(argv[i])
  }
  const unknown = picked.filter((p) => !runs.some((r) => r.name === p))
  if (unknown.length > 0) {
    console.error(`conformance: no run named ${unknown.join(', ')} (runs: ${runs.map((r) => r.name).join(', ')})`)
    finish(0, 1)
  }
  return { picked: picked.length === 0 ? runs : runs.filter((r) => picked.includes(r.name)), rest }
}

/** The suite arguments of a run: its default selection, or the given ones at its revision. */
const selectionOf = (r, rest) => {
  if (rest.length === 0) return r.selection
  const pinned = rest.some((a) => a === '--spec-version' || a.startsWith('--spec-version=') || a === '--requirements' || a.startsWith('--requirements='))
  return r.revision === undefined || pinned ? rest : [...rest, '--spec-version', r.revision]
}

/** One run: its own server, its own results folder; resolves with its tally. */
const runOne = async (r, node, rest) => {
  const label = `${suitePackage}@${r.version}`
  if (!(await ensureSuite(r))) return { passed: 0, failed: 1 }
  const bin = suiteBin(r)
  // the suite's client is the official SDK, at whatever its range resolved to when installed
  const suiteDir = suiteDirOf(r)
  const sdk =
    installedVersion(join(suiteDir, 'node_modules', '@modelcontextprotocol', 'sdk')) ??
    installedVersion(join(r.prefix, 'node_modules', '@modelcontextprotocol', 'sdk'))
  say(`${r.name}: the suite's client: @modelcontextprotocol/sdk@${sdk ?? 'unknown'}`)

  const port = await freePort()
  const server = await startServer(port)
  if (server === undefined) return { passed: 0, failed: 1 }
  const url = `http://localhost:${port}/mcp`
  say(`${r.name}: serving dist/examples/everything.js at ${url}`)

  const results = join(work, r.name, 'results')
  rmSync(results, { recursive: true, force: true })
  mkdirSync(results, { recursive: true })
  const selection = selectionOf(r, rest)
  say(`${r.name}: running ${label} ${['server', '--url', url, ...selection].join(' ')}`)
  const suite = await run(node, [bin, 'server', '--url', url, ...selection, '--output-dir', results], {
    timeoutMs: suiteTimeout,
    capture: true,
    // the suite talks to localhost only: no proxy in the way
    env: { ...process.env, NO_PROXY: 'localhost,127.0.0.1', no_proxy: 'localhost,127.0.0.1', FORCE_COLOR: '0' },
  })
  await stopServer(server)
  printReasons(results)

  const tally = tallyOf(suite.output)
  if (tally === undefined) {
    console.error(`conformance: ${r.name}: the suite printed no summary (exit ${suite.code}${suite.timedOut ? ', timed out' : ''})`)
    return { passed: 0, failed: 1 }
  }
  // a suite that reports no failure but exits non-zero still failed
  const failed = tally.failed === 0 && suite.code !== 0 ? 1 : tally.failed
  return { passed: tally.passed, failed }
}

const main = async () => {
  const { picked, rest } = parseArgs(process.argv.slice(2))
  say('building (npm run build)')
  const built = await run(npm, ['run', 'build', '--silent'], { timeoutMs: minutes(5) })
  if (built.code !== 0) {
    console.error(`conformance: the build failed (exit ${built.code})`)
    finish(0, 1)
  }
  const node = await ensureNode()
  if (node === undefined) finish(0, picked.length)

  const tallies = []
  for (const r of picked) {
    say(`== run ${r.name}: ${suitePackage}@${r.version} ${selectionOf(r, rest).join(' ')}`)
    tallies.push({ run: r, ...(await runOne(r, node, rest)) })
  }
  console.log('')
  for (const t of tallies) say(`${t.run.name}: Total: ${t.passed} passed, ${t.failed} failed`)
  finish(
    tallies.reduce((a, t) => a + t.passed, 0),
    tallies.reduce((a, t) => a + t.failed, 0),
  )
}

main().catch((e) => {
  console.error(`conformance: ${e instanceof Error ? e.stack : String(e)}`)
  stopAll()
  finish(0, 1)
})
