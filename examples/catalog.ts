/**
 * A large catalog, generated the way a C library's header catalog would be: a small table of
 * element types and operations becomes about two thousand tools, one per (category,
 * operation, type), named `category.operation_type`. Pairs that make no sense (a square root
 * of an integer, the negation of an unsigned number) are excluded with a reason, and the
 * manifest records them. Every function is pure, and its annotations say so (`pure`). A
 * geometry category shows wire codecs: the same operations take their shapes as well-known
 * text, MF-JSON or hex WKB (closed io-ts objects: `t.strict`).
 *
 *   node dist/examples/catalog.js --stdio [--category vector ...] [--tag f64 ...]
 *   npx emcp list dist/examples/catalog.js --categories
 *   npx emcp manifest dist/examples/catalog.js -o catalog.manifest.json
 *   npx emcp call dist/examples/catalog.js scalar.add_i8 --arg a=100 --arg b=27
 */
import * as t from 'io-ts'
import { emcp, pure, toolError, withSchema, type AnyTool, type Handler } from 'emcp'
import { geometryMfJson, geometryWkbHex, geometryWkt, type Geometry, type Position } from 'emcp/geometry'
import { catalogServer, type CatalogEntry, type Excluded, type Selection } from 'emcp/manifest'
import { serveStdio } from 'emcp/stdio'
import { runMain } from './main.js'

// ---------------------------------------------------------------------------------------
// the description table

/** Element types: name, whether integral, range. 64-bit integers are limited to what JSON numbers carry exactly. */
const types = [
  { name: 'i8', integer: true, min: -128, max: 127 },
  { name: 'i16', integer: true, min: -32768, max: 32767 },
  { name: 'i32', integer: true, min: -2147483648, max: 2147483647 },
  { name: 'i64', integer: true, min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER },
  { name: 'u8', integer: true, min: 0, max: 255 },
  { name: 'u16', integer: true, min: 0, max: 65535 },
  { name: 'u32', integer: true, min: 0, max: 4294967295 },
  { name: 'u64', integer: true, min: 0, max: Number.MAX_SAFE_INTEGER },
  { name: 'f32', integer: false, min: -3.4028234663852886e38, max: 3.4028234663852886e38 },
  { name: 'f64', integer: false, min: -Number.MAX_VALUE, max: Number.MAX_VALUE },
] as const
type ElementType = (typeof types)[number]

/** How an operation takes its arguments and what it gives back. */
type Shape = 'unary' | 'binary' | 'map' | 'zip' | 'reduce' | 'predicate' | 'compare'

interface Op {
  readonly name: string
  readonly shape: Shape
  /** `{T}` becomes the type's name. */
  readonly doc: string
  readonly fn: (...args: any[]) => number | boolean | number[]
  /** Why this operation does not exist for a type, if it does not. */
  readonly exclude?: (type: ElementType) => string | undefined
}

const floatOnly = (type: ElementType): string | undefined => (type.integer ? 'defined for floating-point types only' : undefined)
const signedOnly = (type: ElementType): string | undefined => (type.min === 0 ? 'the result would be negative: not defined for unsigned types' : undefined)
const integerOnly = (type: ElementType): string | undefined => (type.integer ? undefined : 'defined for integer types only')

const sum = (xs: number[]): number => xs.reduce((a, b) => a + b, 0)
const mean = (xs: number[]): number => sum(xs) / xs.length
const variance = (xs: number[]): number => {
  const m = mean(xs)
  return sum(xs.map((x) => (x - m) ** 2)) / xs.length
}

