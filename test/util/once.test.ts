/** once: the value is made on the first call only, the same one every call, and a failure is not kept. */
import { describe, expect, it } from 'vitest'
import { once } from '../../src/util/once.js'

describe('once', () => {
  it('makes nothing until asked, then the one value for every call', () => {
    let made = 0
    const table = once(() => {
      made++
      return new Map([['a', 1]])
    })
    expect(made).toBe(0)
    const first = table()
    expect(first.get('a')).toBe(1)
    expect(table()).toBe(first)
    expect(made).toBe(1)
  })

  it('keeps undefined as a value made', () => {
    let made = 0
    const nothing = once(() => {
      made++
      return undefined
    })
    expect(nothing()).toBeUndefined()
    expect(nothing()).toBeUndefined()
    expect(made).toBe(1)
  })

  it('tries again after a throw, and keeps the first value made', () => {
    let calls = 0
    const flaky = once(() => {
      calls++
      if (calls === 1) throw new Error('first try fails')
      return { calls }
    })
    expect(() => flaky()).toThrow('first try fails')
    expect(flaky()).toEqual({ calls: 2 })
    expect(flaky()).toBe(flaky())
    expect(calls).toBe(2)
  })
})
