/**
 * Call plans from the real generated catalog: every manifest tool gets one, and the wire
 * shapes the issue names come out as the runtime needs them (presence out-parameters, arrays
 * with their count, consumed aggregate states, const returns, aux defaults).
 */
import { describe, expect, it } from 'vitest'
import { decodersOf, errorCodesOf, plansOf, type CallPlan } from '../../../src/sources/meos/plan.js'
import { meosDocuments, skipMeosData } from '../../support/meos.js'

describe.skipIf(skipMeosData)('plansOf over meos-mcp.json and meos-idl.json', () => {
  const plan = (name: string): CallPlan => {
    const { manifest, catalog } = meosDocuments()
    const p = plansOf(manifest, catalog).plans.get(name)
    if (p === undefined) throw new Error(`no plan for ${name}`)
    return p
  }

  it('plans every one of the 1650 tools, with no problem', () => {
    const { manifest, catalog } = meosDocuments()
    const { plans, problems } = plansOf(manifest, catalog)
    expect(problems).toEqual([])
    expect(plans.size).toBe(1650)
  })

  it('reads a presence out-parameter: floatset_value_n gives its double only when it returns true', () => {
    const p = plan('floatset_value_n')
    expect(p.params.map((x) => x.kind)).toEqual(['serialized', 'scalar', 'out'])
    expect(p.result).toEqual({ kind: 'presence', out: 'result', c: 'double' })
    expect(plan('geoset_value_n').result).toEqual({ kind: 'presence', out: 'result', c: 'pointer', element: { encode: 'geo_as_ewkt', encodeAux: [15] } })
  })

  it('pairs an array argument with its count, and an array result with its count out-parameter', () => {
    expect(plan('temporal_merge_array').params).toEqual([
      { kind: 'array', name: 'temparr', element: { kind: 'serialized', type: 'Temporal', decode: 'tbool_in', decodeAux: [] } },
      { kind: 'count', name: 'count', of: 'temparr' },
    ])
    expect(plan('temporal_sequences').result).toEqual({ kind: 'array', count: 'count', element: { encode: 'tsequence_out', encodeAux: [15] } })
  })

  it('marks the state of a transition or final function consumed, and nothing else', () => {
    const consumed = (name: string) => plan(name).params.map((p) => (p.kind === 'serialized' ? p.consumed : undefined))
    expect(consumed('set_union_transfn')).toEqual([true, false])
    expect(consumed('set_union_finalfn')).toEqual([true])
    expect(consumed('temporal_append_tinstant').slice(0, 2)).toEqual([false, false])
  })

  it('does not own a const return (a pointer into the argument), and owns a new one', () => {
    expect(plan('temporal_max_inst_p').result).toMatchObject({ kind: 'serialized', owned: false })
    expect(plan('temporal_copy').result).toMatchObject({ kind: 'serialized', owned: true, encode: 'temporal_out', encodeAux: [15] })
    expect(plan('temporal_subtype').result).toEqual({ kind: 'string', text: false, owned: false })
  })

  it("defaults a typmod to PostgreSQL's none (-1), and enums to their values by name", () => {
    const maxt = plan('temporal_append_tinstant').params.find((p) => p.name === 'maxt')
    expect(maxt).toMatchObject({ kind: 'serialized', decode: 'interval_in', decodeAux: [-1] })
    expect(plan('tsequence_make').params.find((p) => p.name === 'interp')).toEqual({
      kind: 'enum', name: 'interp', values: { INTERP_NONE: 0, DISCRETE: 1, STEP: 2, LINEAR: 3 },
    })
  })

  it('says void for a function that returns nothing', () => {
    expect(plan('cbuffer_set_srid').result).toEqual({ kind: 'void' })
  })

  it("reads each type family's parsers per encoding", () => {
    const d = decodersOf(meosDocuments().catalog)
    expect(d.Temporal).toEqual({ mfjson: 'tbool_from_mfjson', text: 'tbool_in', wkb: 'temporal_from_hexwkb' })
    expect(d.Set).toEqual({ text: 'bigintset_in', wkb: 'set_from_hexwkb' })
  })

  it("names MEOS's error codes from the catalog's errorCode enum", () => {
    const codes = errorCodesOf(meosDocuments().catalog)
    expect([codes[11], codes[22], codes[24]]).toEqual(['MEOS_ERR_INVALID_ARG_TYPE', 'MEOS_ERR_TEXT_INPUT', 'MEOS_ERR_WKB_INPUT'])
  })

  it('reports a manifest tool the catalog does not describe, by name', () => {
    const { catalog } = meosDocuments()
    const manifest = { tools: [{ name: 'no_such_function', inputSchema: { type: 'object' } }] }
    expect(plansOf(manifest, catalog).problems).toEqual([{ tool: 'no_such_function', message: 'the catalog has no function of this name' }])
  })
})