/** The operations, by category. */
const table: ReadonlyArray<{ readonly category: string; readonly ops: ReadonlyArray<Op> }> = [
  {
    category: 'scalar',
    ops: [
      { name: 'add', shape: 'binary', doc: 'Add two {T} values.', fn: (a, b) => a + b },
      { name: 'sub', shape: 'binary', doc: 'Subtract b from a ({T}).', fn: (a, b) => a - b },
      { name: 'mul', shape: 'binary', doc: 'Multiply two {T} values.', fn: (a, b) => a * b },
      { name: 'div', shape: 'binary', doc: 'Divide a by b ({T}; integers truncate toward zero).', fn: (a, b) => a / b },
      { name: 'rem', shape: 'binary', doc: 'The remainder of a divided by b ({T}).', fn: (a, b) => a % b },
      { name: 'min', shape: 'binary', doc: 'The smaller of two {T} values.', fn: Math.min },
      { name: 'max', shape: 'binary', doc: 'The larger of two {T} values.', fn: Math.max },
      { name: 'pow', shape: 'binary', doc: 'a raised to the power b ({T}).', fn: (a, b) => a ** b },
      { name: 'hypot', shape: 'binary', doc: 'The square root of a² + b² ({T}).', fn: Math.hypot, exclude: floatOnly },
      { name: 'atan2', shape: 'binary', doc: 'The angle of the point (b, a) in radians ({T}).', fn: Math.atan2, exclude: floatOnly },
      { name: 'abs', shape: 'unary', doc: 'The absolute value of a {T}.', fn: Math.abs, exclude: signedOnly },
      { name: 'neg', shape: 'unary', doc: 'The negation of a {T}.', fn: (x) => -x, exclude: signedOnly },
      { name: 'sqrt', shape: 'unary', doc: 'The square root of a {T}.', fn: Math.sqrt, exclude: floatOnly },
      { name: 'cbrt', shape: 'unary', doc: 'The cube root of a {T}.', fn: Math.cbrt, exclude: floatOnly },
      { name: 'exp', shape: 'unary', doc: 'e raised to a {T}.', fn: Math.exp, exclude: floatOnly },
      { name: 'log', shape: 'unary', doc: 'The natural logarithm of a {T}.', fn: Math.log, exclude: floatOnly },
      { name: 'floor', shape: 'unary', doc: 'The largest integer not above a {T}.', fn: Math.floor, exclude: floatOnly },
      { name: 'ceil', shape: 'unary', doc: 'The smallest integer not below a {T}.', fn: Math.ceil, exclude: floatOnly },
      { name: 'square', shape: 'unary', doc: 'A {T} times itself.', fn: (x) => x * x },
      { name: 'sign', shape: 'unary', doc: 'The sign of a {T}: -1, 0 or 1.', fn: Math.sign, exclude: signedOnly },
    ],
  },
  {
    category: 'vector',
    ops: [
      { name: 'add', shape: 'zip', doc: 'Add two {T} vectors element by element.', fn: (xs, ys) => xs.map((x: number, i: number) => x + ys[i]) },
      { name: 'sub', shape: 'zip', doc: 'Subtract two {T} vectors element by element.', fn: (xs, ys) => xs.map((x: number, i: number) => x - ys[i]) },
      { name: 'mul', shape: 'zip', doc: 'Multiply two {T} vectors element by element.', fn: (xs, ys) => xs.map((x: number, i: number) => x * ys[i]) },
      { name: 'min', shape: 'zip', doc: 'The element-wise minimum of two {T} vectors.', fn: (xs, ys) => xs.map((x: number, i: number) => Math.min(x, ys[i])) },
      { name: 'max', shape: 'zip', doc: 'The element-wise maximum of two {T} vectors.', fn: (xs, ys) => xs.map((x: number, i: number) => Math.max(x, ys[i])) },
      { name: 'abs', shape: 'map', doc: 'The absolute value of each element of a {T} vector.', fn: (xs) => xs.map(Math.abs), exclude: signedOnly },
      { name: 'neg', shape: 'map', doc: 'Negate each element of a {T} vector.', fn: (xs) => xs.map((x: number) => -x), exclude: signedOnly },
      { name: 'square', shape: 'map', doc: 'Square each element of a {T} vector.', fn: (xs) => xs.map((x: number) => x * x) },
      { name: 'sqrt', shape: 'map', doc: 'The square root of each element of a {T} vector.', fn: (xs) => xs.map(Math.sqrt), exclude: floatOnly },
      { name: 'reverse', shape: 'map', doc: 'A {T} vector in reverse order.', fn: (xs) => [...xs].reverse() },
      { name: 'sort', shape: 'map', doc: 'A {T} vector sorted ascending.', fn: (xs) => [...xs].sort((a: number, b: number) => a - b) },
      { name: 'cumsum', shape: 'map', doc: 'The running sums of a {T} vector.', fn: (xs) => xs.map((_: number, i: number) => sum(xs.slice(0, i + 1))) },
      { name: 'normalize', shape: 'map', doc: 'A {T} vector scaled to length 1.', fn: (xs) => xs.map((x: number) => x / Math.hypot(...xs)), exclude: floatOnly },
      { name: 'floor', shape: 'map', doc: 'Round each element of a {T} vector down.', fn: (xs) => xs.map(Math.floor), exclude: floatOnly },
      { name: 'ceil', shape: 'map', doc: 'Round each element of a {T} vector up.', fn: (xs) => xs.map(Math.ceil), exclude: floatOnly },
    ],
  },
  {
    category: 'reduce',
    ops: [
      { name: 'sum', shape: 'reduce', doc: 'The sum of a {T} vector.', fn: sum },
      { name: 'product', shape: 'reduce', doc: 'The product of a {T} vector.', fn: (xs) => xs.reduce((a: number, b: number) => a * b, 1) },
      { name: 'min', shape: 'reduce', doc: 'The smallest element of a {T} vector.', fn: (xs) => Math.min(...xs) },
      { name: 'max', shape: 'reduce', doc: 'The largest element of a {T} vector.', fn: (xs) => Math.max(...xs) },
      { name: 'range', shape: 'reduce', doc: 'The largest minus the smallest element of a {T} vector.', fn: (xs) => Math.max(...xs) - Math.min(...xs) },
      { name: 'mean', shape: 'reduce', doc: 'The arithmetic mean of a {T} vector.', fn: mean, exclude: floatOnly },
      { name: 'variance', shape: 'reduce', doc: 'The population variance of a {T} vector.', fn: variance, exclude: floatOnly },
      { name: 'stddev', shape: 'reduce', doc: 'The population standard deviation of a {T} vector.', fn: (xs) => Math.sqrt(variance(xs)), exclude: floatOnly },
      { name: 'norm', shape: 'reduce', doc: 'The Euclidean length of a {T} vector.', fn: (xs) => Math.hypot(...xs), exclude: floatOnly },
      { name: 'count_nonzero', shape: 'reduce', doc: 'How many elements of a {T} vector are not zero.', fn: (xs) => xs.filter((x: number) => x !== 0).length },
    ],
  },
  {
    category: 'compare',
    ops: [
      { name: 'eq', shape: 'compare', doc: 'Whether two {T} values are equal.', fn: (a, b) => a === b },
      { name: 'ne', shape: 'compare', doc: 'Whether two {T} values differ.', fn: (a, b) => a !== b },
      { name: 'lt', shape: 'compare', doc: 'Whether a {T} is less than another.', fn: (a, b) => a < b },
      { name: 'le', shape: 'compare', doc: 'Whether a {T} is at most another.', fn: (a, b) => a <= b },
      { name: 'gt', shape: 'compare', doc: 'Whether a {T} is greater than another.', fn: (a, b) => a > b },
      { name: 'ge', shape: 'compare', doc: 'Whether a {T} is at least another.', fn: (a, b) => a >= b },
      { name: 'is_zero', shape: 'predicate', doc: 'Whether a {T} is zero.', fn: (x) => x === 0 },
      { name: 'is_nonzero', shape: 'predicate', doc: 'Whether a {T} is not zero.', fn: (x) => x !== 0 },
      { name: 'is_finite', shape: 'predicate', doc: 'Whether a {T} is finite.', fn: Number.isFinite, exclude: floatOnly },
      { name: 'is_positive', shape: 'predicate', doc: 'Whether a {T} is above zero.', fn: (x) => x > 0 },
      { name: 'is_negative', shape: 'predicate', doc: 'Whether a {T} is below zero.', fn: (x) => x < 0, exclude: signedOnly },
      { name: 'is_even', shape: 'predicate', doc: 'Whether a {T} is even.', fn: (x) => x % 2 === 0, exclude: integerOnly },
      { name: 'is_integer', shape: 'predicate', doc: 'Whether a {T} has no fractional part.', fn: Number.isInteger, exclude: floatOnly },
      { name: 'sorted', shape: 'predicate', doc: 'Whether a {T} vector is sorted ascending.', fn: () => false, exclude: () => 'takes a vector: listed under reduce in a later version of the header' },
    ],
  },
  {
    category: 'bits',
    ops: [
      { name: 'and', shape: 'binary', doc: 'The bitwise AND of two {T} values.', fn: (a, b) => Number(BigInt(a) & BigInt(b)), exclude: integerOnly },
      { name: 'or', shape: 'binary', doc: 'The bitwise OR of two {T} values.', fn: (a, b) => Number(BigInt(a) | BigInt(b)), exclude: integerOnly },
      { name: 'xor', shape: 'binary', doc: 'The bitwise XOR of two {T} values.', fn: (a, b) => Number(BigInt(a) ^ BigInt(b)), exclude: integerOnly },
      { name: 'popcount', shape: 'unary', doc: 'The number of one bits of a {T}.', fn: (x) => (x >= 0 ? x.toString(2) : (-x - 1).toString(2)).replace(/0/g, '').length, exclude: integerOnly },
      { name: 'is_power_of_two', shape: 'predicate', doc: 'Whether a {T} is a power of two.', fn: (x) => x > 0 && Number.isInteger(Math.log2(x)), exclude: integerOnly },
    ],
  },
]

