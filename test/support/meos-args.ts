/**
 * Generated arguments for MEOS tools: for every argument of a tool's input schema, a
 * correct value of the subtype the tool's name asks for (`tfloat_…` a temporal float,
 * `floatset_…` a float set), so that a sweep calls each of the 1650 tools with something it
 * can take. The subtype is read from the tool's name; a name that names none gets a float.
 *
 * @example
 * import { argumentsFor } from '../support/meos-args.js'
 * argumentsFor(tool) // { temp: '[1.5@2000-01-01, 2.5@2000-01-02]', n: 1 }
 */

/** A manifest tool, as far as the generator reads it. */
export interface SweptTool {
  readonly name: string
  readonly inputSchema: { readonly properties?: { readonly [name: string]: { readonly type?: string; readonly title?: string; readonly enum?: ReadonlyArray<string>; readonly items?: { readonly title?: string } } } }
}

const temporal: { readonly [subtype: string]: readonly [string, string] } = {
  tbool: ['[t@2000-01-01, f@2000-01-02]', 't@2000-01-01'],
  tint: ['[1@2000-01-01, 2@2000-01-02]', '1@2000-01-01'],
  tfloat: ['[1.5@2000-01-01, 2.5@2000-01-02]', '1.5@2000-01-01'],
  ttext: ['["a"@2000-01-01, "b"@2000-01-02]', '"a"@2000-01-01'],
  tgeompoint: ['[Point(1 1)@2000-01-01, Point(2 2)@2000-01-02]', 'Point(1 1)@2000-01-01'],
  tgeogpoint: ['[Point(1 1)@2000-01-01, Point(2 2)@2000-01-02]', 'Point(1 1)@2000-01-01'],
  tgeometry: ['[Point(1 1)@2000-01-01, Point(2 2)@2000-01-02]', 'Point(1 1)@2000-01-01'],
  tnpoint: ['[Npoint(1, 0.2)@2000-01-01, Npoint(1, 0.4)@2000-01-02]', 'Npoint(1, 0.2)@2000-01-01'],
  tcbuffer: ['[Cbuffer(Point(1 1), 0.5)@2000-01-01, Cbuffer(Point(2 2), 0.5)@2000-01-02]', 'Cbuffer(Point(1 1), 0.5)@2000-01-01'],
  tpose: ['[Pose(Point(1 1), 0.5)@2000-01-01, Pose(Point(2 2), 0.5)@2000-01-02]', 'Pose(Point(1 1), 0.5)@2000-01-01'],
}
const temporalHints: ReadonlyArray<readonly [RegExp, string]> = [
  [/tbool/, 'tbool'], [/tint|tnumber_.*int|_int\b/, 'tint'], [/ttext/, 'ttext'], [/tgeogpoint|tgeography/, 'tgeogpoint'],
  [/tgeometry/, 'tgeometry'], [/tnpoint/, 'tnpoint'], [/tcbuffer/, 'tcbuffer'], [/tpose/, 'tpose'],
  [/tgeompoint|tpoint|tgeo|tspatial|trgeo/, 'tgeompoint'], [/tfloat|tnumber|temporal|tnum/, 'tfloat'],
]
const sets: ReadonlyArray<readonly [RegExp, string]> = [
  [/bigint/, '{1, 2, 3}'], [/intset|int_|_int/, '{1, 2, 3}'], [/float/, '{1.5, 2.5, 3.5}'], [/text/, '{"a", "b"}'],
  [/date/, '{2000-01-01, 2000-01-02}'], [/tstz|timestamp/, '{2000-01-01 00:00:00+00, 2000-01-02 00:00:00+00}'],
  [/geo|geom|geog/, '{Point(1 1), Point(2 2)}'], [/npoint/, '{Npoint(1, 0.2), Npoint(1, 0.4)}'], [/pose/, '{Pose(Point(1 1), 0.5)}'],
  [/cbuffer/, '{Cbuffer(Point(1 1), 0.5)}'],
]
const spans: ReadonlyArray<readonly [RegExp, string]> = [
  [/bigint/, '[1, 3]'], [/int/, '[1, 3]'], [/float|num/, '[1.5, 3.5]'], [/date/, '[2000-01-01, 2000-01-03]'], [/tstz|time|period/, '[2000-01-01, 2000-01-03]'],
]
const fixed: { readonly [type: string]: string } = {
  Interval: '1 day',
  TBox: 'TBOXFLOAT XT([1.5, 2.5],[2000-01-01, 2000-01-02])',
  STBox: 'STBOX XT(((1,1),(2,2)),[2000-01-01, 2000-01-02])',
  GSERIALIZED: 'Point(1 1)',
  Cbuffer: 'Cbuffer(Point(1 1), 0.5)',
  Npoint: 'Npoint(1, 0.5)',
  Nsegment: 'Nsegment(1, 0.2, 0.6)',
  Pose: 'Pose(Point(1 1), 0.5)',
}

const first = (name: string, table: ReadonlyArray<readonly [RegExp, string]>, fallback: string): string => table.find(([r]) => r.test(name))?.[1] ?? fallback

/** The subtype a tool's name asks for, among the temporal ones. */
export const temporalSubtypeOf = (name: string): string => first(name, temporalHints, 'tfloat')

/** A correct serialized value of `type` for the tool `name`. */
export const valueFor = (name: string, type: string): string => {
  const sub = temporalSubtypeOf(name)
  const [seq, inst] = temporal[sub] ?? temporal.tfloat!
  if (type === 'Temporal' || type === 'TSequence') return seq
  if (type === 'TInstant') return inst
  if (type === 'TSequenceSet') return `{${seq}}`
  if (type === 'Set') return first(name, sets, sub === 'tint' ? '{1, 2, 3}' : '{1.5, 2.5, 3.5}')
  if (type === 'Span') return first(name, spans, '[1.5, 3.5]')
  if (type === 'SpanSet') return `{${first(name, spans, '[1.5, 3.5]')}}`
  return fixed[type] ?? 'Point(1 1)'
}

/** Two elements of an array argument; temporal ones as instants at two times (MEOS merges only values that do not overlap). */
const arrayFor = (name: string, type: string): ReadonlyArray<string> => {
  if (type !== 'Temporal' && type !== 'TInstant') return [valueFor(name, type), valueFor(name, type)]
  const inst = valueFor(name, 'TInstant')
  return [inst, inst.replace('2000-01-01', '2000-01-03')]
}

/** Arguments for every property of the tool's input schema. */
export const argumentsFor = (tool: SweptTool): { readonly [name: string]: unknown } => {
  const args: Record<string, unknown> = {}
  for (const [key, p] of Object.entries(tool.inputSchema.properties ?? {})) {
    if (p.enum !== undefined) args[key] = p.enum.includes('LINEAR') ? 'LINEAR' : p.enum[0]
    else if (p.type === 'integer') args[key] = 1
    else if (p.type === 'number') args[key] = 1.5
    else if (p.type === 'boolean') args[key] = true
    else if (p.type === 'array') args[key] = arrayFor(tool.name, p.items?.title ?? '')
    else if (p.title !== undefined && p.title !== '' && p.title !== 'text') args[key] = valueFor(tool.name, p.title)
    else args[key] = 'a'
  }
  return args
}
