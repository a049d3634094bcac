import { describe, expect, it } from 'vitest'
import { annotations } from '../../src/postgres/index.js'

describe('postgres: annotations', () => {
  it('a routine is a tool only when a line carries @mcp', () => {
    expect(annotations('Lists things.', 'f').tool).toBe(false)
    expect(annotations('mentions @mcp in the middle', 'f').tool).toBe(false)
    expect(annotations(null, 'f').tool).toBe(false)
    expect(annotations('@mcp', 'f').tool).toBe(true)
    expect(annotations('  @mcp   Inline.  ', 'f')).toMatchObject({ tool: true, description: 'Inline.' })
  })

  it('description precedence: @mcp_description > inline @mcp text > prose > the name (with a warning)', () => {
    expect(annotations('Prose.\n@mcp Inline.\n@mcp_description Authoritative.', 'f').description).toBe('Authoritative.')
    expect(annotations('Prose.\n@mcp_desc Short alias.\n@mcp Inline.', 'f').description).toBe('Short alias.')
    expect(annotations('Prose.\n@mcp Inline.', 'f').description).toBe('Inline.')
    expect(annotations('First line.\n\nSecond paragraph.\n@mcp', 'f').description).toBe('First line.\n\nSecond paragraph.')
    const bare = annotations('@mcp', 'count_items')
    expect(bare.description).toBe('count_items')
    expect(bare.warnings).toEqual(["count_items: no description in the comment; the routine's name is used"])
  })

  it('a repeated annotation: the last one wins', () => {
    const a = annotations('@mcp One.\n@mcp Two.\n@mcp_name first\n@mcp_name second\n@mcp_desc A\n@mcp_description B\n@authorize x\n@authorize y, z', 'f')
    expect(a).toMatchObject({ description: 'B', name: 'second', authorize: ['y', 'z'] })
    expect(annotations('@mcp_description A\n@mcp_desc B\n@mcp', 'f').description).toBe('B')
  })

  it('annotation lines never reach the description, whatever their name', () => {
    const a = annotations('Does things.\n@mcp\n@mcp_name thing\n@authorize staff\n@deprecated use other\nMore prose.', 'f')
    expect(a.description).toBe('Does things.\nMore prose.')
    expect(annotations('Prose only here.\n@mcp\n@mcp_description Exact.', 'f').description).toBe('Exact.')
  })

  it('@authorize: absent (everyone), bare (any identified caller), with roles (any of them)', () => {
    expect(annotations('@mcp', 'f').authorize).toBeUndefined()
    expect(annotations('@mcp\n@authorize', 'f').authorize).toEqual([])
    expect(annotations('@mcp\n@authorize  staff ,admin,', 'f').authorize).toEqual(['staff', 'admin'])
  })
})
