import { describe, expect, it } from 'vitest'
import { deeperThan } from '../../src/util/json-depth.js'

/** The depth by definition (recursive; the values here are shallow enough for the stack). */
const depthOf = (u: unknown): number =>
  typeof u !== 'object' || u === null ? 0 : 1 + Math.max(0, ...(Array.isArray(u) ? u : Object.values(u)).map(depthOf))

/** A value `depth` levels deep, alternating objects and arrays, with scalars beside each level. */
const nested = (depth: number, wide = false): unknown => {
  let v: unknown = 'leaf'
  for (let d = depth; d > 0; d--) v = d % 2 === 0 ? [1, v, ...(wide ? ['x', null, 3] : [])] : { a: 1, b: v, ...(wide ? { c: 'x', d: null } : {}) }
  return v
}

describe('deeperThan', () => {
  it('counts the value itself as level 1, scalars as nothing', () => {
    expect(deeperThan({ a: [1] }, 2)).toBe(false)
    expect(deeperThan({ a: [[1]] }, 2)).toBe(true)
    expect(deeperThan(5, 0)).toBe(false)
    expect(deeperThan(null, 0)).toBe(false)
    expect(deeperThan({}, 0)).toBe(true)
    expect(deeperThan([], 1)).toBe(false)
  })

  it('agrees with the definition around every limit, shallow and deep, narrow and wide', () => {
    for (const max of [0, 1, 2, 3, 7, 8, 9, 10, 16, 64, 512])
      for (const depth of new Set([0, 1, 2, max - 1, max, max + 1, max + 2, 9, 10, 20].filter((d) => d >= 0)))
        for (const wide of [false, true]) {
          const v = nested(depth, wide)
          expect(depthOf(v)).toBe(depth)
          expect(deeperThan(v, max), `depth ${depth}, max ${max}, wide ${wide}`).toBe(depth > max)
        }
  })

  it('finds the one deep member among many shallow ones, wherever it is', () => {
    const members = Array.from({ length: 50 }, () => ({ x: [1, 2] }))
    for (const at of [0, 25, 49]) {
      const v = members.map((m, i) => (i === at ? { x: nested(12) } : m))
      expect(deeperThan(v, 13)).toBe(true)
      expect(deeperThan(v, 14)).toBe(false)
    }
  })

  it('walks values far deeper than the stack allows without overflowing', () => {
    let v: unknown = 0
    for (let i = 0; i < 200_000; i++) v = [v]
    expect(deeperThan(v, 512)).toBe(true)
    expect(deeperThan(v, 300_000)).toBe(false)
  })
})
