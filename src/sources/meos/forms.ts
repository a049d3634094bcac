/**
 * Universal decode: which MEOS parse function reads a serialized argument, chosen from the
 * value itself. The generated manifest names one typed parser per argument (`tbool_in` for
 * every temporal, `bigintset_in` for every set), so a float set or a temporal point could not
 * be passed. Here the encoding is read first (HexWKB, whose header carries the subtype; an
 * MF-JSON or GeoJSON object; else text), then, for text, the subtype from its form: the first
 * base value of `{1.5, 2}` is a float, of `[t@2000-01-01, …]` a boolean, of
 * `SRID=4326;Point(1 1)@…` a point. A form this cannot place goes to the manifest's parser, so
 * that MEOS itself says what is wrong with it.
 *
 * @example
 * import { parserFor } from './forms.js'
 * parserFor({ kind: 'serialized', type: 'Set', decode: 'bigintset_in', decodeAux: [] }, '{1.0, 2.5}', decoders)
 * // { parser: 'floatset_in', aux: [], encoding: 'text' }
 */
import type { Decoders, SerializedPlan } from './plan.js'

// ---------------------------------------------------------------------------------------
// model

/** How to read one value: the parse function, its aux arguments, and the encoding it reads. */
export interface ParserChoice {
  readonly parser: string
  readonly aux: ReadonlyArray<number>
  readonly encoding: 'text' | 'wkb' | 'mfjson'
}

/** A base value's kind, as its text reads. */
type Base = 'bool' | 'int' | 'bigint' | 'float' | 'text' | 'date' | 'tstz' | 'point' | 'geom' | 'npoint' | 'pose' | 'cbuffer'

// ---------------------------------------------------------------------------------------
// functions

/** The encodings a type family is accepted in, as messages name them. */
export const encodingsOf = (type: string, decoders: Decoders): ReadonlyArray<string> => {
  const d = decoders[familyOf(type)] ?? {}
  return [...(d.text !== undefined || type in textParsers ? ['text'] : []), ...(d.wkb !== undefined ? ['HexWKB'] : []), ...(d.mfjson !== undefined ? [type === 'GSERIALIZED' ? 'GeoJSON' : 'MF-JSON'] : [])]
}

/**
 * The parser for one serialized value: universal (from the value) or the manifest's own. An
 * odd number of hex digits, which MEOS answers by ending the process, is refused here.
 */
export const parserFor = (plan: SerializedPlan, value: string, decoders: Decoders, universal = true): ParserChoice | { readonly refused: string } => {
  const typed: ParserChoice = { parser: plan.decode, aux: plan.decodeAux, encoding: 'text' }
  if (!universal) return typed
  const d = decoders[familyOf(plan.type)] ?? {}
  const v = value.trim()
  if (d.wkb !== undefined && /^[0-9A-Fa-f]+$/.test(v)) {
    if (v.length % 2 === 1) return { refused: `HexWKB needs an even number of hex digits (this value has ${v.length})` }
    return { parser: d.wkb, aux: [], encoding: 'wkb' }
  }
  if (d.mfjson !== undefined && v.startsWith('{')) {
    const json = jsonType(v)
    if (json !== undefined) {
      const parser = plan.type === 'GSERIALIZED' ? d.mfjson : mfjsonParsers[json]
      if (parser === undefined) return { refused: `MF-JSON of type ${JSON.stringify(json)} is not one MEOS reads (it reads ${Object.keys(mfjsonParsers).join(', ')})` }
      return { parser, aux: [], encoding: 'mfjson' }
    }
  }
  const fromText = textParsers[plan.type]?.(v)
  return fromText === undefined ? typed : { parser: fromText, aux: [], encoding: 'text' }
}

