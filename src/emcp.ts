/**
 * The tool contract (an EMCP): name, description, input and output schema, annotations.
 * The value carries its static types, computed once per contract: the handler's argument
 * type, its result type, and the name as a literal.
 *
 * @example
 * import { emcp } from 'emcp'
 * const add = emcp({
 *   name: 'add',
 *   description: 'Add two numbers.',
 *   input: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] },
 *   output: { type: 'object', properties: { sum: { type: 'number' } }, required: ['sum'] },
 * })
 * type Args = typeof add._I // { a: number; b: number }
 */
import type { ToolContent } from './content.js'
import { schemaProblems } from './schema-check.js'
import { jsonSchemaOf, type Codec, type JsonSchema, type SchemaLiteral, type TypeOfSpec } from './schema.js'

// ---------------------------------------------------------------------------------------
// model

/** Hints about a tool's behaviour; clients must not trust them for security. */
export interface ToolAnnotations {
  readonly title?: string
  readonly readOnlyHint?: boolean
  readonly destructiveHint?: boolean
  readonly idempotentHint?: boolean
  readonly openWorldHint?: boolean
}

/** An icon a client may show for a tool or server. */
export interface Icon {
  readonly src: string
  readonly mimeType?: string
  readonly sizes?: ReadonlyArray<string>
  readonly theme?: 'light' | 'dark'
}

/** An input slot: a JSON Schema literal of an object, or an io-ts codec. */
export type InputSpec = (SchemaLiteral & { readonly type: 'object' }) | Codec

/** An output slot: a JSON Schema literal (any JSON value since 2026-07-28; objects for 2025-11-25 clients are made by wrapping), or an io-ts codec. */
export type OutputSpec = SchemaLiteral | Codec

/** What describes a tool to people and models, besides its name and schemas. */
export interface ToolMeta {
  /** A short human-readable name. */
  readonly title?: string
  /** What the tool does; models read this to decide when to call it. */
  readonly description?: string
  readonly annotations?: ToolAnnotations
  readonly icons?: ReadonlyArray<Icon>
  readonly _meta?: { readonly [key: string]: unknown }
}

/**
 * Whether a call may run as a task (the `io.modelcontextprotocol/tasks` extension, served by
 * the `tasks` feature): `optional` lets the server hand a slow call off to a task for clients
 * that declared the extension; `required` runs it only that way (other clients get -32021);
 * `forbidden` (the default) always answers inline.
 */
export type TaskSupport = 'forbidden' | 'optional' | 'required'

/** What `emcp` takes. */
export interface ToolDef<N, IS, OS> extends ToolMeta {
  /** The tool's name: 1 to 128 of `A-Z a-z 0-9 _ - .`, unique within a server. */
  readonly name: N
  /** The arguments: a JSON Schema literal (`type: 'object'`) or an io-ts codec. */
  readonly input: IS
  /** The structured result: a JSON Schema literal (`type: 'object'`) or an io-ts codec. */
  readonly output?: OS
  /** Whether a call may run as a task; the handler is the same either way. */
  readonly taskSupport?: TaskSupport
  /** OAuth scopes a caller's token must grant, all of them, to see and call the tool (`session.identity.scopes`). */
  readonly scopes?: ReadonlyArray<string>
}

/** A tool as `tools/list` describes it on the wire. */
export interface ListedTool extends ToolMeta {
  readonly name: string
  /** The JSON Schema of the arguments. */
  readonly inputSchema: JsonSchema
  /** The JSON Schema of the structured result, when the tool has one. */
  readonly outputSchema?: JsonSchema
  /** SEMOSS: the kind of function behind a tool imported from its manifest (e.g. `"python"`), listed as it came. */
  readonly _type?: string
}

/**
 * A tool contract. `N` is the name, `I` the handler's argument type, `O` the handler's
 * result type; `S` says whether the tool has an output schema (structured results).
 */
