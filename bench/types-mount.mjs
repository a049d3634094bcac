#!/usr/bin/env node
/**
 * Type-checking cost of a mount: N seeded tools (those of `npm run bench:types`) served by one
 * `mcpServer`; the same N tools in three servers of N/3 (three files); and those three mounted
 * under three namespaces (`mount([mounted(a, 'a'), mounted(b, 'b'), mounted(c, 'c')], ...)`).
 * Prints the instantiations and check time of each with TypeScript 5.9 and 7.0 (`tsc --noEmit
 * --extendedDiagnostics`), and what the mount adds to the three servers. (TypeScript 7 checks
 * files on several checkers, so three files cost it more than one, mount or not.)
 * Reads emcp through its built .d.ts (build first). Work files go to bench/.work/ (git-ignored).
 *
 *   node bench/types-mount.mjs              # 300 and 900 tools
 *   node bench/types-mount.mjs 150,600      # other sizes (multiples of 3)
 */
import { spawnSync } from 'node:child_process'
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { emcpFile, toolSpec } from './types-gen.mjs'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const work = join(root, 'bench', '.work', 'types-mount')
const sizes = (process.argv[2] ?? '300,900').split(',').map(Number)
const compilers = { '5.9': 'typescript', '7.0': 'typescript7' }
const tsconfig = (files) => ({
  compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', lib: ['ES2022'], types: ['node'], strict: true, skipLibCheck: true, noEmit: true },
  files,
})

/** One folder: its files and its tsconfig. */
const write = (dir, files) => {
  rmSync(dir, { recursive: true, force: true })
  mkdirSync(dir, { recursive: true })
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text)
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(tsconfig(Object.keys(files)), null, 2))
}

const metric = (out, label) => Number(out.match(new RegExp(`^${label}:\\s+([0-9.]+)`, 'm'))?.[1] ?? NaN)

const check = (compiler, dir) => {
  const res = spawnSync(process.execPath, [join(root, 'node_modules', compilers[compiler], 'bin', 'tsc'), '-p', join(dir, 'tsconfig.json'), '--extendedDiagnostics'], { cwd: root, encoding: 'utf8', maxBuffer: 64 << 20 })
  const out = `${res.stdout}${res.stderr}`
  const errors = out.split('\n').filter((l) => /error TS\d+/.test(l))
  if (errors.length > 0) throw new Error(`${dir}: ${errors.slice(0, 5).join('\n')}`)
  return { instantiations: metric(out, 'Instantiations'), types: metric(out, 'Types'), checkS: metric(out, 'Check time') }
}

for (const n of sizes) {
  const specs = Array.from({ length: n }, (_, i) => toolSpec(i))
  const third = n / 3
  const parts = Object.fromEntries([0, 1, 2].map((k) => [`part${k}.ts`, emcpFile(specs.slice(k * third, (k + 1) * third), 'full')]))
  const imports = [0, 1, 2].map((k) => `import { server as s${k} } from './part${k}.js'`)
  const whole = ["import { mount, mounted } from 'emcp'", ...imports, "export const whole = mount([mounted(s0, 'a'), mounted(s1, 'b'), mounted(s2, 'c')], { name: 'whole', version: '1.0.0' })", ''].join('\n')
  write(join(work, `alone-${n}`), { 'server.ts': emcpFile(specs, 'full') })
  write(join(work, `parts-${n}`), { ...parts, 'server.ts': [...imports, 'export const all = [s0, s1, s2]', ''].join('\n') })
  write(join(work, `mounted-${n}`), { ...parts, 'server.ts': whole })
  for (const c of Object.keys(compilers)) {
    const [a, p, m] = ['alone', 'parts', 'mounted'].map((v) => check(c, join(work, `${v}-${n}`)))
    const added = m.instantiations - p.instantiations
    console.log(
      `TypeScript ${c}, ${n} tools: one server ${a.instantiations} instantiations (check ${a.checkS} s); three servers ${p.instantiations} (check ${p.checkS} s); ` +
        `the three mounted ${m.instantiations} (check ${m.checkS} s): the mount adds ${added} instantiations, ${(added / n).toFixed(0)} per tool`,
    )
  }
}
