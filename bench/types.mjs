#!/usr/bin/env node
/**
 * Type-checking cost of emcp against the official SDK (`npm run bench:types`).
 *
 * Generates servers of 100, 300 and 1000 tools twice, once written with emcp (JSON Schema
 * literals, `mcpServer([...]).implement({...})`) and once with `@modelcontextprotocol/sdk`
 * (`McpServer.registerTool` with zod 4 shapes), from the same seeded tool specs: varied
 * property names and types (string, number, integer, boolean, enum, array, nested object),
 * varied required sets, about half the tools with an output schema, handlers that use their
 * arguments and return typed outputs. Each server is checked with the TypeScript compiler of
 * node_modules (`tsc --noEmit --extendedDiagnostics`, strict, skipLibCheck).
 *
 * For emcp it also checks two partial files per size, to show where the cost goes:
 *   contracts  only the `emcp({...})` calls
 *   sum        the contracts and `mcpServer([...])`, without `implement`
 *   full       everything (the file compared with the SDK)
 *
 * Fails (exit 1) on any compiler error, TS2589 ("excessively deep") in particular.
 * Writes bench/results/types.json; work files go to bench/.work/types/ (git-ignored).
 *
 *   npm run bench:types                      # sizes 100, 300, 1000
 *   npm run bench:types -- --sizes 100,300   # other sizes
 *   npm run bench:types -- --runs 1          # one timing per file instead of the median of 3
 *                                            # (instantiation and type counts are exact either way)
 *   npm run bench:types -- --no-breakdown    # skip the partial emcp files
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { cpus, totalmem } from 'node:os'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const work = join(root, 'bench', '.work', 'types')
const resultsFile = join(root, 'bench', 'results', 'types.json')
const tscJs = join(root, 'node_modules', 'typescript', 'lib', 'tsc.js')
const TIMEOUT_MS = 5 * 60 * 1000 // per compiler run

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
const invokedDirectly = process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]
if (invokedDirectly && (sizes.some((n) => !Number.isInteger(n) || n < 1) || !(runs >= 1))) {
  console.error('usage: node bench/types.mjs [--sizes 100,300,1000] [--runs N] [--no-breakdown]')
  process.exit(2)
}

// ---------------------------------------------------------------------------------------
// tool specs: seeded, so every run (and both libraries) see the same tools

const mulberry32 = (seed) => () => {
  seed = (seed + 0x6d2b79f5) | 0
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296
}

const verbs = ['get', 'list', 'find', 'create', 'update', 'delete', 'sum', 'count', 'convert', 'check', 'render', 'send']
const nouns = ['user', 'order', 'invoice', 'city', 'file', 'ticket', 'metric', 'event', 'price', 'note', 'route', 'image']
const propNames = [
  'query', 'limit', 'offset', 'city', 'country', 'amount', 'currency', 'verbose', 'tags', 'ids', 'from', 'to', 'unit',
  'mode', 'format', 'page', 'size', 'owner', 'title', 'body', 'priority', 'dryRun', 'timeout', 'retries', 'region',
  'label', 'color', 'scale', 'depth', 'filter', 'sort', 'target', 'source', 'weight', 'height', 'width', 'lang',
]
const enumPool = ['asc', 'desc', 'fast', 'slow', 'metric', 'imperial', 'json', 'text', 'low', 'high', 'red', 'green']
const outNames = ['result', 'total', 'label', 'ok', 'items', 'count', 'message', 'score']
const scalarKinds = ['string', 'number', 'integer', 'boolean']
const inputKinds = ['string', 'number', 'integer', 'boolean', 'enum', 'array', 'object']

const pick = (rnd, xs) => xs[Math.floor(rnd() * xs.length)]
const pickDistinct = (rnd, xs, n) => {
  const pool = [...xs]
  const out = []
  while (out.length < n && pool.length > 0) out.push(pool.splice(Math.floor(rnd() * pool.length), 1)[0])
  return out
}

/** A property spec: { kind, values?, items?, props?, required? }. */
const propSpec = (rnd, depth) => {
  const kind = depth > 0 ? pick(rnd, scalarKinds) : pick(rnd, inputKinds)
  if (kind === 'enum') return { kind, values: pickDistinct(rnd, enumPool, 2 + Math.floor(rnd() * 3)) }
  if (kind === 'array') return { kind, items: pick(rnd, ['string', 'number']) }
  if (kind === 'object') {
    const names = pickDistinct(rnd, ['x', 'y', 'z', 'name', 'enabled', 'level'], 1 + Math.floor(rnd() * 3))
    const props = names.map((name) => ({ name, ...propSpec(rnd, depth + 1) }))
    return { kind, props, required: names.filter((_, i) => i === 0 || rnd() < 0.5) }
  }
  return { kind }
}

