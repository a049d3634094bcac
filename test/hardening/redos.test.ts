/**
 * Linear time on client input: every regular expression emcp applies, and every pattern it
 * generates, is checked by a ReDoS analyzer (recheck), and each generated pattern gets a
 * 1 MB hostile string through the path a client's argument takes (the validator, a
 * resource template's `match`) within a 50 ms bound.
 *
 * The regular expressions are found by reading the sources: every literal, and every
 * `RegExp(...)` whose text can be worked out from constants in its file. The sites whose
 * text is made at run time are listed here with what makes them (a schema's `pattern`, a
 * URI template), and those makers are checked on what emcp generates: the schema of every
 * PostgreSQL type in the catalog, the `pattern`s written in the sources, the templates of
 * every operator. A new site of either kind fails the test until it is covered.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import * as O from 'fp-ts/lib/Option.js'
import { check } from 'recheck'
import ts from 'typescript'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { pglite, type Database } from '../../src/sources/postgres/index.js'
import { schemaOf, typeReader } from '../../src/sources/postgres/types.js'
import { validatorOf, type JsonSchema } from '../../src/schema/schema.js'
import { uriTemplate } from '../../src/features/uri-template.js'
import { root } from '../interop/children.js'

// ---------------------------------------------------------------------------------------
// the regular expressions in the sources

interface Found {
  readonly source: string
  readonly flags: string
  readonly at: string
}

/** The text of an expression when constants of its file determine it (string literals, templates, `+`). */
const evaluate = (e: ts.Expression, consts: ReadonlyMap<string, ts.Expression>, depth = 0): string | undefined => {
  if (depth > 20) return undefined
  if (ts.isStringLiteral(e) || ts.isNoSubstitutionTemplateLiteral(e)) return e.text
  if (ts.isParenthesizedExpression(e)) return evaluate(e.expression, consts, depth + 1)
  if (ts.isIdentifier(e)) {
    const init = consts.get(e.text)
    return init === undefined ? undefined : evaluate(init, consts, depth + 1)
  }
  if (ts.isTemplateExpression(e)) {
    let text = e.head.text
    for (const span of e.templateSpans) {
      const v = evaluate(span.expression, consts, depth + 1)
      if (v === undefined) return undefined
      text += v + span.literal.text
    }
    return text
  }
  if (ts.isBinaryExpression(e) && e.operatorToken.kind === ts.SyntaxKind.PlusToken) {
    const [l, r] = [evaluate(e.left, consts, depth + 1), evaluate(e.right, consts, depth + 1)]
    return l === undefined || r === undefined ? undefined : l + r
  }
  return undefined
}

/** Every regular expression of one file; `dynamic` counts the `RegExp(...)` sites whose text is made at run time. */
const scan = (file: string): { readonly found: Found[]; readonly dynamic: number; readonly patterns: Found[] } => {
  const text = readFileSync(file, 'utf8')
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true)
  const name = relative(root, file)
  const consts = new Map<string, ts.Expression>()
  const found: Found[] = []
  const patterns: Found[] = []
  let dynamic = 0
  const at = (n: ts.Node): string => `${name}:${sf.getLineAndCharacterOfPosition(n.getStart()).line + 1}`
  const collectConsts = (n: ts.Node): void => {
    if (ts.isVariableDeclarationList(n) && (n.flags & ts.NodeFlags.Const) !== 0)
      for (const d of n.declarations) if (ts.isIdentifier(d.name) && d.initializer !== undefined && !consts.has(d.name.text)) consts.set(d.name.text, d.initializer)
    ts.forEachChild(n, collectConsts)
  }
  const visit = (n: ts.Node): void => {
    if (n.kind === ts.SyntaxKind.RegularExpressionLiteral) {
      const literal = (n as ts.RegularExpressionLiteral).text
      const end = literal.lastIndexOf('/')
      found.push({ source: literal.slice(1, end), flags: literal.slice(end + 1), at: at(n) })
    } else if ((ts.isNewExpression(n) || ts.isCallExpression(n)) && ts.isIdentifier(n.expression) && n.expression.text === 'RegExp') {
      const [s, f] = n.arguments ?? []
      const source = s === undefined ? '' : evaluate(s, consts)
      const flags = f === undefined ? '' : evaluate(f, consts)
      if (source === undefined || flags === undefined) dynamic++
      else found.push({ source, flags, at: at(n) })
    } else if (ts.isPropertyAssignment(n) && ts.isIdentifier(n.name) && n.name.text === 'pattern') {
      // a schema's `pattern` written in the sources: the validators run it with the u flag
      const source = evaluate(n.initializer, consts)
      if (source !== undefined) patterns.push({ source, flags: 'u', at: at(n) })
    }
    ts.forEachChild(n, visit)
  }
  collectConsts(sf)
  visit(sf)
  return { found, dynamic, patterns }
}

