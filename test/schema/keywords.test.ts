import { describe, expect, it } from 'vitest'
import { unknownKeywords } from '../../src/schema/keywords.js'

describe('unknownKeywords', () => {
  it('finds each unknown keyword at its JSON pointer, through every kind of subschema', () => {
    const schema = {
      type: 'object',
      properties: { 'a/b~c': { type: 'string', minLenght: 1 }, list: { type: 'array', items: [{ type: 'string' }, { typ: 'number' }] } },
      anyOf: [{ required: ['x'] }, { requird: ['y'] }],
      additionalProperties: { formt: 'email' },
      $defs: { d: { nullable: true, bogus: 1 } },
      enum: [{ notAKeyword: 1 }],
      'x-extension': { whatever: true },
    }
    expect(unknownKeywords(schema as never)).toEqual([
      { path: '/properties/a~1b~0c/minLenght', message: expect.stringContaining('did you mean "minLength"') },
      { path: '/properties/list/items/1/typ', message: expect.stringContaining('"typ"') },
      { path: '/anyOf/1/requird', message: expect.stringContaining('did you mean "required"') },
      { path: '/additionalProperties/formt', message: expect.stringContaining('did you mean "format"') },
      { path: '/$defs/d/bogus', message: expect.stringContaining('annotations start with "x-"') },
    ])
  })

  it('finds nothing in a schema of known keywords, and stops at 20 problems', () => {
    expect(unknownKeywords({ type: 'object', properties: { a: { type: 'number', description: 'A' } }, required: ['a'] })).toEqual([])
    const many = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, { bad: i }]))
    expect(unknownKeywords({ type: 'object', properties: many } as never)).toHaveLength(20)
  })
})