export const toolSpec = (i) => {
  const rnd = mulberry32(i * 7919 + 17)
  const names = pickDistinct(rnd, propNames, 1 + Math.floor(rnd() * 6))
  const props = names.map((name) => ({ name, ...propSpec(rnd, 0), described: rnd() < 0.5 }))
  const required = names.filter(() => rnd() < 0.6)
  const hasOutput = rnd() < 0.5
  const output = hasOutput
    ? pickDistinct(rnd, outNames, 1 + Math.floor(rnd() * 3)).map((name) => ({ name, kind: pick(rnd, ['number', 'string', 'boolean', 'integer', 'strings']) }))
    : undefined
  return {
    name: `${pick(rnd, verbs)}_${pick(rnd, nouns)}_${String(i).padStart(4, '0')}`,
    description: `Tool ${i}: ${names.join(', ')}.`,
    props,
    required,
    closed: rnd() < 0.7,
    output,
  }
}

// ---------------------------------------------------------------------------------------
// handler bodies (the same arithmetic for both libraries: it uses every argument)

/** An expression of type number that reads `v` (of property spec `p`). */
const numberOf = (p, v, optional) => {
  switch (p.kind) {
    case 'string':
      return optional ? `(${v} ?? '').length` : `${v}.length`
    case 'number':
    case 'integer':
      return optional ? `(${v} ?? 0)` : v
    case 'boolean':
      return `(${v} === true ? 1 : 0)`
    case 'enum':
      return `(${v} === '${p.values[0]}' ? 1 : 0)`
    case 'array':
      return p.items === 'number'
        ? `(${v}${optional ? ' ?? []' : ''}).reduce((s, x) => s + x, 0)`
        : `(${v}${optional ? ' ?? []' : ''}).join('').length`
    case 'object': {
      const o = optional ? `${v}?.` : `${v}.`
      const parts = p.props.map((q) => {
        const req = p.required.includes(q.name) && !optional
        return numberOf(q, `${o}${q.name}`, !req)
      })
      return `(${parts.join(' + ')})`
    }
  }
  throw new Error(p.kind)
}

const bodyOf = (s) => `${s.props.map((p) => numberOf(p, p.name, !s.required.includes(p.name))).join(' + ')}`

const outputValue = (o) => {
  switch (o.kind) {
    case 'number':
      return 'n'
    case 'integer':
      return 'Math.round(n)'
    case 'string':
      return '`${n}`'
    case 'boolean':
      return 'n > 0'
    case 'strings':
      return '[String(n)]'
  }
  throw new Error(o.kind)
}
const outputObject = (s) => `{ ${s.output.map((o) => `${o.name}: ${outputValue(o)}`).join(', ')} }`

// ---------------------------------------------------------------------------------------
// emcp

