import { describe, expect, it } from 'vitest'
import { codeGenerationAllowed, interpretedCheck } from '../../src/schema/interpreted.js'

const schema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  $defs: { address: { type: 'object', properties: { city: { type: 'string' } } } },
  properties: { name: { type: 'string', default: 'anonymous' }, address: { $ref: '#/$defs/address' }, kind: { anyOf: [{ type: 'string' }, { type: 'integer' }] }, 'a/b': { type: 'number' } },
  required: ['kind'],
  additionalProperties: false,
}

describe('schema/interpreted (the validator where code cannot be generated)', () => {
  it('names each failing path in the compiled engine’s words', () => {
    const check = interpretedCheck(schema, '2020-12', 'output')
    expect(check({ kind: 1 })).toBeUndefined()
    expect(check({ address: { city: 7 }, kind: 1.5, extra: true, 'a/b': 'x' })).toEqual(
      expect.arrayContaining([
        { path: '/address/city', message: 'must be string' },
        { path: '/kind', message: 'must match a schema in anyOf' },
        { path: '/extra', message: 'is not allowed' },
        { path: '/a~1b', message: 'must be number' },
      ]),
    )
    expect(check({})).toEqual([{ path: '/kind', message: 'is required' }])
  })

  it('fills in defaults for arguments, never for results, and leaves the tool’s schema as it was', () => {
    const before = JSON.stringify(schema)
    const args: { [key: string]: unknown } = { kind: 'a' }
    expect(interpretedCheck(schema, '2020-12', 'input')(args)).toBeUndefined()
    expect(args.name).toBe('anonymous')
    const result: { [key: string]: unknown } = { kind: 'a' }
    interpretedCheck(schema, '2020-12', 'output')(result)
    expect(result.name).toBeUndefined()
    expect(JSON.stringify(schema)).toBe(before)
  })

  it('knows that Node allows code generation (the compiled engine stays in use here)', () => {
    expect(codeGenerationAllowed()).toBe(true)
  })

  it('stays linear on a wide hostile value: 100 000 unknown members', () => {
    const wide = Object.fromEntries(Array.from({ length: 100_000 }, (_, i) => [`k${i}`, i]))
    const issues = interpretedCheck(schema, '2020-12', 'output')({ ...wide, kind: 1 })
    expect(issues?.length).toBe(100_000)
  })
})