/** Conversions between every pair of distinct types: `convert.<from>_to_<to>`. */
const conversions = types.flatMap((from) =>
  types
    .filter((to) => to !== from)
    .map((to) => ({ from, to, name: `${from.name}_to_${to.name}`, doc: `Convert a ${from.name} to ${to.name}; values outside the ${to.name} range are an error.` })),
)

// ---------------------------------------------------------------------------------------
// generation

/** How an integer result outside the type's range is handled: an error (checked), wrapped around, or clamped. */
type Mode = 'checked' | 'wrap' | 'sat'
const modesFor = (type: ElementType, shape: Shape): ReadonlyArray<Mode> =>
  type.integer && shape !== 'compare' && shape !== 'predicate' ? ['checked', 'wrap', 'sat'] : ['checked']

const element = (type: ElementType) =>
  type.integer ? { type: 'integer', minimum: type.min, maximum: type.max } : { type: 'number', description: `a ${type.name} value` }
const vector = (type: ElementType, description: string, length?: number) => ({
  type: 'array',
  items: element(type),
  minItems: length ?? 1,
  maxItems: length ?? 4096,
  description,
})

const inputFor = (shape: Shape, type: ElementType, length?: number) => {
  const props: Record<string, object> = {}
  if (shape === 'unary' || shape === 'predicate') props.x = { ...element(type), description: `the ${type.name} operand` }
  else if (shape === 'binary' || shape === 'compare') {
    props.a = { ...element(type), description: `the first ${type.name} operand` }
    props.b = { ...element(type), description: `the second ${type.name} operand` }
  } else if (shape === 'zip') {
    props.xs = vector(type, `the first ${type.name} vector`, length)
    props.ys = vector(type, `the second ${type.name} vector, as long as the first`, length)
  } else props.xs = vector(type, `the ${type.name} vector`, length)
  return { type: 'object', properties: props, required: Object.keys(props), additionalProperties: false } as const
}

