/**
 * The wire codecs of a manifest entry: which argument is decoded, and which result property
 * encoded, by which codec of a registry. Two spellings are read: emcp's
 * `_meta["emcp/dispatch"]` (`{ arguments: { arg: codec }, result: { property: codec } }`)
 * and a MEOS manifest's `x-meos` (`decode: { arg: parse function }`, `encode: serialize
 * function` of the `result` property). `fromManifest` builds its argument and result codecs
 * here, so a tool served from a manifest answers exactly as the same tool written in code.
 *
 * @example
 * import { geometryCodecs } from 'emcp/geometry'
 * import { slotsOf } from './dispatch.js'
 * const problems: { tool: string; path: string; message: string }[] = []
 * const entry = { name: 'geom_centroid', inputSchema: { type: 'object' }, 'x-meos': { decode: { gs: 'geom_in' }, encode: 'geo_out' } }
 * const { input, output } = slotsOf(entry, geometryCodecs, problems)
 */
import * as E from 'fp-ts/lib/Either.js'
import * as t from 'io-ts'
import { isObject } from '../../util/json-object.js'
import { escapeToken } from '../../util/json-pointer.js'
import { withSchema, type JsonSchema } from '../../schema/schema.js'
import { metaKeys, type ManifestTool } from './manifest.js'
import type { ManifestProblem } from './validate.js'

// ---------------------------------------------------------------------------------------
// model

/** Wire codecs by name: what a manifest's dispatch metadata is looked up in. */
export type Codecs = { readonly [name: string]: t.Type<any, string, unknown> }

/** The MEOS extension key of a tool entry (and of the document). */
export const meosKey = 'x-meos'

/** One codec named by an entry: its name, and where the entry names it (a JSON pointer). */
interface Named {
  readonly codec: string
  readonly path: string
}

/** Argument -> codec and result property -> codec, from whichever spelling the entry uses. */
export interface EntryDispatch {
  readonly arguments: { readonly [argument: string]: Named }
  readonly result: { readonly [property: string]: Named }
}

/** The schema slots `fromManifest` gives `emcp`: the entry's schemas, or codecs that check them and then decode or encode. */
export interface Slots {
  readonly input: JsonSchema | t.Any
  readonly output: JsonSchema | t.Any | undefined
}

// ---------------------------------------------------------------------------------------
// functions

/** The dispatch metadata of an entry in both spellings, merged; a name given differently by the two is a problem. */
export const dispatchOfEntry = (entry: ManifestTool, problems: ManifestProblem[]): EntryDispatch => {
  const args: Record<string, Named> = {}
  const result: Record<string, Named> = {}
  const add = (into: Record<string, Named>, key: string, named: Named): void => {
    const held = into[key]
    if (held !== undefined && held.codec !== named.codec)
      problems.push({ tool: entry.name, path: named.path, message: `names codec ${named.codec}, but ${held.path} names ${held.codec} for the same value` })
    else into[key] = named
  }
  const dispatch = entry._meta?.[metaKeys.dispatch]
  // spelt as the other manifest messages spell `_meta` keys (unescaped), so they read alike
  const base = `/_meta/${metaKeys.dispatch}`
  if (isObject(dispatch)) {
    for (const [arg, codec] of stringsOf(dispatch.arguments)) add(args, arg, { codec, path: `${base}/arguments/${escapeToken(arg)}` })
    for (const [prop, codec] of stringsOf(dispatch.result)) add(result, prop, { codec, path: `${base}/result/${escapeToken(prop)}` })
  }
  const meos = (entry as { readonly [meosKey]?: unknown })[meosKey]
  if (isObject(meos)) {
    for (const [arg, codec] of stringsOf(meos.decode)) add(args, arg, { codec, path: `/${meosKey}/decode/${escapeToken(arg)}` })
    // MEOS results are always `{ result }`
    if (typeof meos.encode === 'string') add(result, 'result', { codec: meos.encode, path: `/${meosKey}/encode` })
  }
  return { arguments: args, result }
}

/**
 * The input and output slots of an entry: its schemas as they are when it names no codec;
 * otherwise codecs that validate against those schemas and decode the named arguments, or
 * encode the named result properties. Every codec the registry lacks is a problem.
 */
