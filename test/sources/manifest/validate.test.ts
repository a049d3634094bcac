import { describe, expect, it } from 'vitest'
import { emcp, mcpServer } from '../../../src/index.js'
import { readManifest, toManifest, validateManifest } from '../../../src/sources/manifest/index.js'

const add = emcp({ name: 'add', description: 'Add.', input: { type: 'object', properties: { a: { type: 'number', description: 'A.' } } } })
const server = mcpServer([add], { name: 's', version: '1' }).implement({ add: () => 'x' })

describe('validateManifest', () => {
  it('accepts an exported manifest with no errors and no warnings', () => {
    expect(validateManifest(toManifest(server))).toEqual({ tools: 1, errors: [], warnings: [] })
  })

  it('reports schemas that do not compile, and lint errors, naming tool and path', () => {
    const report = validateManifest({ tools: [{ name: 'f', description: 'F.', inputSchema: { type: 'object', properties: { n: { type: 'nope' } } } }, { name: 'g', description: 'G.', inputSchema: { type: 'string' } }] })
    expect(report.errors.map((e) => [e.tool, e.path])).toEqual([['f', '/inputSchema/properties/n/type'], ['g', '/inputSchema/type']])
    expect(report.errors[0]!.message).toBe('must be equal to one of the allowed values ("type" is "nope")')
  })

  it('warns when an entry or the document was edited after export (fingerprints)', () => {
    const m = toManifest(server)
    const edited = { ...m, tools: [{ ...m.tools[0]!, description: 'Add, edited.' }] }
    expect(validateManifest(edited).warnings.map((w) => [w.tool, w.message])).toEqual([
      ['add', 'the fingerprint does not match the entry: it was edited after export'],
      ['', 'the manifest fingerprint does not match its content: it was edited after export'],
    ])
  })

  it('reports progress once per tool', () => {
    const seen: Array<[number, number]> = []
    validateManifest({ tools: [{ name: 'a', inputSchema: { type: 'object' } }, { name: 'b', inputSchema: { type: 'object' } }] }, { onProgress: (d, t) => seen.push([d, t]) })
    expect(seen).toEqual([[1, 2], [2, 2]])
  })
})

describe('readManifest', () => {
  it('names every structural problem with its tool and key', () => {
    const out = readManifest({ tools: [{ name: 'a' }, { name: 'a', inputSchema: {}, _meta: { 'emcp/dispatch': { arguments: { x: 1 } } } }, 7] })
    expect(out).toEqual({
      _tag: 'Left',
      left: [
        { tool: 'a', path: '/inputSchema', message: '"inputSchema" must be a JSON Schema object' },
        { tool: 'a', path: '/name', message: 'duplicate tool name a' },
        { tool: 'a', path: '/_meta/emcp/dispatch/arguments', message: '"arguments" must map names to codec names' },
        { tool: '#2', path: '', message: 'a tool entry must be an object' },
      ],
    })
    expect(readManifest([])).toEqual({ _tag: 'Left', left: [{ tool: '', path: '', message: 'a manifest must be a JSON object with a "tools" array' }] })
  })
})
