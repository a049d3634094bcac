/**
 * The example catalog served two ways: from code (`catalogOf()`), and from its exported
 * manifest read back as JSON (`fromManifest` with the same handlers and the geometry codec
 * registry). Every one of its 2000 tools gets the same arguments on both, as a client sends
 * them on the wire, and must give the same answer: the result codecs of the manifest server
 * encode what the handlers return exactly as the code server does.
 */
import { describe, expect, it } from 'vitest'
import { inMemoryClient, type JsonSchema, type Server } from '../../../src/index.js'
import { geometryCodecs, type Geometry } from '../../../src/codecs/geometry.js'
import { fromManifest, manifestText, toManifest, validateManifest, type Manifest } from '../../../src/sources/manifest/index.js'
import { catalog, catalogOf, excluded } from '../../../examples/catalog.js'

const shapes: ReadonlyArray<Geometry> = [
  { type: 'Polygon', coordinates: [[[0, 0], [4, 0], [4, 3], [0, 3], [0, 0]], [[1, 1], [2, 1], [2, 2], [1, 1]]] },
  { type: 'LineString', coordinates: [[0, 0], [3, 4], [6, 0]] },
  { type: 'MultiPoint', coordinates: [[1, 2], [-3, 5.5]] },
]

/** Values of a schema, one per variant: ordinary, at the top of the range, at the bottom. */
const sample = (schema: JsonSchema, variant: number, index = 0): unknown => {
  if (schema.type === 'integer') {
    const [min, max] = [schema.minimum as number, schema.maximum as number]
    return [Math.min(max, Math.max(min, 3 + index)), max - index, min + index][variant]
  }
  if (schema.type === 'number') return [2.5 + index, 1e300, -7.25 - index][variant]
  if (schema.type === 'array') {
    const length = schema.minItems === schema.maxItems ? (schema.minItems as number) : 3
    return Array.from({ length }, (_, i) => sample(schema.items as JsonSchema, variant, i + index))
  }
  throw new Error(`no sample for ${JSON.stringify(schema)}`)
}

/** The arguments of one variant, as a client writes them: serialized arguments through the codec the manifest names. */
const argumentsOf = (tool: Manifest['tools'][number], variant: number): Record<string, unknown> => {
  const codecs = ((tool._meta?.['emcp/dispatch'] as { arguments?: Record<string, string> } | undefined)?.arguments ?? {})
  const args: Record<string, unknown> = {}
  for (const [name, schema] of Object.entries(tool.inputSchema.properties as Record<string, JsonSchema>)) {
    const codec = codecs[name]
    args[name] = codec === undefined ? sample(schema, variant) : geometryCodecs[codec as keyof typeof geometryCodecs].encode(shapes[variant] as Geometry)
  }
  return args
}

const answer = (server: Server) => {
  const client = inMemoryClient(server)
  return (name: string, args: Record<string, unknown>) => client.request('tools/call', { name, arguments: args }) as Promise<{ isError?: boolean }>
}

describe('the example catalog served from its exported manifest', () => {
  const fromCode = catalogOf()
  const exported = JSON.parse(manifestText(toManifest(fromCode, { excluded }))) as Manifest
  const handlers = Object.fromEntries(catalog.map((e) => [e.tool.name, e.handler]))
  const fromFile = fromManifest(exported, handlers, { codecs: geometryCodecs, pageSize: 100 })

  it('answers every one of the 2000 tools exactly as the catalog served from code', async () => {
    expect(exported.tools).toHaveLength(2000)
    const [code, file] = [answer(fromCode), answer(fromFile)]
    const mismatches: string[] = []
    let succeeded = 0
    for (const tool of exported.tools) {
      let ok = false
      for (const variant of [0, 1, 2]) {
        const args = argumentsOf(tool, variant)
        const [expected, got] = await Promise.all([code(tool.name, args), file(tool.name, args)])
        if (JSON.stringify(got) !== JSON.stringify(expected)) mismatches.push(`${tool.name} ${JSON.stringify(args)}: ${JSON.stringify(got)} instead of ${JSON.stringify(expected)}`)
        ok ||= expected.isError !== true
      }
      if (ok) succeeded++
    }
    expect(mismatches.slice(0, 5)).toEqual([])
    // every tool was reached, not only refused: each answered at least one variant with a result
    expect(succeeded).toBe(2000)
  }, 120_000)

  it('encodes the geometry results (the tools that used to fail their output schema) in the encoding the manifest names', async () => {
    const square = 'POLYGON ((0 0, 2 0, 2 2, 0 2, 0 0))'
    const file = answer(fromFile)
    expect(await file('geometry.centroid_wkt', { shape: square })).toMatchObject({ structuredContent: { result: 'POINT (0.8 0.8)' } })
    expect(await file('geometry.bbox_mfjson', { shape: '{"type":"LineString","coordinates":[[0,0],[2,1]]}' })).toMatchObject({
      structuredContent: { result: '{"type":"Polygon","coordinates":[[[0,0],[2,0],[2,1],[0,1],[0,0]]]}' },
    })
    expect(await file('geometry.translate_wkb', { shape: '0101000000000000000000f03f0000000000000040', dx: 1, dy: 1 })).toMatchObject({
      structuredContent: { result: '010100000000000000000000400000000000000840' },
    })
  })

  it('puts the declared purity on the wire for every tool: not destructive, closed world', async () => {
    for (const server of [fromCode, fromFile]) {
      const listed = await inMemoryClient(server).list()
      expect(listed).toHaveLength(2000)
      for (const t of listed) expect(t.annotations).toEqual({ readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false })
    }
  })

  it('closes the geometry tools\' io-ts objects (t.strict): additionalProperties false, an extra argument refused', async () => {
    const area = exported.tools.find((t) => t.name === 'geometry.area_wkt')
    expect(area?.inputSchema.additionalProperties).toBe(false)
    expect(area?.outputSchema?.additionalProperties).toBe(false)
    const out = (await answer(fromFile)('geometry.area_wkt', { shape: 'POINT (1 2)', extra: 1 })) as { isError?: boolean; content: [{ text: string }] }
    expect(out.isError).toBe(true)
    expect(out.content[0].text).toBe('Invalid arguments for tool geometry.area_wkt: /extra: is not allowed')
  })

  it('re-exports the same manifest, byte for byte', () => {
    expect(manifestText(toManifest(fromFile, { excluded }))).toBe(manifestText(exported))
  })

  it('passes validation with no warning: dotted names are valid tool names', () => {
    const report = validateManifest(exported)
    expect(report.tools).toBe(2000)
    expect(report.errors).toEqual([])
    expect(report.warnings).toEqual([])
  })
})
