/**
 * The search index of a tool list: each tool read into four fields (its name and title,
 * its categories and tags, its argument names and titles, its description), and a query
 * ranked with BM25 per field (each field its own term statistics, so that a word every
 * description repeats still counts in names), weighted by field, times the share of the
 * query's words the tool matches. Built once per tool list; a query reads only the
 * postings of its own terms, so it costs time linear in the matches, never in the index.
 *
 * @example
 * import { emcp } from 'emcp'
 * import { searchIndex } from './rank.js'
 * const count = emcp({ name: 'temporal_num_instants', description: 'Number of distinct instants.', input: { type: 'object' } })
 * const index = searchIndex([count])
 * index.search('how many instants', 5)[0]?.name // 'temporal_num_instants'
 */
import type { AnyTool } from '../../contract/emcp.js'
import { isObject } from '../../util/json-object.js'
import type { Abbreviations } from './abbreviations.js'
import { analyzer, rawWords, type Analyzer, type Term } from './words.js'

// ---------------------------------------------------------------------------------------
// model

/** One tool found: its name, its description's first line, and how well it matched. */
export interface Hit {
  readonly name: string
  readonly description: string
  readonly score: number
  readonly tool: AnyTool
}

/** A tool list, indexed. */
export interface SearchIndex {
  /** The tools indexed, in list order. */
  readonly size: number
  /** The best `limit` tools for a query, best first, among those `visible` lets through. */
  readonly search: (query: string, limit: number, visible?: (tool: AnyTool) => boolean) => ReadonlyArray<Hit>
}

/** How long a one-line description may be. */
export const maxLineChars = 200

// ---------------------------------------------------------------------------------------
// constructors

/** Indexes `tools` (read once, now). */
export const searchIndex = (tools: ReadonlyArray<AnyTool>, options: { readonly abbreviations?: Abbreviations } = {}): SearchIndex => {
  const words = analyzer({ vocabulary: tools.flatMap((t) => rawWords(t.name)), abbreviations: options.abbreviations })
  const fields = fieldSpecs.map((spec) => fieldOf(tools.map((t) => words.terms(spec.read(t), spec.role)), spec))
  const lines = tools.map((t) => oneLine(t.description ?? t.title ?? ''))
  const byName = new Map(tools.map((t, i) => [t.name.toLowerCase(), i]))
  const search = (query: string, limit: number, visible: (tool: AnyTool) => boolean = () => true): ReadonlyArray<Hit> => {
    const q = queryTerms(words, query)
    const scores = new Float64Array(tools.length)
    const matched = new Map<number, Set<number>>()
    for (const field of fields)
      for (const { term, weight, word } of q.terms) field.score(term, weight, scores, (doc) => {
        const m = matched.get(doc) ?? new Set<number>()
        matched.set(doc, m.add(word))
      })
    // a query naming a tool exactly puts it first
    const exact = byName.get(query.trim().toLowerCase().replace(/\s+/g, '_'))
    if (exact !== undefined) matched.set(exact, new Set(matched.get(exact) ?? [0]))
    const ranked: Array<{ readonly doc: number; readonly score: number }> = []
    for (const [doc, m] of matched) {
      const tool = tools[doc] as AnyTool
      if (!visible(tool)) continue
      const share = q.words === 0 ? 1 : m.size / q.words
      const score = (scores[doc] as number) * share * share + (doc === exact ? 1000 : 0)
      insertTop(ranked, { doc, score }, limit, tools)
    }
    return ranked.map(({ doc, score }) => ({ name: (tools[doc] as AnyTool).name, description: lines[doc] as string, score: Math.round(score * 1000) / 1000, tool: tools[doc] as AnyTool }))
  }
  return { size: tools.length, search }
}

// ---------------------------------------------------------------------------------------
// functions

/** A description's first sentence or line, at most `maxLineChars` characters. */
export const oneLine = (text: string): string => {
  const line = text.trim().split(/\r?\n/, 1)[0] ?? ''
  const sentence = /^(.+?[.!?])(\s|$)/.exec(line)?.[1] ?? line
  return sentence.length <= maxLineChars ? sentence : `${sentence.slice(0, maxLineChars - 1)}…`
}

