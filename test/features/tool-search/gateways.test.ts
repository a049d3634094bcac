/** The gateway contracts, made on first use: one value each for the process, listed in order, named as exported. */
import { describe, expect, it } from 'vitest'
import { callTool, callToolName, gateways, listedInSearch, searchMode, searchTool, searchToolName } from '../../../src/features/tool-search/mode.js'
import { emcp } from '../../../src/contract/emcp.js'

describe('the gateways', () => {
  it('are one contract each, whichever call makes them, listed search first', () => {
    const listed = gateways()
    expect(searchTool()).toBe(searchTool())
    expect(callTool()).toBe(callTool())
    expect(listed).toEqual([searchTool(), callTool()])
    expect(listed[0]).toBe(searchTool())
    expect(gateways()).toBe(listed)
    expect(listed.map((t) => t.name)).toEqual([searchToolName, callToolName])
  })

  it('head the listing in search mode, before the pinned tools, and their names stay refused for a server tool', () => {
    const add = emcp({ name: 'add', description: 'Add.', input: { type: 'object' } })
    const mode = searchMode({ pinned: ['add'] }, [add])
    expect(listedInSearch(mode, [add]).map((t) => t.name)).toEqual(['search_tools', 'call_tool', 'add'])
    const own = emcp({ name: 'call_tool', description: 'Mine.', input: { type: 'object' } })
    expect(() => searchMode({}, [own])).toThrow('emcp: toolSearch lists its own call_tool: rename the server\'s tool of that name')
  })
})
