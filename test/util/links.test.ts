/**
 * A list of values that come and go: members in the order they were added, each removed by
 * its link once (again: nothing), from the middle or either end, a walk that may remove, and a
 * removed link that refers to no neighbour.
 */
import { describe, expect, it } from 'vitest'
import { links } from '../../src/util/links.js'

describe('links', () => {
  it('keeps members in the order they were added and removes each by its link, from anywhere, once', () => {
    const l = links<string>()
    expect(l.values()).toEqual([])
    const a = l.add('a')
    const b = l.add('b')
    const c = l.add('c')
    const d = l.add('d')
    expect(l.values()).toEqual(['a', 'b', 'c', 'd'])
    expect(l.size()).toBe(4)
    l.remove(b)
    expect(l.values()).toEqual(['a', 'c', 'd'])
    l.remove(b)
    expect(l.size()).toBe(3)
    l.remove(a)
    l.remove(d)
    expect(l.values()).toEqual(['c'])
    const e = l.add('e')
    expect(l.values()).toEqual(['c', 'e'])
    l.remove(c)
    l.remove(e)
    expect(l.values()).toEqual([])
    expect(l.size()).toBe(0)
    // the list is reusable once empty, and the same value may be a member twice
    const x1 = l.add('x')
    l.add('x')
    l.remove(x1)
    expect(l.values()).toEqual(['x'])
  })

  it('walks a copy: members removed during the walk are still visited once, and the list ends empty', () => {
    const l = links<number>()
    const all = Array.from({ length: 5 }, (_, i) => l.add(i))
    const seen: number[] = []
    for (const v of l.values()) {
      seen.push(v)
      for (const link of all) l.remove(link)
    }
    expect(seen).toEqual([0, 1, 2, 3, 4])
    expect(l.size()).toBe(0)
  })

  it('a removed link refers to no neighbour (it keeps none alive)', () => {
    const l = links<object>()
    const first = l.add({})
    const middle = l.add({})
    l.add({})
    l.remove(middle)
    expect(Object.values(middle).filter((v) => typeof v === 'object' && v !== null && v !== middle.value)).toEqual([])
    l.remove(first)
    expect(Object.values(first).filter((v) => typeof v === 'object' && v !== null && v !== first.value)).toEqual([])
  })
})

describe('links: a link of another list', () => {
  it('is left alone: neither list loses a member', () => {
    const a = links<string>()
    const b = links<string>()
    a.add('a1')
    const a2 = a.add('a2')
    a.add('a3')
    b.add('b1')
    b.remove(a2)
    expect(a.values()).toEqual(['a1', 'a2', 'a3'])
    expect(b.values()).toEqual(['b1'])
    expect([a.size(), b.size()]).toEqual([3, 1])
    b.remove({ value: 'a2' })
    expect(b.values()).toEqual(['b1'])
    a.remove(a2)
    expect(a.values()).toEqual(['a1', 'a3'])
  })
})
