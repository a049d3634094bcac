import { describe, expect, it } from 'vitest'
import { lintTool } from '../../../src/sources/manifest/index.js'

describe('lintTool', () => {
  it('flags what clients reject as errors: a root that is not an object, an external $ref', () => {
    const issues = lintTool({ name: 'f', description: 'F.', inputSchema: { type: 'array' }, outputSchema: { type: 'object', properties: { r: { $ref: 'https://x/y.json' } } } })
    expect(issues.filter((i) => i.severity === 'error').map((i) => [i.rule, i.path])).toEqual([
      ['object-root', '/inputSchema/type'],
      ['external-ref', '/outputSchema/properties/r/$ref'],
    ])
  })

  it('warns about what some clients handle badly: no descriptions, composition at the root, names over 64 characters', () => {
    const issues = lintTool({ name: `cat.${'f'.repeat(61)}`, inputSchema: { type: 'object', anyOf: [{ required: ['a'] }], properties: { a: { type: 'string' } } } })
    expect(issues.map((i) => `${i.severity} ${i.rule} ${i.path}`)).toEqual([
      'warning description /description',
      'warning long-name /name',
      'warning root-composition /inputSchema/anyOf',
      'warning argument-description /inputSchema/properties/a',
    ])
  })

  it('finds nothing in a clean tool, dotted names included (valid in MCP)', () => {
    expect(lintTool({ name: 'geometry.area_wkt', description: 'F.', inputSchema: { type: 'object' } })).toEqual([])
    expect(lintTool({ name: `a.${'b'.repeat(62)}`, description: 'F.', inputSchema: { type: 'object' } })).toEqual([])
    expect(lintTool({ name: 'f', description: 'F.', inputSchema: { type: 'object', properties: { a: { type: 'string', description: 'A.' } } } })).toEqual([])
  })
})
