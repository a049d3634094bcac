import { describe, expect, it } from 'vitest'
import { schemaBounds, schemaProblems } from '../../src/schema/schema-check.js'
import { emcp, validatorOf } from '../../src/index.js'

describe('schema-check', () => {
  it('accepts any 2020-12 keyword and references within the schema ($defs, pointers, anchors, embedded $id)', () => {
    expect(
      schemaProblems({
        type: 'object',
        $defs: { pos: { type: 'integer', exclusiveMinimum: 0 }, tag: { $anchor: 'tag', type: 'string' } },
        properties: {
          a: { $ref: '#/$defs/pos' },
          b: { $ref: '#tag' },
          c: { type: 'array', prefixItems: [{ type: 'string' }], items: false, unevaluatedItems: false },
          d: { $id: 'urn:emcp:inner', type: 'object', properties: { e: { $ref: '#/properties/e' } } },
          f: { $ref: 'urn:emcp:inner' },
          g: { dependentRequired: { x: ['y'] }, if: { required: ['x'] }, then: { minProperties: 2 } },
        },
        unevaluatedProperties: false,
      }),
    ).toEqual([])
  })

  it('and the validator honours them: pointers, anchors, an embedded $id, prefixItems, dependentRequired, unevaluatedProperties', () => {
    const rich = emcp({
      name: 'rich',
      description: 'Every 2020-12 corner at once.',
      input: {
        type: 'object',
        $defs: { pos: { type: 'integer', exclusiveMinimum: 0 }, tag: { $anchor: 'tag', type: 'string', minLength: 2 } },
        properties: {
          a: { $ref: '#/$defs/pos' },
          b: { $ref: '#tag' },
          c: { type: 'array', prefixItems: [{ type: 'string' }], items: false },
          d: { $id: 'urn:emcp:inner', type: 'object', properties: { e: { type: 'boolean' } } },
          f: { $ref: 'urn:emcp:inner' },
          g: { type: 'object', dependentRequired: { x: ['y'] } },
        },
        unevaluatedProperties: false,
      } as const,
    })
    const v = validatorOf(rich.inputSchema)
    expect(v.decode({ a: 1, b: 'ok', c: ['x'], f: { e: true }, g: { x: 1, y: 2 } })._tag).toBe('Right')
    const bad = v.decode({ a: 0, b: 'o', c: ['x', 'y'], f: { e: 1 }, g: { x: 1 }, z: 1 })
    expect(bad._tag === 'Left' ? bad.left.map((i) => i.path) : []).toEqual(['/a', '/b', '/c', '/f/e', '/g', ''])
  })

  it('refuses references it cannot resolve within the schema, and never fetches', () => {
    expect(schemaProblems({ $ref: 'https://example.com/s.json' })[0]).toMatch(/never fetches/)
    expect(schemaProblems({ $ref: 'other.json#/a' })[0]).toMatch(/outside the schema/)
    expect(schemaProblems({ properties: { a: { $ref: '#/$defs/missing' } } })[0]).toMatch(/points at nothing/)
    expect(schemaProblems({ $ref: '#nowhere' })[0]).toMatch(/anchor/)
  })

  it('does not read data keywords as schemas', () => {
    expect(schemaProblems({ const: { $ref: 'https://example.com/not-a-ref' }, enum: [{ $ref: 'x' }] })).toEqual([])
  })

  it('refuses dialects it does not validate', () => {
    expect(schemaProblems({ $schema: 'https://json-schema.org/draft/2020-12/schema' })).toEqual([])
    expect(schemaProblems({ $schema: 'http://json-schema.org/draft-07/schema#' })).toEqual([])
    expect(schemaProblems({ $schema: 'https://example.com/dialect' })[0]).toMatch(/dialect/)
  })

  it('bounds composition: too deep or too many subschemas is refused', () => {
    let deep: Record<string, unknown> = { type: 'string' }
    for (let i = 0; i <= schemaBounds.maxDepth; i++) deep = { anyOf: [deep] }
    expect(schemaProblems(deep).join()).toMatch(/nests deeper/)
    const wide = { anyOf: Array.from({ length: schemaBounds.maxSubschemas + 1 }, () => ({ type: 'string' })) }
    expect(schemaProblems(wide).join()).toMatch(/more than/)
  })
})
