// The whole test run behind `npm test`: build, type-check (TypeScript 5.9 and 7.0),
// unit/interop/property tests (vitest), type tests (tsd, on its bundled 5.9) and the same
// compile-time rejections through tsc 5.9 and 7.0 (scripts/type-rejections.mjs). Every step
// runs even when an earlier one fails; the last line is the tally `N passed, M failed` over
// every test and every step without tests of its own.
import { spawnSync } from 'node:child_process'
import { readFileSync, mkdirSync, readdirSync } from 'node:fs'
import { join } from 'node:path'

const results = []
const run = (label, cmd, args, opts = {}) => {
  console.log(`\n== ${label}: ${cmd} ${args.join(' ')}`)
  const r = spawnSync(cmd, args, { stdio: opts.capture ? ['ignore', 'pipe', 'pipe'] : 'inherit', encoding: 'utf8', ...opts })
  if (opts.capture) {
    process.stdout.write(r.stdout ?? '')
    process.stderr.write(r.stderr ?? '')
  }
  return r
}

const step = (label, cmd, args) => {
  const r = run(label, cmd, args)
  results.push({ label, passed: r.status === 0 ? 1 : 0, failed: r.status === 0 ? 0 : 1 })
  return r.status === 0
}

// each compiler by its path: both packages ship a `tsc` bin, and which one npm links is not fixed
const tsc = { '5.9': join('node_modules', 'typescript', 'bin', 'tsc'), '7.0': join('node_modules', 'typescript7', 'bin', 'tsc') }
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
  const failures = t.status === 0 ? 0 : Math.max(1, ((t.stdout ?? '') + (t.stderr ?? '')).split('\n').filter((l) => /✖/.test(l)).length)
  results.push({ label: 'tsd', passed: Math.max(0, assertions - failures), failed: failures })
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
    const { passed, failed, failures } = JSON.parse((r.stdout ?? '').trim().split('\n').at(-1) ?? '')
    for (const f of failures) console.log(`✖ ${f}`)
    results.push({ label, passed, failed: failed + (r.status !== 0 && failed === 0 ? 1 : 0) })
  } catch {
    results.push({ label, passed: 0, failed: 1 })
  }
}

console.log('')
for (const r of results) console.log(`${r.label}: ${r.passed} passed, ${r.failed} failed`)
const passed = results.reduce((a, r) => a + r.passed, 0)
const failed = results.reduce((a, r) => a + r.failed, 0)
console.log(`${passed} passed, ${failed} failed`)
process.exit(failed === 0 ? 0 : 1)
