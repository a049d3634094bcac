/**
 * The HTTP request headers of 2026-07-28 that mirror the body: `Mcp-Method`, `Mcp-Name`
 * and the `Mcp-Param-{Name}` headers of tool parameters annotated with `x-mcp-header`. This
 * module reads the annotations of a tool's input schema (and refuses invalid ones when the
 * server is built), decodes header values (`=?base64?...?=`), and compares them with the
 * body; the HTTP transport answers a mismatch with 400 and -32020.
 *
 * @example
 * import { mirroredParams } from './headers.js'
 * mirroredParams({ type: 'object', properties: { region: { type: 'string', 'x-mcp-header': 'Region' } } })
 * // Right([{ header: 'Region', path: ['region'], type: 'string' }])
 */
import * as E from 'fp-ts/lib/Either.js'
import { fromBase64, fromUtf8 } from '../util/bytes.js'
import { isObject } from '../util/json-object.js'
import type { JsonSchema } from '../schema/schema.js'
import { checkedWithoutHeaderMirrors } from '../schema/schema-check.js'
import { madeUnmirrored } from '../schema/slot-schema.js'

// ---------------------------------------------------------------------------------------
// model

/** A tool parameter mirrored into an `Mcp-Param-{header}` header. */
export interface MirroredParam {
  /** The name part of the header (`Region` for `Mcp-Param-Region`). */
  readonly header: string
  /** The chain of `properties` keys from the schema root to the parameter. */
  readonly path: ReadonlyArray<string>
  readonly type: 'string' | 'integer' | 'boolean'
}

// ---------------------------------------------------------------------------------------
// functions

/**
 * The mirrored parameters of an input schema, or every reason the annotations are invalid:
 * a name that is not an HTTP token or repeats another (ignoring case), a type other than
 * string, integer or boolean, or an annotation not reachable through `properties` alone.
 */
export const mirroredParams = (schema: JsonSchema): E.Either<ReadonlyArray<string>, ReadonlyArray<MirroredParam>> => {
  // a contract's schema was walked when it was made: without an annotation there is nothing to find
  if (checkedWithoutHeaderMirrors(schema)) return none
  const found: MirroredParam[] = []
  const problems: string[] = []
  const seen = new Set<string>()
  // the way down through "properties" alone (null at the root, undefined off it), spelled out only for an annotation
  const visit = (node: unknown, trail: PropertyTrail | null | undefined): void => {
    if (Array.isArray(node)) {
      for (const n of node) visit(n, undefined)
      return
    }
    if (!isObject(node)) return
    if ('x-mcp-header' in node) {
      const name = node['x-mcp-header']
      const path = trail === undefined ? undefined : namesOf(trail)
      const where = path === undefined ? 'an annotation' : `property ${path.join('.')}`
      if (path === undefined) problems.push('x-mcp-header may only annotate properties reached through "properties" alone (not items, composition, conditionals or $ref)')
      else if (typeof name !== 'string' || !token.test(name)) problems.push(`${where}: x-mcp-header must be a non-empty HTTP token, got ${JSON.stringify(name)}`)
      else if (seen.has(name.toLowerCase())) problems.push(`${where}: x-mcp-header ${name} is used twice (names compare without case)`)
      else if (node.type !== 'string' && node.type !== 'integer' && node.type !== 'boolean')
        problems.push(`${where}: x-mcp-header needs a parameter of type string, integer or boolean, not ${JSON.stringify(node.type)}`)
      else {
        seen.add(name.toLowerCase())
        found.push({ header: name, path, type: node.type })
      }
    }
    // for-in and no visit of scalars: this runs for every tool a server defines
    for (const key in node) {
      const value = node[key]
      if (typeof value !== 'object' || value === null) continue
      if (key === 'properties' && isObject(value)) {
        for (const prop in value) visit(value[prop], trail === undefined ? undefined : { up: trail, name: prop })
      } else if (!dataKeywords.has(key)) visit(value, undefined)
    }
  }
  visit(schema, null)
  return problems.length > 0 ? E.left(problems) : E.right(found)
}

/** The property names down to a node, innermost first. */
interface PropertyTrail {
  readonly up: PropertyTrail | null
  readonly name: string
}

/** The names of a trail, outermost first. */
const namesOf = (trail: PropertyTrail | null): ReadonlyArray<string> => {
  const names: string[] = []
  for (let t = trail; t !== null; t = t.up) names.push(t.name)
  return names.reverse()
}

/** The problems of a tool's `x-mcp-header` annotations, each naming the tool. */
export const mirrorProblems = (tool: { readonly name: string; readonly inputSchema: JsonSchema }): ReadonlyArray<string> => {
  const found = toolMirrors(tool)
  return E.isLeft(found) ? found.left.map((p) => `tool ${tool.name}: ${p}`) : noProblems
}

/** The mirrored parameters of a tool's input schema (`mirroredParams`), known to be none without a walk when its contract's walk found none. */
export const toolMirrors = (tool: { readonly inputSchema: JsonSchema }): E.Either<ReadonlyArray<string>, ReadonlyArray<MirroredParam>> =>
  knownMirrorFree(tool) ? none : mirroredParams(tool.inputSchema)

/** True when a tool's input schema is known to carry no header mirror: the walk of its contract (or a full check of the schema) found none. */
export const knownMirrorFree = (tool: { readonly inputSchema: JsonSchema }): boolean => madeUnmirrored(tool) || checkedWithoutHeaderMirrors(tool.inputSchema)

/** The answer for a tool whose mirrors are well formed (shared: it is never changed). */
const noProblems: ReadonlyArray<string> = []

/** A header value as the client meant it: `=?base64?...?=` decoded; otherwise why it is invalid. */
export const decodeHeader = (value: string): E.Either<string, string> => {
  const m = sentinel.exec(value)
  if (m !== null) {
    const b64 = m[1] ?? ''
    // strict, as SEP-2243's test cases ask: whole groups of four, padding only at the end
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(b64) || b64.length % 4 !== 0) return E.left('its base64 is malformed')
    const bytes = fromBase64(b64)
    return bytes === undefined ? E.left('its base64 is malformed') : E.right(fromUtf8(bytes))
  }
  return safe.test(value) ? E.right(value) : E.left('it has characters a header value cannot carry (use =?base64?...?=)')
}

/** The body value a mirrored parameter names in the call's arguments (undefined when absent). */
export const valueAt = (args: unknown, path: ReadonlyArray<string>): unknown => {
  let v: unknown = args
  for (const key of path) v = isObject(v) ? v[key] : undefined
  return v
}

/** True when a decoded header value stands for the body value (integers compare as numbers). */
export const sameValue = (header: string, body: unknown, type: MirroredParam['type']): boolean => {
  if (type === 'string') return header === body
  if (type === 'boolean') return header === String(body) && typeof body === 'boolean'
  return /^-?\d+(\.0+)?$/.test(header) && typeof body === 'number' && Number(header) === body
}

// ---------------------------------------------------------------------------------------
// internals

/** The answer for a schema without annotations (shared: it is never changed). */
const none: E.Either<ReadonlyArray<string>, ReadonlyArray<MirroredParam>> = E.right([])

/** RFC 9110 token characters. */
const token = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/

/** Visible ASCII, space and tab. */
const safe = /^[\x20-\x7e\t]*$/

const sentinel = /^=\?base64\?(.*)\?=$/

/** Keywords whose values are data, not schemas: an `x-mcp-header` key inside them is not an annotation. */
const dataKeywords = new Set(['enum', 'const', 'default', 'examples'])