const outputFor = (shape: Shape, type: ElementType) => {
  const result = shape === 'compare' || shape === 'predicate' ? { type: 'boolean' } : shape === 'map' || shape === 'zip' ? { type: 'array', items: element(type) } : element(type)
  return { type: 'object', properties: { result }, required: ['result'], additionalProperties: false } as const
}

/** The value as the type holds it (wrapped or clamped when the mode says so), or why it cannot. */
const fit = (type: ElementType, x: number, mode: Mode = 'checked'): number | string => {
  if (Number.isNaN(x)) return 'the result is not a number'
  let v = type.integer ? Math.trunc(x) : type.name === 'f32' ? Math.fround(x) : x
  if (type.integer && Number.isFinite(v) && mode === 'wrap') {
    const span = type.max - type.min + 1
    v = ((((v - type.min) % span) + span) % span) + type.min
  } else if (type.integer && mode === 'sat') v = Math.min(type.max, Math.max(type.min, v))
  if (!Number.isFinite(v) || v < type.min || v > type.max) return `the result ${x} does not fit ${type.name}`
  return v
}

const handlerFor = (op: Op, type: ElementType, mode: Mode): Handler<AnyTool> => (args: { [k: string]: any }) => {
  if (op.shape === 'zip' && args.xs.length !== args.ys.length) return toolError('the two vectors must have the same length')
  const out = op.shape === 'unary' || op.shape === 'predicate' ? op.fn(args.x) : op.shape === 'binary' || op.shape === 'compare' ? op.fn(args.a, args.b) : op.shape === 'zip' ? op.fn(args.xs, args.ys) : op.fn(args.xs)
  if (typeof out === 'boolean') return { result: out }
  if (Array.isArray(out)) {
    const fitted = out.map((x) => fit(type, x, mode))
    const bad = fitted.find((x) => typeof x === 'string')
    return bad === undefined ? { result: fitted } : toolError(String(bad))
  }
  const v = fit(type, out, mode)
  return typeof v === 'string' ? toolError(v) : { result: v }
}

