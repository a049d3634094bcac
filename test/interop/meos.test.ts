/**
 * MEOS manifests and the example catalog through the `emcp` executable: `emcp serve` of the
 * MEOS example (a MEOS-shaped manifest file and the geometry codec registry) driven by the
 * official SDK client, `emcp manifest` keeping x-meos on re-export, `emcp call` with each
 * encoding of a geometry, and `emcp validate --strict` passing on the catalog's export.
 */
import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as z from 'zod/v4'
import { connectStdio, example, root, texts, type Connection } from './children.js'

const bin = join(root, 'bin', 'emcp.js')
const run = promisify(execFile)
const emcp = async (...args: string[]) => {
  try {
    const { stdout, stderr } = await run(process.execPath, [bin, ...args], { cwd: root, timeout: 60_000, maxBuffer: 64 * 1024 * 1024 })
    return { code: 0, stdout, stderr }
  } catch (e) {
    const x = e as { code: number; stdout: string; stderr: string }
    return { code: x.code, stdout: x.stdout, stderr: x.stderr }
  }
}

const rectangle = 'POLYGON ((0 0, 4 0, 4 2, 0 2, 0 0))'
const centroidHex = '01010000000000000000000040000000000000f03f'

describe('emcp serve of a MEOS manifest, official SDK client', () => {
  let c: Connection
  beforeAll(async () => {
    c = await connectStdio(bin, ['serve', example('meos')])
  })
  afterAll(async () => {
    await c?.dispose()
  })

  it('lists the manifest tools with their purity annotations', async () => {
    const { tools } = await c.client.listTools()
    expect(tools.map((t) => t.name)).toEqual(['geo_is_unitary', 'geom_boundary', 'geom_centroid', 'geom_length', 'geom_perimeter', 'line_interpolate_point', 'line_numpoints'])
    for (const t of tools) expect(t.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false, openWorldHint: false })
  })

  it('carries x-meos on tools/list (read raw: the listTools of the SDK drops unknown keys)', async () => {
    const raw = await c.client.request({ method: 'tools/list', params: {} }, z.looseObject({ tools: z.array(z.looseObject({ name: z.string() })) }))
    const centroid = raw.tools.find((t) => t.name === 'geom_centroid')
    expect(centroid?.['x-meos']).toEqual({ category: 'transformation', encode: 'geo_out', decode: { gs: 'geom_in' } })
  })

  it('takes a geometry as well-known text, MF-JSON or hex WKB, and encodes the result with the serialize function x-meos names', async () => {
    for (const gs of [rectangle, '{"type":"Polygon","coordinates":[[[0,0],[4,0],[4,2],[0,2],[0,0]]]}', '010300000001000000050000000000000000000000000000000000000000000000000010400000000000000000000000000000104000000000000000400000000000000000000000000000004000000000000000000000000000000000']) {
      const r = await c.client.callTool({ name: 'geom_centroid', arguments: { gs } })
      expect(r.structuredContent).toEqual({ result: centroidHex })
    }
  })

  it('answers a geometry in none of the encodings with an isError naming the argument and the encodings', async () => {
    const r = await c.client.callTool({ name: 'geom_perimeter', arguments: { gs: '[[0,0],[1,1]]' } })
    expect(r.isError).toBe(true)
    expect(texts(r.content)[0]).toMatch(/^Invalid arguments for tool geom_perimeter: \/gs: is in none of the accepted encodings: well-known text, .*MF-JSON, .*hex WKB/)
  })
})

describe('the emcp command on MEOS manifests and the catalog', () => {
  const dir = mkdtempSync(join(tmpdir(), 'emcp-meos-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it('emcp manifest keeps x-meos on every tool of the re-export', async () => {
    const r = await emcp('manifest', 'dist/examples/meos.js')
    expect(r.code).toBe(0)
    const original = JSON.parse(readFileSync(join(root, 'examples', 'meos.manifest.json'), 'utf8')) as { tools: Array<Record<string, unknown>> }
    const exported = JSON.parse(r.stdout) as { tools: Array<Record<string, unknown>> }
    expect(exported.tools.map((t) => [t.name, t['x-meos']])).toEqual(original.tools.map((t) => [t.name, t['x-meos']]))
  })

  it('emcp call decodes each encoding and prints the encoded result', async () => {
    const r = await emcp('call', 'dist/examples/meos.js', 'line_interpolate_point', '--arg', 'gs=0102000000020000000000000000000000000000000000000000000000000024400000000000000000', '--arg', 'distance_fraction=0.5', '--arg', 'repeat=false')
    expect(r.code).toBe(0)
    expect(JSON.parse(r.stdout).structuredContent).toEqual({ result: '{"type":"Point","coordinates":[5,0]}' })
  })

  it('emcp validate passes on the MEOS file as the projection wrote it', async () => {
    const r = await emcp('validate', 'examples/meos.manifest.json', '--quiet')
    expect(r.code).toBe(0)
    expect(r.stderr).toContain('7 tools, 0 errors')
  })

  it('emcp validate --strict passes on the catalog export: dotted names draw no warning', async () => {
    const file = join(dir, 'catalog.manifest.json')
    expect((await emcp('manifest', 'dist/examples/catalog.js', '-o', file)).code).toBe(0)
    const r = await emcp('validate', file, '--strict')
    expect(r.stderr).toContain('2000 tools, 0 errors, 0 warnings - valid')
    expect(r.code).toBe(0)
  }, 60_000)
})