const jsonSchemaOf = (p) => {
  const d = p.described ? `, description: 'The ${p.name}.'` : ''
  switch (p.kind) {
    case 'string':
    case 'number':
    case 'integer':
    case 'boolean':
      return `{ type: '${p.kind}'${d} }`
    case 'enum':
      return `{ type: 'string', enum: [${p.values.map((v) => `'${v}'`).join(', ')}]${d} }`
    case 'array':
      return `{ type: 'array', items: { type: '${p.items}' }${d} }`
    case 'object':
      return `{ type: 'object', properties: { ${p.props.map((q) => `${q.name}: ${jsonSchemaOf(q)}`).join(', ')} }, required: [${p.required.map((r) => `'${r}'`).join(', ')}], additionalProperties: false${d} }`
  }
  throw new Error(p.kind)
}
const jsonOutputOf = (o) =>
  o.kind === 'strings' ? `{ type: 'array', items: { type: 'string' } }` : `{ type: '${o.kind}' }`

const emcpContract = (s, i) => {
  const req = s.required.length > 0 ? ` required: [${s.required.map((r) => `'${r}'`).join(', ')}],` : ''
  const closed = s.closed ? ' additionalProperties: false,' : ''
  const out = s.output
    ? `\n  output: { type: 'object', properties: { ${s.output.map((o) => `${o.name}: ${jsonOutputOf(o)}`).join(', ')} }, required: [${s.output.map((o) => `'${o.name}'`).join(', ')}], additionalProperties: false },`
    : ''
  return `export const t${i} = emcp({
  name: '${s.name}',
  description: '${s.description}',
  input: { type: 'object', properties: { ${s.props.map((p) => `${p.name}: ${jsonSchemaOf(p)}`).join(', ')} },${req}${closed} },${out}
})`
}

const emcpHandler = (s) => {
  const args = `{ ${s.props.map((p) => p.name).join(', ')} }`
  const result = s.output ? outputObject(s) : '`${n}`'
  return `  ${s.name}: (${args}) => {\n    const n = ${bodyOf(s)}\n    return ${result}\n  },`
}

/** stage: 'contracts' | 'sum' | 'full' */
export const emcpFile = (specs, stage) => {
  const lines = [`import { emcp${stage === 'contracts' ? '' : ', mcpServer'} } from 'emcp'`, '']
  specs.forEach((s, i) => lines.push(emcpContract(s, i)))
  if (stage === 'contracts') return `${lines.join('\n')}\n`
  const list = specs.map((_, i) => `t${i}`).join(', ')
  lines.push('', `const builder = mcpServer([${list}], { name: 'bench', version: '1.0.0' })`)
  if (stage === 'sum') return `${lines.join('\n')}\nexport default builder\n`
  lines.push('', 'export const server = builder.implement({')
  for (const s of specs) lines.push(emcpHandler(s))
  lines.push('})', '')
  return lines.join('\n')
}

// ---------------------------------------------------------------------------------------
// the official SDK with zod 4

const zodOf = (p, optional) => {
  let z
  switch (p.kind) {
    case 'string':
      z = 'z.string()'
      break
    case 'number':
      z = 'z.number()'
      break
    case 'integer':
      z = 'z.number().int()'
      break
    case 'boolean':
      z = 'z.boolean()'
      break
    case 'enum':
      z = `z.enum([${p.values.map((v) => `'${v}'`).join(', ')}])`
      break
    case 'array':
      z = `z.array(z.${p.items}())`
      break
    case 'object':
      z = `z.object({ ${p.props.map((q) => `${q.name}: ${zodOf(q, !p.required.includes(q.name))}`).join(', ')} }).strict()`
      break
    default:
      throw new Error(p.kind)
  }
  if (p.described) z += `.describe('The ${p.name}.')`
  return optional ? `${z}.optional()` : z
}
const zodOutputOf = (o) =>
  ({ number: 'z.number()', integer: 'z.number().int()', string: 'z.string()', boolean: 'z.boolean()', strings: 'z.array(z.string())' })[o.kind]