/** A tool's categories and tags: `_meta["emcp/category"]`, `_meta["emcp/tags"]`, the `category` and `tags` of an `x-` extension (MEOS's `x-meos.category`), the part of a dotted name before its first dot. */
export const categoriesOf = (t: AnyTool): ReadonlyArray<string> => {
  const out: string[] = []
  const add = (u: unknown): void => {
    if (typeof u === 'string') out.push(u)
    else if (Array.isArray(u)) for (const s of u.slice(0, 32)) if (typeof s === 'string') out.push(s)
  }
  add(t._meta?.['emcp/category'])
  add(t._meta?.['emcp/tags'])
  for (const [key, value] of Object.entries(t))
    if (key.startsWith('x-') && isObject(value)) {
      add(value.category)
      add(value.tags)
    }
  if (t.name.includes('.')) out.push(t.name.slice(0, t.name.indexOf('.')))
  return out
}

// ---------------------------------------------------------------------------------------
// internals

/** How one field is read and weighed. */
interface FieldSpec {
  readonly read: (t: AnyTool) => string
  readonly role: 'name' | 'text'
  readonly weight: number
  /** BM25's length normalisation. */
  readonly b: number
}

const fieldSpecs: ReadonlyArray<FieldSpec> = [
  { read: (t) => `${t.name} ${t.title ?? ''}`, role: 'name', weight: 3, b: 0.3 },
  { read: (t) => categoriesOf(t).join(' '), role: 'name', weight: 1.5, b: 0 },
  { read: (t) => argumentsText(t), role: 'name', weight: 1, b: 0.5 },
  { read: (t) => t.description ?? '', role: 'text', weight: 1, b: 0.75 },
]

/** BM25's term-frequency saturation. */
const k1 = 1.2

/** An indexed field: scores a query term into the tools' scores, telling which tools it matched. */
interface Field {
  readonly score: (term: string, weight: number, scores: Float64Array, hit: (doc: number) => void) => void
}

/** One field of every tool: its postings (term -> tools and weighted frequencies) and lengths. */
const fieldOf = (docs: ReadonlyArray<ReadonlyArray<Term>>, spec: FieldSpec): Field => {
  const postings = new Map<string, Map<number, number>>()
  const lengths = docs.map((terms, doc) => {
    for (const { term, weight } of terms) {
      const p = postings.get(term) ?? new Map<number, number>()
      postings.set(term, p.set(doc, (p.get(doc) ?? 0) + weight))
    }
    return terms.reduce((a, t) => a + t.weight, 0)
  })
  const average = lengths.reduce((a, n) => a + n, 0) / Math.max(1, lengths.length) || 1
  const n = docs.length
  return {
    score: (term, weight, scores, hit) => {
      const p = postings.get(term)
      if (p === undefined) return
      const idf = Math.log(1 + (n - p.size + 0.5) / (p.size + 0.5))
      for (const [doc, tf] of p) {
        const norm = 1 - spec.b + (spec.b * (lengths[doc] as number)) / average
        scores[doc] = (scores[doc] as number) + spec.weight * weight * idf * ((tf * (k1 + 1)) / (tf + k1 * norm))
        hit(doc)
      }
    },
  }
}

/** The names and titles of a tool's arguments, as text. */
const argumentsText = (t: AnyTool): string => {
  const props = t.inputSchema?.properties
  if (!isObject(props)) return ''
  return Object.entries(props)
    .slice(0, 64)
    .map(([k, v]) => `${k} ${isObject(v) && typeof v.title === 'string' ? v.title : ''}`)
    .join(' ')
}

/** A query's terms (each once, at its best weight) and how many of its words carry meaning. */
const queryTerms = (words: Analyzer, query: string): { readonly terms: ReadonlyArray<Term>; readonly words: number } => {
  const best = new Map<string, Term>()
  for (const t of words.terms(query, 'query')) {
    const seen = best.get(t.term)
    if (seen === undefined || seen.weight < t.weight) best.set(t.term, t)
  }
  const terms = [...best.values()].slice(0, 64)
  return { terms, words: new Set(terms.map((t) => t.word)).size }
}

/** Keeps `top` the best `limit` entries, best first (ties: the shorter name, then by name); linear in the candidates for a bounded limit. */
const insertTop = (top: Array<{ readonly doc: number; readonly score: number }>, e: { readonly doc: number; readonly score: number }, limit: number, tools: ReadonlyArray<AnyTool>): void => {
  const before = (a: { readonly doc: number; readonly score: number }, b: { readonly doc: number; readonly score: number }): boolean => {
    if (a.score !== b.score) return a.score > b.score
    const [x, y] = [(tools[a.doc] as AnyTool).name, (tools[b.doc] as AnyTool).name]
    return x.length !== y.length ? x.length < y.length : x < y
  }
  if (top.length >= limit && !before(e, top[top.length - 1] as typeof e)) return
  let i = top.length
  while (i > 0 && before(e, top[i - 1] as typeof e)) i--
  top.splice(i, 0, e)
  if (top.length > limit) top.pop()
}
