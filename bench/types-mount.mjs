#!/usr/bin/env node
/**
 * Type-checking cost of a mount: N seeded tools (those of `npm run bench:types`) served by one
 * `mcpServer`, beside the same N tools in three servers of N/3 mounted under three namespaces
 * (`mount([mounted(a, 'a'), mounted(b, 'b'), mounted(c, 'c')], ...)`), each file then calling
 * one tool through `inMemoryClient`. Prints the instantiations, types and check time of both
 * with TypeScript 5.9 and 7.0 (`tsc --noEmit --extendedDiagnostics`), and what the mount adds.
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
  const first = specs[0].name
  const alone = `${emcpFile(specs, 'full')}\nimport { inMemoryClient } from 'emcp'\nexport const done = inMemoryClient(server).callResult('${first}', {} as never)\n`
  const third = n / 3
  const parts = Object.fromEntries([0, 1, 2].map((k) => [`part${k}.ts`, emcpFile(specs.slice(k * third, (k + 1) * third), 'full')]))
  const whole = [
    "import { inMemoryClient, mount, mounted } from 'emcp'",
    ...[0, 1, 2].map((k) => `import { server as s${k} } from './part${k}.js'`),
    "export const whole = mount([mounted(s0, 'a'), mounted(s1, 'b'), mounted(s2, 'c')], { name: 'whole', version: '1.0.0' })",
    `export const done = inMemoryClient(whole).callResult('a_${first}', {} as never)`,
    '',
  ].join('\n')
  write(join(work, `alone-${n}`), { 'server.ts': alone })
  write(join(work, `mounted-${n}`), { ...parts, 'server.ts': whole })
  for (const c of Object.keys(compilers)) {
    const a = check(c, join(work, `alone-${n}`))
    const m = check(c, join(work, `mounted-${n}`))
    console.log(
      `TypeScript ${c}, ${n} tools: one server ${a.instantiations} instantiations, ${a.types} types, check ${a.checkS} s; ` +
        `three mounted ${m.instantiations} instantiations, ${m.types} types, check ${m.checkS} s; ` +
        `the mount adds ${m.instantiations - a.instantiations} instantiations (${((m.instantiations - a.instantiations) / n).toFixed(1)} per tool)`,
    )
  }
}
