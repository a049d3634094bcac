/**
 * Universal decode without the library: which parser each value asks for. The encoding is
 * read first (HexWKB, MF-JSON, else text); text gives its subtype by its form. A form this
 * cannot place keeps the manifest's parser, so that MEOS says what is wrong with it.
 */
import { describe, expect, it } from 'vitest'
import { baseOf, encodingsOf, parserFor } from '../../../src/sources/meos/forms.js'
import type { Decoders, SerializedPlan } from '../../../src/sources/meos/plan.js'

const decoders: Decoders = {
  Temporal: { text: 'tbool_in', wkb: 'temporal_from_hexwkb', mfjson: 'tbool_from_mfjson' },
  Set: { text: 'bigintset_in', wkb: 'set_from_hexwkb' },
  Span: { text: 'bigintspan_in', wkb: 'span_from_hexwkb' },
  SpanSet: { text: 'bigintspanset_in', wkb: 'spanset_from_hexwkb' },
  Interval: { text: 'interval_in' },
  GSERIALIZED: { text: 'geo_from_text', mfjson: 'geo_from_geojson' },
}
const of = (type: string, decode: string): SerializedPlan => ({ kind: 'serialized', type, decode, decodeAux: [] })
const parser = (type: string, decode: string, value: string): string | undefined => {
  const c = parserFor(of(type, decode), value, decoders)
  return 'refused' in c ? undefined : c.parser
}

describe('parserFor', () => {
  it('reads a temporal text by its first base value', () => {
    expect(parser('Temporal', 'tbool_in', '{t@2000-01-01, f@2000-01-03}')).toBe('tbool_in')
    expect(parser('Temporal', 'tbool_in', '[1@2000-01-01, 2@2000-01-02]')).toBe('tint_in')
    expect(parser('Temporal', 'tbool_in', 'Interp=Step;[1.5@2000-01-01, 2@2000-01-02]')).toBe('tfloat_in')
    expect(parser('Temporal', 'tbool_in', '"a@b"@2000-01-01')).toBe('ttext_in')
    expect(parser('Temporal', 'tbool_in', 'SRID=4326;[Point(1 1)@2000-01-01, Point(2 2)@2000-01-02]')).toBe('tgeompoint_in')
    expect(parser('Temporal', 'tbool_in', 'Linestring(1 1, 2 2)@2000-01-01')).toBe('tgeometry_in')
    expect(parser('Temporal', 'tbool_in', 'Npoint(1, 0.5)@2000-01-01')).toBe('tnpoint_in')
    expect(parser('TInstant', 'tboolinst_in', '1.5@2000-01-01')).toBe('tfloatinst_in')
  })

  it('reads sets, spans and span sets by their first element', () => {
    expect(parser('Set', 'bigintset_in', '{1.0, 2.5, 3.0}')).toBe('floatset_in')
    expect(parser('Set', 'bigintset_in', '{1, 2}')).toBe('intset_in')
    expect(parser('Set', 'bigintset_in', '{4000000000}')).toBe('bigintset_in')
    expect(parser('Set', 'bigintset_in', '{"a", "b"}')).toBe('textset_in')
    expect(parser('Set', 'bigintset_in', '{2000-01-01, 2000-01-02}')).toBe('dateset_in')
    expect(parser('Set', 'bigintset_in', '{2000-01-01 08:00:00+00}')).toBe('tstzset_in')
    expect(parser('Set', 'bigintset_in', '{Point(1 1), Point(2 2)}')).toBe('geomset_in')
    expect(parser('Set', 'bigintset_in', 'SRID=4326;{Linestring(1 1, 2 2)}')).toBe('geomset_in')
    expect(parser('Span', 'bigintspan_in', '[1.5, 2)')).toBe('floatspan_in')
    expect(parser('Span', 'bigintspan_in', '[2000-01-01, 2000-01-05]')).toBe('datespan_in')
    expect(parser('SpanSet', 'bigintspanset_in', '{[1, 2], [3, 4]}')).toBe('intspanset_in')
    expect(parser('SpanSet', 'bigintspanset_in', '{[2000-01-01 00:00, 2000-01-02 00:00]}')).toBe('tstzspanset_in')
  })

  it('takes HexWKB by its digits (subtype-neutral) and refuses an odd count before MEOS sees it', () => {
    expect(parser('Temporal', 'tbool_in', '011A000B02')).toBe('temporal_from_hexwkb')
    expect(parser('Set', 'bigintset_in', 'abcdef')).toBe('set_from_hexwkb')
    expect(parserFor(of('Temporal', 'tbool_in'), 'ABC', decoders)).toEqual({ refused: 'HexWKB needs an even number of hex digits (this value has 3)' })
    // a type without a HexWKB parser reads hex digits as text: an interval of ten seconds
    expect(parser('Interval', 'interval_in', '10')).toBe('interval_in')
  })

  it('takes MF-JSON by its type, and GeoJSON for a geometry', () => {
    expect(parser('Temporal', 'tbool_in', '{"type": "MovingFloat", "values": [1.5], "datetimes": ["2000-01-01"]}')).toBe('tfloat_from_mfjson')
    expect(parser('Temporal', 'tbool_in', '{"type":"MovingPoint","coordinates":[[1,1]],"datetimes":["2000-01-01"]}')).toBe('tgeompoint_from_mfjson')
    expect(parserFor(of('Temporal', 'tbool_in'), '{"type": "MovingCat"}', decoders)).toMatchObject({ refused: expect.stringContaining('MovingCat') })
    expect(parser('GSERIALIZED', 'geo_from_text', '{"type":"Point","coordinates":[1,1]}')).toBe('geo_from_geojson')
  })

  it("keeps the manifest's parser for a form it cannot place, and always in manifest mode", () => {
    expect(parser('Temporal', 'tbool_in', 'garbage')).toBe('tbool_in')
    expect(parserFor(of('Set', 'bigintset_in'), '{1.5}', decoders, false)).toEqual({ parser: 'bigintset_in', aux: [], encoding: 'text' })
  })

  it('names the encodings a type is accepted in', () => {
    expect(encodingsOf('Temporal', decoders)).toEqual(['text', 'HexWKB', 'MF-JSON'])
    expect(encodingsOf('TInstant', decoders)).toEqual(['text', 'HexWKB', 'MF-JSON'])
    expect(encodingsOf('GSERIALIZED', decoders)).toEqual(['text', 'GeoJSON'])
    expect(encodingsOf('Interval', decoders)).toEqual(['text'])
  })

  it('reads base values', () => {
    expect([baseOf('t'), baseOf('-3'), baseOf('1e5'), baseOf('"x"'), baseOf('2000-01-01'), baseOf('Point(1 1)'), baseOf('Pose(Point(1 1), 0.5)'), baseOf('??')]).toEqual([
      'bool', 'int', 'float', 'text', 'date', 'point', 'pose', undefined,
    ])
  })

  it('reads a hostile 1 MB value in linear time', () => {
    const t0 = performance.now()
    for (const v of ['1'.repeat(1_000_000) + 'x@2000-01-01', '{' + '1'.repeat(1_000_000) + 'x}', '[' + ' '.repeat(1_000_000) + 'x', 'SRID=1;'.repeat(100_000)])
      for (const type of ['Temporal', 'TInstant', 'Set', 'Span', 'SpanSet']) expect(parserFor(of(type, 'tbool_in'), v, decoders)).toBeDefined()
    // a quadratic reading of any of them takes minutes
    expect(performance.now() - t0).toBeLessThan(2_000)
  })
})
