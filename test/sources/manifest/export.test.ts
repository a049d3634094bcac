import * as t from 'io-ts'
import { describe, expect, it } from 'vitest'
import { emcp, mcpServer } from '../../../src/index.js'
import { geometryWkt } from '../../../src/codecs/geometry.js'
import { canonicalJson, fingerprint, manifestOf, manifestText, toManifest, toolFingerprint, type Manifest } from '../../../src/sources/manifest/index.js'

const zeta = emcp({
  name: 'zeta',
  title: 'Zeta',
  description: 'Last by name.',
  input: {
    type: 'object',
    properties: { p: { $ref: '#/$defs/point', description: 'where' } },
    required: ['p'],
    $defs: { point: { type: 'array', items: { type: 'number' }, minItems: 2, maxItems: 2 } },
  },
  annotations: { readOnlyHint: true, destructiveHint: false },
  icons: [{ src: 'https://example.com/z.png', mimeType: 'image/png' }],
  _meta: { 'com.example/owner': 'geo-team', 'emcp/policy': 'ask' },
})
const alpha = emcp({ name: 'alpha', description: 'First by name.', input: t.type({ shape: geometryWkt }), output: t.type({ result: geometryWkt }) })
const server = mcpServer([zeta, alpha], { name: 'demo', version: '2.0.0', title: 'Demo' }).implement({
  zeta: () => 'z',
  alpha: ({ shape }) => ({ result: shape }),
})

describe('toManifest', () => {
  it('lists the tools sorted by name, whatever order the server has them in', () => {
    expect(toManifest(server).tools.map((t) => t.name)).toEqual(['alpha', 'zeta'])
  })

  it('gives the same bytes every time (and for a server built again from the same contracts)', () => {
    const again = mcpServer([alpha, zeta], { name: 'demo', version: '2.0.0', title: 'Demo' }).implement({ zeta: () => 'z', alpha: ({ shape }) => ({ result: shape }) })
    expect(manifestText(toManifest(server))).toBe(manifestText(toManifest(server)))
    expect(manifestText(toManifest(again))).toBe(manifestText(toManifest(server)))
    expect(manifestText(toManifest(server)).endsWith('}\n')).toBe(true)
  })

  it('inlines local $refs and names the 2020-12 dialect: every schema stands alone', () => {
    const z = toManifest(server).tools.find((t) => t.name === 'zeta')!
    expect(z.inputSchema).toEqual({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: { p: { type: 'array', items: { type: 'number' }, minItems: 2, maxItems: 2, description: 'where' } },
      required: ['p'],
    })
    expect(JSON.stringify(z)).not.toContain('$ref')
  })

  it('carries title, annotations, icons, _meta and namespaced extension fields', () => {
    const withExtension = { ...zeta, 'com.example/dispatch': { symbol: 'zeta_v2' } }
    const m = toManifest({ info: server.info, tools: [withExtension] })
    const z = m.tools[0]!
    expect(z.title).toBe('Zeta')
    expect(z.annotations).toEqual({ destructiveHint: false, readOnlyHint: true })
    expect(z.icons).toEqual([{ src: 'https://example.com/z.png', mimeType: 'image/png' }])
    expect(z._meta).toMatchObject({ 'com.example/owner': 'geo-team', 'emcp/policy': 'ask' })
    expect(z['com.example/dispatch']).toEqual({ symbol: 'zeta_v2' })
  })

  it('lists wire codecs as dispatch metadata', () => {
    const a = toManifest(server).tools.find((t) => t.name === 'alpha')!
    expect(a._meta?.['emcp/dispatch']).toEqual({ arguments: { shape: 'geometry/wkt' }, result: { result: 'geometry/wkt' } })
  })

  it('gives each tool a fingerprint of its entry, and the manifest one of the whole', () => {
    const m = toManifest(server)
    for (const tool of m.tools) expect(tool._meta?.['emcp/fingerprint']).toBe(toolFingerprint(tool))
    const changed = mcpServer([{ ...zeta, description: 'Changed.' } as typeof zeta, alpha], server.info).implement({ zeta: () => 'z', alpha: ({ shape }) => ({ result: shape }) })
    const m2 = toManifest(changed)
    expect(m2.tools[0]!._meta?.['emcp/fingerprint']).toBe(m.tools[0]!._meta?.['emcp/fingerprint'])
    expect(m2.tools[1]!._meta?.['emcp/fingerprint']).not.toBe(m.tools[1]!._meta?.['emcp/fingerprint'])
    expect(m2._meta?.['emcp/fingerprint']).not.toBe(m._meta?.['emcp/fingerprint'])
    expect(m._meta?.['emcp/server']).toEqual({ name: 'demo', title: 'Demo', version: '2.0.0' })
  })

  it('records excluded tools with their reasons, sorted', () => {
    const m = toManifest(server, { excluded: [{ name: 'b', reason: 'why b' }, { name: 'a', reason: 'why a' }] })
    expect(m._meta?.['emcp/excluded']).toEqual([{ name: 'a', reason: 'why a' }, { name: 'b', reason: 'why b' }])
  })

  it('refuses an external $ref, naming the tool and the path', () => {
    // emcp refuses it when the tool is defined; a tool object made by other means meets the export's own check
    expect(() => emcp({ name: 'ext', input: { type: 'object', properties: { x: { $ref: 'https://example.com/x.json' } } } })).toThrow('is outside the schema')
    const plain = emcp({ name: 'ext', input: { type: 'object', properties: { x: { type: 'string' } } } })
    const ext = { ...plain, inputSchema: { type: 'object', properties: { x: { $ref: 'https://example.com/x.json' } } } }
    const m = manifestOf({ info: server.info, tools: [ext] })
    expect(m._tag).toBe('Left')
    expect(() => toManifest({ info: server.info, tools: [ext] })).toThrow('tool ext: /inputSchema/properties/x/$ref: external $ref https://example.com/x.json')
  })

  it('includes disabled tools: they are declared, only not served', () => {
    const s = mcpServer([zeta, alpha], server.info).implement({ zeta: () => 'z', alpha: ({ shape }) => ({ result: shape }) })
    s.disableTool('zeta')
    expect(toManifest(s).tools.map((t) => t.name)).toEqual(['alpha', 'zeta'])
  })
})

describe('canonical JSON and fingerprints', () => {
  it('sorts keys at every level, so key order does not change a fingerprint', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { f: 0, e: null }], c: 'x' } })).toBe('{"a":{"c":"x","d":[1,{"e":null,"f":0}]},"b":1}')
    expect(fingerprint({ a: 1, b: 2 })).toBe(fingerprint({ b: 2, a: 1 }))
    expect(fingerprint({ a: 1 })).toMatch(/^sha256:[0-9a-f]{64}$/)
    expect(fingerprint({ a: 1 })).not.toBe(fingerprint({ a: 2 }))
  })

  it('refuses what JSON cannot carry', () => {
    expect(() => canonicalJson({ f: () => 1 } as unknown as Manifest)).toThrow('function is not JSON')
  })
})
