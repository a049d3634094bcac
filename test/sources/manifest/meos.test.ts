/**
 * MEOS manifests as the MEOS MCP projection writes them (examples/meos.manifest.json):
 * served by `fromManifest` with nothing but the file and a codec registry, `x-meos` (and any
 * other `x-` key) kept on tools/list and on re-export, every geometry argument taking its
 * three encodings, the purity annotations on the wire.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { inMemoryClient } from '../../../src/index.js'
import { geometryCodecs, geometryWkt, type Geometry } from '../../../src/codecs/geometry.js'
import { fromManifest, manifestText, serverOfManifest, toManifest, validateManifest, type Manifest } from '../../../src/sources/manifest/index.js'
import { meosHandlers } from '../../../examples/meos.js'
import { root } from '../../interop/children.js'
import { wired } from '../../support/wired.js'

/** The file exactly as it is on disk. */
const text = readFileSync(join(root, 'examples', 'meos.manifest.json'), 'utf8')
const file = (): Manifest => JSON.parse(text) as Manifest
const serve = (m: Manifest = file()) => fromManifest(m, meosHandlers, { codecs: geometryCodecs })

type Answer = { result: { isError?: boolean; structuredContent?: { result: unknown }; content: [{ text: string }] } }
const caller = async (m?: Manifest) => {
  const { request } = await wired(serve(m))
  return async (name: string, args: Record<string, unknown>) => (await request('tools/call', { name, arguments: args })) as Answer
}

const rectangle = { wkt: 'POLYGON ((0 0, 4 0, 4 2, 0 2, 0 0))', mfjson: '{"type":"Polygon","coordinates":[[[0,0],[4,0],[4,2],[0,2],[0,0]]]}' }

