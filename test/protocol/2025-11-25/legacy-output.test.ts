import { describe, expect, it } from 'vitest'
import { legacyOutputSchema, wrapsOutput } from '../../../src/protocol/2025-11-25/legacy-output.js'
import { validatorOf } from '../../../src/index.js'

describe('protocol/legacy-output', () => {
  it('wraps only schemas whose root is not an object', () => {
    expect(wrapsOutput({ type: 'object' })).toBe(false)
    expect(wrapsOutput({ type: 'array' })).toBe(true)
    expect(wrapsOutput({ anyOf: [{ type: 'string' }] })).toBe(true)
    expect(wrapsOutput(undefined)).toBe(false)
  })

  it('moves same-document references under #/properties/result, keeps $schema at the root, leaves data alone', () => {
    const natural = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'array',
      items: { $ref: '#/$defs/item' },
      $defs: { item: { type: 'object', properties: { next: { $ref: '#' } }, default: { $ref: '#/keep' } } },
    }
    const wrapped = legacyOutputSchema(natural)
    expect(wrapped).toEqual({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: {
        result: {
          type: 'array',
          items: { $ref: '#/properties/result/$defs/item' },
          $defs: { item: { type: 'object', properties: { next: { $ref: '#/properties/result' } }, default: { $ref: '#/keep' } } },
        },
      },
      required: ['result'],
    })
    // and it validates what the 2025 adapter sends
    const v = validatorOf(wrapped)
    expect(v.decode({ result: [{ next: [] }] })._tag).toBe('Right')
    expect(v.decode({ result: [{ next: 3 }] })._tag).toBe('Left')
  })
})