const sources = (readdirSync(join(root, 'src'), { recursive: true }) as string[])
  .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))
  .map((f) => join(root, 'src', f))
  .sort()
const scanned = sources.map(scan)
const inSources = scanned.flatMap((s) => s.found)
const patternsInSources = scanned.flatMap((s) => s.patterns)

/**
 * The sites whose text is made at run time, and what makes it: each maker is checked below
 * on everything emcp generates for it.
 */
const dynamicSites: { readonly [file: string]: number } = {
  // a schema's `pattern` (compiled to see whether the fast path may take it, and run there):
  // emcp's own are those of the PostgreSQL types and those written in the sources
  'src/schema/plain-values.ts': 1,
  // a resource template's matcher, made from the template's expressions
  'src/features/uri-template.ts': 1,
  // a hand-edited manifest's `pattern`, compiled once at startup only to see that it is a
  // regular expression (it is never matched there; matching goes through the validator above)
  'src/sources/manifest/schema-errors.ts': 1,
}

// ---------------------------------------------------------------------------------------
// the analyzer

/** recheck's verdict, with what it found. */
const verdict = async (source: string, flags: string): Promise<{ status: string; complexity?: string; attack?: string }> => {
  // no time limit of its own: on a loaded machine a timeout would say "unknown", not "unsafe"
  const d = await check(source, flags, { timeout: null })
  const complexity = d.status === 'unknown' ? undefined : d.complexity.summary
  return { status: d.status, ...(complexity === undefined ? {} : { complexity }), ...(d.status === 'vulnerable' ? { attack: d.attack.pattern } : {}) }
}

const expectSafe = async (all: ReadonlyArray<Found>): Promise<void> => {
  const unique = new Map<string, Found[]>()
  for (const f of all) unique.set(`/${f.source}/${f.flags}`, [...(unique.get(`/${f.source}/${f.flags}`) ?? []), f])
  const unsafe: string[] = []
  for (const [key, fs] of unique) {
    const v = await verdict(fs[0]!.source, fs[0]!.flags)
    if (v.status !== 'safe') unsafe.push(`${key} at ${fs.map((f) => f.at).join(', ')}: ${v.status} ${v.complexity ?? ''} ${v.attack ?? ''}`)
  }
  expect(unsafe).toEqual([])
}

// ---------------------------------------------------------------------------------------
// the 1 MB probe

const MB = 1024 * 1024
/** Characters that generated patterns are made of, and runs that pump their loops. */
const units = ['0', 'a', 'Z', '.', '-', 'e', ':', 'T', ' ', '/', '?', '&', '=', '#', ',', '%', '0.', '1e', '00:', '/a', 'a.', '?q=1&', '\u00e9']
/** Endings that make the match fail at the last character (or not). */
const endings = ['', '!', '\u0000']

/** The hostile strings of about `size` characters for a pattern whose matches begin with `prefix`. */
const hostile = (prefix: string, size: number): string[] =>
  units.flatMap((u) => {
    const body = prefix + u.repeat(Math.ceil(size / u.length))
    return endings.map((e) => body + e)
  })

