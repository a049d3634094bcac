/**
 * vitest globalSetup: the interop tests run the *built* examples as child processes, and
 * those import the package's bundles, so dist/ must be current. Builds with
 * `tsc -p tsconfig.build.json` (after scripts/clean-dist.mjs) and then bundles (scripts/bundle.mjs) when any output is
 * missing or older than a source file or a build config; otherwise does nothing, so runs
 * that do not touch src/ or examples/ pay nothing.
 */
import { execFileSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('../../', import.meta.url))

const sourcesUnder = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name)
    if (e.isDirectory()) return sourcesUnder(p)
    return e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') ? [p] : []
  })

/** True when every compiled file exists and is newer than its source and the build configs. */
const isFresh = (): boolean => {
  const sources = ['src', 'examples'].flatMap((d) => sourcesUnder(join(root, d)))
  const configs = ['tsconfig.json', 'tsconfig.build.json', 'package.json'].map((f) => join(root, f))
  const newestConfig = Math.max(...configs.filter(existsSync).map((f) => statSync(f).mtimeMs))
  const bundle = join(root, 'dist', 'bundle', 'index.js')
  if (!existsSync(bundle)) return false
  const bundled = statSync(bundle).mtimeMs
  // the playground page (browser code in playground/) is bundled on its own
  const page = join(root, 'dist', 'bundle', 'playground', 'playground.js')
  const pageSources = readdirSync(join(root, 'playground')).map((f) => join(root, 'playground', f))
  if (!existsSync(page) || pageSources.some((f) => statSync(f).mtimeMs > statSync(page).mtimeMs)) return false
  return sources.every((src) => {
    const out = join(root, 'dist', relative(root, src).replace(/\.ts$/, '.js'))
    if (!existsSync(out)) return false
    const built = statSync(out).mtimeMs
    const changed = statSync(src).mtimeMs
    return built >= changed && built >= newestConfig && bundled >= changed
  })
}

export default function setup(): void {
  if (isFresh()) return
  const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc')
  // a file moved or deleted since the last build must not linger in dist/
  execFileSync(process.execPath, [join(root, 'scripts', 'clean-dist.mjs')], { cwd: root, stdio: 'inherit' })
  try {
    execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' })
  } catch {
    // tsc still emits on type errors (reported above, and by `npm run typecheck`); the
    // interop tests then run what was emitted rather than blocking every other test file
    console.warn('test/interop/setup: tsc reported errors; running the interop tests against what it emitted')
  }
  execFileSync(process.execPath, [join(root, 'scripts', 'bundle.mjs')], { cwd: root, stdio: 'inherit' })
}