const sdkTool = (s) => {
  const input = `{ ${s.props.map((p) => `${p.name}: ${zodOf(p, !s.required.includes(p.name))}`).join(', ')} }`
  const out = s.output ? `\n    outputSchema: { ${s.output.map((o) => `${o.name}: ${zodOutputOf(o)}`).join(', ')} },` : ''
  const args = `{ ${s.props.map((p) => p.name).join(', ')} }`
  const result = s.output
    ? `{ const structuredContent = ${outputObject(s)}\n    return { content: [{ type: 'text', text: JSON.stringify(structuredContent) }], structuredContent } }`
    : '({ content: [{ type: \'text\', text: `${n}` }] })'
  const ret = s.output ? result : `return ${result}`
  return `server.registerTool(
  '${s.name}',
  {
    description: '${s.description}',
    inputSchema: ${input},${out}
  },
  async (${args}) => {
    const n = ${bodyOf(s)}
    ${ret}
  },
)`
}

export const sdkFile = (specs) =>
  [
    `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'`,
    `import * as z from 'zod'`,
    '',
    `export const server = new McpServer({ name: 'bench', version: '1.0.0' })`,
    '',
    ...specs.map(sdkTool),
    '',
  ].join('\n')

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
export const write = (dir, source) => {
  mkdirSync(dir, { recursive: true })
  writeFileSync(join(dir, 'tsconfig.json'), `${JSON.stringify(tsconfig, null, 2)}\n`)
  writeFileSync(join(dir, 'server.ts'), source)
}

const metric = (out, label) => {
  const m = out.match(new RegExp(`^${label}:\\s+([0-9.]+)(K|s)?\\s*$`, 'm'))
  return m ? Number(m[1]) : NaN
}

/**
 * Runs tsc.js in a process that reports its own CPU time on exit: unlike the wall-clock
 * "Check time", it barely moves when other processes compete for the (2) cores.
 */
const cpuWrapper = [
  'const [tsc, ...args] = process.argv.slice(1)',
  'process.argv = [process.argv[0], tsc, ...args]',
  "process.on('exit', () => { const u = process.cpuUsage(); process.stdout.write(`CPU time: ${((u.user + u.system) / 1e6).toFixed(2)}s\\n`) })",
  'require(tsc)',
].join('\n')

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]

/** Checks one folder `times` times; counts come from the first run, timings are medians. */
export const check = (dir, times = runs) => {
  const samples = []
  for (let r = 0; r < times; r++) {
    const res = spawnSync(process.execPath, ['-e', cpuWrapper, tscJs, '-p', join(dir, 'tsconfig.json'), '--extendedDiagnostics'], {
      cwd: root,
      encoding: 'utf8',
      timeout: TIMEOUT_MS,
      maxBuffer: 64 * 1024 * 1024,
    })
    if (res.error) throw new Error(`${relative(root, dir)}: ${res.error.message}`)
    const out = `${res.stdout}${res.stderr}`
    samples.push({
      status: res.status,
      errors: out.split('\n').filter((l) => /error TS\d+/.test(l)),
      lines: metric(out, 'Lines of TypeScript'),
      types: metric(out, 'Types'),
      instantiations: metric(out, 'Instantiations'),
      memoryMB: Math.round(metric(out, 'Memory used') / 1024),
      checkS: metric(out, 'Check time'),
      totalS: metric(out, 'Total time'),
      cpuS: metric(out, 'CPU time'),
    })
  }
  return {
    ...samples[0],
    checkS: median(samples.map((x) => x.checkS)),
    totalS: median(samples.map((x) => x.totalS)),
    cpuS: median(samples.map((x) => x.cpuS)),
    memoryMB: median(samples.map((x) => x.memoryMB)),
  }
}

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
  execFileSync(process.execPath, [tscJs, '-p', join(root, 'tsconfig.build.json')], { cwd: root, stdio: 'inherit', timeout: TIMEOUT_MS })
}

const versionOf = (pkg) => JSON.parse(readFileSync(join(root, 'node_modules', pkg, 'package.json'), 'utf8')).version