/** The kind of a base value's text (`1` int, `1.5` float, `"a"` text, `Point(1 1)` point, …), or undefined. */
export const baseOf = (token: string): Base | undefined => {
  const t = token.trim().replace(/^SRID=\d+;/i, '')
  if (t.startsWith('"')) return 'text'
  if (/^(t|f|true|false)$/i.test(t)) return 'bool'
  if (/^[+-]?\d+$/.test(t)) return Math.abs(Number(t)) > 2147483647 ? 'bigint' : 'int'
  if (/^[+-]?(\d+(\.\d*)?|\.\d+)(e[+-]?\d+)?$/i.test(t) || /^[+-]?(nan|inf|infinity)$/i.test(t)) return 'float'
  if (/^\d{4}-\d{2}-\d{2}$/.test(t)) return 'date'
  if (/^\d{4}-\d{2}-\d{2}[ T]\d/.test(t)) return 'tstz'
  if (/^npoint\s*\(/i.test(t)) return 'npoint'
  if (/^pose\s*\(/i.test(t)) return 'pose'
  if (/^cbuffer\s*\(/i.test(t)) return 'cbuffer'
  if (/^point\b/i.test(t)) return 'point'
  if (/^(linestring|polygon|multi[a-z]*|geometrycollection|circularstring|compoundcurve|curvepolygon|triangle|tin|polyhedralsurface)\b/i.test(t)) return 'geom'
  return undefined
}

// ---------------------------------------------------------------------------------------
// internals

/** The catalog's type family for decoders: instants and sequence sets are temporals. */
const familyOf = (type: string): string => (type === 'TInstant' || type === 'TSequence' || type === 'TSequenceSet' ? 'Temporal' : type)

/** The `type` member of a JSON object (MF-JSON, GeoJSON), or undefined when the text is not one. */
const jsonType = (text: string): string | undefined => {
  try {
    const parsed: unknown = JSON.parse(text)
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return undefined
    const type = (parsed as { type?: unknown }).type
    return typeof type === 'string' ? type : ''
  } catch {
    return undefined
  }
}

/** MF-JSON's `type` -> the parser of that temporal type. */
const mfjsonParsers: { readonly [type: string]: string } = {
  MovingBoolean: 'tbool_from_mfjson',
  MovingInteger: 'tint_from_mfjson',
  MovingFloat: 'tfloat_from_mfjson',
  MovingText: 'ttext_from_mfjson',
  MovingPoint: 'tgeompoint_from_mfjson',
  MovingGeometry: 'tgeometry_from_mfjson',
  MovingPose: 'tpose_from_mfjson',
}

/** The first base value of a temporal's text: after the interpolation and SRID prefixes and the brackets, before the `@`. */
const temporalBase = (v: string): Base | undefined => {
  const body = v.replace(/^(\s*(SRID=\d+|Interp=\w+)\s*;)*/i, '').replace(/^[\s{[(]+/, '')
  if (body.startsWith('"')) return 'text'
  const at = body.indexOf('@')
  return at < 0 ? undefined : baseOf(body.slice(0, at))
}

/** The first element of a set's text, or the first bound of a span's or span set's. */
const firstElement = (v: string, open: RegExp): Base | undefined => {
  const body = v.replace(/^\s*SRID=\d+\s*;/i, '')
  const m = open.exec(body)
  if (m === null) return undefined
  const rest = body.slice(m[0].length)
  if (rest.trimStart().startsWith('"')) return 'text'
  // a geometry's own commas come after its opening parenthesis: its name is enough
  const end = rest.search(/[,)\]}]/)
  return baseOf(end < 0 ? rest : rest.slice(0, end + (rest[end] === ')' ? 1 : 0)))
}

const temporalNames: { readonly [b in Base]?: string } = {
  bool: 'tbool', int: 'tint', float: 'tfloat', text: 'ttext', point: 'tgeompoint', geom: 'tgeometry', npoint: 'tnpoint', pose: 'tpose', cbuffer: 'tcbuffer',
}
const setNames: { readonly [b in Base]?: string } = {
  int: 'intset_in', bigint: 'bigintset_in', float: 'floatset_in', text: 'textset_in', date: 'dateset_in', tstz: 'tstzset_in',
  point: 'geomset_in', geom: 'geomset_in', npoint: 'npointset_in', pose: 'poseset_in', cbuffer: 'cbufferset_in',
}
const spanNames: { readonly [b in Base]?: string } = { int: 'intspan', bigint: 'bigintspan', float: 'floatspan', date: 'datespan', tstz: 'tstzspan' }

const named = (names: { readonly [b in Base]?: string }, base: Base | undefined, suffix = ''): string | undefined => {
  const n = base === undefined ? undefined : names[base]
  return n === undefined ? undefined : `${n}${suffix}`
}

/** Per type family whose text form tells its subtype: the parser for a value. */
const textParsers: { readonly [type: string]: (v: string) => string | undefined } = {
  Temporal: (v) => named(temporalNames, temporalBase(v), '_in'),
  TInstant: (v) => named(temporalNames, temporalBase(v), 'inst_in'),
  TSequenceSet: (v) => named(temporalNames, temporalBase(v), 'seqset_in'),
  Set: (v) => named(setNames, firstElement(v, /^\s*\{\s*/)),
  Span: (v) => named(spanNames, firstElement(v, /^\s*[[(]\s*/), '_in'),
  SpanSet: (v) => named(spanNames, firstElement(v, /^\s*\{\s*[[(]\s*/), 'set_in'),
}
