import * as E from 'fp-ts/lib/Either.js'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { fromMfJson, fromWkbHex, fromWkt, geometryWkbHex, isGeometry, toMfJson, toWkbHex, toWkt, type Geometry } from '../../src/codecs/geometry.js'

const square: Geometry = { type: 'Polygon', coordinates: [[[0, 0], [2, 0], [2, 2], [0, 2], [0, 0]]] }

describe('geometry codecs', () => {
  it('reads and writes well-known text, including MULTIPOINT with and without inner parentheses', () => {
    expect(fromWkt('POINT (1 2)')).toEqual(E.right({ type: 'Point', coordinates: [1, 2] }))
    expect(fromWkt('multipoint ((1 2), (3 4))')).toEqual(fromWkt('MULTIPOINT (1 2, 3 4)'))
    expect(toWkt(square)).toBe('POLYGON ((0 0, 2 0, 2 2, 0 2, 0 0))')
    expect(fromWkt(toWkt(square))).toEqual(E.right(square))
  })

  it('says what is wrong with bad text', () => {
    expect(fromWkt('POINT (1)')).toEqual(E.left('expected a number at token 4, found ")"'))
    expect(fromWkt('POINT Z (1 2 3)')).toEqual(E.left('"POINT Z": only 2D geometries are supported'))
    expect(fromWkt('CIRCLE (1 2)')).toEqual(E.left('unknown geometry type "CIRCLE"'))
    expect(fromWkt('POINT (1 2) extra')).toEqual(E.left('unexpected "extra" after the geometry'))
  })

  it('reads and writes hex WKB in either byte order', () => {
    // POINT (1 2), little-endian, as PostGIS writes it
    expect(toWkbHex({ type: 'Point', coordinates: [1, 2] })).toBe('0101000000000000000000f03f0000000000000040')
    expect(fromWkbHex('0101000000000000000000f03f0000000000000040')).toEqual(E.right({ type: 'Point', coordinates: [1, 2] }))
    expect(fromWkbHex('00000000013ff00000000000004000000000000000')).toEqual(E.right({ type: 'Point', coordinates: [1, 2] }))
    expect(fromWkbHex('0101000000000000000000f03f')).toEqual(E.left('truncated at byte 5'))
    expect(fromWkbHex('01e9030000')._tag).toBe('Left')
    expect(fromWkbHex('xyz')).toEqual(E.left('not an even number of hexadecimal digits'))
  })

  it('reads and writes MF-JSON geometry objects', () => {
    expect(toMfJson(square)).toBe('{"type":"Polygon","coordinates":[[[0,0],[2,0],[2,2],[0,2],[0,0]]]}')
    expect(fromMfJson('{"type":"Point","coordinates":[1]}')).toEqual(E.left('not a 2D geometry object with "type" and "coordinates"'))
  })

  it('round-trips every encoding for arbitrary geometries', () => {
    const pos = fc.tuple(fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e9, max: 1e9 }), fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e9, max: 1e9 }))
    const geometry = fc.oneof(
      pos.map((p) => ({ type: 'Point', coordinates: p }) as Geometry),
      fc.array(pos, { minLength: 1, maxLength: 5 }).map((c) => ({ type: 'LineString', coordinates: c }) as Geometry),
      fc.array(fc.array(pos, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 3 }).map((c) => ({ type: 'MultiLineString', coordinates: c }) as Geometry),
      fc.array(fc.array(fc.array(pos, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 2 }), { minLength: 1, maxLength: 2 }).map((c) => ({ type: 'MultiPolygon', coordinates: c }) as Geometry),
    )
    fc.assert(
      fc.property(geometry, (g) => {
        const normal = JSON.parse(JSON.stringify(g).replace(/-0\b/g, '0')) as Geometry
        expect(fromWkbHex(toWkbHex(g))).toEqual(E.right(g))
        expect(fromMfJson(toMfJson(g))).toEqual(E.right(JSON.parse(toMfJson(g))))
        expect(E.map((x: Geometry) => toWkt(x))(fromWkt(toWkt(normal)))).toEqual(E.right(toWkt(normal)))
        expect(isGeometry(g)).toBe(true)
      }),
      { numRuns: 200 },
    )
  })

  it('is a wire codec: decode gives a Geometry, a value that is not one is refused with the reason', () => {
    expect(geometryWkbHex.decode('0101000000000000000000f03f0000000000000040')._tag).toBe('Right')
    const bad = geometryWkbHex.decode('01')
    expect(bad._tag).toBe('Left')
    expect(geometryWkbHex.is({ type: 'Point', coordinates: [1, 2] })).toBe(true)
    expect(geometryWkbHex.is({ type: 'Point', coordinates: [1, Infinity] })).toBe(false)
  })
})
