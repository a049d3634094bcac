#!/usr/bin/env node
/**
 * Type-checking cost of emcp against the official SDK (`npm run bench:types`).
 *
 * Generates servers of 100, 300 and 1000 tools twice from the same seeded specs (see
 * types-gen.mjs: every tool with an output schema), once with emcp and once with
 * `@modelcontextprotocol/sdk` and zod 4, and checks each with TypeScript 5.9 and 7.0 (`tsc
 * --noEmit --extendedDiagnostics`, strict, skipLibCheck). Runs are interleaved: each round
 * checks every file once, with every compiler, in an order that rotates from round to round,
 * so that a busy spell of the machine falls on all of them alike; timings are the median of
 * the rounds, instantiation and type counts are exact.
 *
 * A third file per size, `emcp:zod`, is the emcp server taking the SDK file's zod schemas (the
 * very same raw shapes): the cost of zod in emcp beside the SDK's; `emcp:zod-object` takes each
 * shape in `z.object(...)`. A fifth, `sdk:zod`, gives the SDK those very `z.object(...)` values (it takes shapes or objects), so
 * that one comparison has the same schema values on both sides: a `z.object` costs the
 * compiler its input and output types (about 400 instantiations per tool here) wherever it
 * is read, which the SDK's shapes, typed property by property, never build.
 *
 * For emcp it also checks two partial files per size, so that each step's cost shows:
 *   contracts  only the `emcp({...})` calls
 *   sum        the contracts and `mcpServer([...])`, without `implement`
 *   full       everything (the file compared with the SDK)
 *
 * Target (TypeScript 5.9): emcp, with literals and with zod, costs at most the SDK's
 * instantiations and check time at 300 and 1000 tools; the report says met or MISSED. Fails (exit 1) on any compiler error,
 * TS2589 ("excessively deep") in particular. Writes bench/results/types.json; work files go to
 * bench/.work/types/ (git-ignored).
 *
 *   npm run bench:types                        # sizes 100, 300, 1000; 3 rounds
 *   npm run bench:types -- --sizes 100,300     # other sizes
 *   npm run bench:types -- --runs 1            # one round (counts are exact either way)
 *   npm run bench:types -- --compilers 5.9     # one compiler
 *   npm run bench:types -- --no-breakdown      # skip the partial emcp files
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { cpus, totalmem } from 'node:os'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { emcpFile, emcpZodFile, sdkFile, toolSpec } from './types-gen.mjs'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const work = join(root, 'bench', '.work', 'types')
const resultsFile = join(root, 'bench', 'results', 'types.json')
const TIMEOUT_MS = 5 * 60 * 1000 // per compiler run

const versionOf = (pkg) => JSON.parse(readFileSync(join(root, 'node_modules', pkg, 'package.json'), 'utf8')).version

/** The compilers: TypeScript 5.9 (`typescript`) and 7.0 (`typescript7`, the native compiler). */
const allCompilers = [
  { id: '5.9', pkg: 'typescript', tsc: join(root, 'node_modules', 'typescript', 'bin', 'tsc') },
  { id: '7.0', pkg: 'typescript7', tsc: join(root, 'node_modules', 'typescript7', 'bin', 'tsc') },
]

// ---------------------------------------------------------------------------------------
// arguments

const argv = process.argv.slice(2)
const flag = (name) => {
  const i = argv.indexOf(name)
  return i === -1 ? undefined : argv[i + 1]
}
const sizes = (flag('--sizes') ?? '100,300,1000').split(',').map(Number)
const runs = Number(flag('--runs') ?? 3)
const breakdown = !argv.includes('--no-breakdown')
const compilerIds = (flag('--compilers') ?? '5.9,7.0').split(',')
const compilers = allCompilers.filter((c) => compilerIds.includes(c.id))
const invokedDirectly = process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]
if (invokedDirectly && (sizes.some((n) => !Number.isInteger(n) || n < 1) || !(runs >= 1) || compilers.length !== compilerIds.length)) {
  console.error('usage: node bench/types.mjs [--sizes 100,300,1000] [--runs N] [--compilers 5.9,7.0] [--no-breakdown]')
  process.exit(2)
}

// ---------------------------------------------------------------------------------------
// running the compiler

const tsconfig = {
  compilerOptions: {
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    lib: ['ES2022'],
    types: ['node'],
    strict: true,
    skipLibCheck: true,
    noEmit: true,
  },
  files: ['server.ts'],
}