const tags = (type: ElementType, shape: string, mode: Mode): ReadonlyArray<string> => [type.name, type.integer ? 'integer' : 'float', shape, mode]

const modeDoc = { checked: '', wrap: ' Results outside the range wrap around.', sat: ' Results outside the range are clamped to it.' } as const
const lengthsFor = (category: string): ReadonlyArray<number | undefined> => (category === 'vector' ? [undefined, 2, 3, 4] : [undefined])

const entries: CatalogEntry[] = []
const excludedList: Excluded[] = []

for (const { category, ops } of table)
  for (const op of ops)
    for (const type of types) {
      const reason = op.exclude?.(type)
      if (reason !== undefined) {
        excludedList.push({ name: `${category}.${op.name}_${type.name}`, reason })
        continue
      }
      for (const length of lengthsFor(category))
        for (const mode of modesFor(type, op.shape)) {
          const name = `${category}.${op.name}_${type.name}${length === undefined ? '' : `x${length}`}${mode === 'checked' ? '' : `_${mode}`}`
          const tool = emcp({
            name,
            description: `${op.doc.replace('{T}', length === undefined ? type.name : `${length}-element ${type.name}`)}${modeDoc[mode]}`,
            input: inputFor(op.shape, type, length) as { readonly type: 'object' }, // built at run time: its type is only "an object"
            output: outputFor(op.shape, type) as { readonly type: 'object' },
            annotations: pure,
            _meta: { 'emcp/category': category, 'emcp/tags': tags(type, op.shape, mode) },
          }) as AnyTool
          entries.push({ tool, handler: handlerFor(op, type, mode) })
        }
    }

