/**
 * What the core's top level costs at every start, module by module (or declaration by
 * declaration), in instructions counted with valgrind's callgrind. The core chunk runs whole
 * at each start (scripts/core-shim.js), so whatever its modules build at import (tables,
 * codecs, tool contracts) is paid before a server's first answer, whether it is used or not.
 *
 * How: a copy of dist/bundle gets a marker call (`%GetUndetectable()`, a V8 runtime function
 * nothing else calls) before the top-level statements of each module; callgrind dumps its
 * counts each time the marker's C++ function is entered, so each dump holds what one module's
 * top level cost. The copy runs with its own code cache (primed first, as a real start finds
 * it) and `--random-seed=1`, which makes the counts repeat to a few thousand instructions
 * (without it, hash seeds move them by millions). The markers cost a little each; compare
 * rows, not the total with a start's.
 *
 *   npm run build && node bench/top-level.mjs                        # by module, the 30 costliest
 *   node bench/top-level.mjs --by declaration --match 'tool-search|keywords' --top 40
 *
 * `--by declaration` splits the matching modules' `var a = …, b = …` statements (esbuild joins
 * a module's constants into one) so that each declaration gets its own row.
 */
import { spawnSync } from 'node:child_process'
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { SourceMap } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'
import ts from 'typescript'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const work = join(root, 'bench', '.work', 'top-level')
const { values: options } = parseArgs({
  options: { by: { type: 'string', default: 'module' }, match: { type: 'string', default: '.' }, top: { type: 'string', default: '30' } },
})
const byDeclaration = options.by === 'declaration'
const match = new RegExp(options.match)
const top = Number(options.top)
const node = ['--allow-natives-syntax', '--random-seed=1']

/** The marker a dump is taken before: a runtime function only natives syntax reaches. */
const marker = '%GetUndetectable();'

/** The body statements of the script's one wrapping function, the core's top level. */
const topLevel = (sf) => {
  let body
  const visit = (n) => {
    if (body !== undefined) return
    if (ts.isFunctionExpression(n) && n.body !== undefined) body = n.body
    else ts.forEachChild(n, visit)
  }
  visit(sf)
  if (body === undefined) throw new Error('the core script has no wrapping function')
  return body.statements
}

/** The script with markers, and the label of what runs after each marker. */
const instrument = (src, map) => {
  const sf = ts.createSourceFile('core.js', src, ts.ScriptTarget.Latest, true)
  const moduleAt = (pos) => {
    const { line, character } = sf.getLineAndCharacterOfPosition(pos)
    return (map.findEntry(line, character)?.originalSource ?? '?').replace(/^(\.\.\/)+/, '').replace(/^.*node_modules\//, '')
  }
  const out = []
  const labels = []
  let last = 0
  let previous
  const cut = (pos, text, label) => {
    out.push(src.slice(last, pos), text)
    labels.push(label)
    last = pos
  }
  const statements = topLevel(sf)
  for (const st of statements) {
    const pos = st.getStart(sf)
    const mod = moduleAt(pos)
    const split = byDeclaration && match.test(mod) && ts.isVariableStatement(st) && st.declarationList.declarations.length > 1
    if (!split) {
      if (mod !== previous) cut(pos, marker, mod)
      previous = mod
      continue
    }
    // `var a=…,b=…` becomes `var a=…;MARK;var b=…`: the same bindings, one row each
    const declarations = st.declarationList.declarations
    const keyword = src.slice(pos, declarations[0].getStart(sf))
    declarations.forEach((d, i) => {
      const label = `${mod} ${d.name.getText(sf)}`
      if (i === 0) cut(pos, marker, label)
      else {
        out.push(src.slice(last, d.getStart(sf) - 1))
        last = d.getStart(sf)
        out.push(`;${marker}${keyword}`)
        labels.push(label)
      }
    })
    previous = `${mod} #`
  }
  const end = statements[statements.length - 1].getEnd()
  out.push(src.slice(last, end), `;${marker}`, src.slice(end))
  return { text: out.join(''), labels }
}

/** The instructions of the main thread in each callgrind dump, by its part number. */
const dumps = (dir) =>
  new Map(
    readdirSync(dir)
      .map((f) => /^cg\.(\d+)-01$/.exec(f))
      .filter((m) => m !== null)
      .map((m) => [Number(m[1]), Number(/^summary: (\d+)/m.exec(readFileSync(join(dir, m[0]), 'utf8'))[1])]),
  )

if (spawnSync('valgrind', ['--version']).status !== 0) {
  console.error('top-level: valgrind is not installed (apt-get install valgrind)')
  process.exit(1)
}
const bundle = join(root, 'dist', 'bundle')
const scriptName = readdirSync(bundle).find((f) => /^chunk-.*\.script\.js$/.test(f))
if (scriptName === undefined) {
  console.error('top-level: no core script in dist/bundle: run npm run build first')
  process.exit(1)
}
rmSync(work, { recursive: true, force: true })
mkdirSync(join(work, 'dumps'), { recursive: true })
cpSync(bundle, join(work, 'bundle'), { recursive: true, filter: (f) => !f.endsWith('.v8cache') })
const script = join(work, 'bundle', scriptName)
const { text, labels } = instrument(readFileSync(script, 'latin1'), new SourceMap(JSON.parse(readFileSync(`${script}.map`, 'utf8'))))
writeFileSync(script, text, 'latin1')

const entry = pathToFileURL(join(work, 'bundle', 'index.js')).href
// extra CA certificates change what a start loads; the code cache must be on
const { NODE_EXTRA_CA_CERTS, EMCP_CODE_CACHE, ...env } = process.env
// the first start writes the code cache (a second after loading), as a server's first start does
spawnSync(process.execPath, [...node, '--input-type=module', '-e', `await import(${JSON.stringify(entry)}); await new Promise((r) => setTimeout(r, 1300))`], { env, stdio: 'inherit' })
if (!readdirSync(join(work, 'bundle')).some((f) => f.endsWith('.v8cache'))) console.error('top-level: no code cache was written; the counts include compiling the core')
const run = spawnSync(
  'valgrind',
  ['--tool=callgrind', '--separate-threads=yes', '--dump-before=*Runtime_GetUndetectable*', `--callgrind-out-file=${join(work, 'dumps', 'cg')}`, process.execPath, ...node, '--input-type=module', '-e', `await import(${JSON.stringify(entry)})`],
  { env, stdio: ['ignore', 'inherit', 'pipe'] },
)
if (run.status !== 0) {
  console.error(run.stderr.toString())
  process.exit(1)
}
// dump n is taken before marker n: it holds what ran after marker n - 1, labels[n - 2]
const parts = dumps(join(work, 'dumps'))
const rows = labels.slice(0, -1).map((label, i) => [label, parts.get(i + 2) ?? 0])
const total = rows.reduce((sum, [, n]) => sum + n, 0)
console.log(`the core's top level: ${(total / 1e6).toFixed(2)}M instructions on the main thread, in ${rows.length} ${byDeclaration ? 'rows' : 'modules'}`)
for (const [label, n] of rows.sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${(n / 1e6).toFixed(3).padStart(8)}M  ${label}`)
