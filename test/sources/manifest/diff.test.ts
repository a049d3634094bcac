import { describe, expect, it } from 'vitest'
import { diffManifests } from '../../../src/sources/manifest/index.js'

describe('diffManifests', () => {
  it('names added, removed and changed tools, with the paths that changed', () => {
    const before = { tools: [{ name: 'a', description: 'A', inputSchema: { type: 'object' } }, { name: 'gone', inputSchema: { type: 'object' } }] }
    const after = { tools: [{ name: 'a', description: 'A!', inputSchema: { type: 'object', required: ['x'] } }, { name: 'new', inputSchema: { type: 'object' } }] }
    expect(diffManifests(before, after)).toEqual([
      { tool: 'a', kind: 'changed', changes: [{ path: '/description', before: 'A', after: 'A!' }, { path: '/inputSchema/required', before: undefined, after: ['x'] }] },
      { tool: 'gone', kind: 'removed' },
      { tool: 'new', kind: 'added' },
    ])
  })

  it('ignores fingerprints and key order', () => {
    const a = { tools: [{ name: 'a', inputSchema: { type: 'object', properties: {} }, _meta: { 'emcp/fingerprint': 'sha256:1' } }] }
    const b = { tools: [{ inputSchema: { properties: {}, type: 'object' }, name: 'a', _meta: { 'emcp/fingerprint': 'sha256:2' } }] }
    expect(diffManifests(a, b)).toEqual([])
  })
})
