import { describe, expect, it } from 'vitest'
import * as O from 'fp-ts/lib/Option.js'
import { emcp, encode, mcpServer, newSession } from '../../src/index.js'
import { unknownKeywords } from '../../src/schema/keywords.js'
import { checkedWithoutHeaderMirrors, locatedSchemaProblems, schemaBounds } from '../../src/schema/schema-check.js'
import type { JsonSchema } from '../../src/schema/schema.js'
import { plainlyServable, provedServable } from '../../src/schema/servable.js'
import { knownMirrorFree } from '../../src/protocol/headers.js'

/** A small deterministic generator (mulberry32), so that a failure names its seed. */
const rng = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296
}

/** Keys a generated node may carry: keywords of every role, annotations, typos, and names that only look like keywords. */
const keys = [
  'type', 'type', 'description', 'properties', 'properties', 'items', 'items', 'anyOf', 'oneOf', 'allOf', 'not', 'if',
  'additionalProperties', 'patternProperties', '$defs', 'definitions', 'dependencies', 'dependentRequired', 'required',
  'enum', 'const', 'default', 'examples', 'prefixItems', 'contains', 'title', 'x-note', '$comment', '$id', '$anchor',
  '$ref', '$dynamicRef', 'x-mcp-header', 'requird', 'kind', 'minLenght', 'format', 'minimum',
]

/** A random value for a key: scalars, arrays, nested nodes; `$ref`s that resolve or not. */
const valueOf = (next: () => number, key: string, depth: number): unknown => {
  const r = next()
  if (key === '$ref' || key === '$dynamicRef') return r < 0.4 ? '#' : r < 0.6 ? '#/$defs/a' : r < 0.8 ? '#nowhere' : 'https://example.com/s.json'
  if (key === 'x-mcp-header') return r < 0.5 ? 'X-Name' : 'bad header'
  if (key === '$schema') return r < 0.5 ? 'https://json-schema.org/draft/2020-12/schema' : 'nope'
  if (r < 0.3) return r < 0.1 ? 'string' : r < 0.2 ? 3 : true
  if (r < 0.5) return Array.from({ length: 1 + Math.floor(next() * 3) }, () => (next() < 0.7 ? nodeOf(next, depth + 1) : [nodeOf(next, depth + 1)]))
  if (r < 0.75) return nodeOf(next, depth + 1)
  // a name map whose names are keywords of every role (`enum`, `$ref`): they name subschemas here
  const map: Record<string, unknown> = {}
  for (let i = 0; i < 1 + next() * 3; i++) map[keys[Math.floor(next() * keys.length)] as string] = nodeOf(next, depth + 1)
  return map
}

const isObj = (u: unknown): boolean => typeof u === 'object' && u !== null && !Array.isArray(u)

const nodeOf = (next: () => number, depth: number): Record<string, unknown> => {
  const node: Record<string, unknown> = {}
  if (depth > 4) return { type: 'string' }
  const n = Math.floor(next() * 4)
  for (let i = 0; i < n; i++) {
    const key = keys[Math.floor(next() * keys.length)] as string
    node[key] = valueOf(next, key, depth)
  }
  return node
}

/** A schema `levels` deep through `properties`. */
const deep = (levels: number): JsonSchema => {
  let s: JsonSchema = { type: 'string' }
  for (let i = 0; i < levels; i++) s = { type: 'object', properties: { a: s } }
  return s
}