export interface Tool<N extends string = string, I = any, O = any, S extends boolean = boolean> extends ListedTool {
  readonly name: N
  /** The input slot as given (a schema literal or a codec). */
  readonly input: unknown
  /** The output slot as given, when there is one. */
  readonly output?: unknown
  /** Whether a call may run as a task (not listed: the tasks extension is server-directed). */
  readonly taskSupport?: TaskSupport
  /** OAuth scopes a caller must hold to see and call the tool (not listed). */
  readonly scopes?: ReadonlyArray<string>
  /** Phantom: the handler's argument type. Never present at run time. */
  readonly _I: I
  /** Phantom: the handler's result type. Never present at run time. */
  readonly _O: O
  /** Phantom: true when the tool has an output schema. Never present at run time. */
  readonly _S: S
}

/** Any tool contract. */
export type AnyTool = Tool<string, any, any, boolean>

/** The name of a tool, as a literal type. */
export type NameOf<T extends AnyTool> = T['name']

/** The argument type of a tool's handler. */
export type InputOf<T extends AnyTool> = T['_I']

/** The result type of a tool's handler (its structured output, or content for plain tools). */
export type OutputOf<T extends AnyTool> = T['_O']

/** The characters a tool name may use. */
type NameChar =
  | 'a' | 'b' | 'c' | 'd' | 'e' | 'f' | 'g' | 'h' | 'i' | 'j' | 'k' | 'l' | 'm'
  | 'n' | 'o' | 'p' | 'q' | 'r' | 's' | 't' | 'u' | 'v' | 'w' | 'x' | 'y' | 'z'
  | 'A' | 'B' | 'C' | 'D' | 'E' | 'F' | 'G' | 'H' | 'I' | 'J' | 'K' | 'L' | 'M'
  | 'N' | 'O' | 'P' | 'Q' | 'R' | 'S' | 'T' | 'U' | 'V' | 'W' | 'X' | 'Y' | 'Z'
  | '0' | '1' | '2' | '3' | '4' | '5' | '6' | '7' | '8' | '9' | '_' | '-' | '.'

/** Seven valid characters: appended to the name so that it splits into whole chunks of 8. */
type Pad = '_______'

/**
 * Any one or more characters. Unlike `string`, consecutive `${Ch}` placeholders are not merged,
 * so a pattern of k of them matches exactly the strings of k - 1 characters or more: a length
 * test that needs no `infer` (and so costs the compiler almost nothing).
 */
type Ch = string & {}
type Ch8 = `${Ch}${Ch}${Ch}${Ch}${Ch}${Ch}${Ch}${Ch}`
type AtLeast8 = `${Ch8}${Ch}`
type AtLeast16 = `${Ch8}${Ch8}${Ch}`
type AtLeast129 = `${Ch8}${Ch8}${Ch8}${Ch8}${Ch8}${Ch8}${Ch8}${Ch8}${Ch8}${Ch8}${Ch8}${Ch8}${Ch8}${Ch8}${Ch8}${Ch8}${Ch}${Ch}`

/**
 * The first character of the (padded) name that is not allowed, or `never`: 16 characters a
 * step while at least 16 are left, then 8; what is left then is less than 8 characters, all
 * padding. (Should a length test ever match a shorter string, the walk falls back to
 * `FirstBad`: slower, never wrong.)
 */
type Bad<S extends string> = S extends AtLeast16
  ? S extends `${infer A}${infer B}${infer C}${infer D}${infer E}${infer F}${infer G}${infer H}${infer I}${infer J}${infer K}${infer L}${infer M}${infer N}${infer O}${infer P}${infer R}`
    ? (A | B | C | D | E | F | G | H | I | J | K | L | M | N | O | P) extends NameChar ? Bad<R> : FirstBad<S>
    : FirstBad<S>
  : S extends AtLeast8
    ? S extends `${infer A}${infer B}${infer C}${infer D}${infer E}${infer F}${infer G}${infer H}${infer R}`
      ? (A | B | C | D | E | F | G | H) extends NameChar ? Bad<R> : FirstBad<S>
      : FirstBad<S>
    : never

/** Finds the first character that is not allowed (only walked when there is one). */
type FirstBad<S extends string> = S extends `${infer C}${infer R}` ? (C extends NameChar ? FirstBad<R> : C) : never

/**
 * Names over 128 characters: checked 8 characters at a time, `L` counting the chunks, so that
 * a character that is not allowed within the first 128 is still the one reported.
 */
