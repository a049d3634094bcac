import { describe, expect, it } from 'vitest'
import { emcp, inMemoryClient } from '../../../src/index.js'
import { catalogServer, categories, categoryOf, namespaced, selected, tagsOf, type CatalogEntry, type ListingBudget } from '../../../src/sources/manifest/index.js'

const tool = (name: string, tags: string[]) => emcp({ name, description: `Tool ${name}.`, input: { type: 'object' }, _meta: { 'emcp/tags': tags } })
const entries: CatalogEntry[] = [
  { tool: namespaced('math', tool('add', ['fast'])), handler: () => 'add' },
  { tool: namespaced('math', tool('mul', ['slow'])), handler: () => 'mul' },
  { tool: namespaced('text', tool('upper', ['fast'])), handler: () => 'upper' },
]

describe('catalogs', () => {
  it('namespaces a tool by category: the name and the _meta say it', () => {
    const t = entries[0]!.tool
    expect(t.name).toBe('math.add')
    expect(categoryOf(t)).toBe('math')
    expect(categoryOf({ name: 'plain' })).toBeUndefined()
    expect(categoryOf({ name: 'a.b' })).toBe('a')
    expect(tagsOf(t)).toEqual(['fast'])
    expect(categories(entries.map((e) => e.tool))).toEqual([{ category: 'math', tools: 2 }, { category: 'text', tools: 1 }])
  })

  it('serves curated subsets by category, by tag, or both', async () => {
    const names = async (select: Parameters<typeof catalogServer>[2]) => (await inMemoryClient(catalogServer(entries, { name: 'c', version: '1' }, select)).list()).map((t) => t.name)
    expect(await names({ select: { categories: ['math'] } })).toEqual(['math.add', 'math.mul'])
    expect(await names({ select: { tags: ['fast'] } })).toEqual(['math.add', 'text.upper'])
    expect(await names({ select: { categories: ['math'], tags: ['fast'] } })).toEqual(['math.add'])
    expect(selected({ names: ['text.upper'] })(entries[2]!.tool)).toBe(true)
    expect(() => catalogServer(entries, { name: 'c', version: '1' }, { select: { categories: ['none'] } })).toThrow('keeps no tool of the catalog')
  })

  it('lists in pages', async () => {
    const server = catalogServer(entries, { name: 'c', version: '1' }, { pageSize: 2 })
    const client = inMemoryClient(server)
    const first = (await client.request('tools/list')) as { tools: unknown[]; nextCursor?: string }
    expect(first.tools).toHaveLength(2)
    expect(first.nextCursor).toBeDefined()
    expect(await client.list()).toHaveLength(3)
  })

  it('tells the listing estimate, with a warning past the budget', () => {
    const seen: ListingBudget[] = []
    catalogServer(entries, { name: 'c', version: '1' }, { budget: 10, onBudget: (b) => seen.push(b) })
    expect(seen[0]!.tools).toBe(3)
    expect(seen[0]!.warning).toContain('over the budget of 10')
  })
})