/** The figures of the issue, measured on this 2-core machine with TS 5.9.3: the SDK with zod. */
const reference = {
  source: 'issue: official SDK with zod, TS 5.9.3, 2-core machine; a naive json-schema-to-ts tuple sum costs about 2,200 instantiations per tool',
  300: { checkS: 3.4, instantiations: 216_000 },
  1000: { checkS: 9.3, instantiations: 682_000 },
}

// ---------------------------------------------------------------------------------------
// report

const table = (header, rows) => {
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((row) => String(row[c]).length)))
  const fmt = (row) => row.map((v, c) => (c < 2 ? String(v).padEnd(widths[c]) : String(v).padStart(widths[c]))).join('  ')
  return [fmt(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(fmt)].join('\n')
}

const report = (rows, libs) => {
  const find = (lib, n) => rows.find((r) => r.lib === lib && r.tools === n)
  /** Instantiations per added tool between consecutive sizes: the fixed cost of the imports drops out. */
  const marginal = (lib, i) =>
    i === 0 ? '-' : Math.round((find(lib, sizes[i]).instantiations - find(lib, sizes[i - 1]).instantiations) / (sizes[i] - sizes[i - 1]))
  const lines = []
  lines.push(
    table(
      ['tools', 'library', 'check s', 'total s', 'cpu s', 'instantiations', 'per tool', 'marginal', 'types', 'memory MB', 'errors'],
      sizes.flatMap((n, i) =>
        libs.map((lib) => {
          const r = find(lib, n)
          return [n, lib, r.checkS.toFixed(2), r.totalS.toFixed(2), r.cpuS.toFixed(2), r.instantiations, r.perTool, marginal(lib, i), r.types, r.memoryMB, r.errors]
        }),
      ),
    ),
  )
  const ratios = sizes.map((n) => {
    const e = find('emcp', n)
    const s = find('sdk', n)
    const q = (a, b) => Number((a / b).toFixed(2))
    return {
      tools: n,
      checkTime: q(e.checkS, s.checkS),
      totalTime: q(e.totalS, s.totalS),
      cpuTime: q(e.cpuS, s.cpuS),
      instantiations: q(e.instantiations, s.instantiations),
      types: q(e.types, s.types),
      memory: q(e.memoryMB, s.memoryMB),
    }
  })
  lines.push(
    '',
    'emcp / SDK',
    table(
      ['tools', '', 'check', 'total', 'cpu', 'instantiations', 'types', 'memory'],
      ratios.map((r) => [r.tools, '', r.checkTime, r.totalTime, r.cpuTime, r.instantiations, r.types, r.memory]),
    ),
  )
  const targets = sizes
    .filter((n) => reference[n] !== undefined)
    .map((n) => {
      const e = find('emcp', n)
      const t = reference[n]
      return {
        tools: n,
        checkS: e.checkS,
        targetCheckS: t.checkS,
        instantiations: e.instantiations,
        targetInstantiations: t.instantiations,
        met: e.checkS <= t.checkS && e.instantiations <= t.instantiations,
      }
    })
  if (targets.length > 0) {
    lines.push('', 'emcp against the issue\'s targets (the SDK with zod as measured there)')
    for (const t of targets)
      lines.push(
        `  ${String(t.tools).padStart(5)} tools: check ${t.checkS.toFixed(2)} s (target ${t.targetCheckS} s) ${t.checkS <= t.targetCheckS ? 'ok' : 'MISSED'}, ` +
          `instantiations ${t.instantiations} (target ${t.targetInstantiations}) ${t.instantiations <= t.targetInstantiations ? 'ok' : 'MISSED'}`,
      )
  }
  let stages
  if (libs.includes('emcp:contracts')) {
    stages = sizes.map((n) => {
      const c = find('emcp:contracts', n).instantiations
      const s = find('emcp:sum', n).instantiations
      const f = find('emcp', n).instantiations
      return { tools: n, contracts: Math.round(c / n), mcpServer: Math.round((s - c) / n), implement: Math.round((f - s) / n) }
    })
    lines.push('', 'emcp instantiations per tool, by stage: emcp() contracts, + mcpServer([...]), + implement({...})')
    for (const st of stages)
      lines.push(`  ${String(st.tools).padStart(5)} tools: contracts ${st.contracts}, mcpServer +${st.mcpServer}, implement +${st.implement}`)
  }
  return { text: lines.join('\n'), ratios, targets, stages }
}