type CheckLong<N extends string, S extends string, L extends 0[]> =
  S extends `${infer A}${infer B}${infer C}${infer D}${infer E}${infer F}${infer G}${infer H}${infer R}`
    ? L['length'] extends 16
      ? `invalid tool name "${N}": longer than 128 characters`
      : (A | B | C | D | E | F | G | H) extends NameChar
        ? CheckLong<N, R, [...L, 0]>
        : NotAllowed<N, FirstBad<S>>
    : N

type NotAllowed<N extends string, C extends string> = `invalid tool name "${N}": "${C}" is not allowed (use A-Z a-z 0-9 _ - .)`

/** `N` when it is a valid tool name, otherwise a message saying why not. */
export type ValidName<N extends string> = {} extends Record<N, 0>
  ? N // not one literal (`string`, or a pattern such as `tool_${string}`): checked at run time
  : N extends ''
    ? 'invalid tool name: it must not be empty'
    : N extends AtLeast129
      ? CheckLong<N, `${N}${Pad}`, []>
      : Bad<`${N}${Pad}`> extends never
        ? N
        : NotAllowed<N, Bad<`${N}${Pad}`>>

// ---------------------------------------------------------------------------------------
// constructors

/**
 * Defines a tool contract. The name stays a literal type; the argument and result types
 * come from the schemas (json-schema-to-ts for literals, `t.TypeOf` for codecs).
 */
export function emcp<
  const N extends string,
  const IS extends InputSpec,
  const OS extends OutputSpec | undefined = undefined,
  I = TypeOfSpec<IS>,
  O = OS extends undefined ? ToolContent : TypeOfSpec<OS>,
>(def: ToolDef<ValidName<N>, IS, OS>): Tool<N, I, O, OS extends undefined ? false : true> {
  const { input, output, ...rest } = def
  const tool: Record<string, unknown> = { ...rest, inputSchema: objectRoot(def.name, 'input', input as InputSpec), input }
  if (output !== undefined) {
    tool.output = output
    tool.outputSchema = objectRoot(def.name, 'output', output as OutputSpec)
  }
  return Object.freeze(tool) as unknown as Tool<N, I, O, OS extends undefined ? false : true>
}

// ---------------------------------------------------------------------------------------
// internals

/**
 * MCP wants `type: "object"` at the root of an input schema. A derived schema without a root
 * type (a union of objects, a custom codec) gets it added; any other root type is refused
 * here, at definition time, rather than confusing a client later. Since 2026-07-28 an output
 * schema may describe any JSON value: an object-like one without a type gets `type: "object"`
 * as before, anything else stays as it is (2025-11-25 clients see it wrapped, see
 * protocol/legacy-output.ts). Both are checked for dialect, references and size. (Shared
 * with `runtimeTool`, whose schemas are plain JSON objects.)
 */
export const objectRoot = (name: unknown, slot: 'input' | 'output', spec: InputSpec | OutputSpec | JsonSchema): JsonSchema => {
  const given = jsonSchemaOf(spec)
  const problems = schemaProblems(given)
  if (problems.length > 0) throw new TypeError(`emcp: tool ${String(name)}: the ${slot} schema cannot be served: ${problems.join('; ')}`)
  if (given.type === 'object') return given
  if (given.type === undefined && (slot === 'input' || objectLike(given))) return { type: 'object', ...given }
  if (slot === 'output') return given
  throw new TypeError(`emcp: tool ${String(name)}: the ${slot} schema must describe an object (type "object"), not ${JSON.stringify(given.type)}`)
}

/** A schema without a type that still describes objects: properties of its own, or only object-like alternatives (or nothing at all). */
const objectLike = (s: JsonSchema): boolean => {
  if (s.type !== undefined) return s.type === 'object'
  if ('properties' in s || 'additionalProperties' in s || 'required' in s) return true
  const alternatives = [s.anyOf, s.oneOf].find(Array.isArray) as ReadonlyArray<JsonSchema> | undefined
  if (alternatives !== undefined) return alternatives.every(objectLike)
  return Object.keys(s).every((k) => k.startsWith('$') || k === 'title' || k === 'description')
}