/** Writes one generated server and its tsconfig into `dir`. */
const write = (dir, source) => {
  mkdirSync(dir, { recursive: true })
  writeFileSync(join(dir, 'tsconfig.json'), `${JSON.stringify(tsconfig, null, 2)}\n`)
  writeFileSync(join(dir, 'server.ts'), source)
}

const metric = (out, label) => {
  const m = out.match(new RegExp(`^${label}:\\s+([0-9.]+)(K|s)?\\s*$`, 'm'))
  return m ? Number(m[1]) : NaN
}

/**
 * Runs one compiler on one folder under bash, whose `times` reports the CPU time of every
 * process the run started (TypeScript 7 runs a native binary on several threads): unlike
 * the wall-clock "Check time", it barely moves when other processes compete for the cores.
 */
const checkOnce = (compiler, dir) => {
  const script = '"$@"; s=$?; times; exit $s'
  const res = spawnSync('bash', ['-c', script, 'bash', process.execPath, compiler.tsc, '-p', join(dir, 'tsconfig.json'), '--extendedDiagnostics'], {
    cwd: root,
    encoding: 'utf8',
    timeout: TIMEOUT_MS,
    maxBuffer: 64 * 1024 * 1024,
  })
  if (res.error) throw new Error(`${relative(root, dir)}: ${res.error.message}`)
  const out = `${res.stdout}${res.stderr}`
  // the last line of `times`: user and system time of the children
  const children = out.trim().split('\n').at(-1)?.match(/(\d+)m([\d.]+)s\s+(\d+)m([\d.]+)s/)
  const cpuS = children ? Number(children[1]) * 60 + Number(children[2]) + Number(children[3]) * 60 + Number(children[4]) : NaN
  return {
    status: res.status,
    errors: out.split('\n').filter((l) => /error TS\d+/.test(l)),
    types: metric(out, 'Types'),
    instantiations: metric(out, 'Instantiations'),
    memoryMB: Math.round(metric(out, 'Memory used') / 1024),
    checkS: metric(out, 'Check time'),
    totalS: metric(out, 'Total time'),
    cpuS,
  }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]

/** Builds dist/ when it is missing or older than src/ (the bench reads emcp as users do: its .d.ts). */
const ensureBuilt = () => {
  const dts = join(root, 'dist', 'src', 'index.d.ts')
  const newest = (dir) =>
    readdirSync(dir, { withFileTypes: true }).reduce((m, e) => {
      const p = join(dir, e.name)
      return Math.max(m, e.isDirectory() ? newest(p) : statSync(p).mtimeMs)
    }, 0)
  if (existsSync(dts) && statSync(dts).mtimeMs >= newest(join(root, 'src'))) return
  console.log('building dist/ (tsc -p tsconfig.build.json) ...')
  execFileSync(process.execPath, [allCompilers[0].tsc, '-p', join(root, 'tsconfig.build.json')], { cwd: root, stdio: 'inherit', timeout: TIMEOUT_MS })
}

// ---------------------------------------------------------------------------------------
// report

const table = (header, rows) => {
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((row) => String(row[c]).length)))
  const fmt = (row) => row.map((v, c) => (c < 3 ? String(v).padEnd(widths[c]) : String(v).padStart(widths[c]))).join('  ')
  return [fmt(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(fmt)].join('\n')
}

const ratio = (a, b) => Number((a / b).toFixed(2))

