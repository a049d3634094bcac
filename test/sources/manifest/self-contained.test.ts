import { describe, expect, it } from 'vitest'
import { selfContained } from '../../../src/sources/manifest/index.js'

const dialect = 'https://json-schema.org/draft/2020-12/schema'

describe('selfContained', () => {
  it('rewrites draft-07 spellings (definitions, tuple items, dependencies) to 2020-12', () => {
    const out = selfContained({
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: { pair: { items: [{ type: 'string' }, { type: 'number' }], additionalItems: false }, p: { $ref: '#/definitions/p' } },
      dependencies: { a: ['b'], c: { required: ['d'] } },
      definitions: { p: { type: 'integer' } },
    })
    expect(out).toEqual({
      _tag: 'Right',
      right: {
        $schema: dialect,
        type: 'object',
        properties: { pair: { prefixItems: [{ type: 'string' }, { type: 'number' }], items: false }, p: { type: 'integer' } },
        dependentRequired: { a: ['b'] },
        dependentSchemas: { c: { required: ['d'] } },
      },
    })
  })

  it('does not mistake a property named like a keyword for one', () => {
    const out = selfContained({ type: 'object', properties: { type: { $ref: '#/$defs/t' }, enum: { type: 'string' } }, $defs: { t: { type: 'boolean' } } })
    expect(out).toEqual({ _tag: 'Right', right: { $schema: dialect, type: 'object', properties: { type: { type: 'boolean' }, enum: { type: 'string' } } } })
  })

  it('keeps $defs for a recursive reference, which cannot be inlined', () => {
    const out = selfContained({ type: 'object', properties: { tree: { $ref: '#/$defs/node' } }, $defs: { node: { type: 'object', properties: { kids: { type: 'array', items: { $ref: '#/$defs/node' } } } } } })
    expect(out._tag).toBe('Right')
    const s = (out as { right: Record<string, any> }).right
    expect(s.properties.tree.properties.kids.items).toEqual({ $ref: '#/$defs/node' })
    expect(s.$defs.node).toBeDefined()
  })

  it('keeps annotations beside a $ref and applies other siblings as well as the target', () => {
    const out = selfContained({ type: 'object', properties: { a: { $ref: '#/$defs/n', description: 'd' }, b: { $ref: '#/$defs/n', minimum: 3 } }, $defs: { n: { type: 'number' } } })
    expect((out as { right: Record<string, any> }).right.properties).toEqual({ a: { type: 'number', description: 'd' }, b: { minimum: 3, allOf: [{ type: 'number' }] } })
  })

  it('refuses external and dangling references, with paths', () => {
    expect(selfContained({ type: 'object', properties: { x: { $ref: 'other.json#/a' }, y: { $ref: '#/$defs/missing' } } })).toEqual({
      _tag: 'Left',
      left: [
        { path: '/properties/x/$ref', message: 'external $ref other.json#/a: a manifest schema must be self-contained' },
        { path: '/properties/y/$ref', message: '$ref #/$defs/missing points to nothing in this schema' },
      ],
    })
  })
})