describe('plainlyServable', () => {
  it('never passes a schema in which unknownKeywords or locatedSchemaProblems find anything (2000 random schemas)', () => {
    const tally = { quick: 0, problems: 0, unknown: 0 }
    for (let seed = 1; seed <= 2000; seed++) {
      const schema = { ...nodeOf(rng(seed), 0), ...(seed % 7 === 0 ? { $schema: seed % 14 === 0 ? 'https://json-schema.org/draft-07/schema#' : 'draft-99' } : {}) }
      const unknown = unknownKeywords(schema).length
      const located = locatedSchemaProblems(schema).length
      if (unknown > 0) tally.unknown++
      if (located > 0) tally.problems++
      const withKeys = plainlyServable(schema, true)
      const withoutKeys = plainlyServable(schema, false)
      if (withKeys) tally.quick++
      expect({ seed, pass: withKeys, unknown, located }).toEqual({ seed, pass: withKeys, unknown: withKeys ? 0 : unknown, located: withKeys ? 0 : located })
      expect({ seed, pass: withoutKeys, located }).toEqual({ seed, pass: withoutKeys, located: withoutKeys ? 0 : located })
      // a pass without keyword checks is a pass with them, for a schema whose keys are all known
      if (unknown === 0 && located === 0 && withKeys) expect(checkedWithoutHeaderMirrors(schema)).toBe(true)
    }
    // the corpus has every outcome in numbers, so that the checks above are not vacuous
    expect(tally.quick).toBeGreaterThan(200)
    expect(tally.unknown).toBeGreaterThan(200)
    expect(tally.problems).toBeGreaterThan(100)
  })

  it('keeps the invariant with lists planted inside lists: nested around the depth bound, holding themselves, forked, side by side around the list bound (600 random schemas)', () => {
    const { maxDepth, maxSubschemas } = schemaBounds
    /** A list `levels` deep in lists, a schema or a scalar at its bottom. */
    const nestedList = (levels: number, bottom: unknown): unknown[] => {
      let l: unknown[] = [bottom]
      for (let i = 1; i < levels; i++) l = [l]
      return l
    }
    const plants: ReadonlyArray<(next: () => number) => unknown> = [
      next => nestedList(1 + Math.floor(next() * 4), next() < 0.5 ? 1 : nodeOf(next, 3)),
      next => nestedList(maxDepth - 2 + Math.floor(next() * 5), { type: 'string' }),
      () => { const loop: unknown[] = [{ type: 'string' }]; loop.push(loop); return loop },
      () => { const fork: unknown[] = []; fork.push(fork, fork); return fork },
      next => Array.from({ length: maxSubschemas - 2 + Math.floor(next() * 5) }, () => []),
      next => [nodeOf(next, 2), [nodeOf(next, 3), [nodeOf(next, 4)]]],
    ]
    const where = ['x-note', '$comment', 'anyOf', 'allOf', 'prefixItems', 'items', 'enum', 'examples', 'default', 'required', 'type']
    const tally = { quick: 0, refused: 0 }
    for (let seed = 1; seed <= 600; seed++) {
      const next = rng(seed)
      const schema: Record<string, unknown> = { ...nodeOf(next, 1) }
      // planted at the root or one level down, under a keyword of any role
      const holder = next() < 0.5 || !isObj(schema.properties) ? schema : ((schema.properties as Record<string, unknown>).p = {} as Record<string, unknown>)
      ;(holder as Record<string, unknown>)[where[seed % where.length] as string] = (plants[seed % plants.length] as (n: () => number) => unknown)(next)
      const unknown = unknownKeywords(schema).length
      const located = locatedSchemaProblems(schema).length
      for (const k of [true, false]) {
        const pass = plainlyServable(schema, k)
        if (pass) tally.quick++
        else tally.refused++
        expect({ seed, k, pass, located, unknown }).toEqual({ seed, k, pass, located: pass ? 0 : located, unknown: pass && k ? 0 : unknown })
      }
    }
    expect(tally.quick).toBeGreaterThan(20)
    expect(tally.refused).toBeGreaterThan(300)
  })

  it('bounds data values (const, enum, default, examples): one holding itself, forked, nested 200,000 deep or too many is refused when the contract is made, not when tools/list writes it', async () => {
    const { maxDepth, maxDataNodes } = schemaBounds
    let nested: unknown = 1
    for (let i = 0; i < 200_000; i++) nested = [nested]
    const loop: unknown[] = [1]
    loop.push(loop)
    const fork: Record<string, unknown> = {}
    fork.a = fork
    fork.b = fork
    const deepMessage = `a value under const, enum, default or examples nests deeper than ${maxDepth} levels (or holds itself)`
    for (const bad of [nested, loop, fork])
      for (const at of [{ const: bad }, { enum: [bad] }, { type: 'array', default: bad }, { examples: [bad] }, { 'x-note': { default: bad } }]) {
        const schema = { type: 'object', properties: { a: at } }
        expect(plainlyServable(schema, true)).toBe(false)
        expect(locatedSchemaProblems(schema)).toEqual([{ path: '', message: deepMessage }])
        expect(() => emcp({ name: 'bad', input: schema as never })).toThrow(`emcp: tool bad: the input schema cannot be served: ${deepMessage}`)
      }
    const many = { type: 'object', properties: { a: { enum: Array.from({ length: maxDataNodes }, (_, i) => ({ i })) } } }
    expect(plainlyServable(many, true)).toBe(false)
    expect(locatedSchemaProblems(many)).toEqual([{ path: '', message: `the values under const, enum, default and examples hold more than ${maxDataNodes} lists and objects` }])
    // data nested as deep as the bound allows, objects in an enum: served at once, and written by tools/list
    let deepest: unknown = 'leaf'
    for (let i = 1; i < maxDepth; i++) deepest = [deepest]
    const fine = { type: 'object', properties: { a: { const: deepest }, b: { enum: [{ k: 1 }, [1, [2]]] } } }
    expect(plainlyServable(fine, true)).toBe(true)
    expect(locatedSchemaProblems(fine)).toEqual([])
    const tool = emcp({ name: 'fine', input: fine as { type: 'object' } })
    const server = mcpServer([tool], { name: 'data', version: '1.0.0' }).implement({ fine: () => 'ok' } as never)
    const out = await server.dispatch({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, newSession())()
    expect(O.isSome(out) && (JSON.parse(encode(out.value)) as { result: { tools: Array<{ inputSchema: unknown }> } }).result.tools[0]?.inputSchema).toEqual(fine)
  })

  it('passes plain schemas at once, and sends references, header mirrors and bounds to the full checks', () => {
    const plain = { type: 'object', properties: { a: { type: 'string', description: 'A', enum: [{ bogus: 1 }] }, b: { type: 'array', items: [{ type: 'number' }] } }, required: ['a'], 'x-note': { any: 'thing' } }
    expect(plainlyServable(plain, true)).toBe(true)
    // the contract made of it records that its walk found no header mirror; a copy built by hand does not say so
    const made = emcp({ name: 'plain', input: plain as { type: 'object' } })
    expect(knownMirrorFree(made)).toBe(true)
    expect(knownMirrorFree({ ...made })).toBe(false)
    expect(knownMirrorFree(emcp({ name: 'mirrored', input: { type: 'object', properties: { a: { type: 'string', 'x-mcp-header': 'A' } } } }))).toBe(false)
    // keys that only look like data keywords name properties here: their schemas are checked
    expect(plainlyServable({ type: 'object', properties: { enum: { type: 'string', requird: 1 } } }, true)).toBe(false)
    expect(plainlyServable({ type: 'object', properties: { enum: { $ref: '#/nowhere' } } }, false)).toBe(false)
    expect(plainlyServable({ $defs: { a: { type: 'string' } }, properties: { a: { $ref: '#/$defs/a' } } }, true)).toBe(false)
    expect(plainlyServable({ type: 'object', properties: { a: { type: 'string', 'x-mcp-header': 'A' } } }, true)).toBe(false)
    expect(plainlyServable({ type: 'object', requird: ['a'] }, true)).toBe(false)
    expect(plainlyServable({ type: 'object', requird: ['a'] }, false)).toBe(true)
    expect(plainlyServable({ $schema: 'https://json-schema.org/draft-07/schema#', type: 'object' }, true)).toBe(true)
    expect(plainlyServable({ $schema: 'draft-99', type: 'object' }, true)).toBe(false)
    expect(plainlyServable(deep(schemaBounds.maxDepth), true)).toBe(true)
    expect(plainlyServable(deep(schemaBounds.maxDepth + 1), true)).toBe(false)
    const wide = { type: 'object', properties: Object.fromEntries(Array.from({ length: schemaBounds.maxSubschemas + 1 }, (_, i) => [`p${i}`, { type: 'string' }])) }
    expect(plainlyServable(wide, true)).toBe(false)
    expect(locatedSchemaProblems(wide)).toEqual([{ path: '', message: `it has more than ${schemaBounds.maxSubschemas} subschemas` }])
  })

  it('ends on lists inside lists: nested far deeper than the call stack (or JSON.stringify) allows, holding themselves, or too many; and a list too long for a schema', () => {
    let nested: unknown = []
    for (let i = 0; i < 200_000; i++) nested = [nested]
    // a list inside a list sends the schema to the full checks, which count the nesting as depth (a tools/list could not write this one)
    const deepLists = { type: 'object', 'x-note': nested }
    expect(plainlyServable(deepLists, true)).toBe(false)
    expect(locatedSchemaProblems(deepLists)).toEqual([{ path: '', message: `it nests deeper than ${schemaBounds.maxDepth} levels` }])
    // a list holding itself (only code builds one) ends too: under a list of schemas, under an annotation
    const loop: unknown[] = []
    loop.push(loop)
    for (const looped of [{ type: 'object', properties: { a: { anyOf: loop } } }, { type: 'object', 'x-loop': loop }]) {
      expect(plainlyServable(looped, true)).toBe(false)
      expect(locatedSchemaProblems(looped)).toEqual([{ path: '', message: `it nests deeper than ${schemaBounds.maxDepth} levels` }])
      expect(() => emcp({ name: 'looped', input: looped as never })).toThrow(`emcp: tool looped: the input schema cannot be served: it nests deeper than ${schemaBounds.maxDepth} levels`)
    }
    // holding itself twice: each level doubles the lists to open, the count ends it
    const fork: unknown[] = []
    fork.push(fork, fork)
    expect(locatedSchemaProblems({ type: 'object', 'x-fork': fork })).toContainEqual({ path: '', message: `it holds more than ${schemaBounds.maxSubschemas} lists where schemas or annotations go` })
    // lists side by side count as well, in both walks
    const side = { type: 'object', ...Object.fromEntries(Array.from({ length: schemaBounds.maxSubschemas + 1 }, (_, i) => [`x-${i}`, []])) }
    expect(plainlyServable(side, true)).toBe(false)
    expect(locatedSchemaProblems(side)).toEqual([{ path: '', message: `it holds more than ${schemaBounds.maxSubschemas} lists where schemas or annotations go` }])
    // a few lists inside a list, where an annotation holds a matrix: served, after the full checks found nothing
    const matrix = { type: 'object', 'x-matrix': [[1, 2], [3, 4]] }
    expect(plainlyServable(matrix, true)).toBe(false)
    expect(locatedSchemaProblems(matrix)).toEqual([])
    expect(emcp({ name: 'matrix', input: matrix as { type: 'object' } }).inputSchema).toEqual(matrix)
    // more objects than the bounds allow, in one list under an annotation: the full walks answer, and say why
    const many = { type: 'object', 'x-note': Array.from({ length: 4 * schemaBounds.maxSubschemas }, () => ({})) }
    expect(plainlyServable(many, true)).toBe(false)
    expect(locatedSchemaProblems(many)).toEqual([{ path: '', message: `it has more than ${schemaBounds.maxSubschemas} subschemas` }])
  })

  it('remembers one pass with keywords, for the very schema, once', () => {
    const a = { type: 'object' }
    const b = { type: 'object' }
    expect(plainlyServable(a, true)).toBe(true)
    expect(provedServable(b)).toBe(false)
    expect(plainlyServable(a, true)).toBe(true)
    expect(provedServable(a)).toBe(true)
    expect(provedServable(a)).toBe(false)
    // a pass without keyword checks is not remembered: it was not a literal's slot check
    expect(plainlyServable(a, false)).toBe(true)
    expect(provedServable(a)).toBe(false)
  })

  it('leaves emcp refusing bad literals with the full checks\' messages, in their order', () => {
    expect(() => emcp({ name: 't', input: { type: 'object', requird: ['a'], properties: { a: { $ref: '#/nowhere' } } } as never })).toThrow(
      'emcp: tool t: the input schema: unknown JSON Schema keyword "requird" (did you mean "required"?) (at /requird)',
    )
    expect(() => emcp({ name: 't', input: { type: 'object', properties: { a: { $ref: '#/nowhere' } } } })).toThrow(
      'emcp: tool t: the input schema cannot be served: $ref "#/nowhere" points at nothing in the schema (at /properties/a/$ref)',
    )
    expect(() => emcp({ name: 't', input: deep(schemaBounds.maxDepth + 1) as never })).toThrow(`it nests deeper than ${schemaBounds.maxDepth} levels`)
    expect(emcp({ name: 't', input: { $defs: { a: { type: 'string' } }, type: 'object', properties: { a: { $ref: '#/$defs/a' } } } }).inputSchema).toMatchObject({ type: 'object' })
  })
})