/** Per size and compiler: emcp against the SDK, and the cost of each emcp step per tool. */
const report = (rows) => {
  const find = (ts, lib, n) => rows.find((r) => r.ts === ts && r.lib === lib && r.tools === n)
  const lines = []
  lines.push(
    table(
      ['ts', 'tools', 'library', 'check s', 'cpu s', 'instantiations', 'per tool', 'types', 'memory MB', 'errors'],
      compilers.flatMap((c) =>
        sizes.flatMap((n) =>
          ['sdk', 'sdk:zod', 'emcp', 'emcp:zod', 'emcp:zod-object'].map((lib) => {
            const r = find(c.id, lib, n)
            return [c.id, n, lib, r.checkS.toFixed(2), r.cpuS.toFixed(2), r.instantiations, r.perTool, r.types, r.memoryMB, r.errors]
          }),
        ),
      ),
    ),
  )
  const ratiosOf = (lib, base = 'sdk') =>
    compilers.flatMap((c) =>
      sizes.map((n) => {
        const e = find(c.id, lib, n)
        const s = find(c.id, base, n)
        return { ts: c.id, tools: n, instantiations: ratio(e.instantiations, s.instantiations), check: ratio(e.checkS, s.checkS), cpu: ratio(e.cpuS, s.cpuS), memory: ratio(e.memoryMB, s.memoryMB) }
      }),
    )
  const ratioTable = (rs) => table(['ts', 'tools', '', 'instantiations', 'check', 'cpu', 'memory'], rs.map((r) => [r.ts, r.tools, '', r.instantiations, r.check, r.cpu, r.memory]))
  const ratios = ratiosOf('emcp')
  const zodRatios = ratiosOf('emcp:zod')
  const sameZodRatios = ratiosOf('emcp:zod-object', 'sdk:zod')
  const objectZodRatios = ratiosOf('emcp:zod-object')
  lines.push('', 'emcp / SDK', ratioTable(ratios))
  lines.push('', 'emcp with zod shapes / SDK with the same zod shapes', ratioTable(zodRatios))
  lines.push('', 'emcp with zod objects / SDK with zod shapes', ratioTable(objectZodRatios))
  lines.push('', 'emcp with zod objects / SDK with the same zod objects', ratioTable(sameZodRatios))
  let stages = []
  if (breakdown) {
    stages = compilers.flatMap((c) =>
      sizes.map((n) => {
        const [k, s, f] = ['emcp:contracts', 'emcp:sum', 'emcp'].map((lib) => find(c.id, lib, n))
        const per = (x) => Math.round(x / n)
        const ms = (x) => Number(((x * 1000) / n).toFixed(2))
        return {
          ts: c.id,
          tools: n,
          instantiations: { emcp: per(k.instantiations), mcpServer: per(s.instantiations - k.instantiations), implement: per(f.instantiations - s.instantiations) },
          checkMsPerTool: { emcp: ms(k.checkS), mcpServer: ms(s.checkS - k.checkS), implement: ms(f.checkS - s.checkS) },
        }
      }),
    )
    lines.push(
      '',
      'emcp per tool, by step: emcp({...}) contracts, then mcpServer([...]), then .implement({...})',
      table(
        ['ts', 'tools', '', 'emcp() inst', 'mcpServer inst', 'implement inst', 'emcp() ms', 'mcpServer ms', 'implement ms'],
        stages.map((s) => [s.ts, s.tools, '', s.instantiations.emcp, s.instantiations.mcpServer, s.instantiations.implement, s.checkMsPerTool.emcp, s.checkMsPerTool.mcpServer, s.checkMsPerTool.implement]),
      ),
    )
  }
  const targets = sizes
    .filter((n) => (n === 300 || n === 1000) && compilers.some((c) => c.id === '5.9'))
    .flatMap((n) =>
      [['emcp', 'sdk'], ['emcp:zod', 'sdk'], ['emcp:zod-object', 'sdk:zod']].map(([lib, base]) => {
        const e = find('5.9', lib, n)
        const s = find('5.9', base, n)
        return { lib, base, tools: n, instantiations: e.instantiations <= s.instantiations, checkTime: e.checkS <= s.checkS }
      }),
    )
  if (targets.length > 0) {
    lines.push('', 'targets (TypeScript 5.9): emcp (literals, and zod) at most the SDK in instantiations and check time')
    for (const t of targets) {
      const e = find('5.9', t.lib, t.tools)
      const s = find('5.9', t.base, t.tools)
      lines.push(
        `  ${String(t.tools).padStart(5)} tools, ${t.lib.padEnd(8)} vs ${t.base.padEnd(7)}: instantiations ${e.instantiations} vs ${s.instantiations} ${t.instantiations ? 'met' : 'MISSED'}, ` +
          `check ${e.checkS.toFixed(2)} s vs ${s.checkS.toFixed(2)} s ${t.checkTime ? 'met' : 'MISSED'}`,
      )
    }
  }
  return { text: lines.join('\n'), ratios, zodRatios, objectZodRatios, sameZodRatios, stages, targets }
}

// ---------------------------------------------------------------------------------------
// main

