/** batched: a change is told at once outside a batch, once per outermost batch inside, even when it throws. */
import { describe, expect, it } from 'vitest'
import { batched } from '../../src/util/batched.js'

describe('batched', () => {
  it('tells each change outside a batch, and nested batches once, at the outermost end', () => {
    let told = 0
    const b = batched(() => told++)
    b.changed()
    expect(told).toBe(1)
    b.batch(() => {
      b.changed()
      b.batch(() => b.changed())
      expect(told).toBe(1)
    })
    expect(told).toBe(2)
    b.batch(() => undefined)
    expect(told).toBe(2)
  })

  it('tells the changes of a batch that throws, and is ready for the next', () => {
    let told = 0
    const b = batched(() => told++)
    expect(() =>
      b.batch(() => {
        b.changed()
        throw new Error('midway')
      }),
    ).toThrow('midway')
    expect(told).toBe(1)
    b.changed()
    expect(told).toBe(2)
  })
})
