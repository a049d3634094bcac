/**
 * `emcp manifest`: writes the manifest of a module's server (byte-for-byte the same for
 * the same server), or checks a file against it and shows the drift, or merges it with a
 * hand-edited file, keeping the edits.
 *
 * @example
 * // emcp manifest dist/examples/catalog.js -o catalog.manifest.json
 * // emcp manifest dist/examples/catalog.js --check catalog.manifest.json
 * import { manifest } from './manifest.js'
 * await manifest.run(['dist/examples/calculator.js'], io)
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import * as E from 'fp-ts/lib/Either.js'
import { selected } from '../sources/manifest/catalog.js'
import { diffManifests, type Drift } from '../sources/manifest/diff.js'
import { manifestOf, manifestText } from '../sources/manifest/export.js'
import type { Excluded, Manifest } from '../sources/manifest/manifest.js'
import { mergeManifests, type MergeResult } from '../sources/manifest/merge.js'
import { readManifest } from '../sources/manifest/validate.js'
import { lastOption, parseArgs } from './args.js'
import { UsageError, type Command } from './command.js'
import { loadServer } from './load.js'
import type { Server } from '../server/server.js'
import { selectionHelp, selectionOf, selectionOptions } from './select.js'
import { counted } from '../util/counted.js'

const help = `Usage: emcp manifest <module|url> [-o file] [--check file | --merge file] [--format json|ts]

Writes the manifest of the module's default-exported server, or of the live MCP server at an
http(s) URL (a snapshot of what it lists now): { "_meta": {...}, "tools": [...] },
tools sorted by name, schemas self-contained (JSON Schema 2020-12), a fingerprint per tool
and for the whole. The same server gives the same bytes. A module may also export
\`excluded\` (an array of { name, reason }) to record what its catalog left out.

Options:
  -o, --output F  write to file F instead of standard output
  --check F       compare with file F instead of writing: exit 0 when it is up to date,
                  exit 1 with the differences (tool by tool, path by path) when not
  --merge F       write the module's manifest keeping the hand edits of file F: titles,
                  descriptions, annotations, policies, other _meta keys and _type of
                  each tool, over the contract (schemas) from the code. Tools renamed
                  in F by their SMSS_FUNCTION_NAME keep their name. Where both F and the
                  code changed a tool, F's value of each field they disagree on is kept
                  and listed as a conflict; exit 1 when there are conflicts
  --format json   JSON (default)
  --format ts     a TypeScript module exporting the manifest \`as const\`, for
                  fromManifest with compile-time checked handlers
${selectionHelp}
  --help          this text

Examples:
  emcp manifest dist/examples/catalog.js -o catalog.manifest.json
  emcp manifest http://127.0.0.1:3000/mcp --format ts -o upstream.manifest.ts   (types proxy())
  emcp manifest dist/examples/catalog.js --check catalog.manifest.json
  emcp manifest dist/examples/ops.js --merge ops.manifest.json -o ops.manifest.json`

/** The subcommand. */
export const manifest: Command = {
  name: 'manifest',
  summary: "Write a module's tool manifest, or check a file against it",
  help,
  run: async (argv, io) => {
    const args = parseArgs(argv, { options: ['output', 'check', 'merge', 'format', ...selectionOptions], aliases: { o: 'output' } })
    const [modulePath, ...extra] = args.positionals
    if (extra.length > 0) throw new UsageError(`unexpected argument ${extra[0]}`)
    const format = lastOption(args, 'format') ?? 'json'
    if (format !== 'json' && format !== 'ts') throw new UsageError(`--format must be json or ts, not ${format}`)
    const output = lastOption(args, 'output')
    const check = lastOption(args, 'check')
    const merge = lastOption(args, 'merge')
    if (output !== undefined && check !== undefined) throw new UsageError('give -o or --check, not both')
    if (merge !== undefined && check !== undefined) throw new UsageError('give --merge or --check, not both')
    // read before the module is loaded: a file that cannot be merged stops here
    const edited = merge === undefined ? undefined : readManifestFile(merge, io.cwd)
    const server = isUrl(modulePath) ? await snapshot(modulePath) : await loadServer(modulePath, io.cwd)
    const mod = isUrl(modulePath) ? {} : ((await import(pathToFileURL(resolve(io.cwd, String(modulePath))).href)) as { excluded?: unknown })
    const selection = selectionOf(args)
    const tools = selection === undefined ? server.tools : server.tools.filter(selected(selection))
    if (tools.length === 0) throw new UsageError('no tool matches the selection', 1)
    const built = manifestOf({ info: server.info, tools }, { excluded: excludedOf(mod.excluded) })
    if (E.isLeft(built)) {
      for (const i of built.left) io.err(`tool ${i.tool}: ${i.path || '(root)'}: ${i.message}\n`)
      io.err(`emcp manifest: ${built.left.length} problem${built.left.length === 1 ? '' : 's'}; no manifest written\n`)
      return 1
    }
    const merged = edited === undefined ? undefined : mergeManifests(edited, built.right)
    const result = merged?.manifest ?? built.right
    const text = format === 'ts' ? asModule(result) : manifestText(result)
    if (check !== undefined) return checkAgainst(check, built.right, text, format, io)
    if (output === undefined) io.out(text)
    else {
      writeFileSync(resolve(io.cwd, output), text)
      io.err(`wrote ${counted(result.tools.length, 'tool')} to ${output}\n`)
    }
    if (merged === undefined) return 0
    io.err(mergeReport(merge as string, merged))
    return merged.conflicts.length > 0 ? 1 : 0
  },
}

