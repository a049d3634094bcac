/**
 * The words search compares: text split into words (C names at `_`, camelCase and digits;
 * Unicode letters and digits, lower case, accents dropped), compound words split into the
 * parts a catalog knows (`tcontains` -> temporal, contains), abbreviations expanded
 * (abbreviations.ts), and each word lightly stemmed (`instants` and `instant` meet). Every
 * step is linear in the text, and the text read is bounded.
 *
 * @example
 * import { analyzer } from './words.js'
 * const words = analyzer({ vocabulary: ['num', 'instants'] })
 * words.terms('temporal_num_instants', 'name').map((t) => t.term) // ['temporal', 'num', 'number', 'count', 'instant']
 */
import { abbreviations as builtIn, letters, prefixes, stopwords, synonyms, type Abbreviations } from './abbreviations.js'

// ---------------------------------------------------------------------------------------
// model

/** A term and how much it counts: 1 for a word as written, less for one an abbreviation or synonym added. */
export interface Term {
  readonly term: string
  readonly weight: number
  /** Which word of the text it came from (its position among the text's words). */
  readonly word: number
}

/** Reads texts into terms: for a tool's fields, or for a query (whose stopwords are dropped first). */
export interface Analyzer {
  readonly terms: (text: string, role: 'name' | 'text' | 'query') => ReadonlyArray<Term>
}

/** What an analyzer knows: the words compound names are made of, and a server's own abbreviations. */
export interface AnalyzerOptions {
  /** Words compound names may be split into (e.g. every `_`-separated word of the tool names). */
  readonly vocabulary?: Iterable<string>
  /** Abbreviations beside the built-in table; they win over it. */
  readonly abbreviations?: Abbreviations
}

/** The most characters of one text read (a description, a query). */
export const maxTextChars = 4096

/** The most words of one text read. */
export const maxWords = 256

/** How much a word an abbreviation or synonym added counts, beside the word as written. */
export const expansionWeight = 0.6

// ---------------------------------------------------------------------------------------
// constructors

/** An analyzer over a vocabulary and a table of abbreviations. */
export const analyzer = (options: AnalyzerOptions = {}): Analyzer => {
  // the entries of both, the server's last so that they win: spread into one object first, the
  // 130 built-in keys cost V8 about half a millisecond
  const table = new Map([...Object.entries(builtIn), ...Object.entries(options.abbreviations ?? {})].map(([k, v]) => [k.toLowerCase(), v.toLowerCase().split(/\s+/).filter((w) => w !== '')]))
  const said = new Map(Object.entries(synonyms()).map(([k, v]) => [k, v.split(' ')]))
  const parts = new Set<string>([...table.keys(), ...baseParts])
  for (const w of options.vocabulary ?? []) if (w.length >= 3 && w.length <= maxPart) parts.add(w.toLowerCase())
  /** The words a word stands for: itself (unless a bare prefix), its table expansion, its synonyms. */
  const meanings = (w: string, prefix: boolean): ReadonlyArray<readonly [string, number]> => [
    ...(prefix ? [] : [[w, 1] as const]),
    ...(prefix ? (prefixes().get(w) ?? '').split(' ').map((x) => [x, expansionWeight] as const) : []),
    ...(table.get(w) ?? []).map((x) => [x, expansionWeight] as const),
    ...(said.get(w) ?? []).map((x) => [x, expansionWeight] as const),
  ]
  /** The stemmed terms of one word, each once at its best weight. */
  const expand = (w: string): ReadonlyArray<readonly [string, number]> => {
    const pieces = table.has(w) || w.length < 4 ? [] : split(w, parts, table)
    const expanded = [...meanings(w, false), ...pieces.flatMap((p, i) => meanings(p, i === 0 && pieces.length > 1 && prefixes().has(p)))]
    const seen = new Set<string>()
    const out: Array<readonly [string, number]> = []
    for (const [x, weight] of expanded) {
      const term = stem(x)
      if (seen.has(term)) continue
      seen.add(term)
      out.push([term, weight])
    }
    return out
  }
  // a catalog repeats its words (every MEOS description says "Spatiotemporal arguments are
  // passed as serialized strings"): each is read once; a query's words are not kept
  const known = new Map<string, ReadonlyArray<readonly [string, number]>>()
  const expandKnown = (w: string): ReadonlyArray<readonly [string, number]> => {
    let e = known.get(w)
    if (e === undefined) {
      e = expand(w)
      if (known.size < maxKnownWords) known.set(w, e)
    }
    return e
  }
  const terms = (text: string, role: 'name' | 'text' | 'query'): ReadonlyArray<Term> => {
    const out: Term[] = []
    rawWords(text).forEach((w, word) => {
      if (role === 'query' && stopwords().has(w)) return
      for (const [term, weight] of role === 'query' ? expand(w) : expandKnown(w)) out.push({ term, weight, word })
    })
    return out
  }
  return { terms }
}