const main = () => {
  ensureBuilt()
  rmSync(work, { recursive: true, force: true })
  const libs = ['sdk', 'sdk:zod', 'emcp', 'emcp:zod', 'emcp:zod-object', ...(breakdown ? ['emcp:contracts', 'emcp:sum'] : [])]
  const rows = []
  let failed = false
  for (const n of sizes) {
    const specs = Array.from({ length: n }, (_, i) => toolSpec(i))
    const sources = { sdk: sdkFile(specs), 'sdk:zod': sdkFile(specs, true), emcp: emcpFile(specs, 'full'), 'emcp:zod': emcpZodFile(specs), 'emcp:zod-object': emcpZodFile(specs, true), 'emcp:contracts': emcpFile(specs, 'contracts'), 'emcp:sum': emcpFile(specs, 'sum') }
    const dirs = Object.fromEntries(libs.map((lib) => [lib, join(work, `${lib.replace(':', '-')}-${n}`)]))
    for (const lib of libs) write(dirs[lib], sources[lib])
    const samples = new Map()
    for (let round = 0; round < runs; round++)
      for (const c of compilers)
        for (let j = 0; j < libs.length; j++) {
          const lib = libs[(j + round) % libs.length]
          process.stdout.write(`round ${round + 1}/${runs}: TypeScript ${c.id}, ${lib}, ${n} tools ... `)
          const r = checkOnce(c, dirs[lib])
          console.log(`${r.instantiations} instantiations, check ${r.checkS} s${r.errors.length > 0 ? `, ${r.errors.length} ERRORS` : ''}`)
          const key = `${c.id} ${lib}`
          samples.set(key, [...(samples.get(key) ?? []), r])
        }
    for (const c of compilers)
      for (const lib of libs) {
        const [first, ...rest] = samples.get(`${c.id} ${lib}`)
        const all = [first, ...rest]
        const deep = first.errors.filter((l) => l.includes('TS2589'))
        if (first.errors.length > 0 || first.status !== 0) {
          failed = true
          for (const l of first.errors.slice(0, 10)) console.error(`  ${l.split(root).join('.')}`)
          if (deep.length > 0) console.error(`  TS2589 (excessively deep) in ${relative(root, dirs[lib])}`)
        }
        rows.push({
          ts: c.id,
          lib,
          tools: n,
          checkS: median(all.map((x) => x.checkS)),
          totalS: median(all.map((x) => x.totalS)),
          cpuS: median(all.map((x) => x.cpuS)),
          instantiations: first.instantiations,
          perTool: Math.round(first.instantiations / n),
          types: first.types,
          memoryMB: median(all.map((x) => x.memoryMB)),
          errors: first.errors.length,
          ts2589: deep.length,
        })
      }
  }

  const { text, ratios, zodRatios, objectZodRatios, sameZodRatios, stages, targets } = report(rows)
  console.log(`\n${text}`)

  mkdirSync(dirname(resultsFile), { recursive: true })
  const results = {
    benchmark: 'type-checking cost of a generated server, every tool with an output schema: emcp vs @modelcontextprotocol/sdk (registerTool, zod 4 shapes)',
    command: 'npm run bench:types',
    date: new Date().toISOString(),
    machine: { cpus: cpus().length, cpuModel: cpus()[0]?.model ?? 'unknown', memoryGB: Math.round(totalmem() / 2 ** 30), node: process.version },
    versions: {
      ...Object.fromEntries(compilers.map((c) => [`typescript ${c.id}`, versionOf(c.pkg)])),
      sdk: versionOf('@modelcontextprotocol/sdk'),
      zod: versionOf('zod'),
      'json-schema-to-ts': versionOf('json-schema-to-ts'),
    },
    compilerOptions: tsconfig.compilerOptions,
    rounds: runs,
    notes: [
      'rounds are interleaved: each round checks every file with every compiler, in an order rotated from round to round',
      'checkS/totalS: "Check time"/"Total time" of --extendedDiagnostics (wall clock, median of the rounds); cpuS: CPU seconds of the compiler and its threads (median); instantiations, types: exact counts',
      'perTool: instantiations / tools (includes the fixed cost of the imports: about 1k for emcp, 16k for the SDK)',
      'emcp:contracts = only the emcp() calls; emcp:sum = contracts + mcpServer([...]); emcp = everything (+ implement)',
      'emcp:zod = the emcp server with the SDK file\'s zod schemas, the very same raw shapes; zodRatios: emcp:zod / sdk',
      'emcp:zod-object = the emcp server with those shapes each in z.object(...); objectZodRatios: emcp:zod-object / sdk',
      'sdk:zod = the SDK server given those same z.object(...) values; sameZodRatios: emcp:zod-object / sdk:zod',
    ],
    rows,
    ratios,
    zodRatios,
    objectZodRatios,
    sameZodRatios,
    stages,
    targets,
    failed,
  }
  writeFileSync(resultsFile, `${JSON.stringify(results, null, 2)}\n`)
  console.log(`\nwrote ${relative(root, resultsFile)}`)
  if (failed) {
    console.error('FAILED: a generated server does not compile cleanly (see the errors above)')
    process.exit(1)
  }
}

if (invokedDirectly) main()
