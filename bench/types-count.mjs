#!/usr/bin/env node
/**
 * Where a file's type instantiations go (`npm run bench:types:count`): the instantiation
 * count of `tsc --extendedDiagnostics`, split by declaration. `bench:types` says how many;
 * this says which type made them, so that a cut can be aimed.
 *
 * It copies TypeScript 5.9's compiler (node_modules/typescript/lib) into bench/.work/ and adds
 * a counter to `instantiateTypeWithAlias`, the one function that counts an instantiation:
 * each counted instantiation is charged to the type instantiated (its alias, or its symbol)
 * and to the chain of the three outermost types being instantiated when it happened. With
 * `--who NAME`, each instantiation of a type named NAME is also charged to the compiler's
 * call stack that asked for it (why it was made again). The copy is made once per compiler
 * version; the counts are the compiler's own, exact (the total printed is the one
 * `--extendedDiagnostics` prints).
 *
 *   npm run bench:types:count                                  # 300 literal tools (bench:types' specs)
 *   npm run bench:types:count -- --tools 1000 --zod            # 1000 tools with zod shapes
 *   npm run bench:types:count -- --who Tool --top 20           # who re-instantiates each contract
 *   npm run bench:types:count -- --project path/tsconfig.json  # any project
 */
import { spawnSync } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { emcpFile, emcpZodFile, toolSpec } from './types-gen.mjs'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const { values: args } = parseArgs({
  options: {
    tools: { type: 'string', default: '300' },
    zod: { type: 'boolean', default: false },
    project: { type: 'string' },
    who: { type: 'string' },
    top: { type: 'string', default: '40' },
  },
})
const tools = Number(args.tools)
const top = Number(args.top)
if (!Number.isInteger(tools) || tools < 1 || !Number.isInteger(top) || top < 1) {
  console.error('usage: node bench/types-count.mjs [--tools N] [--zod] [--project tsconfig.json] [--who NAME] [--top N]')
  process.exit(2)
}

// ---------------------------------------------------------------------------------------
// the counting compiler

/** What the counter adds: three tallies, written as JSON when the compiler exits. */
const prelude = `
var __count = { byType: new Map(), byChain: new Map(), byCaller: new Map(), stack: [] };
var __nameOf = (t) => (t.aliasSymbol ? t.aliasSymbol.escapedName : t.symbol ? t.symbol.escapedName : t.target && t.target.symbol ? t.target.symbol.escapedName : '(' + (__kinds[t.flags] || t.flags) + ')');
var __kinds = { 262144: 'type parameter', 524288: 'object', 1048576: 'union', 2097152: 'intersection', 4194304: 'keyof', 8388608: 'indexed access', 16777216: 'conditional', 33554432: 'substitution', 134217728: 'template literal', 268435456: 'string mapping' };
var __tally = (m, k) => m.set(k, (m.get(k) || 0) + 1);
process.on('exit', () => {
  const out = process.env.EMCP_COUNT_OUT;
  if (!out) return;
  const list = (m) => [...m].sort((a, b) => b[1] - a[1]);
  require('fs').writeFileSync(out, JSON.stringify({ byType: list(__count.byType), byChain: list(__count.byChain), byCaller: list(__count.byCaller) }));
});
`

/** The counting step, placed where the compiler counts an instantiation. */
const counting = `
    { const n = __nameOf(type); __tally(__count.byType, n); __count.stack.push(n); __tally(__count.byChain, __count.stack.slice(0, 3).join(' > '));
      if (process.env.EMCP_COUNT_WHO === n) { Error.stackTraceLimit = 40; __tally(__count.byCaller, __count.stack.slice(0, -1).slice(0, 4).join(' > ') + '  <-  ' + new Error().stack.split('\\n').slice(2).map((l) => l.trim().replace(/^at /, '').replace(/ \\(.*/, '')).filter((f) => !/^(file:|\\/)/.test(f) && !/^(instantiateType|instantiateTypeWithAlias|instantiateTypeWorker|instantiateList|instantiateTypes|map)$/.test(f)).slice(0, 6).join(' < ')); } }
    totalInstantiationCount++;`