/** The CPU time `f` takes, in ms: the work done, whatever else the machine is busy with. */
const cpuMs = (f: () => unknown): number => {
  const before = process.cpuUsage()
  f()
  const used = process.cpuUsage(before)
  return (used.user + used.system) / 1000
}

/**
 * The slowest of the hostile strings against `test`, in ms of CPU (a string near the bound
 * is tried three times and its best kept: a garbage collection is no backtracking). 10 KB
 * first: a quadratic pattern shows there in a fraction of a second, instead of running for
 * an hour on 1 MB.
 */
const slowest = (prefix: string, test: (s: string) => unknown): { readonly ms: number; readonly size: number } => {
  let worst = 0
  for (const size of [10 * 1024, MB]) {
    for (const s of hostile(prefix, size)) {
      let best = cpuMs(() => test(s))
      for (let i = 0; i < 2 && best >= boundMs / 2; i++) best = Math.min(best, cpuMs(() => test(s)))
      worst = Math.max(worst, best)
    }
    if (worst >= boundMs) return { ms: worst, size }
  }
  return { ms: worst, size: MB }
}

/** The bound per 1 MB string: generous, a bound and not a benchmark. */
const boundMs = 50

// ---------------------------------------------------------------------------------------
// what emcp generates

/** The templates of every operator, alone, with several variables, and after one another. */
const templates = [
  'x://{a}',
  'x://{a,b,c}',
  'x://{+a}',
  'x://{#a}',
  'x://{a}{#b}',
  'x://{a}{/b}',
  'x://{a}{/b,c}',
  'x://{a}{.b}',
  'x://{a}{.b,c}',
  'x://{a}{?b}',
  'x://{a}{?b,c}{&d}',
  'x://{+a}/{b}/{c}/z',
  'x://{+a}/z{?q,r}',
  'x://{a}/{+b}{?c}{#d}',
  'file:///{dir}/{+rest}{?rev}{#f}',
  'x://{a}{.b}{/c}{?d}{&e}{#f}',
  'x://{a}/{b}.{c}/{d}',
]

/** The string and format schemas of a schema tree (every `pattern` and `format`, wherever it is). */
const stringSchemas = (s: unknown, out: JsonSchema[] = []): JsonSchema[] => {
  if (Array.isArray(s)) for (const x of s) stringSchemas(x, out)
  else if (typeof s === 'object' && s !== null) {
    const o = s as JsonSchema
    if (typeof o.pattern === 'string' || typeof o.format === 'string')
      out.push({ type: 'string', ...(typeof o.pattern === 'string' ? { pattern: o.pattern } : {}), ...(typeof o.format === 'string' ? { format: o.format } : {}) })
    for (const v of Object.values(o)) stringSchemas(v, out)
  }
  return out
}

let db: Database
/** The string schemas of every PostgreSQL type in the catalog (base, array, enum, domain, composite, pseudo). */
let pgSchemas: JsonSchema[] = []
let pgTypes = 0
beforeAll(async () => {
  db = await pglite()
  const read = typeReader(db)
  const { rows } = await db.query('SELECT oid::int8 AS oid FROM pg_type ORDER BY oid')
  pgTypes = rows.length
  const all: JsonSchema[] = []
  for (const r of rows) stringSchemas(schemaOf(await read(Number(r.oid))), all)
  pgSchemas = [...new Map(all.map((s) => [JSON.stringify(s), s])).values()]
}, 120_000)
afterAll(async () => {
  await (db as unknown as { close?: () => Promise<void> })?.close?.()
})

// ---------------------------------------------------------------------------------------
// the tests

