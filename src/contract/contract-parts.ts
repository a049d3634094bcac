/**
 * The parts of a contract object that `emcp` (and `runtimeTool`) make from a definition: its
 * listed fields copied as given, and each slot's JSON Schema checked and rooted. Internal.
 *
 * @example
 * import { objectRoot } from './contract-parts.js'
 * objectRoot('add', 'input', { properties: { a: { type: 'number' } } }) // { type: 'object', properties: { a: { type: 'number' } } }
 */
import { schemaProblems } from '../schema/schema-check.js'
import type { JsonSchema } from '../schema/schema.js'
import { plainlyServable, provedServable } from '../schema/servable.js'
import { markMade, slotSchema, type KeywordRule } from '../schema/slot-schema.js'
import { slotOf } from '../schema/standard/shape.js'
import { inputSlots, type ClaimMap } from './claims.js'
import type { AnyTool, ToolMeta } from './emcp.js'

/** A tool's definition as `emcp` reads it at run time (its signatures say what each field may be). */
export type ToolDefinition = ToolMeta & { readonly name: string; readonly input: unknown; readonly output?: unknown; readonly claims?: ClaimMap }

/**
 * What `emcp` makes of a definition at run time: one frozen object, its fields set in the
 * order they are listed (no parts made only to be copied: this runs for every tool), marked
 * made with its literals checked.
 */
export const contractOf = (def: ToolDefinition): AnyTool => {
  // one rest destructuring: each field read once (a getter or a Proxy's trap runs once), the
  // other own enumerable keys copied natively, symbols too (`__proto__` as a key, never as the
  // prototype); what is added goes onto this copy, never into a spread of it: a spread gave
  // nearly every contract a hidden class of its own, about 4000 for a 2000-tool server
  const { claims, input: givenInput, output: givenOutput, ...meta } = def
  const input = slotOf(givenInput)
  const output = slotOf(givenOutput)
  const inputSchema = objectRoot(meta.name, 'input', input)
  const unmirrored = walkedClean(inputSchema)
  const tool: Record<string, unknown> = meta
  if (claims === undefined) tool.inputSchema = inputSchema
  else Object.assign(tool, inputSlots(meta.name, claims, inputSchema))
  tool.input = input
  if (output !== undefined) {
    tool.output = output
    tool.outputSchema = objectRoot(meta.name, 'output', output)
  }
  return markMade(Object.freeze(tool), 'error', unmirrored) as unknown as AnyTool
}

/** The fields of a contract that are only types (never present at run time). */
type Phantom = '_I' | '_O' | '_S' | '_D' | '_C' | '_R' | '_H' | '_app' | '_W'

/**
 * The contract `T` from its run-time fields, each checked against `T`'s own, frozen and marked
 * made with `rule`. The one place the phantom fields are taken as present: they are types only.
 */
export const madeContract = <T extends AnyTool>(parts: Omit<T, Phantom>, rule: KeywordRule, unmirrored: boolean): T => markMade(Object.freeze(parts), rule, unmirrored) as T

/**
 * MCP wants `type: "object"` at the root of an input schema. A derived schema without a root
 * type (a union of objects, a custom codec) gets it added; any other root type is refused
 * here, at definition time, rather than confusing a client later. Since 2026-07-28 an output
 * schema may describe any JSON value: an object-like one without a type gets `type: "object"`
 * as before, anything else stays as it is (2025-11-25 clients see it wrapped, see
 * protocol/legacy-output.ts). Both are checked for dialect, references and size. (Shared
 * with `runtimeTool`, whose schemas are plain JSON objects.)
 */
export const objectRoot = (name: unknown, slot: 'input' | 'output', spec: unknown, keywords: KeywordRule = 'error'): JsonSchema => {
  const given = slotSchema(name, slot, spec, keywords)
  // a literal's slot check walked it already; the full walk only spells out what the quick one may have found
  const clean = provedServable(given) || plainlyServable(given, false)
  const problems = clean ? noProblems : schemaProblems(given)
  if (problems.length > 0) throw new TypeError(`emcp: tool ${String(name)}: the ${slot} schema cannot be served: ${problems.join('; ')}`)
  const root = rooted(name, slot, given)
  cleanRoot = clean ? root : undefined
  return root
}

/** The schema a slot publishes: the given one, or an object-like one without a type given `type: "object"`; anything else is refused for an input. */
const rooted = (name: unknown, slot: 'input' | 'output', given: JsonSchema): JsonSchema => {
  if (given.type === 'object') return given
  if (given.type === undefined && (slot === 'input' || objectLike(given))) return { type: 'object', ...given }
  if (slot === 'output') return given
  throw new TypeError(`emcp: tool ${String(name)}: the ${slot} schema must describe an object (type "object"), not ${JSON.stringify(given.type)}`)
}

/**
 * True when `schema` is what the last `objectRoot` returned, and the quick walk passed it (so
 * it carries no header mirror); asked once, right after. A one-shot memory, by identity: an
 * `objectRoot` run in between (from a getter) leaves the answer false, which only costs the
 * contract a full look at its mirrors later.
 */
export const walkedClean = (schema: JsonSchema): boolean => {
  const same = cleanRoot === schema
  cleanRoot = undefined
  return same
}

let cleanRoot: JsonSchema | undefined

const noProblems: ReadonlyArray<string> = []

/** A schema without a type that still describes objects: properties of its own, or only object-like alternatives (or nothing at all). */
const objectLike = (s: JsonSchema): boolean => {
  if (s.type !== undefined) return s.type === 'object'
  if ('properties' in s || 'additionalProperties' in s || 'required' in s) return true
  const alternatives = [s.anyOf, s.oneOf].find(Array.isArray) as ReadonlyArray<JsonSchema> | undefined
  if (alternatives !== undefined) return alternatives.every(objectLike)
  return Object.keys(s).every((k) => k.startsWith('$') || k === 'title' || k === 'description')
}
