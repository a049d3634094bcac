import { describe, expect, it } from 'vitest'
import { checkMeta, isObject, stripUndefined } from '../../src/util/json-object.js'

describe('isObject', () => {
  it('is true for objects, including those without a prototype', () => {
    expect(isObject({})).toBe(true)
    expect(isObject({ a: 1 })).toBe(true)
    expect(isObject(Object.create(null))).toBe(true)
    expect(isObject(JSON.parse('{"__proto__":{}}'))).toBe(true)
  })

  it('is false for null, arrays and every other JSON value', () => {
    for (const u of [null, undefined, [], [1, 2], '', 'x', 0, 1, true, false]) expect(isObject(u), JSON.stringify(u)).toBe(false)
  })
})

describe('stripUndefined', () => {
  it('drops the keys whose value is undefined, and keeps every other falsy value', () => {
    expect(stripUndefined({ a: 1, b: undefined, c: null, d: 0, e: '', f: false })).toEqual({ a: 1, c: null, d: 0, e: '', f: false })
    expect(Object.keys(stripUndefined({ a: undefined, b: 2 }))).toEqual(['b'])
  })

  it('keeps a "__proto__" key as data, never as the prototype', () => {
    const hostile = JSON.parse('{"__proto__":{"polluted":true},"a":1,"b":null}') as object
    const out = stripUndefined(hostile) as Record<string, unknown>
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype)
    expect(out.polluted).toBeUndefined()
    expect(JSON.stringify(out)).toBe('{"__proto__":{"polluted":true},"a":1,"b":null}')
  })

  it('keeps the order of the keys, so the JSON reads as written', () => {
    expect(JSON.stringify(stripUndefined({ z: 1, m: undefined, a: 2 }))).toBe('{"z":1,"a":2}')
  })

  it('is shallow: undefined inside nested values stays', () => {
    const nested = { inner: undefined }
    const out = stripUndefined({ o: nested, l: [undefined] })
    expect(out.o).toBe(nested)
    expect('inner' in out.o).toBe(true)
    expect(out.l).toEqual([undefined])
  })

  it('returns a new object and leaves its argument as it was', () => {
    const o = { a: 1, b: undefined }
    const out = stripUndefined(o)
    expect(out).not.toBe(o)
    expect('b' in o).toBe(true)
    expect(stripUndefined({})).toEqual({})
  })
})

describe('checkMeta', () => {
  it('accepts a non-empty name with an optional string title and description', () => {
    expect(() => checkMeta('tool', { name: 'add' })).not.toThrow()
    expect(() => checkMeta('tool', { name: 'add', title: 'Add', description: 'Adds.' })).not.toThrow()
    expect(() => checkMeta('tool', { name: 'add', title: undefined, description: undefined })).not.toThrow()
    expect(() => checkMeta('tool', { name: 'add', title: '', description: '' })).not.toThrow()
  })

  it('refuses a missing, empty or non-string name with a TypeError naming what is checked', () => {
    for (const name of [undefined, '', 1, null, ['add'], { name: 'add' }]) {
      expect(() => checkMeta('prompt', { name })).toThrow(TypeError)
      expect(() => checkMeta('prompt', { name })).toThrow('emcp: prompt: name must be a non-empty string')
    }
    expect(() => checkMeta('resource docs://x', {})).toThrow('emcp: resource docs://x: name must be a non-empty string')
  })

  it('refuses a title or description that is present but not a string', () => {
    for (const bad of [null, 1, true, {}, ['t']]) {
      expect(() => checkMeta('tool', { name: 'a', title: bad })).toThrow(new TypeError('emcp: tool: title must be a string'))
      expect(() => checkMeta('tool', { name: 'a', description: bad })).toThrow(new TypeError('emcp: tool: description must be a string'))
    }
  })

  it('checks the name first, then the title, then the description', () => {
    expect(() => checkMeta('tool', { name: 1, title: 1, description: 1 })).toThrow('name must be')
    expect(() => checkMeta('tool', { name: 'a', title: 1, description: 1 })).toThrow('title must be')
  })
})
