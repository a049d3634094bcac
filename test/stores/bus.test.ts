/**
 * The delivery loop every store's bus shares (src/stores/bus.ts): handlers of a channel get
 * each message in order as a fresh copy, a throwing handler does not stop the others, and
 * `first`/`stop` tell a backend when to subscribe and unsubscribe on its server.
 */
import { describe, expect, it, vi } from 'vitest'
import { localHandlers } from '../../src/stores/bus.js'
import type { BusMessage } from '../../src/index.js'

describe('localHandlers', () => {
  it('hands each message to every handler of its channel, in order, each a copy of its own', () => {
    const local = localHandlers()
    const a: BusMessage[] = []
    const b: BusMessage[] = []
    local.add('c', (m) => {
      a.push(m)
      // a handler that changes what it got changes only its own copy
      if (typeof m === 'object' && m !== null && !Array.isArray(m)) (m as { n?: number }).n = -1
    })
    local.add('c', (m) => b.push(m))
    local.add('other', () => {
      throw new Error('never called')
    })
    local.deliver('c', JSON.stringify({ n: 1 }))
    local.deliver('c', JSON.stringify({ n: 2 }))
    expect(a).toEqual([{ n: -1 }, { n: -1 }])
    expect(b).toEqual([{ n: 1 }, { n: 2 }])
  })

  it('reports a handler that throws, under the label of its channel, and goes on with the others', () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined)
    try {
      const local = localHandlers((c) => c.slice('prefix:'.length))
      const heard: BusMessage[] = []
      local.add('prefix:c', () => {
        throw new Error('boom')
      })
      local.add('prefix:c', (m) => heard.push(m))
      local.deliver('prefix:c', '"x"')
      expect(heard).toEqual(['x'])
      expect(errors).toHaveBeenCalledWith('emcp: a subscriber of c failed: boom')
    } finally {
      errors.mockRestore()
    }
  })

  it('says which addition was a channel\'s first and which stop its last; the same function added twice is called twice', () => {
    const local = localHandlers()
    const heard: BusMessage[] = []
    const h = (m: BusMessage): void => void heard.push(m)
    const one = local.add('c', h)
    const two = local.add('c', h)
    expect([one.first, two.first]).toEqual([true, false])
    local.deliver('c', '1')
    expect(heard).toEqual([1, 1])
    expect(one.stop()).toBe(false)
    expect(one.stop()).toBe(false) // stopped already: nothing changes
    expect(local.has('c')).toBe(true)
    expect(two.stop()).toBe(true)
    expect(local.has('c')).toBe(false)
    local.deliver('c', '2')
    expect(heard).toEqual([1, 1])
  })
})