for (const c of conversions)
  for (const mode of modesFor(c.to, 'unary')) {
    const tool = emcp({
      name: `convert.${c.name}${mode === 'checked' ? '' : `_${mode}`}`,
      description: mode === 'checked' ? c.doc : `Convert a ${c.from.name} to ${c.to.name}.${modeDoc[mode]}`,
      input: inputFor('unary', c.from) as { readonly type: 'object' },
      output: outputFor('unary', c.to) as { readonly type: 'object' },
      annotations: pure,
      _meta: { 'emcp/category': 'convert', 'emcp/tags': [c.from.name, c.to.name, 'convert', mode] },
    }) as AnyTool
    entries.push({
      tool,
      handler: ({ x }: { x: number }) => {
        const v = fit(c.to, x, mode)
        return typeof v === 'string' ? toolError(v) : { result: v }
      },
    })
  }

// geometry: the same operations over three wire encodings of a shape
const positions = (g: Geometry): ReadonlyArray<Position> => {
  const flat = (c: unknown): Position[] => (typeof (c as number[])[0] === 'number' ? [c as Position] : (c as unknown[]).flatMap(flat))
  return flat(g.coordinates)
}
const ringArea = (ring: ReadonlyArray<Position>): number =>
  Math.abs(ring.reduce((a, p, i) => { const q = ring[(i + 1) % ring.length] as Position; return a + p[0] * q[1] - q[0] * p[1] }, 0)) / 2
const area = (g: Geometry): number =>
  g.type === 'Polygon' ? polygonArea(g.coordinates) : g.type === 'MultiPolygon' ? g.coordinates.reduce((a, p) => a + polygonArea(p), 0) : 0
const polygonArea = (rings: ReadonlyArray<ReadonlyArray<Position>>): number => rings.reduce((a, r, i) => (i === 0 ? a + ringArea(r) : a - ringArea(r)), 0)
const translate = (g: Geometry, dx: number, dy: number): Geometry => {
  const move = (c: unknown): unknown => (typeof (c as number[])[0] === 'number' ? [(c as Position)[0] + dx, (c as Position)[1] + dy] : (c as unknown[]).map(move))
  return { type: g.type, coordinates: move(g.coordinates) } as Geometry
}
const pathLength = (line: ReadonlyArray<Position>): number =>
  line.slice(1).reduce((a, p, i) => a + Math.hypot(p[0] - (line[i] as Position)[0], p[1] - (line[i] as Position)[1]), 0)
const length = (g: Geometry): number =>
  g.type === 'LineString' ? pathLength(g.coordinates)
  : g.type === 'MultiLineString' || g.type === 'Polygon' ? g.coordinates.reduce((a, l) => a + pathLength(l), 0)
  : g.type === 'MultiPolygon' ? g.coordinates.flat().reduce((a, l) => a + pathLength(l), 0)
  : 0
const bbox = (g: Geometry): Geometry => {
  const ps = positions(g)
  const xs = ps.map((p) => p[0])
  const ys = ps.map((p) => p[1])
  const [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)]
  return { type: 'Polygon', coordinates: [[[x0, y0], [x1, y0], [x1, y1], [x0, y1], [x0, y0]]] }
}
const centroid = (g: Geometry): Geometry => {
  const ps = positions(g)
  return { type: 'Point', coordinates: [ps.reduce((a, p) => a + p[0], 0) / ps.length, ps.reduce((a, p) => a + p[1], 0) / ps.length] }
}

/** A number argument with its own description (a fresh codec: `withSchema` must not touch the shared `t.number`). */
const offset = (description: string) =>
  withSchema(new t.Type<number, number, unknown>('offset', t.number.is, t.number.validate, t.identity), { type: 'number', description })

const encodings = [
  { suffix: 'wkt', codec: geometryWkt },
  { suffix: 'mfjson', codec: geometryMfJson },
  { suffix: 'wkb', codec: geometryWkbHex },
] as const

