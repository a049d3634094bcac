/**
 * A MEOS manifest served as it is. `meos.manifest.json` has the shape the MEOS MCP
 * projection writes: one tool per function, self-contained 2020-12 input schemas, purity as
 * annotations, and `x-meos` naming the parse function of each serialized argument
 * (`decode`) and the serialize function of the result (`encode`). `fromManifest` reads the
 * file unchanged; the wire codecs come from a codec registry by those names
 * (`geometryCodecs`), so each geometry argument takes well-known text, MF-JSON or hex WKB,
 * and each result is written as its serialize function writes it. The handlers are the
 * functions themselves, over decoded geometries.
 *
 *   npx emcp serve dist/examples/meos.js
 *   npx emcp call dist/examples/meos.js geom_centroid --arg 'gs=POLYGON ((0 0, 4 0, 4 2, 0 2, 0 0))'
 *   npx emcp manifest dist/examples/meos.js      # x-meos survives re-export
 */
import { existsSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { toolError } from 'emcp'
import { geometryCodecs, isGeometry, type Geometry, type Position } from 'emcp/geometry'
import { fromManifest, type Manifest } from 'emcp/manifest'
import { serveStdio } from 'emcp/stdio'
import { runMain } from './main.js'

// ---------------------------------------------------------------------------------------
// the manifest, read as a user's file is read

/** Where the manifest is: beside this source, or (compiled to dist/examples) in the examples folder. */
const manifestPath = ['./meos.manifest.json', '../../examples/meos.manifest.json']
  .map((p) => fileURLToPath(new URL(p, import.meta.url)))
  .find((p) => existsSync(p))

/** The MEOS manifest, as the projection wrote it. */
export const meosManifest = JSON.parse(readFileSync(manifestPath ?? 'meos.manifest.json', 'utf8')) as Manifest

// ---------------------------------------------------------------------------------------
// the functions, over decoded geometries

/** The argument the registry's parse function decoded (a manifest read at run time types it `unknown`). */
const geo = (u: unknown): Geometry => {
  if (!isGeometry(u)) throw new TypeError('the geometry argument was not decoded')
  return u
}

const dist = (p: Position, q: Position): number => Math.hypot(q[0] - p[0], q[1] - p[1])
const pathLength = (line: ReadonlyArray<Position>): number => line.slice(1).reduce((a, q, i) => a + dist(line[i] as Position, q), 0)
const linesOf = (g: Geometry): ReadonlyArray<ReadonlyArray<Position>> =>
  g.type === 'LineString' ? [g.coordinates] : g.type === 'MultiLineString' ? g.coordinates : []
const ringsOf = (g: Geometry): ReadonlyArray<ReadonlyArray<ReadonlyArray<Position>>> =>
  g.type === 'Polygon' ? [g.coordinates] : g.type === 'MultiPolygon' ? g.coordinates : []
const pointsOf = (g: Geometry): ReadonlyArray<Position> =>
  g.type === 'Point' ? [g.coordinates] : g.type === 'MultiPoint' ? g.coordinates : [...linesOf(g), ...ringsOf(g).flat()].flat()

/** A ring's signed area and the centroid of its area (shoelace). */
const ringMoments = (ring: ReadonlyArray<Position>): { area: number; x: number; y: number } => {
  let [a, x, y] = [0, 0, 0]
  ring.forEach((p, i) => {
    const q = ring[(i + 1) % ring.length] as Position
    const cross = p[0] * q[1] - q[0] * p[1]
    a += cross
    x += (p[0] + q[0]) * cross
    y += (p[1] + q[1]) * cross
  })
  return a === 0 ? { area: 0, x: 0, y: 0 } : { area: a / 2, x: x / (3 * a), y: y / (3 * a) }
}

/** Weighted mean of points; undefined when the weights sum to zero. */
const weighted = (parts: ReadonlyArray<{ readonly w: number; readonly p: Position }>): Geometry | undefined => {
  const total = parts.reduce((a, { w }) => a + w, 0)
  if (total === 0) return undefined
  return { type: 'Point', coordinates: [parts.reduce((a, { w, p }) => a + w * p[0], 0) / total, parts.reduce((a, { w, p }) => a + w * p[1], 0) / total] }
}

/** The centroid as PostGIS defines it: of the areas, else of the lines, else of the points. */
const centroid = (g: Geometry): Geometry => {
  const areas = ringsOf(g).flatMap((rings) =>
    // the shell counts positive, each hole negative, whatever their orientation
    rings.map((ring, i) => ({ m: ringMoments(ring), sign: i === 0 ? 1 : -1 })).map(({ m, sign }) => ({ w: sign * Math.abs(m.area), p: [m.x, m.y] as Position })),
  )
  const segments = linesOf(g).flatMap((line) =>
    line.slice(1).map((q, i) => {
      const p = line[i] as Position
      return { w: dist(p, q), p: [(p[0] + q[0]) / 2, (p[1] + q[1]) / 2] as Position }
    }),
  )
  const points = pointsOf(g).map((p) => ({ w: 1, p }))
  return weighted(areas) ?? weighted(segments) ?? (weighted(points) as Geometry)
}

/** The boundary: rings of polygons; the ends of lines that are not closed (mod-2 rule). */
const boundary = (g: Geometry): Geometry | string => {
  const rings = ringsOf(g).flat()
  if (rings.length === 1) return { type: 'LineString', coordinates: rings[0] as ReadonlyArray<Position> }
  if (rings.length > 1) return { type: 'MultiLineString', coordinates: rings }
  const ends = new Map<string, { n: number; p: Position }>()
  for (const line of linesOf(g))
    for (const p of [line[0], line[line.length - 1]] as Position[]) {
      const key = `${p[0]} ${p[1]}`
      ends.set(key, { n: (ends.get(key)?.n ?? 0) + 1, p })
    }
  const odd = [...ends.values()].filter((e) => e.n % 2 === 1).map((e) => e.p)
  return odd.length === 0 ? 'the boundary is empty (empty geometries are not supported)' : { type: 'MultiPoint', coordinates: odd }
}

/** The point at a fraction of a line's length. */
const along = (line: ReadonlyArray<Position>, fraction: number): Position => {
  let left = fraction * pathLength(line)
  for (let i = 1; i < line.length; i++) {
    const [p, q] = [line[i - 1] as Position, line[i] as Position]
    const d = dist(p, q)
    if (left <= d && d > 0) return [p[0] + ((q[0] - p[0]) * left) / d, p[1] + ((q[1] - p[1]) * left) / d]
    left -= d
  }
  return line[line.length - 1] as Position
}

const interpolate = (g: Geometry, fraction: number, repeat: boolean): Geometry | string => {
  if (g.type !== 'LineString') return `line_interpolate_point takes a LineString, not a ${g.type}`
  if (!(fraction >= 0 && fraction <= 1)) return 'distance_fraction must be between 0 and 1'
  if (!repeat || fraction === 0) return { type: 'Point', coordinates: along(g.coordinates, fraction) }
  const points = Array.from({ length: Math.floor(1 / fraction + 1e-9) }, (_, k) => along(g.coordinates, Math.min(1, (k + 1) * fraction)))
  return points.length === 1 ? { type: 'Point', coordinates: points[0] as Position } : { type: 'MultiPoint', coordinates: points }
}

/** One handler per function of the manifest. */
export const meosHandlers = {
  geo_is_unitary: ({ gs }: { readonly [argument: string]: unknown }) => ({ result: !geo(gs).type.startsWith('Multi') }),
  geom_boundary: ({ gs }: { readonly [argument: string]: unknown }) => {
    const b = boundary(geo(gs))
    return typeof b === 'string' ? toolError(b) : { result: b }
  },
  geom_centroid: ({ gs }: { readonly [argument: string]: unknown }) => ({ result: centroid(geo(gs)) }),
  geom_length: ({ gs }: { readonly [argument: string]: unknown }) => ({ result: linesOf(geo(gs)).reduce((a, l) => a + pathLength(l), 0) }),
  geom_perimeter: ({ gs }: { readonly [argument: string]: unknown }) => ({ result: ringsOf(geo(gs)).flat().reduce((a, r) => a + pathLength(r), 0) }),
  line_interpolate_point: ({ gs, distance_fraction, repeat }: { readonly [argument: string]: unknown }) => {
    const p = interpolate(geo(gs), Number(distance_fraction), repeat === true)
    return typeof p === 'string' ? toolError(p) : { result: p }
  },
  line_numpoints: ({ gs }: { readonly [argument: string]: unknown }) => {
    const g = geo(gs)
    return g.type === 'LineString' ? { result: g.coordinates.length } : toolError(`line_numpoints takes a LineString, not a ${g.type}`)
  },
}

/** The MEOS manifest served with the geometry codec registry: nothing else is needed. */
export const meos = fromManifest(meosManifest, meosHandlers, { codecs: geometryCodecs })

export default meos

runMain(import.meta.url, { usage: 'The MEOS manifest served as it is, over stdio:\n\n  node dist/examples/meos.js', options: {} }, () => serveStdio(meos))