// ---------------------------------------------------------------------------------------
// main

const main = () => {
  ensureBuilt()
  rmSync(work, { recursive: true, force: true })
  const libs = ['sdk', 'emcp', ...(breakdown ? ['emcp:contracts', 'emcp:sum'] : [])]
  const rows = []
  let failed = false
  for (const n of sizes) {
    const specs = Array.from({ length: n }, (_, i) => toolSpec(i))
    const sources = {
      sdk: () => sdkFile(specs),
      emcp: () => emcpFile(specs, 'full'),
      'emcp:contracts': () => emcpFile(specs, 'contracts'),
      'emcp:sum': () => emcpFile(specs, 'sum'),
    }
    for (const lib of libs) {
      const dir = join(work, `${lib.replace(':', '-')}-${n}`)
      write(dir, sources[lib]())
      process.stdout.write(`checking ${lib} with ${n} tools ... `)
      // the partial files only explain where emcp's instantiations go: one timing is enough
      const r = check(dir, lib.includes(':') ? 1 : runs)
      const deep = r.errors.filter((l) => l.includes('TS2589'))
      console.log(`${r.instantiations} instantiations, check ${r.checkS} s${r.errors.length > 0 ? `, ${r.errors.length} ERRORS` : ''}`)
      if (r.errors.length > 0 || r.status !== 0) {
        failed = true
        for (const l of r.errors.slice(0, 10)) console.error(`  ${l.split(root).join('.')}`)
        if (deep.length > 0) console.error(`  TS2589 (excessively deep) in ${relative(root, dir)}`)
      }
      rows.push({
        lib,
        tools: n,
        withOutputSchema: specs.filter((x) => x.output).length,
        checkS: r.checkS,
        totalS: r.totalS,
        cpuS: r.cpuS,
        instantiations: r.instantiations,
        perTool: Math.round(r.instantiations / n),
        types: r.types,
        memoryMB: r.memoryMB,
        lines: r.lines,
        errors: r.errors.length,
        ts2589: deep.length,
      })
    }
  }

  const { text, ratios, targets, stages } = report(rows, libs)
  console.log(`\n${text}`)

  mkdirSync(dirname(resultsFile), { recursive: true })
  const results = {
    benchmark: 'type-checking cost of a generated server: emcp vs @modelcontextprotocol/sdk (registerTool, zod 4 shapes)',
    command: 'npm run bench:types',
    date: new Date().toISOString(),
    machine: { cpus: cpus().length, cpuModel: cpus()[0]?.model ?? 'unknown', memoryGB: Math.round(totalmem() / 2 ** 30), node: process.version },
    versions: { typescript: versionOf('typescript'), sdk: versionOf('@modelcontextprotocol/sdk'), zod: versionOf('zod'), 'json-schema-to-ts': versionOf('json-schema-to-ts') },
    compilerOptions: tsconfig.compilerOptions,
    timingRunsPerFile: runs,
    notes: [
      'checkS/totalS: "Check time"/"Total time" of tsc --extendedDiagnostics (wall clock, median of the runs); cpuS: CPU seconds of the whole tsc process, all threads (median); instantiations, types: exact counts',
      'perTool: instantiations / tools (includes the fixed cost of the imports); the printed "marginal" column is the cost per added tool between sizes',
      'emcp:contracts = only the emcp() calls; emcp:sum = contracts + mcpServer([...]); emcp = everything (+ implement)',
    ],
    reference,
    rows,
    ratios,
    targets,
    stages,
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