for (const { suffix, codec } of encodings) {
  const meta = (op: string) => ({ 'emcp/category': 'geometry', 'emcp/tags': ['geometry', suffix, op] })
  entries.push({
    tool: emcp({
      name: `geometry.area_${suffix}`,
      description: `The area of a polygon or multipolygon given as ${suffix}; 0 for points and lines.`,
      input: t.strict({ shape: codec }),
      output: t.strict({ result: t.number }),
      annotations: pure,
      _meta: meta('area'),
    }) as AnyTool,
    handler: ({ shape }: { shape: Geometry }) => ({ result: area(shape) }),
  })
  entries.push({
    tool: emcp({
      name: `geometry.num_points_${suffix}`,
      description: `How many positions a geometry given as ${suffix} has.`,
      input: t.strict({ shape: codec }),
      output: t.strict({ result: t.number }),
      annotations: pure,
      _meta: meta('num_points'),
    }) as AnyTool,
    handler: ({ shape }: { shape: Geometry }) => ({ result: positions(shape).length }),
  })
  entries.push({
    tool: emcp({
      name: `geometry.translate_${suffix}`,
      description: `Move a geometry given as ${suffix} by (dx, dy); the result in the same encoding.`,
      input: t.strict({ shape: codec, dx: offset('how far to move along x'), dy: offset('how far to move along y') }),
      output: t.strict({ result: codec }),
      annotations: pure,
      _meta: meta('translate'),
    }) as AnyTool,
    handler: ({ shape, dx, dy }: { shape: Geometry; dx: number; dy: number }) => ({ result: translate(shape, dx, dy) }),
  })
  entries.push({
    tool: emcp({
      name: `geometry.length_${suffix}`,
      description: `The length of the lines (or the perimeter of the polygons) of a geometry given as ${suffix}.`,
      input: t.strict({ shape: codec }),
      output: t.strict({ result: t.number }),
      annotations: pure,
      _meta: meta('length'),
    }) as AnyTool,
    handler: ({ shape }: { shape: Geometry }) => ({ result: length(shape) }),
  })
  for (const [op, doc, f] of [
    ['centroid', 'The mean of the positions of a geometry', centroid],
    ['bbox', 'The bounding box (as a polygon) of a geometry', bbox],
  ] as const)
    entries.push({
      tool: emcp({
        name: `geometry.${op}_${suffix}`,
        description: `${doc} given as ${suffix}; the result in the same encoding.`,
        input: t.strict({ shape: codec }),
        output: t.strict({ result: codec }),
        annotations: pure,
        _meta: meta(op),
      }) as AnyTool,
      handler: ({ shape }: { shape: Geometry }) => ({ result: f(shape) }),
    })
}

/** Every tool of the catalog with its handler. */
export const catalog: ReadonlyArray<CatalogEntry> = entries

/** What the table describes but the catalog leaves out, each with its reason (the manifest records them). */
export const excluded: ReadonlyArray<Excluded> = excludedList

/** A server over the catalog, or a curated subset of it, listed in pages of 100. */
export const catalogOf = (select?: Selection, budget?: number) =>
  catalogServer(catalog, { name: 'catalog', version: '1.0.0', title: 'Numeric catalog' }, {
    pageSize: 100,
    instructions: 'Tools are named category.operation_type; list the categories with the emcp CLI, or ask for a subset.',
    ...(select === undefined ? {} : { select }),
    ...(budget === undefined ? {} : { budget }),
  })

/** The whole catalog. */
export default catalogOf()

const usage = `The generated catalog of 50,000 tools, over stdio; a selection serves only part of it.

  node dist/examples/catalog.js [--stdio] [--category vector ...] [--tag f64 ...]`

const options = { stdio: { type: 'boolean' }, category: { type: 'string', multiple: true }, tag: { type: 'string', multiple: true } } as const

runMain(import.meta.url, { usage, options }, ({ category: categories = [], tag: tagList = [] }) => {
  const selection = categories.length + tagList.length === 0 ? undefined : { ...(categories.length > 0 ? { categories } : {}), ...(tagList.length > 0 ? { tags: tagList } : {}) }
  return serveStdio(catalogOf(selection, 50_000))
})
