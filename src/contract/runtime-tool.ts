/**
 * Tools whose schemas are known only at run time: a manifest read at startup, a database
 * catalog. `emcp` computes a contract's types from a schema literal the compiler can see;
 * here there is none, so the contract says what is known: the arguments are a JSON object,
 * the result is any value, and the name is a string. The schemas are checked as the tool is
 * built (object root, dialect, references, size), exactly as `emcp` checks them; a handler
 * validates nothing itself, the server checks arguments and results against those schemas.
 *
 * @example
 * import { mcpServer, runtimeTool } from 'emcp'
 * const schema: { readonly [keyword: string]: unknown } = JSON.parse('{"type":"object","properties":{"q":{"type":"string"}}}')
 * const search = runtimeTool({ name: 'search', description: 'Search.', input: schema })
 * const server = mcpServer([search], { name: 's', version: '1' }).implement({ search: (args) => `searched ${String(args.q)}` })
 */
import type { TaskSupport, Tool, ToolMeta } from './emcp.js'
import { madeContract, objectRoot, walkedClean } from './contract-parts.js'
import type { Codec, JsonSchema } from '../schema/schema.js'
import { inputSlots, type ClaimMap } from './claims.js'
import { slotOf, type StandardShape } from '../schema/standard/shape.js'
import type { KeywordRule } from '../schema/slot-schema.js'
import type { StandardSchemaV1 } from '../schema/standard/spec.js'

// ---------------------------------------------------------------------------------------
// model

/** The arguments of a tool built at run time: a JSON object (its schema's root is an object). */
export type RuntimeArgs = { readonly [argument: string]: unknown }

/** A tool built at run time: any name, object arguments, any result, with or without an output schema. */
export type RuntimeTool = Tool<string, RuntimeArgs, unknown, boolean>

/** What `runtimeTool` takes: `emcp`'s definition, with schemas of any shape known only at run time. */
export interface RuntimeToolDef extends ToolMeta {
  /** The tool's name: 1 to 128 of `A-Z a-z 0-9 _ - .` (checked when a server is built). */
  readonly name: string
  /** The arguments: a JSON Schema object (root `type: "object"`, or none), a Standard Schema (zod, valibot, ...), a raw shape of them, or an io-ts codec. */
  readonly input: JsonSchema | Codec | StandardSchemaV1 | StandardShape
  /** The structured result: a JSON Schema object, a Standard Schema or an io-ts codec. */
  readonly output?: JsonSchema | Codec | StandardSchemaV1 | StandardShape | undefined
  /** Whether a call may run as a task. */
  readonly taskSupport?: TaskSupport
  /** OAuth scopes a caller's token must grant, all of them, to see and call the tool. */
  readonly scopes?: ReadonlyArray<string>
  /** Arguments filled from claims of the caller's token (see `emcp`'s `claims`); checked against the schema here. */
  readonly claims?: ClaimMap
  /** SEMOSS: the kind of function behind the tool (e.g. `"python"`), listed as given. */
  readonly _type?: string
  /** Extension fields (`x-…`, `vendor/key`), carried on the contract as given. */
  readonly [extension: `${string}/${string}` | `x-${string}`]: unknown
}

// ---------------------------------------------------------------------------------------
// constructors

/**
 * Defines a tool whose schemas are known only at run time. Throws a TypeError, naming the
 * tool, for a schema that cannot be served (as `emcp` does).
 */
export const runtimeTool = (def: RuntimeToolDef): RuntimeTool => runtimeToolOf(def, 'error')

/** `runtimeTool`, with unknown keywords allowed (`'allow'`: manifests, whose reader warns about them). Internal. */
export const runtimeToolOf = (def: RuntimeToolDef, keywords: KeywordRule): RuntimeTool => {
  // a raw shape (code only: a manifest's schema is JSON, with no schema objects in it) becomes the Standard Schema of its object
  // each field read once (a getter or a Proxy's trap runs once), the rest copied natively, as `emcp` does
  const { input: givenInput, output: givenOutput, claims, ...meta } = def
  const name = meta.name
  const input = keywords === 'error' ? slotOf(givenInput) : givenInput
  const output = keywords === 'error' ? slotOf(givenOutput) : givenOutput
  const inputSchema = objectRoot(name, 'input', input, keywords)
  const unmirrored = walkedClean(inputSchema)
  const slots = inputSlots(name, claims, inputSchema)
  const outputSchema = output === undefined ? undefined : objectRoot(name, 'output', output, keywords)
  // the slots assigned onto the copy, not spread into another: one hidden class for every contract
  const tool = Object.assign(meta, { input }, slots, outputSchema === undefined ? {} : { output, outputSchema })
  return madeContract<RuntimeTool>(tool, keywords, unmirrored)
}
