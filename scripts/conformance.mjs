// `npm run conformance`: the official MCP conformance suite against examples/everything.ts,
// in three runs, and the official MCP Inspector as a client of the examples, in a fourth:
//
//   0.1.16       @modelcontextprotocol/conformance@0.1.16 server --suite all
//   2025-11-25   @modelcontextprotocol/conformance@0.2.0-alpha.12 server --requirements 2025-11-25
//   2026-07-28   @modelcontextprotocol/conformance@0.2.0-alpha.12 server --requirements 2026-07-28
//   inspector    @modelcontextprotocol/inspector@2.12.0 (its command line, clients/cli)
//
// Each suite run:
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
// The inspector run installs the Inspector the same way, in .cache/tools/inspector-2.12.0 (it
// needs Node 22.19 or later: the same Node 22), and calls, one Inspector process per check,
// with `--protocol-era legacy` (2025-11-25) and `--protocol-era modern` (2026-07-28) each:
// the calculator over stdio (the Inspector starts it), the calculator over stateless HTTP and
// the everything server over stateful HTTP (each served on a free port of 127.0.0.1 by this
// script): initialize, tools/list --strict, a tool call, a call with a bad argument, and of
// the everything server resources/list, resources/read, prompts/list and prompts/get. Each
// check compares the Inspector's JSON output with what the example defines and prints one
// line (`inspector: ✓ stdio legacy: tools/call add -> {sum: 5}`); its home folder, catalog
// and store are in .cache/conformance/inspector/home, never the user's.
// The last line is `conformance: N passed, M failed`, summed over the runs (the inspector
// run counts its checks); the exit code is non-zero on any failure.
//
// `--target <url>` runs the picked suite runs against a server already serving at a loopback
// URL (another runtime's: test/runtimes/ serves the everything example on Deno, Bun and
// workerd and points the suite at it) instead of building and serving our own.
// `--via-proxy` runs the suites against `emcp proxy <url> --http` fronting the everything server
// (the acceptance of emcp/proxy: the same results as against the server itself);
// `--via-proxy=<era>` has the proxy ask the upstream for that era first (its default: 2026-07-28).
// Arguments: `--run <name>` (repeatable) picks runs; anything else goes to the suite of each
// picked suite run instead of its default selection (the alpha runs then add `--spec-version
// <revision>`, unless given; the inspector run makes all its checks regardless), e.g.
//   npm run conformance -- --run 2026-07-28 --scenario tasks-lifecycle
//   npm run conformance -- --scenario tools-call-error        # the one scenario in the three suite runs
// Every step is bounded in time (CONFORMANCE_TIMEOUT_MS per suite run, default 300000; 30 s
// per Inspector call) and every child process is ended when this script ends.
import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, rmSync } from 'node:fs'
import { createConnection } from 'node:net'
import { dirname, isAbsolute, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { isDeepStrictEqual } from 'node:util'
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
const inspectorPackage = '@modelcontextprotocol/inspector'
const inspectorVersion = '2.12.0'
/**
 * The runs, in order: a name, the package and version it runs, where that is installed, its
 * default selection. The inspector run is no suite: its checks are below (inspectorChecks).
 */
const runs = [
  { name: '0.1.16', pkg: suitePackage, version: '0.1.16', prefix: tools, selection: ['--suite', 'all'] },
  { name: '2025-11-25', pkg: suitePackage, version: alpha, prefix: join(tools, `conformance-${alpha}`), selection: ['--requirements', '2025-11-25'], revision: '2025-11-25' },
  { name: '2026-07-28', pkg: suitePackage, version: alpha, prefix: join(tools, `conformance-${alpha}`), selection: ['--requirements', '2026-07-28'], revision: '2026-07-28' },
  { name: 'inspector', pkg: inspectorPackage, version: inspectorVersion, prefix: join(tools, `inspector-${inspectorVersion}`), selection: [], inspector: true },
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
 * `capture` is set: both streams in `output`, each also on its own) once it ended, or ends
 * it after `timeoutMs`. With `echo: false` the output is only captured, not shown.
 */
const run = (cmd, args, { timeoutMs, capture = false, echo = true, env = process.env, onOutput } = {}) =>
  new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: root, env, detached: !isWindows, stdio: ['ignore', 'pipe', 'pipe'] })
    children.add(child)
    let output = ''
    const streams = { stdout: '', stderr: '' }
    let timedOut = false
    const take = (sink, name) => (chunk) => {
      const text = chunk.toString()
      if (capture) {
        output += text
        streams[name] += text
      }
      onOutput?.(text)
      if (echo) sink.write(text)
    }
    child.stdout.on('data', take(process.stdout, 'stdout'))
    child.stderr.on('data', take(process.stderr, 'stderr'))
    const timer = setTimeout(() => {
      timedOut = true
      console.error(`conformance: ${cmd} ${args.join(' ')} took longer than ${timeoutMs} ms; ending it`)
      stop(child)
      setTimeout(() => stop(child, 'SIGKILL'), 5_000).unref()
    }, timeoutMs)
    const finish = (code) => {
      clearTimeout(timer)
      children.delete(child)
      resolve({ code: timedOut ? 124 : code, output, ...streams, timedOut })
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

/** Where a run's package is installed. */
const suiteDirOf = (r) => join(r.prefix, 'node_modules', ...r.pkg.split('/'))

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

/** A run's package (its suite, or the Inspector), installed when missing; false when it cannot be had. */
const ensureSuite = async (r) => {
  if (installedVersion(suiteDirOf(r)) === r.version) {
    say(`using the cached ${r.pkg}@${r.version} in ${shown(r.prefix)}`)
    return true
  }
  await install(r.prefix, [`${r.pkg}@${r.version}`])
  if (installedVersion(suiteDirOf(r)) === r.version) return true
  console.error(`conformance: installing ${r.pkg}@${r.version} failed`)
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

/**
 * Starts an example server (by default the everything server) on `port`; resolves once it
 * accepts connections (undefined if it never does). `quiet` leaves out its stdout (a banner).
 */
const startServer = async (port, { example = 'everything.js', args = [], quiet = false, entry = join(root, 'dist', 'examples', example) } = {}) => {
  if (!existsSync(entry)) {
    console.error(`conformance: ${shown(entry)} is missing after the build`)
    return undefined
  }
  const child = spawn(process.execPath, [entry, ...args], {
    cwd: root,
    env: { ...process.env, PORT: String(port) },
    detached: !isWindows,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  children.add(child)
  const prefix = (sink) => (chunk) => {
    for (const line of chunk.toString().split('\n')) if (line !== '') sink.write(`[server] ${line}\n`)
  }
  if (quiet) child.stdout.resume()
  else child.stdout.on('data', prefix(process.stdout))
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
// the inspector run: the official MCP Inspector's command line as a real client

/** Each Inspector call is bounded on its own (it connects, asks once, and exits). */
const inspectorCallTimeout = 30_000

const calculatorTools = ['add', 'add_days', 'echo']

/** What `tools/call add a=2 b=3` must answer: the sum as structured content, no error. */
const addCall = {
  what: 'tools/call add',
  args: ['--method', 'tools/call', '--tool-name', 'add', '--tool-arg', 'a=2', 'b=3'],
  check: ({ result }, want = { sum: 5 }) =>
    !isDeepStrictEqual(result?.structuredContent, want)
      ? `structuredContent is ${JSON.stringify(result?.structuredContent)}, not ${JSON.stringify(want)}`
      : result.isError === true
        ? 'isError is set'
        : undefined,
  shown: '{sum: 5}',
}

/** A call whose argument fails the input schema: a tool error (isError) that names the argument's path. */
const badCall = (tool, arg, value, path) => ({
  what: `tools/call ${tool} ${arg}=${value}`,
  args: ['--method', 'tools/call', '--tool-name', tool, '--tool-arg', `${arg}=${value}`, ...(tool === 'add' ? ['b=3'] : [])],
  // the Inspector prints the result on stdout, then its own error envelope (tool_is_error) on stderr, and exits non-zero
  check: ({ result, error }) => {
    const text = (result?.content ?? []).map((b) => (b.type === 'text' ? b.text : '')).join('\n')
    if (result?.isError !== true) return `isError is ${JSON.stringify(result?.isError)}, not true`
    if (!text.includes(path)) return `the error text does not name ${path}: ${JSON.stringify(text)}`
    if (error?.code !== 'tool_is_error') return `the Inspector's error code is ${JSON.stringify(error?.code)}, not "tool_is_error"`
    return undefined
  },
  ok: ({ code }) => code !== 0,
  shown: `isError naming ${path}`,
})

/** The everything server's calls beyond tools (resources and prompts), as examples/everything.ts defines them. */
const everythingCalls = [
  {
    what: 'resources/list',
    args: ['--method', 'resources/list'],
    check: ({ result }) => {
      const got = (result?.resources ?? []).map((r) => `${r.uri} ${r.name}`).sort()
      const want = ['test://static-binary static-binary', 'test://static-text static-text', 'test://watched-resource watched-resource']
      return isDeepStrictEqual(got, want) ? undefined : `resources are ${JSON.stringify(got)}, not ${JSON.stringify(want)}`
    },
    shown: '3 resources',
  },
  {
    what: 'resources/read test://static-text',
    args: ['--method', 'resources/read', '--uri', 'test://static-text'],
    check: ({ result }) => {
      const want = [{ uri: 'test://static-text', mimeType: 'text/plain', text: 'This is the content of the static text resource.' }]
      return isDeepStrictEqual(result?.contents, want) ? undefined : `contents are ${JSON.stringify(result?.contents)}`
    },
    shown: 'the text',
  },
  {
    what: 'prompts/list',
    args: ['--method', 'prompts/list'],
    check: ({ result }) => {
      const prompts = result?.prompts ?? []
      const names = prompts.map((p) => p.name)
      const missing = ['test_simple_prompt', 'test_prompt_with_arguments', 'test_prompt_with_embedded_resource', 'test_prompt_with_image'].filter(
        (n) => !names.includes(n),
      )
      if (missing.length > 0) return `missing ${missing.join(', ')} in ${JSON.stringify(names)}`
      const args = prompts.find((p) => p.name === 'test_prompt_with_arguments').arguments
      const want = [
        { name: 'arg1', description: 'First test argument', required: true },
        { name: 'arg2', description: 'Second test argument', required: true },
      ]
      return isDeepStrictEqual(args, want) ? undefined : `test_prompt_with_arguments has arguments ${JSON.stringify(args)}`
    },
    shown: 'test_prompt_with_arguments(arg1, arg2) and 3 more',
  },
  {
    what: 'prompts/get test_prompt_with_arguments',
    args: ['--method', 'prompts/get', '--prompt-name', 'test_prompt_with_arguments', '--prompt-args', 'arg1=hello', 'arg2=world'],
    check: ({ result }) => {
      const want = [{ role: 'user', content: { type: 'text', text: "Prompt with arguments: arg1='hello', arg2='world'" } }]
      return isDeepStrictEqual(result?.messages, want) ? undefined : `messages are ${JSON.stringify(result?.messages)}`
    },
    shown: "arg1='hello', arg2='world'",
  },
]

/**
 * The servers the Inspector talks to: how each is reached, its name, the tools it must list,
 * and the calls made of it. The everything server has no `add`: its tool call is `greet`
 * (a plain text result), its bad call gives `greet` a number for a string.
 */
const inspectorTargets = [
  {
    name: 'stdio',
    serverName: 'calculator',
    // the Inspector starts the server itself, with this Node
    target: () => [process.execPath, join(root, 'dist', 'examples', 'calculator.js')],
    tools: calculatorTools,
    calls: [addCall, badCall('add', 'a', 'x', '/a')],
  },
  {
    name: 'stateless http',
    serverName: 'calculator',
    server: (port) => ({ example: 'calculator.js', args: ['--http', '--port', String(port), '--host', '127.0.0.1'], quiet: true }),
    tools: calculatorTools,
    calls: [addCall, badCall('add', 'a', 'x', '/a')],
  },
  {
    name: 'stateful http',
    serverName: 'emcp-everything',
    server: () => ({ example: 'everything.js' }),
    tools: ['greet', 'json_schema_2020_12_tool', 'slow_compute', 'test_error_handling', 'test_simple_text'],
    calls: [
      {
        what: 'tools/call greet name=World',
        args: ['--method', 'tools/call', '--tool-name', 'greet', '--tool-arg', 'name=World'],
        check: ({ result }) => {
          const want = [{ type: 'text', text: 'Hello, World!' }]
          if (!isDeepStrictEqual(result?.content, want)) return `content is ${JSON.stringify(result?.content)}`
          return result.isError === true ? 'isError is set' : undefined
        },
        shown: '"Hello, World!"',
      },
      // the Inspector turns key=value into a number when the value reads as one
      badCall('greet', 'name', '5', '/name'),
      ...everythingCalls,
    ],
  },
]

const inspectorEras = [
  { era: 'legacy', protocolVersion: '2025-11-25' },
  { era: 'modern', protocolVersion: '2026-07-28' },
]

/** The checks made of one server in one era. */
const checksOf = (t, { era, protocolVersion }) => [
  {
    what: 'initialize',
    args: ['--method', 'initialize'],
    check: ({ result }) =>
      result?.protocolVersion !== protocolVersion
        ? `protocolVersion is ${JSON.stringify(result?.protocolVersion)}, not ${protocolVersion}`
        : result.serverInfo?.name !== t.serverName
          ? `serverInfo.name is ${JSON.stringify(result.serverInfo?.name)}, not ${t.serverName}`
          : undefined,
    shown: `${protocolVersion}, ${t.serverName}`,
  },
  {
    what: 'tools/list --strict',
    // --strict: the Inspector's schema portability checks; an error-severity problem exits 6
    args: ['--method', 'tools/list', '--strict'],
    check: ({ result }) => {
      const names = (result?.tools ?? []).map((tool) => tool.name)
      const missing = t.tools.filter((n) => !names.includes(n))
      return missing.length > 0 ? `missing ${missing.join(', ')} in ${JSON.stringify(names)}` : undefined
    },
    shown: `${t.tools.join(', ')} listed`,
  },
  ...t.calls,
].map((c) => ({ ...c, label: `${t.name} ${era}: ${c.what}`, args: [...c.args, '--protocol-era', era] }))

/** The last line of `text` that parses as JSON (the Inspector's result, or its error envelope), if any. */
const lastJson = (text) => {
  for (const line of text.split('\n').reverse()) {
    try {
      return JSON.parse(line)
    } catch {
      // not JSON: a status line
    }
  }
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

const indented = (text, max = 2_000) =>
  (text.length > max ? `${text.slice(0, max)}…` : text)
    .trimEnd()
    .split('\n')
    .map((l) => `    ${l}`)
    .join('\n')

/** One Inspector call and its check; prints one line, resolves to true when it passed. */
const inspect = async (node, bin, env, target, c) => {
  const args = [bin, ...target, ...c.args, '--format', 'json']
  const r = await run(node, args, { timeoutMs: inspectorCallTimeout, capture: true, echo: false, env })
  const result = lastJson(r.stdout)?.result
  const error = lastJson(r.stderr)?.error
  const why = r.timedOut
    ? `timed out after ${inspectorCallTimeout} ms`
    : !(c.ok ?? (({ code }) => code === 0))(r)
      ? `the Inspector exited with ${r.code}${error === undefined ? '' : ` (${error.code}: ${error.message})`}`
      : c.check({ code: r.code, result, error })
  if (why === undefined) {
    console.log(`inspector: ✓ ${c.label} -> ${c.shown}`)
    return true
  }
  console.log(`inspector: ✗ ${c.label}: ${why}`)
  const display = (a) => (a === process.execPath ? 'node' : isAbsolute(a) ? shown(a) : a)
  console.log(`  inspector ${[...target.map(display), ...c.args].join(' ')}`)
  if (r.stdout.trim() !== '') console.log(`  stdout:\n${indented(r.stdout)}`)
  if (r.stderr.trim() !== '') console.log(`  stderr:\n${indented(r.stderr)}`)
  return false
}

/** The inspector run: each server started on its own, asked in both eras; resolves with its tally. */
const runInspector = async (r, node, rest) => {
  if (rest.length > 0) say(`inspector: ${rest.join(' ')} is for the suites; the inspector run makes all its checks`)
  if (!(await ensureSuite(r))) return { passed: 0, failed: 1 }
  const cli = join(suiteDirOf(r), 'clients', 'cli', 'build', 'index.js')
  if (!existsSync(cli)) {
    console.error(`conformance: ${shown(cli)} is missing`)
    return { passed: 0, failed: 1 }
  }
  // the Inspector runs only when process.argv[1] is its own file's real path: started through a
  // symbolic link (a linked tool folder) it does nothing and exits 0. So: the real path.
  const bin = realpathSync(cli)
  // the Inspector keeps a catalog, a client config and a store under the home folder: here, one of the run's own
  const home = join(work, r.name, 'home')
  rmSync(home, { recursive: true, force: true })
  mkdirSync(home, { recursive: true })
  const env = {
    ...process.env,
    HOME: home,
    USERPROFILE: home,
    MCP_CATALOG_PATH: join(home, 'mcp.json'),
    MCP_CLIENT_CONFIG_PATH: join(home, 'client.json'),
    MCP_STORAGE_DIR: join(home, 'storage'),
    NO_PROXY: 'localhost,127.0.0.1',
    no_proxy: 'localhost,127.0.0.1',
    NO_COLOR: '1',
  }
  let passed = 0
  let failed = 0
  for (const t of inspectorTargets) {
    const checks = inspectorEras.flatMap((e) => checksOf(t, e))
    let server
    let target
    if (t.server === undefined) target = t.target()
    else {
      const port = await freePort()
      const spec = t.server(port)
      server = await startServer(port, spec)
      if (server === undefined) {
        console.log(`inspector: ✗ ${t.name}: dist/examples/${spec.example} did not start; its ${checks.length} checks are not made`)
        failed += checks.length
        continue
      }
      target = [`http://127.0.0.1:${port}/mcp`]
      say(`inspector: ${t.name}: serving dist/examples/${spec.example} at ${target[0]}`)
    }
    try {
      for (const c of checks) {
        if (await inspect(node, bin, env, target, c)) passed++
        else failed++
      }
    } finally {
      if (server !== undefined) await stopServer(server)
    }
  }
  return { passed, failed }
}

// ---------------------------------------------------------------------------------------
// main

/** Whether the suites run against `emcp proxy` fronting the everything server (`--via-proxy`, or `--via-proxy=<era asked first>`) rather than the server itself. */
let viaProxy = false

/** Splits the arguments into the runs picked (`--run`), `--via-proxy`, and what goes to the suites. */
const parseArgs = (argv) => {
  const picked = []
  const rest = []
  let target
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--via-proxy') viaProxy = true
    else if (argv[i].startsWith('--via-proxy=')) viaProxy = argv[i].slice('--via-proxy='.length)
    else if (argv[i] === '--run') picked.push(argv[++i])
    else if (argv[i].startsWith('--run=')) picked.push(argv[i].slice('--run='.length))
    else if (argv[i] === '--target') target = argv[++i]
    else if (argv[i].startsWith('--target=')) target = argv[i].slice('--target='.length)
    else rest.push(argv[i])
  }
  if (target !== undefined && !/^https?:\/\/(127\.0\.0\.1|localhost|\[::1\])(:\d+)?\//.test(target)) {
    console.error(`conformance: --target must be a loopback URL (http://127.0.0.1:PORT/mcp), got ${target}`)
    finish(0, 1)
  }
  const unknown = picked.filter((p) => !runs.some((r) => r.name === p))
  if (unknown.length > 0) {
    console.error(`conformance: no run named ${unknown.join(', ')} (runs: ${runs.map((r) => r.name).join(', ')})`)
    finish(0, 1)
  }
  return { picked: picked.length === 0 ? runs : runs.filter((r) => picked.includes(r.name)), rest, target }
}

/** The suite arguments of a run: its default selection, or the given ones at its revision. */
const selectionOf = (r, rest) => {
  if (rest.length === 0 || r.inspector) return r.selection
  const pinned = rest.some((a) => a === '--spec-version' || a.startsWith('--spec-version=') || a === '--requirements' || a.startsWith('--requirements='))
  return r.revision === undefined || pinned ? rest : [...rest, '--spec-version', r.revision]
}

/** One run: its own server, its own results folder; resolves with its tally. */
const runOne = async (r, node, rest, target) => {
  const label = `${r.pkg}@${r.version}`
  if (!(await ensureSuite(r))) return { passed: 0, failed: 1 }
  const bin = suiteBin(r)
  // the suite's client is the official SDK, at whatever its range resolved to when installed
  const suiteDir = suiteDirOf(r)
  const sdk =
    installedVersion(join(suiteDir, 'node_modules', '@modelcontextprotocol', 'sdk')) ??
    installedVersion(join(r.prefix, 'node_modules', '@modelcontextprotocol', 'sdk'))
  say(`${r.name}: the suite's client: @modelcontextprotocol/sdk@${sdk ?? 'unknown'}`)

  // --target: a server someone else started (another runtime); otherwise our own, built, and
  // with --via-proxy, `emcp proxy` (an HTTP front) fronting it
  const upstreamPort = target === undefined ? await freePort() : undefined
  const upstream = target === undefined ? await startServer(upstreamPort) : undefined
  if (target === undefined && upstream === undefined) return { passed: 0, failed: 1 }
  const proxied = target === undefined && viaProxy
  const port = proxied ? await freePort() : upstreamPort
  const front = proxied
    ? await startServer(port, { entry: join(root, 'bin', 'emcp.js'), args: ['proxy', `http://127.0.0.1:${upstreamPort}/mcp`, '--http', '--port', String(port), ...(viaProxy === true ? [] : ['--upstream-era', viaProxy])] })
    : upstream
  if (target === undefined && front === undefined) {
    await stopServer(upstream)
    return { passed: 0, failed: 1 }
  }
  const url = target ?? `http://localhost:${port}/mcp`
  say(target !== undefined ? `${r.name}: targeting ${url}` : `${r.name}: serving dist/examples/everything.js at ${url}${proxied ? ` through emcp proxy (upstream at http://127.0.0.1:${upstreamPort}/mcp)` : ''}`)

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
  if (front !== undefined && front !== upstream) await stopServer(front)
  if (upstream !== undefined) await stopServer(upstream)
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
  const { picked, rest, target } = parseArgs(process.argv.slice(2))
  if (target !== undefined && picked.some((r) => r.inspector)) {
    console.error('conformance: --target serves the suite runs only; pick them with --run')
    finish(0, 1)
  }
  // a target is served by whoever started it: nothing of ours to build
  const built = target === undefined ? (say('building (npm run build)'), await run(npm, ['run', 'build', '--silent'], { timeoutMs: minutes(5) })) : { code: 0 }
  if (built.code !== 0) {
    console.error(`conformance: the build failed (exit ${built.code})`)
    finish(0, 1)
  }
  const node = await ensureNode()
  if (node === undefined) finish(0, picked.length)

  const tallies = []
  for (const r of picked) {
    say(`== run ${r.name}: ${r.pkg}@${r.version} ${selectionOf(r, rest).join(' ')}`.trimEnd())
    tallies.push({ run: r, ...(await (r.inspector ? runInspector(r, node, rest) : runOne(r, node, rest, target))) })
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