describe('a MEOS manifest, served from the file and a codec registry', () => {
  it('names the server after the document x-meos, and serves every tool', async () => {
    const server = serve()
    expect(server.info).toEqual({ name: 'meos', version: '0.0.0' })
    expect((await inMemoryClient(server).list()).map((t) => t.name)).toEqual(file().tools.map((t) => t.name))
  })

  it('decodes arguments with the parse functions x-meos.decode names and encodes results with x-meos.encode', async () => {
    const call = await caller()
    // geo_out writes hex WKB, as PostGIS prints a geometry
    expect((await call('geom_centroid', { gs: rectangle.wkt })).result.structuredContent).toEqual({ result: toHex({ type: 'Point', coordinates: [2, 1] }) })
    // geo_as_text writes well-known text
    expect((await call('geom_boundary', { gs: rectangle.mfjson })).result.structuredContent).toEqual({ result: 'LINESTRING (0 0, 4 0, 4 2, 0 2, 0 0)' })
    // geo_as_geojson writes MF-JSON
    expect((await call('line_interpolate_point', { gs: 'LINESTRING (0 0, 10 0)', distance_fraction: 0.25, repeat: false })).result.structuredContent).toEqual({
      result: '{"type":"Point","coordinates":[2.5,0]}',
    })
    // results without a serialize function are plain JSON
    expect((await call('geom_perimeter', { gs: rectangle.wkt })).result.structuredContent).toEqual({ result: 12 })
    expect((await call('line_numpoints', { gs: 'LINESTRING (0 0, 1 1, 2 0)' })).result.structuredContent).toEqual({ result: 3 })
    expect((await call('geo_is_unitary', { gs: 'MULTIPOINT ((1 2), (3 4))' })).result.structuredContent).toEqual({ result: false })
  })

  it('takes each geometry argument in any of its encodings, and refuses one in none naming the argument and the encodings', async () => {
    const call = await caller()
    const shape: Geometry = { type: 'LineString', coordinates: [[0, 0], [3, 4]] }
    for (const gs of [geometryCodecs['geometry/wkt'].encode(shape), geometryCodecs['geometry/mf-json'].encode(shape), geometryCodecs['geometry/wkb-hex'].encode(shape)])
      expect((await call('geom_length', { gs })).result.structuredContent).toEqual({ result: 5 })
    const bad = await call('geom_length', { gs: '<gml:LineString/>' })
    expect(bad.result.isError).toBe(true)
    expect(bad.result.content[0].text).toMatch(/^Invalid arguments for tool geom_length: \/gs: is in none of the accepted encodings: well-known text, .*; MF-JSON, .*; hex WKB, /)
  })

  it('keeps x-meos, and any other x- key, on tools/list and on re-export', async () => {
    const m = file()
    const edited = { ...m, tools: m.tools.map((t) => (t.name === 'geom_length' ? { ...t, 'x-acme': { owner: 'maps team' } } : t)) }
    const server = serve(edited)
    const listed = await inMemoryClient(server).list()
    const length = listed.find((t) => t.name === 'geom_length') as unknown as Record<string, unknown>
    expect(length['x-meos']).toEqual({ category: 'accessor', decode: { gs: 'geom_in' } })
    expect(length['x-acme']).toEqual({ owner: 'maps team' })
    const exported = toManifest(server)
    for (const entry of m.tools) expect(exported.tools.find((t) => t.name === entry.name)?.['x-meos']).toEqual(entry['x-meos'])
    expect(exported.tools.find((t) => t.name === 'geom_length')?.['x-acme']).toEqual({ owner: 'maps team' })
    // and the re-exported manifest serves the same way
    const again = await caller(JSON.parse(manifestText(exported)) as Manifest)
    expect((await again('geom_centroid', { gs: rectangle.wkt })).result.structuredContent).toEqual({ result: toHex({ type: 'Point', coordinates: [2, 1] }) })
  })

  it('puts the declared purity on the wire: readOnly, idempotent, not destructive, closed world', async () => {
    for (const t of await inMemoryClient(serve()).list())
      expect(t.annotations).toEqual({ title: t.name, readOnlyHint: true, idempotentHint: true, destructiveHint: false, openWorldHint: false })
  })

  it('fails at startup naming the tool and the key when the registry lacks a codec x-meos names', () => {
    const out = serverOfManifest(file(), meosHandlers, { codecs: { 'geometry/wkt': geometryWkt } })
    expect(out._tag).toBe('Left')
    const problems = (out as { left: ReadonlyArray<{ tool: string; path: string; message: string }> }).left
    expect(problems).toContainEqual({ tool: 'geom_centroid', path: '/x-meos/decode/gs', message: 'no wire codec named geom_in is given (pass it in options.codecs)' })
    expect(problems).toContainEqual({ tool: 'geom_centroid', path: '/x-meos/encode', message: 'no wire codec named geo_out is given (pass it in options.codecs)' })
  })

  it('refuses an entry whose emcp dispatch metadata and x-meos name different codecs for the same argument', () => {
    const m = file()
    const both = { tools: [{ ...m.tools[1]!, _meta: { 'emcp/dispatch': { arguments: { gs: 'geometry/mf-json' } } } }] }
    // a block, not the server: vitest's expect types its argument deeply, and a server's type is large
    expect(() => {
      fromManifest(both as Manifest, { geom_boundary: meosHandlers.geom_boundary }, { codecs: geometryCodecs })
    }).toThrow(
      'tool geom_boundary: /x-meos/decode/gs: names codec geom_in, but /_meta/emcp/dispatch/arguments/gs names geometry/mf-json for the same value',
    )
  })

  it('reports a result the serialize function cannot take as an isError, never a wrong answer', async () => {
    const server = fromManifest(file(), { ...meosHandlers, geom_centroid: () => ({ result: 'POINT (2 1)' }) }, { codecs: geometryCodecs })
    const out = (await (await wired(server)).request('tools/call', { name: 'geom_centroid', arguments: { gs: rectangle.wkt } })) as Answer
    expect(out.result.isError).toBe(true)
    expect(out.result.content[0].text).toContain('/result: is not a 2D geometry as hex-encoded well-known binary')
  })

  it('validates: the file is sound, and malformed x-meos dispatch metadata is an error naming the tool and key', () => {
    expect(validateManifest(file()).errors).toEqual([])
    const m = file()
    const broken = { tools: [{ ...m.tools[0]!, 'x-meos': { decode: { gs: 7 }, encode: ['geo_out'] } }] }
    expect(validateManifest(broken).errors).toEqual([
      { tool: 'geo_is_unitary', path: '/x-meos/decode', message: '"decode" must map argument names to parse function names' },
      { tool: 'geo_is_unitary', path: '/x-meos/encode', message: '"encode" must name the serialize function of the result' },
    ])
  })
})

const toHex = (g: Geometry): string => geometryCodecs['geometry/wkb-hex'].encode(g)