// ---------------------------------------------------------------------------------------
// functions

/** The words of a text as written: bounded, split at non-letters, `_`, camelCase and letter-digit edges, lower case, without accents. */
export const rawWords = (text: string): ReadonlyArray<string> => {
  const bounded = text.length > maxTextChars ? text.slice(0, maxTextChars) : text
  const plain = bounded.replace(/(\p{Ll})(\p{Lu})/gu, '$1 $2').normalize('NFKD').replace(/\p{M}+/gu, '').toLowerCase()
  const out: string[] = []
  for (const [run] of plain.matchAll(/[\p{L}\p{N}]+/gu)) {
    const pieces = run.match(/[0-9]+d(?![a-z])|[0-9]+|\p{L}+/gu) ?? [run]
    // `log10`, `int32` name a thing whole as well as by their parts
    if (pieces.length > 1) out.push(run)
    out.push(...pieces)
    if (out.length >= maxWords) break
  }
  return out.length > maxWords ? out.slice(0, maxWords) : out
}

/**
 * A light stemmer for English words of ASCII letters: plurals, `-ing`, `-ed`, and a final
 * `e`, so that "merged", "merges" and "merge" meet. Other words are returned as they are.
 */
export const stem = (w: string): string => {
  if (w.length <= 3 || !/^[a-z]+$/.test(w)) return w
  let s = w
  if (s.endsWith('ies') && s.length > 4) s = `${s.slice(0, -3)}y`
  else if (/(ch|sh|x|ss|zz)es$/.test(s)) s = s.slice(0, -2)
  else if (s.endsWith('s') && !/(ss|us|is)$/.test(s)) s = s.slice(0, -1)
  if (s.endsWith('ied') && s.length > 4) s = `${s.slice(0, -3)}y`
  else if (s.endsWith('ing') && s.length > 5) s = s.slice(0, -3)
  else if (s.endsWith('ed') && s.length > 4) s = s.slice(0, -2)
  if (s.endsWith('e') && s.length > 3) s = s.slice(0, -1)
  return s
}

// ---------------------------------------------------------------------------------------
// internals

/** The most distinct words an analyzer remembers the terms of. */
const maxKnownWords = 100_000

/** The longest part a compound word is split into. */
const maxPart = 24

/** Parts every catalog's compound names are made of, beside the abbreviation table. */
const baseParts = ['date', 'time', 'set', 'span', 'box', 'point', 'line', 'value', 'text', 'pose', 'base', 'has', 'is', 'over', 'buffer', 'network']

/**
 * A compound word split into the fewest known parts (`tboolseqset` -> tbool, seqset): a
 * prefix of abbreviations.ts only first, a single axis letter only first or last; empty
 * when the word does not split wholly into two parts or more. Dynamic programming over
 * the word: linear in its length (parts are at most `maxPart` characters).
 */
const split = (w: string, parts: ReadonlySet<string>, table: ReadonlyMap<string, unknown>): ReadonlyArray<string> => {
  if (w.length > 4 * maxPart || !/^[a-z0-9]+$/.test(w)) return []
  const known = (p: string, at: number, end: number): boolean =>
    p !== w &&
    (parts.has(p) || table.has(p) || (p.endsWith('s') && parts.has(p.slice(0, -1))) || (at === 0 && prefixes().has(p)) || (letters().has(p) && p.length === 1 && (at === 0 || end === w.length)))
  // best[i]: the fewest parts covering w[0, i), and where the last one starts
  const best: Array<{ readonly count: number; readonly from: number } | undefined> = [{ count: 0, from: -1 }]
  for (let end = 1; end <= w.length; end++)
    for (let start = Math.max(0, end - maxPart); start < end; start++) {
      const before = best[start]
      if (before === undefined || !known(w.slice(start, end), start, end)) continue
      const current = best[end]
      if (current === undefined || before.count + 1 < current.count) best[end] = { count: before.count + 1, from: start }
    }
  const whole = best[w.length]
  if (whole === undefined || whole.count < 2) return []
  const out: string[] = []
  for (let end = w.length; end > 0; ) {
    const from = (best[end] as { readonly from: number }).from
    out.unshift(w.slice(from, end))
    end = from
  }
  return out
}
