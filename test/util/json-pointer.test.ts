import { describe, expect, it } from 'vitest'
import { escapeToken, resolvePointer } from '../../src/util/json-pointer.js'

describe('json-pointer (RFC 6901)', () => {
  it('escapes ~ as ~0 and / as ~1 in a token, ~ first', () => {
    expect(escapeToken('a/b~c')).toBe('a~1b~0c')
    expect(escapeToken('~1')).toBe('~01')
    expect(escapeToken('plain')).toBe('plain')
  })

  it('resolves the whole document, object members, escaped and percent-encoded tokens', () => {
    const doc = { $defs: { 'a/b': { type: 'number' }, 'c~d': 1, 'e f': 2 } }
    expect(resolvePointer(doc, '')).toBe(doc)
    expect(resolvePointer(doc, '/$defs/a~1b')).toEqual({ type: 'number' })
    expect(resolvePointer(doc, '/$defs/c~0d')).toBe(1)
    expect(resolvePointer(doc, '/$defs/e%20f')).toBe(2)
  })

  it('resolves array indexes written without leading zeros, and nothing else', () => {
    const doc = { items: ['x', 'y'] }
    expect(resolvePointer(doc, '/items/1')).toBe('y')
    expect(resolvePointer(doc, '/items/01')).toBeUndefined()
    expect(resolvePointer(doc, '/items/-')).toBeUndefined()
    expect(resolvePointer(doc, '/items/2')).toBeUndefined()
  })

  it('is undefined past a missing member or through a scalar', () => {
    expect(resolvePointer({ a: 1 }, '/b/c')).toBeUndefined()
    expect(resolvePointer({ a: 1 }, '/a/b')).toBeUndefined()
  })
})
