#!/usr/bin/env node
/**
 * The compile-time rejections of test/types/*.test-d.ts, checked with plain `tsc` (tsd bundles
 * TypeScript 5.9 only): every `expectError(...)` must hold a compiler error, no error may fall
 * outside one, and an `expectError` preceded by a `// message: /regex/` comment must have a
 * first error whose text (all its lines) matches it: `^` anchors a pattern at the start,
 * for the messages that lead with the problem. `// message 7.0: /regex/` applies to one
 * compiler only, where the two word a message differently. The files
 * read emcp as a consumer does, through the built .d.ts files (build first).
 *
 *   node scripts/type-rejections.mjs 5.9     # TypeScript 5.9 (typescript)
 *   node scripts/type-rejections.mjs 7.0     # TypeScript 7.0 (typescript7)
 *   node scripts/type-rejections.mjs 5.9 --json
 *
 * Prints each failure, then `N passed, M failed` (one check per `expectError`, and one per
 * message); `--json` prints `{ passed, failed, failures }` instead. Exits 1 on any failure.
 */
import { spawnSync } from 'node:child_process'
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const compilers = { '5.9': 'typescript', '7.0': 'typescript7' }
const [version = '5.9', ...flags] = process.argv.slice(2)
if (compilers[version] === undefined) {
  console.error('usage: node scripts/type-rejections.mjs 5.9|7.0 [--json]')
  process.exit(2)
}
const tsc = join(root, 'node_modules', compilers[version], 'bin', 'tsc')
const typesDir = join(root, 'test', 'types')
const files = readdirSync(typesDir).filter((f) => f.endsWith('.test-d.ts')).sort()

/** Every `expectError(...)` call of a file: its span, and the message pattern before it. */
const expectations = (file) => {
  const text = readFileSync(join(typesDir, file), 'utf8')
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true)
  const found = []
  const visit = (node) => {
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'expectError') {
      const start = node.getStart(source)
      const line = source.getLineAndCharacterOfPosition(start).line
      // `// message: /.../flags` (or `// message 7.0: ...`) on the comment lines just above
      let pattern
      for (let l = line - 1; l >= 0; l--) {
        const above = text.split('\n')[l]?.trim() ?? ''
        const m = /^\/\/\s*message(?:\s+(\d+\.\d+))?:\s*\/(.*)\/([a-z]*)$/.exec(above)
        if (m && (m[1] === undefined || m[1] === version)) pattern ??= new RegExp(m[2] ?? '', m[3])
        if (!above.startsWith('//')) break
      }
      found.push({ file, start, end: node.getEnd(), line: line + 1, pattern, errors: [] })
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return { text, source, found }
}

/** Runs the compiler over every test file; the diagnostics, each with its file and offset. */
const diagnostics = (parsed) => {
  const work = join(root, '.cache', `type-rejections-${version}-${process.pid}`)
  mkdirSync(work, { recursive: true })
  writeFileSync(
    join(work, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        lib: ['ES2022', 'DOM'],
        types: ['node'],
        strict: true,
        noEmit: true,
        skipLibCheck: true,
      },
      files: files.map((f) => relative(work, join(typesDir, f))),
    }),
  )
  const r = spawnSync(process.execPath, [tsc, '-p', join(work, 'tsconfig.json'), '--pretty', 'false'], { cwd: root, encoding: 'utf8', timeout: 600_000, maxBuffer: 64 * 1024 * 1024 })
  rmSync(work, { recursive: true, force: true })
  const output = `${r.stdout ?? ''}${r.stderr ?? ''}${r.error === undefined ? '' : String(r.error)}`
  const found = []
  // a diagnostic is `path(line,col): error TSnnnn: text`, continued on indented lines
  for (const entry of output.split(/\n(?=\S)/)) {
    const d = /^(.*?)\((\d+),(\d+)\): error (TS\d+): ([\s\S]*)$/.exec(entry.trim())
    if (d === null) {
      if (/error TS\d+/.test(entry)) found.push({ file: '?', offset: -1, code: 'TS?', message: entry.trim() })
      continue
    }
    const [, path = '', row = '0', col = '0', code = '', message = ''] = d
    const file = relative(typesDir, resolve(root, path))
    const p = parsed.get(file)
    const offset = p === undefined ? -1 : p.source.getPositionOfLineAndCharacter(Number(row) - 1, Number(col) - 1)
    found.push({ file, row: Number(row), offset, code, message })
  }
  if (r.status !== 0 && found.length === 0) found.push({ file: '?', offset: -1, code: 'TS?', message: output || `exit ${String(r.status)}` })
  return found
}

const parsed = new Map(files.map((f) => [f, expectations(f)]))
const spans = [...parsed.values()].flatMap((p) => p.found)
const failures = []
for (const d of diagnostics(parsed)) {
  const span = spans.find((s) => s.file === d.file && d.offset >= s.start && d.offset <= s.end)
  if (span) span.errors.push(d)
  else failures.push(`${d.file}:${d.row ?? '?'}: an error outside expectError: ${d.code} ${d.message.split('\n')[0]}`)
}
let passed = 0
for (const s of spans) {
  if (s.errors.length === 0) failures.push(`${s.file}:${s.line}: expectError holds no error`)
  else passed++
  if (s.pattern !== undefined) {
    const first = s.errors[0]?.message ?? ''
    if (s.errors.length > 0 && s.pattern.test(first)) passed++
    else failures.push(`${s.file}:${s.line}: the first error does not match ${s.pattern}: ${first.split('\n')[0]}`)
  }
}
if (flags.includes('--json')) console.log(JSON.stringify({ passed, failed: failures.length, failures }))
else {
  for (const f of failures) console.log(`✖ ${f}`)
  console.log(`TypeScript ${version} (${JSON.parse(readFileSync(join(root, 'node_modules', compilers[version], 'package.json'), 'utf8')).version}): ${passed} passed, ${failures.length} failed`)
}
process.exit(failures.length === 0 ? 0 : 1)
