import { describe, expect, it } from 'vitest'
import * as E from 'fp-ts/lib/Either.js'
import { decodeHeader, mirroredParams, sameValue, valueAt } from '../../src/protocol/headers.js'

describe('protocol/headers', () => {
  it('finds annotations reached through properties alone, nested objects included', () => {
    const schema = {
      type: 'object',
      properties: {
        region: { type: 'string', 'x-mcp-header': 'Region' },
        opts: { type: 'object', properties: { tenant: { type: 'integer', 'x-mcp-header': 'Tenant' } } },
        tags: { enum: [{ 'x-mcp-header': 'data, not an annotation' }] },
      },
    }
    expect(mirroredParams(schema)).toEqual(
      E.right([
        { header: 'Region', path: ['region'], type: 'string' },
        { header: 'Tenant', path: ['opts', 'tenant'], type: 'integer' },
      ]),
    )
  })

  it.each([
    ['anyOf', { anyOf: [{ type: 'object', properties: { a: { type: 'string', 'x-mcp-header': 'A' } } }] }],
    ['$defs', { $defs: { a: { type: 'string', 'x-mcp-header': 'A' } }, properties: { a: { $ref: '#/$defs/a' } } }],
    ['if/then', { if: { properties: { a: { type: 'string', 'x-mcp-header': 'A' } } } }],
  ])('refuses an annotation under %s', (_k, schema) => {
    expect(E.isLeft(mirroredParams({ type: 'object', ...schema }))).toBe(true)
  })

  it('decodes the base64 sentinel and refuses what a header cannot carry', () => {
    expect(decodeHeader('=?base64?SGVsbG8sIOS4lueVjA==?=')).toEqual(E.right('Hello, 世界'))
    expect(decodeHeader('us-west1')).toEqual(E.right('us-west1'))
    expect(E.isLeft(decodeHeader('line1\nline2'))).toBe(true)
    expect(E.isLeft(decodeHeader('=?base64?%%%?='))).toBe(true)
    // SEP-2243's test cases: a value without its padding, or with characters outside the alphabet, is refused
    expect(E.isLeft(decodeHeader('=?base64?SGVsbG8?='))).toBe(true)
    expect(E.isLeft(decodeHeader('=?base64?SGVs!!!bG8=?='))).toBe(true)
    expect(decodeHeader('=?base64?SGVsbG8=?=')).toEqual(E.right('Hello'))
  })

  it('compares integers as numbers and booleans as lower-case words', () => {
    expect(sameValue('42', 42, 'integer')).toBe(true)
    expect(sameValue('42.0', 42, 'integer')).toBe(true)
    expect(sameValue('42', '42', 'integer')).toBe(false)
    expect(sameValue('true', true, 'boolean')).toBe(true)
    expect(sameValue('True', true, 'boolean')).toBe(false)
    expect(valueAt({ a: { b: 1 } }, ['a', 'b'])).toBe(1)
    expect(valueAt({ a: 1 }, ['a', 'b'])).toBeUndefined()
  })
})
