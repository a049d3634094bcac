// The whole test run behind `npm test`: build, type-check (TypeScript 5.9 and 7.0),
// unit/interop/property tests (vitest), type tests (tsd, on its bundled 5.9) and the same
// compile-time rejections through tsc 5.9 and 7.0 (scripts/type-rejections.mjs). Every step
// runs even when an earlier one fails; the last line is the tally `N passed, M failed` over
// every test and every step without tests of its own.
import { spawnSync } from 'node:child_process'
import { readFileSync, mkdirSync, readdirSync } from 'node:fs'
import { join, relative } from 'node:path'

const results = []
/** Each failed test by name, with the first line of its error: repeated above the tally, where a log's tail shows it. */
const failures = []
const run = (label, cmd, args, opts = {}) => {
  console.log(`\n== ${label}: ${cmd} ${args.join(' ')}`)
  const r = spawnSync(cmd, args, { stdio: opts.capture ? ['ignore', 'pipe', 'pipe'] : 'inherit', encoding: 'utf8', ...opts })
  if (opts.capture) {
    process.stdout.write(r.stdout ?? '')
    process.stderr.write(r.stderr ?? '')
  }
  return r
}

/** The first line of an error text, cut to 300 characters. */
const firstLine = (text) => String(text ?? '').split('\n').find((l) => l.trim() !== '')?.trim().slice(0, 300) ?? '(no message)'

const step = (label, cmd, args) => {
  const r = run(label, cmd, args)
  results.push({ label, passed: r.status === 0 ? 1 : 0, failed: r.status === 0 ? 0 : 1 })
  return r.status === 0
}

// each compiler by its path: both packages ship a `tsc` bin, and which one npm links is not fixed
const tsc = { '5.9': join('node_modules', 'typescript', 'bin', 'tsc'), '7.0': join('node_modules', 'typescript7', 'bin', 'tsc') }
// a file moved or deleted since the last build must not linger in dist/ (not counted: it tests nothing)
run('clean', process.execPath, ['scripts/clean-dist.mjs'])
const built = step('build', process.execPath, [tsc['5.9'], '-p', 'tsconfig.build.json']) && step('bundle', 'node', ['scripts/bundle.mjs'])
step('typecheck (TypeScript 5.9)', process.execPath, [tsc['5.9'], '-p', 'tsconfig.json', '--noEmit'])
step('typecheck (TypeScript 7.0)', process.execPath, [tsc['7.0'], '-p', 'tsconfig.json', '--noEmit'])

mkdirSync('.cache', { recursive: true })
const report = join('.cache', 'vitest.json')
const v = run('vitest', 'npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`])
try {
  const json = JSON.parse(readFileSync(report, 'utf8'))
  const failedSuites = json.testResults.filter((s) => s.status === 'failed' && s.assertionResults.length === 0).length
  results.push({ label: 'vitest', passed: json.numPassedTests, failed: json.numFailedTests + failedSuites })
  for (const suite of json.testResults) {
    const file = relative(process.cwd(), suite.name)
    if (suite.status === 'failed' && suite.assertionResults.length === 0) failures.push(`vitest ${file}: ${firstLine(suite.message)}`)
    for (const t of suite.assertionResults)
      if (t.status === 'failed') failures.push(`vitest ${file} > ${t.fullName}: ${firstLine(t.failureMessages?.[0])}`)
  }
} catch {
  results.push({ label: 'vitest', passed: 0, failed: 1 })
}
if (v.status !== 0 && results.at(-1).failed === 0) results.at(-1).failed = 1

// tsd: one assertion per expect* call; failures are reported one per line
const typeFiles = readdirSync('test/types').filter((f) => f.endsWith('.test-d.ts'))
const assertions = typeFiles
  .map((f) => (readFileSync(join('test/types', f), 'utf8').match(/\bexpect(Type|Error|Assignable|NotAssignable|NotType|Deprecated|NotDeprecated|DocCommentIncludes)\s*[<(]/g) ?? []).length)
  .reduce((a, b) => a + b, 0)
if (built) {
  const t = run('tsd', 'npx', ['tsd', '--typings', 'dist/src/index.d.ts', '--files', 'test/types/**/*.test-d.ts'], { capture: true })
  const lines = ((t.stdout ?? '') + (t.stderr ?? '')).split('\n').filter((l) => /✖/.test(l))
  for (const l of lines) failures.push(`tsd: ${l.trim()}`)
  const failed = t.status === 0 ? 0 : Math.max(1, lines.length)
  results.push({ label: 'tsd', passed: Math.max(0, assertions - failed), failed })
} else results.push({ label: 'tsd', passed: 0, failed: Math.max(1, assertions) })

// the rejections of the type tests, through plain tsc with each compiler: one check per
// expectError and per expected message
for (const version of ['5.9', '7.0']) {
  const label = `type rejections (TypeScript ${version})`
  if (!built) {
    results.push({ label, passed: 0, failed: 1 })
    continue
  }
  const r = run(label, process.execPath, ['scripts/type-rejections.mjs', version, '--json'], { capture: true })
  try {
    const { passed, failed, failures: rejected } = JSON.parse((r.stdout ?? '').trim().split('\n').at(-1) ?? '')
    for (const f of rejected) {
      console.log(`✖ ${f}`)
      failures.push(`${label}: ${firstLine(f)}`)
    }
    results.push({ label, passed, failed: failed + (r.status !== 0 && failed === 0 ? 1 : 0) })
  } catch {
    results.push({ label, passed: 0, failed: 1 })
  }
}

console.log('')
// the failures again, by name, just above the tally: a log cut to its tail still says what failed
for (const r of results) if (r.failed > 0 && r.label !== 'vitest' && r.label !== 'tsd' && !r.label.startsWith('type rejections')) failures.push(`${r.label}: failed`)
if (failures.length > 0) {
  console.log(`failures (${failures.length}):`)
  for (const f of failures.slice(0, 40)) console.log(`  ✖ ${f}`)
  if (failures.length > 40) console.log(`  … and ${failures.length - 40} more above`)
}
for (const r of results) console.log(`${r.label}: ${r.passed} passed, ${r.failed} failed`)
const passed = results.reduce((a, r) => a + r.passed, 0)
const failed = results.reduce((a, r) => a + r.failed, 0)
console.log(`${passed} passed, ${failed} failed`)
process.exit(failed === 0 ? 0 : 1)
