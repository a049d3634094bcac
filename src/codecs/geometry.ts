/**
 * Planar geometries (2D, the six simple-feature types) and three wire codecs for them:
 * well-known text, MF-JSON (the OGC Moving Features JSON encoding, whose static geometries
 * are GeoJSON geometry objects) and hex-encoded well-known binary. The decoded value is
 * the same in all three, so one handler serves whichever encoding a catalog chose;
 * `geometryAny` takes whichever the client sends, and `geometryCodecs` names them all as
 * manifests do (emcp's names and MEOS's parse and serialize functions). They are the
 * subpath `emcp/geometry`, apart from the core: only MEOS-style catalogs need them.
 *
 * @example
 * import * as t from 'io-ts'
 * import { emcp } from 'emcp'
 * import { geometryAny, geometryWkbHex } from 'emcp/geometry'
 * const centroid = emcp({ name: 'centroid', input: t.type({ shape: geometryAny }), output: t.type({ result: geometryWkbHex }) })
 * geometryAny.decode('POINT (1 2)') // Right({ type: 'Point', coordinates: [1, 2] })
 * geometryAny.decode('{"type":"Point","coordinates":[1,2]}') // the same
 */
import * as E from 'fp-ts/lib/Either.js'
import { anyEncoding, wireCodec } from '../schema/wire-codec.js'

// ---------------------------------------------------------------------------------------
// model

/** A point: x, y. */
export type Position = readonly [number, number]

/** A planar geometry, shaped as a GeoJSON geometry object. */
export type Geometry =
  | { readonly type: 'Point'; readonly coordinates: Position }
  | { readonly type: 'LineString'; readonly coordinates: ReadonlyArray<Position> }
  | { readonly type: 'Polygon'; readonly coordinates: ReadonlyArray<ReadonlyArray<Position>> }
  | { readonly type: 'MultiPoint'; readonly coordinates: ReadonlyArray<Position> }
  | { readonly type: 'MultiLineString'; readonly coordinates: ReadonlyArray<ReadonlyArray<Position>> }
  | { readonly type: 'MultiPolygon'; readonly coordinates: ReadonlyArray<ReadonlyArray<ReadonlyArray<Position>>> }

// ---------------------------------------------------------------------------------------
// functions

/** Depth of the coordinate nesting per type: 0 for one position. */
const depths = { Point: 0, LineString: 1, MultiPoint: 1, Polygon: 2, MultiLineString: 2, MultiPolygon: 3 } as const
type GeometryType = keyof typeof depths

const isPosition = (u: unknown): u is Position =>
  Array.isArray(u) && u.length === 2 && u.every((n) => typeof n === 'number' && Number.isFinite(n))

const isNested = (u: unknown, depth: number): boolean =>
  depth === 0 ? isPosition(u) : Array.isArray(u) && u.every((v) => isNested(v, depth - 1))

/** True for a well-formed 2D geometry of one of the six types. */
export const isGeometry = (u: unknown): u is Geometry => {
  if (typeof u !== 'object' || u === null) return false
  const g = u as { type?: unknown; coordinates?: unknown }
  return typeof g.type === 'string' && Object.hasOwn(depths, g.type) && isNested(g.coordinates, depths[g.type as GeometryType])
}

/** Writes well-known text, e.g. `POLYGON ((0 0, 1 0, 1 1, 0 0))`. */
export const toWkt = (g: Geometry): string => {
  const pos = (p: Position): string => `${p[0]} ${p[1]}`
  const list = (ps: ReadonlyArray<Position>): string => `(${ps.map(pos).join(', ')})`
  const rings = (rs: ReadonlyArray<ReadonlyArray<Position>>): string => `(${rs.map(list).join(', ')})`
  switch (g.type) {
    case 'Point':
      return `POINT (${pos(g.coordinates)})`
    case 'LineString':
      return `LINESTRING ${list(g.coordinates)}`
    case 'Polygon':
      return `POLYGON ${rings(g.coordinates)}`
    case 'MultiPoint':
      return `MULTIPOINT (${g.coordinates.map((p) => `(${pos(p)})`).join(', ')})`
    case 'MultiLineString':
      return `MULTILINESTRING ${rings(g.coordinates)}`
    case 'MultiPolygon':
      return `MULTIPOLYGON (${g.coordinates.map(rings).join(', ')})`
  }
}

