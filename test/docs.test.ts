/**
 * The TypeScript examples in README.md and docs/*.md compile against the real API. Every
 * fenced block whose info string starts with `ts` and that imports from `'emcp'` or
 * `'emcp/...'` is written as its own module into a temporary folder under `.cache/` and the
 * lot is type-checked in one tsc run, with a tsconfig extending the project's (whose `paths`
 * map `emcp*` to src/), once with TypeScript 5.9 and once with 7.0. Blocks that import nothing from emcp are fragments (a signature, a
 * line of a larger program) and are not checked. A block that shows a deliberate compile
 * error marks it with `// @ts-expect-error`, which tsc checks too (an unused one is an error).
 *
 * A relative import in a snippet names an example module, as the prose around it says
 * ("the calculator"); `exampleModules` maps each to its file under examples/.
 */
import { spawnSync } from 'node:child_process'
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { basename, join, relative } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { root } from './interop/children.js'

/** One checked block: where it is in the docs and the module it becomes. */
interface Snippet {
  readonly doc: string
  /** 1-based line of the opening fence in `doc`. */
  readonly line: number
  readonly file: string
  readonly body: string
}

/** Relative imports a snippet may use, and the example each stands for. */
const exampleModules: Record<string, string> = {
  './calculator.js': 'examples/calculator.ts',
  './context.js': 'examples/context.ts',
  './shared-store.js': 'examples/shared-store.ts',
  './from-sdk.js': 'examples/from-sdk.ts',
  './oauth.js': 'examples/oauth.ts',
}

const importsEmcp = /^\s*import\b[^'"]*\bfrom\s+['"]emcp(\/[^'"]*)?['"]/m

/** Every `ts` block of one markdown file that imports emcp, with its fence's line. */
const snippetsOf = (doc: string): ReadonlyArray<Omit<Snippet, 'file'>> => {
  const lines = readFileSync(join(root, doc), 'utf8').split('\n')
  const found: Array<Omit<Snippet, 'file'>> = []
  for (let i = 0; i < lines.length; i++) {
    const open = /^\s*(`{3,}|~{3,})\s*(\S*)/.exec(lines[i] ?? '')
    if (open === null) continue
    const [, fence = '```', info = ''] = open
    const start = i
    const body: Array<string> = []
    for (i++; i < lines.length && !(lines[i] ?? '').trimStart().startsWith(fence); i++) body.push(lines[i] ?? '')
    const text = body.join('\n')
    if (info.startsWith('ts') && importsEmcp.test(text)) found.push({ doc, line: start + 1, body: text })
  }
  return found
}

const docs = ['README.md', ...readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`)]
/** The compilers the blocks must compile with. */
const compilers = { '5.9': 'typescript', '7.0': 'typescript7' } as const
const workOf = (version: keyof typeof compilers): string => join(root, '.cache', `docs-snippets-${version}-${process.pid}`)

/** Rewrites a snippet's relative example imports to paths that resolve from `work`. */
const withExamples = (work: string, body: string): string =>
  body.replace(/(from\s+['"])(\.\/[^'"]+)(['"])/g, (all, pre: string, spec: string, post: string) => {
    const target = exampleModules[spec]
    return target === undefined ? all : `${pre}${relative(work, join(root, target)).replace(/\.ts$/, '.js')}${post}`
  })

/** A block that must fail, proving the run reports errors and maps them to their doc line. */
const canary: Snippet = {
  doc: '(canary)',
  line: 1,
  file: 'canary.ts',
  body: "import { text } from 'emcp'\nconst n: number = 'not a number'\nexport const t = [text, n]",
}

/** One tsc diagnostic, placed in its doc. */
interface Failure {
  readonly where: string
  readonly message: string
}

/** Type-checks all snippets in one tsc run; the failures, each placed at its doc and line. */
const check = (snippets: ReadonlyArray<Snippet>, version: keyof typeof compilers): { readonly failures: ReadonlyArray<Failure>; readonly output: string } => {
  const work = workOf(version)
  rmSync(work, { recursive: true, force: true })
  mkdirSync(work, { recursive: true })
  for (const s of snippets) writeFileSync(join(work, s.file), `${withExamples(work, s.body)}\nexport {}\n`)
  writeFileSync(
    join(work, 'tsconfig.json'),
    JSON.stringify({
      extends: relative(work, join(root, 'tsconfig.json')),
      compilerOptions: { noEmit: true, noUnusedLocals: false, noUnusedParameters: false },
      include: ['*.ts'],
      exclude: [],
    }),
  )
  const r = spawnSync(process.execPath, [join(root, 'node_modules', compilers[version], 'bin', 'tsc'), '-p', join(work, 'tsconfig.json'), '--pretty', 'false'], {
    cwd: root,
    encoding: 'utf8',
    timeout: 100_000,
  })
  const output = `${r.stdout ?? ''}${r.stderr ?? ''}${r.error === undefined ? '' : String(r.error)}`
  const byFile = new Map(snippets.map((s) => [s.file, s]))
  const failures: Array<Failure> = []
  // a diagnostic is `path(line,col): error TSnnnn: text`, continued on indented lines
  for (const entry of output.split(/\n(?=\S)/)) {
    const d = /^(.*?)\((\d+),(\d+)\): error (TS\d+: [\s\S]*)$/.exec(entry.trim())
    if (d === null) continue
    const [, path = '', row = '0', col = '0', message = ''] = d
    const s = byFile.get(basename(path))
    const where = s === undefined ? `${path}:${row}:${col}` : `${s.doc}:${s.line + Number(row)}:${col} (block at line ${s.line}, ${s.file})`
    failures.push({ where, message })
  }
  if (r.status !== 0 && failures.length === 0) failures.push({ where: 'tsc', message: output || `exit ${String(r.status)}` })
  return { failures, output }
}

afterAll(() => {
  for (const version of Object.keys(compilers) as Array<keyof typeof compilers>) rmSync(workOf(version), { recursive: true, force: true })
})

describe('docs: the TypeScript examples in README.md and docs/*.md', () => {
  const snippets: ReadonlyArray<Snippet> = docs.flatMap((doc) =>
    snippetsOf(doc).map((s) => ({ ...s, file: `${doc.replace(/\W+/g, '_')}_L${s.line}.ts` })),
  )

  it.each(Object.keys(compilers) as Array<keyof typeof compilers>)(
    'every block that imports emcp type-checks against src/ with TypeScript %s (one tsc run)',
    { timeout: 120_000 },
    (version) => {
      // the extractor still finds the docs' blocks (29 of them when this test was written)
      expect(snippets.length).toBeGreaterThanOrEqual(20)
      const { failures } = check([...snippets, canary], version)
      const [canaryFailures, docFailures] = [
        failures.filter((f) => f.where.includes(canary.file)),
        failures.filter((f) => !f.where.includes(canary.file)),
      ]
      // the deliberately wrong block must be caught, on its line, else the run proves nothing
      expect(canaryFailures.map((f) => f.message.slice(0, 7))).toEqual(['TS2322:'])
      expect(canaryFailures[0]?.where).toMatch(/^\(canary\):3:/)
      const report = docFailures.map((f) => `${f.where}\n  ${f.message.replace(/\n/g, '\n  ')}`).join('\n')
      expect(docFailures.length === 0 ? '' : `${docFailures.length} error(s) in the docs' TypeScript blocks:\n${report}`).toBe('')
    },
  )
})