/** A copy of the compiler with the counter, made once per version (bench/.work/, git-ignored). */
const countingCompiler = () => {
  const lib = join(root, 'node_modules', 'typescript', 'lib')
  const { version } = JSON.parse(readFileSync(join(root, 'node_modules', 'typescript', 'package.json'), 'utf8'))
  const dir = join(root, 'bench', '.work', `tsc-count-${version}`)
  const tsc = join(dir, 'lib', '_tsc.js')
  if (existsSync(tsc)) return tsc
  cpSync(lib, join(dir, 'lib'), { recursive: true })
  // the compiler's own package.json: its files are CommonJS, not modules of this package
  cpSync(join(root, 'node_modules', 'typescript', 'package.json'), join(dir, 'package.json'))
  const source = readFileSync(tsc, 'utf8')
  const at = source.indexOf('    totalInstantiationCount++;')
  const exit = source.indexOf('    instantiationDepth++;\n    const result = instantiateTypeWorker(')
  if (at === -1 || exit === -1 || source.indexOf('    totalInstantiationCount++;', at + 1) !== -1)
    throw new Error(`TypeScript ${version}: instantiateTypeWithAlias is not where this script expects it; update the patch points`)
  const popAfter = 'const result = instantiateTypeWorker(type, mapper, aliasSymbol, aliasTypeArguments);'
  const patched = source.slice(0, at) + counting + source.slice(at + '    totalInstantiationCount++;'.length).replace(popAfter, `${popAfter}\n    __count.stack.pop();`)
  writeFileSync(tsc, `${prelude}${patched}`)
  return tsc
}

// ---------------------------------------------------------------------------------------
// the project

/** bench:types' generated server (same seeded specs) in bench/.work/types-count/. */
const generated = () => {
  const dir = join(root, 'bench', '.work', 'types-count', `${args.zod ? 'zod' : 'literals'}-${tools}`)
  mkdirSync(dir, { recursive: true })
  const specs = Array.from({ length: tools }, (_, i) => toolSpec(i))
  const compilerOptions = { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', lib: ['ES2022'], types: ['node'], strict: true, skipLibCheck: true, noEmit: true }
  writeFileSync(join(dir, 'tsconfig.json'), `${JSON.stringify({ compilerOptions, files: ['server.ts'] }, null, 2)}\n`)
  writeFileSync(join(dir, 'server.ts'), args.zod ? emcpZodFile(specs) : emcpFile(specs, 'full'))
  return join(dir, 'tsconfig.json')
}

const project = args.project ?? generated()
const out = join(root, 'bench', '.work', 'types-count', 'counts.json')
mkdirSync(dirname(out), { recursive: true })
rmSync(out, { force: true })
const res = spawnSync(process.execPath, [countingCompiler(), '-p', project, '--extendedDiagnostics'], {
  cwd: root,
  encoding: 'utf8',
  env: { ...process.env, EMCP_COUNT_OUT: out, EMCP_COUNT_WHO: args.who ?? '' },
  maxBuffer: 64 * 1024 * 1024,
  timeout: 10 * 60 * 1000,
})
const text = `${res.stdout ?? ''}${res.stderr ?? ''}`
const errors = text.split('\n').filter((l) => /error TS\d+/.test(l))
if (res.error || res.status !== 0 || errors.length > 0 || !existsSync(out)) {
  console.error(res.error?.message ?? (errors.join('\n') || text))
  process.exit(1)
}
const counts = JSON.parse(readFileSync(out, 'utf8'))
const show = (title, rows) => console.log(`\n${title}\n${rows.slice(0, top).map(([k, v]) => `${String(v).padStart(8)}  ${k}`).join('\n')}`)
console.log(`${project}: ${text.match(/^Instantiations:\s+(\d+)/m)?.[1]} instantiations`)
show('by type instantiated', counts.byType)
show('by the three outermost types being instantiated', counts.byChain)
if (args.who) show(`each instantiation of ${args.who}: the types around it  <-  the compiler's callers`, counts.byCaller)
