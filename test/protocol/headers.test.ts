import { describe, expect, it } from 'vitest'
import * as E from 'fp-ts/lib/Either.js'
import { decodeHeader, mirroredParams, sameValue, valueAt } from '../../src/protocol/headers.js'
import { checkedWithoutHeaderMirrors, locatedSchemaProblems } from '../../src/schema/schema-check.js'
import type { JsonSchema } from '../../src/schema/schema.js'
import { emcp, mcpServer } from '../../src/index.js'

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

  it('finds and refuses the same annotations in a schema already checked when its contract was made (the walk is skipped only without any)', () => {
    const annotated = { type: 'object', properties: { region: { type: 'string', 'x-mcp-header': 'Region' } } } as const
    const misplaced = { type: 'object', properties: {}, anyOf: [{ properties: { a: { type: 'string', 'x-mcp-header': 'A' } } }] } as const
    const inMap = { type: 'object', $defs: { 'x-mcp-header': { type: 'string' } } } as const
    const plain = { type: 'object', properties: { region: { type: 'string', description: 'x-mcp-header in prose' } }, enum: [{ 'x-mcp-header': 'data' }] } as const
    for (const schema of [annotated, misplaced, inMap, plain]) expect(locatedSchemaProblems(schema)).toEqual([])
    expect(checkedWithoutHeaderMirrors(annotated)).toBe(false)
    expect(checkedWithoutHeaderMirrors(misplaced)).toBe(false)
    expect(checkedWithoutHeaderMirrors(inMap)).toBe(false)
    expect(checkedWithoutHeaderMirrors(plain)).toBe(true)
    expect(mirroredParams(annotated)).toEqual(E.right([{ header: 'Region', path: ['region'], type: 'string' }]))
    expect(E.isLeft(mirroredParams(misplaced))).toBe(true)
    expect(E.isLeft(mirroredParams(inMap))).toBe(true)
    expect(mirroredParams(plain)).toEqual(E.right([]))
    // through a contract and a server: a misplaced annotation still fails the build
    const bad = emcp({ name: 'bad', input: misplaced })
    expect(() => mcpServer([bad], { name: 'h', version: '1' }).implement({ bad: () => 'x' })).toThrow(/tool bad: x-mcp-header may only annotate properties/)
    // a schema too deep to check whole is never marked
    let deep: object = { type: 'string' }
    for (let i = 0; i < 70; i++) deep = { type: 'object', properties: { a: deep } }
    expect(locatedSchemaProblems(deep as JsonSchema).length).toBeGreaterThan(0)
    expect(checkedWithoutHeaderMirrors(deep)).toBe(false)
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
