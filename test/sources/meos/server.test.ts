/**
 * meosServer in the real libmeos, driven in process (the calls run in worker processes):
 * decode → call → encode for each wire shape (scalars, presence out-parameters, arrays in and
 * out, aux defaults, enums, void, text), MEOS errors as isError results with MEOS's message
 * and code, a listed outputSchema that allows no value, missing symbols left out with one
 * warning, categories, and manifest-only decode for comparison.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { inMemoryClient, type CallToolResult } from 'emcp'
import { meosServer, type MeosServer } from 'emcp/meos'
import { libraryPath, meosData, meosDocuments, skipMeos } from '../../support/meos.js'

const seq = '{t@2000-01-01, f@2000-01-03, t@2000-01-05}'
const texts = (r: CallToolResult): string => r.content.map((b) => (b.type === 'text' ? b.text : '')).join('\n')

describe.skipIf(skipMeos)('meosServer, libmeos in worker processes', () => {
  let meos: MeosServer
  let client: ReturnType<typeof inMemoryClient>
  beforeAll(async () => {
    meos = await meosServer({ library: libraryPath(), manifest: meosData.manifest, catalog: meosData.catalog, workers: 2 })
    client = inMemoryClient(meos.server)
  })
  afterAll(async () => {
    await meos?.close()
  })

  it('serves all 1650 tools, none missing', () => {
    expect(meos.server.tools.length).toBe(1650)
    expect(meos.missing).toEqual([])
  })

  it('decodes, calls and encodes: temporal_copy gives the sequence back, temporal_num_instants 3', async () => {
    expect(await client.callResult('temporal_copy', { temp: seq })).toEqual({
      content: [{ type: 'text', text: JSON.stringify({ result: '{t@2000-01-01 00:00:00+00, f@2000-01-03 00:00:00+00, t@2000-01-05 00:00:00+00}' }) }],
      structuredContent: { result: '{t@2000-01-01 00:00:00+00, f@2000-01-03 00:00:00+00, t@2000-01-05 00:00:00+00}' },
    })
    expect((await client.callResult('temporal_num_instants', { temp: seq })).structuredContent).toEqual({ result: 3 })
  })

  it('answers a presence out-parameter with its value, or with no value (not an error), and lists a schema that allows that', async () => {
    expect((await client.callResult('floatset_value_n', { s: '{1.0, 2.5, 3.0}', n: 2 })).structuredContent).toEqual({ result: 2.5 })
    const none = await client.callResult('floatset_value_n', { s: '{1.0, 2.5, 3.0}', n: 99 })
    expect(none.isError).toBeUndefined()
    expect(none.structuredContent).toEqual({})
    const listed = (await client.list()).find((t) => t.name === 'floatset_value_n')
    expect(listed?.outputSchema).toEqual({ type: 'object', properties: { result: { type: 'number' } } })
    // a scalar result stays required
    expect((await client.list()).find((t) => t.name === 'temporal_num_instants')?.outputSchema).toMatchObject({ required: ['result'] })
    expect((await client.callResult('geoset_value_n', { s: '{Point(1 1), Point(2 2)}', n: 1 })).structuredContent).toEqual({ result: 'POINT(1 1)' })
  })

  it('takes an array argument with its count, and gives an array result as a JSON array', async () => {
    const merged = await client.callResult('temporal_merge_array', { temparr: ['t@2000-01-01', 'f@2000-01-02'] })
    expect(merged.structuredContent).toEqual({ result: '{t@2000-01-01 00:00:00+00, f@2000-01-02 00:00:00+00}' })
    const sequences = await client.callResult('temporal_sequences', { temp: '{[t@2000-01-01, f@2000-01-03], [t@2000-01-05]}' })
    expect(JSON.parse(texts(sequences))).toEqual(['[t@2000-01-01 00:00:00+00, f@2000-01-03 00:00:00+00]', '[t@2000-01-05 00:00:00+00]'])
    const empty = await client.callResult('temporal_merge_array', { temparr: [] })
    expect(empty.isError).toBe(true)
  })

  it('defaults aux arguments (an interval typmod, a precision) and takes enums by name', async () => {
    const appended = await client.callResult('temporal_append_tinstant', {
      temp: '[1.5@2000-01-01, 2.5@2000-01-02]', inst: '4.5@2000-01-03', interp: 'LINEAR', maxdist: 0, maxt: '2 days', expand: false,
    })
    expect(appended.structuredContent).toEqual({ result: '[1.5@2000-01-01 00:00:00+00, 2.5@2000-01-02 00:00:00+00, 4.5@2000-01-03 00:00:00+00]' })
    const badEnum = await client.callResult('temporal_append_tinstant', {
      temp: '[1.5@2000-01-01]', inst: '3.5@2000-01-03', interp: 'CUBIC', maxdist: 0, maxt: '2 days', expand: false,
    })
    expect(badEnum.isError).toBe(true)
  })

  it('passes text values both ways, reads static and owned C strings, and answers a void function without structured content', async () => {
    expect((await client.callResult('ttext_start_value', { temp: '["ab"@2000-01-01, "cd"@2000-01-02]' })).structuredContent).toEqual({ result: 'ab' })
    expect((await client.callResult('temporal_subtype', { temp: seq })).structuredContent).toEqual({ result: 'Sequence' })
    const done = await client.callResult('cbuffer_set_srid', { cb: 'Cbuffer(Point(1 1), 2)', srid: 4326 })
    expect(done.isError).toBeUndefined()
    expect(done.structuredContent).toBeUndefined()
  })

  it('frees a consumed aggregate state once: a transition and a final function answer again and again', async () => {
    for (let i = 0; i < 5; i++) {
      expect((await client.callResult('set_union_transfn', { state: '{1, 2}', s: '{3}' })).structuredContent).toEqual({ result: '{1, 2, 3}' })
      expect((await client.callResult('set_union_finalfn', { state: '{1, 2}' })).structuredContent).toEqual({ result: '{1, 2}' })
      expect((await client.callResult('temporal_max_inst_p', { temp: '[1.5@2000-01-01, 2.5@2000-01-02]' })).structuredContent).toEqual({ result: '2.5@2000-01-02 00:00:00+00' })
    }
    expect(meos.pool.started()).toBe(2)
  })

  it("answers a bad value with MEOS's own message and code, naming the argument and the encodings accepted", async () => {
    const r = await client.callResult('temporal_num_instants', { temp: 'garbage' })
    expect(r.isError).toBe(true)
    expect(texts(r)).toBe("argument temp: not a Temporal in any encoding accepted (text, HexWKB, MF-JSON); tbool_in says: Missing delimeter character '@': garbage (MEOS error code 22, MEOS_ERR_TEXT_INPUT)")
    const odd = await client.callResult('temporal_num_instants', { temp: 'ABC' })
    expect(texts(odd)).toBe('argument temp: not a Temporal in any encoding accepted (text, HexWKB, MF-JSON): HexWKB needs an even number of hex digits (this value has 3)')
    const wrong = await client.callResult('floatset_value_n', { s: '{1, 2}', n: 1 })
    expect(wrong.isError).toBe(true)
    expect(texts(wrong)).toBe('floatset_value_n: The set must be of type floatset (MEOS error code 11, MEOS_ERR_INVALID_ARG_TYPE)')
    expect((await client.callResult('temporal_num_instants', { temp: seq })).structuredContent).toEqual({ result: 3 })
  })

  it('reads a temporal in each encoding and of each subtype (universal decode)', async () => {
    // the HexWKB of {[t@2000-01-01, f@2000-01-03], [t@2000-01-05]}, as temporal_as_hexwkb writes it
    const wkb = '011A000B0200000002000000030100000000000000000000C0AE3B2800000001000000030100805D7750000000'
    expect((await client.callResult('temporal_num_instants', { temp: wkb })).structuredContent).toEqual({ result: 3 })
    const mfjson = await client.callResult('temporal_as_mfjson', { temp: '[1.5@2000-01-01, 2.5@2000-01-02]', with_bbox: false, flags: 0, precision: 6, srs: '' })
    const json = (mfjson.structuredContent as { result?: string } | undefined)?.result
    expect(JSON.parse(json ?? '')).toMatchObject({ type: 'MovingFloat' })
    for (const temp of [json, '[1.5@2000-01-01, 2.5@2000-01-02]'])
      expect((await client.callResult('tfloat_end_value', { temp })).structuredContent).toEqual({ result: 2.5 })
    expect((await client.callResult('tint_end_value', { temp: '[1@2000-01-01, 7@2000-01-02]' })).structuredContent).toEqual({ result: 7 })
  })
})

describe.skipIf(skipMeos)('meosServer options', () => {
  it('leaves out, with one warning listing them, the tools whose function libmeos does not export', async () => {
    const { manifest, catalog } = meosDocuments() as { manifest: { tools: { name: string }[] }; catalog: { functions: { name: string }[] } }
    const real = manifest.tools.find((t) => t.name === 'temporal_num_instants')
    const fn = catalog.functions.find((f) => f.name === 'temporal_num_instants')
    const ghosts = ['emcp_no_such_function', 'emcp_nor_this_one']
    const warnings: string[] = []
    const meos = await meosServer({
      library: libraryPath(),
      manifest: { tools: [real, ...ghosts.map((name) => ({ ...real, name }))] } as never,
      catalog: { ...catalog, functions: [fn, ...ghosts.map((name) => ({ ...fn, name }))] },
      workers: 1,
      onWarning: (w) => warnings.push(w),
    })
    try {
      expect(meos.server.tools.map((t) => t.name)).toEqual(['temporal_num_instants'])
      expect(meos.missing).toEqual(ghosts)
      expect(warnings).toEqual([`emcp meos: 2 tools left out, their function not in libmeos or the catalog: ${ghosts.join(', ')}`])
    } finally {
      await meos.close()
    }
  })

  it('serves only the categories asked for', async () => {
    const meos = await meosServer({ library: libraryPath(), manifest: meosData.manifest, catalog: meosData.catalog, workers: 1, categories: ['aggregate'] })
    try {
      const { manifest } = meosDocuments() as { manifest: { tools: { 'x-meos': { category: string } }[] } }
      expect(meos.server.tools.length).toBe(manifest.tools.filter((t) => t['x-meos'].category === 'aggregate').length)
      expect(meos.server.tools.length).toBe(20)
      expect(meos.server.tools.map((t) => t.name)).toContain('set_union_transfn')
    } finally {
      await meos.close()
    }
  })

  it("decodes with the manifest's parser only when asked (the generator's behaviour): a float set is then refused", async () => {
    const meos = await meosServer({ library: libraryPath(), manifest: meosData.manifest, catalog: meosData.catalog, workers: 1, decode: 'manifest', categories: ['predicate'] })
    try {
      const r = await inMemoryClient(meos.server).callResult('floatset_value_n', { s: '{1.0, 2.5, 3.0}', n: 2 })
      expect(r.isError).toBe(true)
    } finally {
      await meos.close()
    }
  })

  it('refuses a library that cannot be opened, saying so', async () => {
    await expect(meosServer({ library: '/nonexistent/libmeos.so', manifest: meosData.manifest, catalog: meosData.catalog, workers: 1 })).rejects.toThrow(
      /libmeos could not be opened at \/nonexistent\/libmeos.so/,
    )
  })
})
