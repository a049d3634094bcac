/**
 * The words search compares and how tools rank: C names split into words, compound names
 * into known parts, MEOS's abbreviations expanded on both sides, light stemming, Unicode
 * folded; a query bounded in what it reads; ranking by name before description, and by the
 * share of the query's words matched.
 */
import { describe, expect, it } from 'vitest'
import { emcp } from 'emcp'
import { analyzer, maxWords, rawWords, stem } from '../../../src/features/tool-search/words.js'
import { searchIndex, oneLine, categoriesOf } from '../../../src/features/tool-search/rank.js'

const termsOf = (text: string, vocabulary: ReadonlyArray<string> = []) => analyzer({ vocabulary }).terms(text, 'name').map((t) => t.term)

describe('words', () => {
  it('splits C names, camelCase and digits, folds case and accents', () => {
    expect(rawWords('temporal_num_instants')).toEqual(['temporal', 'num', 'instants'])
    expect(rawWords('tfloatSeqSet geom_distance3d log10')).toEqual(['tfloat', 'seq', 'set', 'geom', 'distance3d', 'distance', '3d', 'log10', 'log', '10'])
    expect(rawWords('Ça FAIT Über ÉTÉ')).toEqual(['ca', 'fait', 'uber', 'ete'])
    expect(rawWords('数字 🚀 x')).toEqual(['数字', 'x'])
  })

  it('expands MEOS abbreviations and prefixes, and splits compound names into known parts', () => {
    expect(termsOf('temporal_num_instants')).toEqual(['temporal', 'num', 'number', 'count', 'instant'])
    expect(termsOf('tgeompoint')).toEqual(expect.arrayContaining(['tgeompoint', 'temporal', 'geometry', 'point']))
    expect(termsOf('stbox')).toEqual(expect.arrayContaining(['spatiotemporal', 'box']))
    expect(termsOf('tdwithin')).toEqual(expect.arrayContaining(['within', 'distanc', 'temporal']))
    expect(termsOf('econtains', ['contains'])).toEqual(['econtain', 'ever', 'contain'])
    expect(termsOf('tboolseqset', ['tbool'])).toEqual(expect.arrayContaining(['temporal', 'boolean', 'sequenc', 'set']))
    expect(termsOf('stbox_xmax')).toEqual(expect.arrayContaining(['x', 'maximum']))
    // a word that does not split wholly into known parts stays whole
    expect(termsOf('hausdorff', ['haus'])).toEqual(['hausdorff'])
  })

  it('takes no inherited key of an object for a prefix: a query may start a word with constructor', () => {
    const search = analyzer({ vocabulary: ['speed'] })
    for (const role of ['query', 'name', 'text'] as const) {
      const terms = search.terms('constructorspeed constructor', role).map((t) => t.term)
      expect(terms).not.toContain('speed')
      expect(terms).toContain('constructor')
    }
  })

  it('stems plurals, -ing and -ed alike', () => {
    for (const [a, b] of [['instants', 'instant'], ['merged', 'merge'], ['touches', 'touch'], ['boxes', 'box'], ['simplified', 'simplify'], ['rounding', 'round']]) expect(stem(a as string)).toBe(stem(b as string))
    expect(stem('is')).toBe('is')
  })

  it('reads a hostile text only up to its bound', () => {
    expect(rawWords('word '.repeat(1_000_000)).length).toBeLessThanOrEqual(maxWords)
    expect(rawWords('a'.repeat(10_000_000)).length).toBe(1)
    expect(termsOf('x'.repeat(5000))).toHaveLength(1)
  })

  it('drops stopwords from queries only', () => {
    const words = analyzer()
    expect(words.terms('how many of the instants', 'query').map((t) => t.term)).toEqual(['many', 'number', 'count', 'instant'])
    expect(words.terms('the', 'text').map((t) => t.term)).toEqual(['the'])
  })
})

describe('ranking', () => {
  const tool = (name: string, description: string, extra: object = {}) => emcp({ name, description, input: { type: 'object' }, ...extra })
  const tools = [
    tool('temporal_num_instants', 'MEOS accessor operation.', { 'x-meos': { category: 'accessor' } }),
    tool('temporal_instants', 'MEOS transformation operation.', { 'x-meos': { category: 'transformation' } }),
    tool('temporal_num_sequences', 'MEOS accessor operation.'),
    tool('count_words', 'Number of words in a text; also counts instants of speech.'),
  ]
  const index = searchIndex(tools)

  it('ranks the name above the description, and every word of the query above some', () => {
    expect(index.search('number of instants', 5).map((h) => h.name)).toEqual(['temporal_num_instants', 'count_words', 'temporal_instants', 'temporal_num_sequences'])
    expect(index.search('accessor', 5).map((h) => h.name)).toEqual(['temporal_num_instants', 'temporal_num_sequences'])
  })

  it('puts an exact name first, bounds the answer, and lets a filter hide tools', () => {
    expect(index.search('Temporal_Instants', 1).map((h) => h.name)).toEqual(['temporal_instants'])
    expect(index.search('temporal', 2)).toHaveLength(2)
    expect(index.search('number of instants', 5, (t) => t.name !== 'temporal_num_instants').map((h) => h.name)).not.toContain('temporal_num_instants')
  })

  it('reads one line of a description and the categories of a tool', () => {
    expect(oneLine('First sentence. Second one.\nNext line')).toBe('First sentence.')
    expect(oneLine('x'.repeat(500))).toHaveLength(200)
    expect(categoriesOf(tool('vector.norm', 'Norm.', { _meta: { 'emcp/tags': ['f64', 3] } }))).toEqual(['f64', 'vector'])
    expect(categoriesOf(tools[0] as never)).toEqual(['accessor'])
  })
})