/** Reads well-known text (2D; `MULTIPOINT` with or without parentheses around each point). */
export const fromWkt = (text: string): E.Either<string, Geometry> => {
  const tokens = text.match(/[A-Za-z]+|[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?|[(),]|\S/g) ?? []
  let i = 0
  const peek = (): string | undefined => tokens[i]
  const expect = (t: string): void => {
    if (tokens[i] !== t) throw new Error(`expected "${t}" at token ${i + 1}, found ${tokens[i] === undefined ? 'the end' : `"${tokens[i]}"`}`)
    i++
  }
  const num = (): number => {
    const t = tokens[i++]
    const n = t === undefined ? NaN : Number(t)
    if (!Number.isFinite(n)) throw new Error(`expected a number at token ${i}, found ${t === undefined ? 'the end' : `"${t}"`}`)
    return n
  }
  const position = (): Position => {
    const x = num()
    const y = num()
    if (peek() !== ')' && peek() !== ',') throw new Error('only 2D coordinates are supported')
    return [x, y]
  }
  const seq = <A>(item: () => A): A[] => {
    expect('(')
    const out = [item()]
    while (peek() === ',') {
      i++
      out.push(item())
    }
    expect(')')
    return out
  }
  const points = (): Position[] => seq(position)
  const rings = (): Position[][] => seq(points)
  try {
    const word = (tokens[i++] ?? '').toUpperCase()
    if (peek()?.toUpperCase() === 'EMPTY') throw new Error('empty geometries are not supported')
    if (/^[A-Z]+$/.test(peek() ?? '')) throw new Error(`"${word} ${peek()}": only 2D geometries are supported`)
    let g: Geometry
    if (word === 'POINT') {
      expect('(')
      g = { type: 'Point', coordinates: position() }
      expect(')')
    } else if (word === 'LINESTRING') g = { type: 'LineString', coordinates: points() }
    else if (word === 'POLYGON') g = { type: 'Polygon', coordinates: rings() }
    else if (word === 'MULTIPOINT') g = { type: 'MultiPoint', coordinates: seq(() => (peek() === '(' ? seq(position)[0] as Position : position())) }
    else if (word === 'MULTILINESTRING') g = { type: 'MultiLineString', coordinates: rings() }
    else if (word === 'MULTIPOLYGON') g = { type: 'MultiPolygon', coordinates: seq(rings) }
    else throw new Error(`unknown geometry type "${word}"`)
    if (i !== tokens.length) throw new Error(`unexpected "${tokens[i]}" after the geometry`)
    return E.right(g)
  } catch (e) {
    return E.left((e as Error).message)
  }
}

/** Writes MF-JSON (a GeoJSON geometry object as JSON text). */
export const toMfJson = (g: Geometry): string => JSON.stringify({ type: g.type, coordinates: g.coordinates })

/** Reads MF-JSON geometry text. */
export const fromMfJson = (text: string): E.Either<string, Geometry> => {
  let u: unknown
  try {
    u = JSON.parse(text)
  } catch (e) {
    return E.left(`not JSON: ${(e as Error).message}`)
  }
  return isGeometry(u) ? E.right({ type: u.type, coordinates: u.coordinates } as Geometry) : E.left('not a 2D geometry object with "type" and "coordinates"')
}

const wkbCodes: { readonly [T in GeometryType]: number } = { Point: 1, LineString: 2, Polygon: 3, MultiPoint: 4, MultiLineString: 5, MultiPolygon: 6 }
const wkbTypes = Object.fromEntries(Object.entries(wkbCodes).map(([k, v]) => [v, k])) as { readonly [code: number]: GeometryType }

/** Writes well-known binary (little-endian) as lowercase hex. */
export const toWkbHex = (g: Geometry): string => {
  const parts: Buffer[] = []
  const u32 = (n: number): void => {
    const b = Buffer.alloc(4)
    b.writeUInt32LE(n)
    parts.push(b)
  }
  const pos = (p: Position): void => {
    const b = Buffer.alloc(16)
    b.writeDoubleLE(p[0], 0)
    b.writeDoubleLE(p[1], 8)
    parts.push(b)
  }
  const list = (ps: ReadonlyArray<Position>): void => {
    u32(ps.length)
    ps.forEach(pos)
  }
  const rings = (rs: ReadonlyArray<ReadonlyArray<Position>>): void => {
    u32(rs.length)
    rs.forEach(list)
  }
  const write = (x: Geometry): void => {
    parts.push(Buffer.from([1]))
    u32(wkbCodes[x.type])
    switch (x.type) {
      case 'Point':
        return pos(x.coordinates)
      case 'LineString':
        return list(x.coordinates)
      case 'Polygon':
        return rings(x.coordinates)
      case 'MultiPoint':
        u32(x.coordinates.length)
        return x.coordinates.forEach((p) => write({ type: 'Point', coordinates: p }))
      case 'MultiLineString':
        u32(x.coordinates.length)
        return x.coordinates.forEach((l) => write({ type: 'LineString', coordinates: l }))
      case 'MultiPolygon':
        u32(x.coordinates.length)
        return x.coordinates.forEach((p) => write({ type: 'Polygon', coordinates: p }))
    }
  }
  write(g)
  return Buffer.concat(parts).toString('hex')
}

/** The coordinates of a collection member, whose type `read` has already checked. */
const member = <T extends GeometryType>(g: Geometry, _type: T): CoordinatesOf[T] => g.coordinates as CoordinatesOf[T]
type CoordinatesOf = { readonly [T in GeometryType]: Extract<Geometry, { readonly type: T }>['coordinates'] }

/** Reads hex well-known binary (either byte order; 2D only). */
export const fromWkbHex = (hex: string): E.Either<string, Geometry> => {
  if (!/^(?:[0-9a-fA-F]{2})+$/.test(hex)) return E.left('not an even number of hexadecimal digits')
  const b = Buffer.from(hex, 'hex')
  let at = 0
  const need = (n: number): void => {
    if (at + n > b.length) throw new Error(`truncated at byte ${at}`)
  }
  const read = (expected?: GeometryType): Geometry => {
    need(5)
    const order = b[at]
    if (order !== 0 && order !== 1) throw new Error(`byte order ${String(order)} at byte ${at} is neither 0 nor 1`)
    const le = order === 1
    at += 1
    const u32 = (): number => {
      need(4)
      const n = le ? b.readUInt32LE(at) : b.readUInt32BE(at)
      at += 4
      return n
    }
    const pos = (): Position => {
      need(16)
      const p: Position = le ? [b.readDoubleLE(at), b.readDoubleLE(at + 8)] : [b.readDoubleBE(at), b.readDoubleBE(at + 8)]
      at += 16
      if (!p.every(Number.isFinite)) throw new Error('coordinates must be finite numbers')
      return p
    }
    const many = <A>(item: () => A): A[] => {
      const n = u32()
      if (n > b.length) throw new Error(`a count of ${n} is more than the data holds`)
      return Array.from({ length: n }, item)
    }
    const code = u32()
    const type = wkbTypes[code]
    if (type === undefined) throw new Error(`geometry type ${code} is not a 2D simple feature (Z, M and SRID variants are not supported)`)
    if (expected !== undefined && type !== expected) throw new Error(`a ${expected} was expected inside the collection, found a ${type}`)
    switch (type) {
      case 'Point':
        return { type, coordinates: pos() }
      case 'LineString':
        return { type, coordinates: many(pos) }
      case 'Polygon':
        return { type, coordinates: many(() => many(pos)) }
      case 'MultiPoint':
        return { type, coordinates: many(() => member(read('Point'), 'Point')) }
      case 'MultiLineString':
        return { type, coordinates: many(() => member(read('LineString'), 'LineString')) }
      case 'MultiPolygon':
        return { type, coordinates: many(() => member(read('Polygon'), 'Polygon')) }
    }
  }
  try {
    const g = read()
    if (at !== b.length) throw new Error(`${b.length - at} bytes left after the geometry`)
    return E.right(g)
  } catch (e) {
    return E.left((e as Error).message)
  }
}

// ---------------------------------------------------------------------------------------
// constructors

/** A geometry as well-known text (`geometry/wkt`). */
export const geometryWkt = wireCodec<Geometry>({
  name: 'geometry/wkt',
  description: 'a 2D geometry in well-known text, e.g. POINT (1 2)',
  is: isGeometry,
  decode: fromWkt,
  encode: toWkt,
  // a word first, and not hex digits only (those are WKB)
  form: (s) => /^\s*[A-Za-z]/.test(s) && /[^0-9A-Fa-f]/.test(s),
  label: 'well-known text, e.g. POINT (1 2)',
})

/** A geometry as MF-JSON text (`geometry/mf-json`). */
export const geometryMfJson = wireCodec<Geometry>({
  name: 'geometry/mf-json',
  description: 'a 2D geometry as MF-JSON (GeoJSON geometry) text, e.g. {"type":"Point","coordinates":[1,2]}',
  is: isGeometry,
  decode: fromMfJson,
  encode: toMfJson,
  schema: { contentMediaType: 'application/geo+json' },
  form: (s) => /^\s*\{/.test(s),
  label: 'MF-JSON, e.g. {"type":"Point","coordinates":[1,2]}',
})

/** A geometry as hex-encoded well-known binary (`geometry/wkb-hex`). */
export const geometryWkbHex = wireCodec<Geometry>({
  name: 'geometry/wkb-hex',
  description: 'a 2D geometry as hex-encoded well-known binary',
  is: isGeometry,
  decode: fromWkbHex,
  encode: toWkbHex,
  schema: { pattern: '^([0-9a-fA-F]{2})+$' },
  form: (s) => /^[0-9A-Fa-f]+$/.test(s),
  label: 'hex WKB, e.g. 0101000000000000000000f03f0000000000000040',
})

/** A geometry in any of the three encodings, recognised by form; results are written as well-known text (`geometry/any`). */
export const geometryAny = anyEncoding<Geometry>({
  name: 'geometry/any',
  description: 'a 2D geometry as well-known text, MF-JSON or hex WKB',
  encodings: [geometryWkt, geometryMfJson, geometryWkbHex],
})

/**
 * The geometry wire codecs by every name a manifest uses for them: emcp's own
 * (`geometry/wkt`, …) and the MEOS functions a MEOS manifest's `x-meos` names. Every MEOS
 * parse function takes any of the three encodings (a MEOS manifest describes its serialized
 * arguments so); each serialize function writes what the MEOS function writes (`geo_out`:
 * hex WKB, as PostGIS prints a geometry).
 */
export const geometryCodecs = {
  'geometry/wkt': geometryWkt,
  'geometry/mf-json': geometryMfJson,
  'geometry/wkb-hex': geometryWkbHex,
  'geometry/any': geometryAny,
  geom_in: geometryAny,
  geo_from_text: geometryAny,
  geom_from_text: geometryAny,
  geo_from_geojson: geometryAny,
  geom_from_hexewkb: geometryAny,
  geo_out: geometryWkbHex,
  geo_as_text: geometryWkt,
  geo_as_ewkt: geometryWkt,
  geo_as_geojson: geometryMfJson,
  geo_as_hexewkb: geometryWkbHex,
} as const