// ---------------------------------------------------------------------------------------
// internals

const isUrl = (arg: string | undefined): arg is string => arg !== undefined && /^https?:\/\//i.test(arg)

/**
 * The tools a live server lists now (`emcp manifest <url>`), through a proxy of it: its
 * schemas are read as the proxy serves them, and the connection ends once they are.
 */
const snapshot = async (url: string): Promise<Pick<Server, 'info' | 'tools'>> => {
  const { proxy } = await import('../sources/proxy/proxy.js')
  const live = await proxy({ url }).catch((e: unknown) => {
    throw new UsageError(e instanceof Error ? e.message : String(e), 1)
  })
  const taken = { info: live.info, tools: [...live.tools] }
  await live.close()
  return taken
}

const asModule = (m: Manifest): string =>
  `// The tool manifest, written by \`emcp manifest --format ts\`: regenerate it rather than edit it.\nexport default ${JSON.stringify(m, null, 2)} as const\n`

const excludedOf = (u: unknown): ReadonlyArray<Excluded> | undefined =>
  Array.isArray(u) ? u.filter((e): e is Excluded => typeof e?.name === 'string' && typeof e?.reason === 'string') : undefined

const checkAgainst = (file: string, actual: Manifest, text: string, format: string, io: Parameters<Command['run']>[1]): number => {
  let saved: string
  try {
    saved = readFileSync(resolve(io.cwd, file), 'utf8')
  } catch (e) {
    throw new UsageError(`cannot read ${file}: ${e instanceof Error ? e.message : String(e)}`)
  }
  if (saved === text) {
    io.err(`${file} is up to date (${counted(actual.tools.length, 'tool')})\n`)
    return 0
  }
  let expected: Manifest | undefined
  if (format === 'json') {
    try {
      const read = readManifest(JSON.parse(saved))
      if (E.isRight(read)) expected = read.right
    } catch {
      expected = undefined
    }
  }
  if (expected === undefined) {
    io.err(`${file} differs from the module's manifest and cannot be read as one; regenerate it with -o ${file}\n`)
    return 1
  }
  const drift = diffManifests(expected, actual)
  if (drift.length === 0) {
    io.err(`${file} has the same content as the module's manifest but not the same bytes (formatting or order); regenerate it with -o ${file}\n`)
    return 1
  }
  io.err(`${file} is out of date: ${drift.length} difference${drift.length === 1 ? '' : 's'} (- the file, + the module)\n`)
  for (const d of drift) io.err(describe(d))
  return 1
}

/** A manifest file to merge with; a usage error naming what is wrong with it. */
const readManifestFile = (file: string, cwd: string): Manifest => {
  let json: unknown
  try {
    json = JSON.parse(readFileSync(resolve(cwd, file), 'utf8'))
  } catch (e) {
    throw new UsageError(`cannot read ${file} as JSON: ${e instanceof Error ? e.message : String(e)}`)
  }
  const read = readManifest(json)
  if (E.isLeft(read))
    throw new UsageError(`${file} is not a manifest emcp can merge with:\n${read.left.map((p) => `  ${p.tool === '' ? 'manifest' : `tool ${p.tool}`}: ${p.path || '(root)'}: ${p.message}`).join('\n')}`)
  return read.right
}

const mergeReport = (file: string, m: MergeResult): string => {
  const lines = [`merged with ${file}: ${counted(m.kept.length, 'tool')} kept hand edits, ${m.added.length} added, ${m.removed.length} removed, ${counted(m.conflicts.length, 'conflict')}`]
  if (m.kept.length > 0) lines.push(`  kept: ${m.kept.join(', ')}`)
  if (m.contractChanged.length > 0) lines.push(`  ~ contract new from the code, hand edits kept: ${m.contractChanged.join(', ')}`)
  for (const a of m.added) lines.push(`  + ${a}: new in the code`)
  for (const r of m.removed) lines.push(`  - ${r}: no longer in the code, left out`)
  for (const c of m.conflicts) lines.push(`! conflict: tool ${c.tool} ${c.path}`, `    ${file} (kept): ${show(c.file)}`, `    code:  ${show(c.code)}`)
  return `${lines.join('\n')}\n`
}

const show = (v: unknown): string => {
  const s = v === undefined ? '(absent)' : JSON.stringify(v)
  return s.length > 200 ? `${s.slice(0, 199)}…` : s
}

const describe = (d: Drift): string => {
  if (d.kind === 'added') return `+ tool ${d.tool}: in the module, not in the file\n`
  if (d.kind === 'removed') return `- tool ${d.tool}: in the file, not in the module\n`
  const head = d.kind === 'document' ? '~ the manifest _meta\n' : `~ tool ${d.tool}\n`
  return head + d.changes.map((c) => `    ${c.path}\n      - ${show(c.before)}\n      + ${show(c.after)}\n`).join('')
}
