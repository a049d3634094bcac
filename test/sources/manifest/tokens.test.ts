import { describe, expect, it } from 'vitest'
import { estimateTokens, listingBudget } from '../../../src/sources/manifest/index.js'

describe('listingBudget', () => {
  const tools = [
    { name: 'f', description: 'Does f.', inputSchema: { type: 'object' } },
    { name: 'g', description: 'Does g, at much greater length than f does.', inputSchema: { type: 'object' } },
  ]
  it('estimates tokens as a quarter of the compact JSON characters of the listing', () => {
    const b = listingBudget(tools)
    expect(b.chars).toBe(JSON.stringify(tools).length)
    expect(b.tokens).toBe(Math.ceil(JSON.stringify(tools).length / 4))
    expect(estimateTokens(tools)).toBe(b.tokens)
    expect(b.largest.map((l) => l.name)).toEqual(['g', 'f'])
    expect(b.warning).toBeUndefined()
  })

  it('warns past the budget, naming the largest tools', () => {
    const b = listingBudget(tools, 10)
    expect(b.warning).toMatch(/^the tool listing takes about \d+ tokens, over the budget of 10: serve a curated subset/)
    expect(b.warning).toContain('g ~')
  })
})
