import { describe, expect, it } from 'vitest'
import { asyncScope } from '../../src/util/async-scope.js'

describe('util/async-scope', () => {
  it("follows a call through its awaits on Node (the runtime's AsyncLocalStorage, found without a static import)", async () => {
    const scope = asyncScope<string>()
    const seen = await Promise.all(
      ['a', 'b'].map((name) =>
        scope.run(name, async () => {
          await new Promise((resolve) => setTimeout(resolve, 1))
          return scope.getStore()
        }),
      ),
    )
    expect(seen).toEqual(['a', 'b'])
    expect(scope.getStore()).toBeUndefined()
  })

  it('without AsyncLocalStorage (workerd), holds for the synchronous part of run and restores the outer value', () => {
    const saved = process.getBuiltinModule
    ;(process as { getBuiltinModule?: unknown }).getBuiltinModule = undefined
    try {
      const scope = asyncScope<string>()
      expect(scope.run('outer', () => [scope.getStore(), scope.run('inner', () => scope.getStore()), scope.getStore()])).toEqual(['outer', 'inner', 'outer'])
      expect(() => scope.run('x', () => { throw new Error('boom') })).toThrow('boom')
      expect(scope.getStore()).toBeUndefined()
    } finally {
      ;(process as { getBuiltinModule?: unknown }).getBuiltinModule = saved
    }
  })
})