describe('regular expressions in the sources', () => {
  it('are all found: the sites made at run time are the known ones', () => {
    const dynamic = Object.fromEntries(scanned.flatMap((s, i) => (s.dynamic > 0 ? [[relative(root, sources[i]!), s.dynamic]] : [])))
    expect(dynamic).toEqual(dynamicSites)
    // the scan sees them: a sample of each kind
    expect(inSources.length).toBeGreaterThan(40)
    expect(inSources.some((f) => f.at.startsWith('src/transport/stdio/framer.ts') && f.source.includes('"id"'))).toBe(true)
    expect(patternsInSources.some((f) => f.at.startsWith('src/sources/postgres/types.ts'))).toBe(true)
  })

  it('are all safe by the analyzer (literals and constant RegExp(...) alike)', async () => {
    await expectSafe(inSources)
  }, 120_000)

  it('the analyzer finds the quadratic pattern numeric parameters had (the check can fail)', async () => {
    const v = await verdict('^-?(\\d+\\.?\\d*|\\.\\d+)([eE][-+]?\\d+)?$', 'u')
    expect(v).toMatchObject({ status: 'vulnerable', complexity: expect.stringMatching(/polynomial/) })
  }, 60_000)
})

describe('patterns emcp generates', () => {
  it('every PostgreSQL type of the catalog is read, and its string patterns and formats collected', () => {
    expect(pgTypes).toBeGreaterThan(100)
    const patterns = pgSchemas.filter((s) => s.pattern !== undefined)
    expect(patterns.length).toBeGreaterThanOrEqual(3) // numeric, timestamp, time
    expect(pgSchemas.some((s) => s.format === 'date-time')).toBe(true)
  })

  it('schema patterns (PostgreSQL types, the sources) are safe by the analyzer', async () => {
    const fromPg = pgSchemas.flatMap((s) => (typeof s.pattern === 'string' ? [{ source: s.pattern, flags: 'u', at: 'a PostgreSQL type' }] : []))
    await expectSafe([...fromPg, ...patternsInSources])
  }, 120_000)

  it('resource template matchers are safe by the analyzer', async () => {
    const made = templates.map((t) => {
      const re = uriTemplate(t).pattern
      return { source: re.source, flags: re.flags, at: t }
    })
    await expectSafe(made)
  }, 120_000)

  it('date and time formats refuse a string over 256 characters before their own check', () => {
    const dateTime = validatorOf({ type: 'string', format: 'date-time' })
    expect(dateTime.decode('2024-02-29T12:00:00.5Z')._tag).toBe('Right')
    expect(dateTime.decode(`2024-02-29T12:00:00.${'5'.repeat(200)}Z`)._tag).toBe('Right')
    expect(dateTime.decode(`2024-02-29T12:00:00.${'5'.repeat(300)}Z`)._tag).toBe('Left')
  })

  it(`1 MB hostile strings get through the validator within ${boundMs} ms a pattern or format`, () => {
    const schemas = [...pgSchemas, ...patternsInSources.map((p) => ({ type: 'string', pattern: p.source }))]
    const slow: string[] = []
    let worst = 0
    for (const schema of schemas) {
      const v = validatorOf(schema)
      // the argument must be judged (pass or fail), not thrown on
      const t = slowest('', (s) => v.decode(s))
      worst = Math.max(worst, t.ms)
      if (t.ms >= boundMs) slow.push(`${JSON.stringify(schema)}: ${t.ms.toFixed(1)} ms on ${t.size} characters`)
    }
    expect(slow).toEqual([])
    console.log(`ReDoS probe: the slowest 1 MB string took ${worst.toFixed(1)} ms (${schemas.length} schemas)`)
  }, 120_000)

  it(`1 MB hostile URIs get through a resource template's match within ${boundMs} ms`, () => {
    const slow: string[] = []
    let worst = 0
    for (const template of templates) {
      const compiled = uriTemplate(template)
      const t = slowest(template.slice(0, template.indexOf('{')), (s) => O.isSome(compiled.match(s)))
      worst = Math.max(worst, t.ms)
      if (t.ms >= boundMs) slow.push(`${template}: ${t.ms.toFixed(1)} ms on ${t.size} characters`)
    }
    expect(slow).toEqual([])
    console.log(`ReDoS probe: the slowest 1 MB URI took ${worst.toFixed(1)} ms (${templates.length} templates)`)
  }, 120_000)
})
