/**
 * `emcp validate`: checks a manifest file: structure, every schema compiles as JSON Schema
 * 2020-12, policies and dispatch metadata, fingerprints, and the lint for schemas clients
 * reject. Shows progress while it works through a large catalog.
 *
 * @example
 * // emcp validate catalog.manifest.json
 * import { validate } from './validate.js'
 * await validate.run(['catalog.manifest.json'], io)
 */
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { validateManifest, type ManifestProblem } from '../sources/manifest/validate.js'
import { parseArgs } from './args.js'
import { UsageError, type Command } from './command.js'
import { progress } from './progress.js'
import { counted } from '../util/counted.js'

const help = `Usage: emcp validate <manifest.json> [--strict] [--json] [--quiet]

Checks a manifest file: its structure (names, schemas, _meta), that every schema compiles
as JSON Schema 2020-12, execution policies (auto, ask, disabled) and dispatch metadata,
that fingerprints still match (a mismatch means the file was edited after export), and a
lint for what clients reject (external $ref, roots that are not objects, missing
descriptions). Exits 1 when there are errors (or, with --strict, warnings).

Options:
  --strict        warnings fail too
  --json          print the report as JSON
  --quiet         print errors only, and no progress
  --help          this text

Example:
  emcp validate catalog.manifest.json`

/** The subcommand. */
export const validate: Command = {
  name: 'validate',
  summary: 'Check a manifest file (schemas, policies, fingerprints, lint)',
  help,
  run: async (argv, io) => {
    const args = parseArgs(argv, { switches: ['strict', 'json', 'quiet'] })
    const [file, ...extra] = args.positionals
    if (file === undefined) throw new UsageError('which manifest? Give the path of a manifest JSON file')
    if (extra.length > 0) throw new UsageError(`unexpected argument ${extra[0]}`)
    let text: string
    try {
      text = readFileSync(resolve(io.cwd, file), 'utf8')
    } catch (e) {
      throw new UsageError(`cannot read ${file}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : e instanceof Error ? e.message : String(e)}`)
    }
    let json: unknown
    try {
      json = JSON.parse(text)
    } catch (e) {
      io.err(`${file} is not valid JSON: ${e instanceof Error ? e.message : String(e)}\n`)
      return 1
    }
    const quiet = args.switches.has('quiet')
    const bar = quiet ? undefined : progress(io, 'validating')
    const report = validateManifest(json, bar === undefined ? {} : { onProgress: bar.update })
    bar?.end()
    const failed = report.errors.length > 0 || (args.switches.has('strict') && report.warnings.length > 0)
    if (args.switches.has('json')) {
      io.out(`${JSON.stringify({ file, valid: !failed, ...report }, null, 2)}\n`)
      return failed ? 1 : 0
    }
    const line = (kind: string) => (p: ManifestProblem) => `${kind}: ${p.tool === '' ? 'manifest' : `tool ${p.tool}`}: ${p.path || '(root)'}: ${p.message}\n`
    for (const p of report.errors) io.out(line('error')(p))
    if (!quiet) for (const text of grouped(report.warnings.map(line('warning')))) io.out(text)
    io.err(
      `${file}: ${counted(report.tools, 'tool')}, ${counted(report.errors.length, 'error')}, ${counted(report.warnings.length, 'warning')}${failed ? '' : ' - valid'}\n`,
    )
    return failed ? 1 : 0
  },
}

// ---------------------------------------------------------------------------------------
// internals

/** How many lines of one kind of warning are shown before the rest are counted. */
const shownPerKind = 3

/**
 * Warnings that repeat for many tools (a catalog whose every name has a dot) are shown a few
 * times and then counted, so that the rest stay readable.
 */
const grouped = (lines: ReadonlyArray<string>): ReadonlyArray<string> => {
  const kindOf = (l: string): string => l.replace(/^warning: tool \S+: /, '')
  const counts = new Map<string, number>()
  for (const l of lines) counts.set(kindOf(l), (counts.get(kindOf(l)) ?? 0) + 1)
  const shown = new Map<string, number>()
  const out: string[] = []
  for (const l of lines) {
    const kind = kindOf(l)
    const n = (shown.get(kind) ?? 0) + 1
    shown.set(kind, n)
    if (n <= shownPerKind) out.push(l)
    else if (n === shownPerKind + 1) out.push(`warning: … and ${(counts.get(kind) ?? 0) - shownPerKind} more tools with the same warning (--json lists all)\n`)
  }
  return out
}
