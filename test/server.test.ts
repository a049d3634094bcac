import { describe, expect, it } from 'vitest'
import * as O from 'fp-ts/lib/Option.js'
import { calculator } from '../examples/calculator.js'
import { newSession } from '../src/index.js'

describe('server: tools/call', () => {
  it('answers add(2, 3) with structuredContent.sum === 5 and the same JSON as text', async () => {
    const out = await calculator.dispatch(
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'add', arguments: { a: 2, b: 3 } } },
      newSession(),
    )()
    expect(O.isSome(out)).toBe(true)
    const m = O.toUndefined(out) as { result: { structuredContent: { sum: number }; content: { text: string }[] } }
    expect(m.result.structuredContent.sum).toBe(5)
    expect(JSON.parse(m.result.content[0]!.text)).toEqual({ sum: 5 })
  })
})
