import { describe, expect, it } from 'vitest'
import { annotations } from '../../../src/sources/postgres/index.js'

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
    // as in NpgsqlRest, prose lines are joined by one line break; blank lines are dropped
    expect(annotations('First line.\n\nSecond paragraph.\n@mcp', 'f').description).toBe('First line.\nSecond paragraph.')
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

describe('postgres: annotations, the NpgsqlRest grammar', () => {
  it('@mcp_description, @mcp_desc and @mcp_name alone expose the routine', () => {
    expect(annotations('@mcp_description Lists the open tickets.', 'f')).toMatchObject({ tool: true, description: 'Lists the open tickets.' })
    expect(annotations('@mcp_desc Closes a ticket.', 'f')).toMatchObject({ tool: true, description: 'Closes a ticket.' })
    expect(annotations('Prose.\n@mcp_name close_it', 'f')).toMatchObject({ tool: true, name: 'close_it', description: 'Prose.' })
  })

  it('keywords match case-insensitively, with or without a leading @', () => {
    expect(annotations('mcp Without the at.', 'f')).toMatchObject({ tool: true, description: 'Without the at.' })
    expect(annotations('@MCP_DESC Upper case.', 'f')).toMatchObject({ tool: true, description: 'Upper case.' })
    expect(annotations('Prose.\nmcp_name renamed', 'f')).toMatchObject({ tool: true, name: 'renamed' })
    expect(annotations('Prose.\nmcp\nauthorize admin', 'f')).toMatchObject({ tool: true, description: 'Prose.', authorize: ['admin'] })
  })

  it("NpgsqlRest's own annotation lines are never prose, with or without @", () => {
    const comment = [
      'Open tickets of a customer.',
      'HTTP GET /api/tickets/open',
      'authorize',
      '@authorize support',
      '@internal',
      'single',
      '_customer_id = select id from customers where email = {_email}',
      'Content-Type: text/csv',
      'request_param_type query_string',
      'timeout 30s',
      '@cache_expires_in 5 minutes',
      'openapi hide',
      '@whatever else',
      '@mcp',
      'Newest first.',
    ].join('\n')
    const a = annotations(comment, 'open_tickets')
    expect(a.description).toBe('Open tickets of a customer.\nNewest first.')
    expect(a.assignments).toEqual([{ name: '_customer_id', value: 'select id from customers where email = {_email}' }])
    expect(a.authorize).toEqual(['support'])
  })

  it('a prose line that starts with one of those keywords is an annotation, as in NpgsqlRest', () => {
    // `columns` and `single` are NpgsqlRest keywords: NpgsqlRest reads these lines as annotations too
    expect(annotations('Columns in their declared order.\nSingle ticket by id.\nReturns the ticket.\n@mcp', 'f').description).toBe('Returns the ticket.')
  })

  it('a keyword needs its words, as in NpgsqlRest: a lone "Timeout." is prose, "timeout 30s" is not', () => {
    expect(annotations('Timeout.\n@mcp', 'f').description).toBe('Timeout.')
    expect(annotations('timeout 30s\nvalidate _x using not_null\n@mcp', 'f').description).toBe('f')
    expect(annotations('validate this now\n@mcp', 'f').description).toBe('validate this now')
  })

  it('the precedence holds whatever the line order; prose never leaks into an explicit description', () => {
    const orders = [
      ['@mcp_description Authoritative.', '@mcp Inline.', 'Prose.'],
      ['Prose.', '@mcp Inline.', '@mcp_description Authoritative.'],
      ['@mcp Inline.', 'Prose.', '@mcp_desc Authoritative.'],
    ]
    for (const lines of orders) expect(annotations(lines.join('\n'), 'f').description).toBe('Authoritative.')
    expect(annotations('Prose.\n@mcp Inline.', 'f').description).toBe('Inline.')
    expect(annotations('@mcp Inline.\nProse.', 'f').description).toBe('Inline.')
    // an empty @mcp_description is no description: the next source counts
    expect(annotations('Prose.\n@mcp_description', 'f')).toMatchObject({ tool: true, description: 'Prose.' })
  })

  it('the last of a repeated annotation wins; a bare authorize keeps the roles, anonymous lifts them', () => {
    expect(annotations('@mcp_name a\n@mcp_name b\n@mcp', 'f').name).toBe('b')
    expect(annotations('x = 1\nx = 2\n@mcp', 'f').assignments).toEqual([{ name: 'x', value: '2' }])
    expect(annotations('@mcp\nauthorize admin\nauthorize', 'f').authorize).toEqual(['admin'])
    expect(annotations('@mcp\nrequires_authorization a, b\nauthorized c', 'f').authorize).toEqual(['c'])
    expect(annotations('@mcp\nauthorize admin\nallow_anonymous', 'f').authorize).toBeUndefined()
    expect(annotations('@mcp\nanon\n@authorize', 'f').authorize).toEqual([])
  })

  it('disabled / enabled, and for-tag lines, against the routine tags', () => {
    const tags = ['function', 'stable']
    expect(annotations('@mcp\ndisabled', 'f', { tags }).disabled).toBe(true)
    expect(annotations('@mcp\ndisabled\nenabled', 'f', { tags }).disabled).toBe(false)
    expect(annotations('@mcp\ndisabled volatile', 'f', { tags }).disabled).toBe(false)
    expect(annotations('@mcp\ndisabled stable', 'f', { tags }).disabled).toBe(true)
    // after a for line naming none of its tags, NpgsqlRest's annotations do not apply (and are still not prose)
    const filtered = annotations('Prose.\nfor volatile\nauthorize admin\nfor stable\n@mcp', 'f', { tags })
    expect(filtered).toMatchObject({ tool: true, description: 'Prose.', authorize: undefined })
    expect(annotations('for stable\nauthorize admin\n@mcp', 'f', { tags }).authorize).toEqual(['admin'])
  })

  it('param lines are kept for .sql files, in order', () => {
    expect(annotations('@mcp\n@param $1 user_id integer\nparam text what to look for', 'f').params).toEqual([
      { words: ['$1', 'user_id', 'integer'], text: '$1 user_id integer' },
      { words: ['text', 'what', 'to', 'look', 'for'], text: 'text what to look for' },
    ])
  })
})