export const slotsOf = (entry: ManifestTool, codecs: Codecs, problems: ManifestProblem[]): Slots => {
  const dispatch = dispatchOfEntry(entry, problems)
  const pick = (named: { readonly [key: string]: Named }): Record<string, t.Type<any, string, unknown>> => {
    const out: Record<string, t.Type<any, string, unknown>> = {}
    for (const [key, { codec, path }] of Object.entries(named)) {
      const found = Object.hasOwn(codecs, codec) ? codecs[codec] : undefined
      if (found === undefined) problems.push({ tool: entry.name, path, message: `no wire codec named ${codec} is given (pass it in options.codecs)` })
      else out[key] = found
    }
    return out
  }
  const byArg = pick(dispatch.arguments)
  const byResult = pick(dispatch.result)
  const input = Object.keys(byArg).length === 0 ? entry.inputSchema : withSchema(propertiesCodec(`${entry.name} arguments`, byArg), entry.inputSchema)
  if (entry.outputSchema === undefined) {
    if (Object.keys(byResult).length > 0)
      problems.push({ tool: entry.name, path: '/outputSchema', message: 'the dispatch metadata encodes a result, but the tool has no outputSchema' })
    return { input, output: undefined }
  }
  const output = Object.keys(byResult).length === 0 ? entry.outputSchema : withSchema(propertiesCodec(`${entry.name} result`, byResult), entry.outputSchema)
  return { input, output }
}

/** The codec names a manifest entry uses (both spellings), for checks that need no registry. */
export const codecNamesOf = (entry: ManifestTool): ReadonlyArray<string> => {
  const d = dispatchOfEntry(entry, [])
  return [...new Set([...Object.values(d.arguments), ...Object.values(d.result)].map((n) => n.codec))]
}

/** What is malformed in an entry's `x-meos` dispatch metadata (structure only), each as a problem. */
export const meosProblems = (tool: string, entry: { readonly [key: string]: unknown }): ReadonlyArray<ManifestProblem> => {
  const meos = entry[meosKey]
  if (meos === undefined) return []
  if (!isObject(meos)) return [{ tool, path: `/${meosKey}`, message: `"${meosKey}" must be an object` }]
  const out: ManifestProblem[] = []
  if (meos.decode !== undefined && (!isObject(meos.decode) || !Object.values(meos.decode).every((v) => typeof v === 'string')))
    out.push({ tool, path: `/${meosKey}/decode`, message: '"decode" must map argument names to parse function names' })
  if (meos.encode !== undefined && typeof meos.encode !== 'string')
    out.push({ tool, path: `/${meosKey}/encode`, message: '"encode" must name the serialize function of the result' })
  return out
}

// ---------------------------------------------------------------------------------------
// internals

const stringsOf = (u: unknown): ReadonlyArray<readonly [string, string]> =>
  isObject(u) ? Object.entries(u).filter((e): e is [string, string] => typeof e[1] === 'string') : []

/**
 * An object codec whose named properties go through their wire codecs and whose other
 * properties pass as they are: `validate` decodes a wire object (arguments, and results on
 * the client side), `encode` writes a value object (results, and arguments on the client
 * side). `is` holds only when every named property already has its decoded type, so a
 * result the encoder cannot take is reported, never encoded wrongly.
 */
const propertiesCodec = (name: string, byKey: Record<string, t.Type<any, string, unknown>>): t.Type<Record<string, unknown>, Record<string, unknown>, unknown> => {
  const props = t.partial(byKey)
  const entries = Object.entries(byKey)
  return new t.Type<Record<string, unknown>, Record<string, unknown>, unknown>(
    name,
    (u): u is Record<string, unknown> => isObject(u) && entries.every(([k, c]) => u[k] === undefined || c.is(u[k])),
    (u, c) => {
      if (!isObject(u)) return t.failure(u, c, 'must be an object')
      const decoded = props.validate(u, c)
      return E.isRight(decoded) ? t.success({ ...u, ...decoded.right }) : decoded
    },
    (a) => ({ ...a, ...props.encode(a) }),
  )
}
