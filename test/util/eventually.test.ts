import { describe, expect, it } from 'vitest'
import { isThenable, map, toPromise } from '../../src/util/eventually.js'

describe('eventually: a value now or later', () => {
  it('maps a present value synchronously, without a promise', () => {
    const out = map(1, (n) => n + 1)
    expect(out).toBe(2)
    expect(isThenable(out)).toBe(false)
  })

  it('maps a promised value when it arrives', async () => {
    const out = map(Promise.resolve(1), (n) => n + 1)
    expect(isThenable(out)).toBe(true)
    expect(await out).toBe(2)
  })

  it('lets the mapping itself return a promise', async () => {
    expect(await map(1, async (n) => n * 3)).toBe(3)
  })

  it('toPromise resolves present values and passes promises through', async () => {
    expect(await toPromise(5)).toBe(5)
    const p = Promise.resolve(6)
    expect(toPromise(p)).toBe(p)
  })

  it('recognises thenables by their then method only', () => {
    expect(isThenable({ then: () => undefined })).toBe(true)
    expect(isThenable({ then: 1 })).toBe(false)
    expect(isThenable(null)).toBe(false)
    expect(isThenable('then')).toBe(false)
  })
})
