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
import type { Either } from 'fp-ts/lib/Either.js'
import type { ToolContent, ToolError } from './content.js'
import type { ToolContext } from '../server/context.js'
import type { DefaultedOf, FastFromSchema, WithPlainProperties } from '../schema/fast-schema.js'
import type { Codec, JsonSchema } from '../schema/schema.js'
import { contractOf, type ToolDefinition } from './contract-parts.js'
import type { Allowed, CheckedKeys, MarkedLiteral } from '../schema/keyword-check.js'
import type { SchemaShape } from '../schema/schema-shape.js'
import type { InferInput, InferOutput, StandardSchemaV1, StandardTypedV1 } from '../schema/standard/spec.js'
import { type Optionalized, type ShapeType, type StandardShape, type ZodInputs, type ZodOutputs, type ZodShape } from '../schema/standard/shape.js'
import type { CheckedClaims, ClaimMap } from './claims.js'

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

/**
 * A JSON Schema literal of an object. An interface rather than `SchemaShape & { type: 'object' }`:
 * the compiler relates each input literal to this once, and an intersection made it relate the
 * literal to each part and build the pair's merged properties, about 5% of the whole check of a
 * 300-tool server (counted in the compiler's function calls; instantiations do not change).
 */
export interface InputShape extends SchemaShape {
  readonly type: 'object'
}

/** An input slot: a JSON Schema literal of an object, an io-ts codec, a Standard Schema (zod, valibot, arktype, effect) with a JSON Schema form, or a raw shape of them (`{ title: z.string() }`). */
export type InputSpec = InputShape | Codec | StandardSchemaV1 | StandardShape

/** An output slot: a JSON Schema literal (any JSON value since 2026-07-28; objects for 2025-11-25 clients are made by wrapping), an io-ts codec, or a Standard Schema. */
export type OutputSpec = SchemaShape | Codec | StandardSchemaV1 | StandardShape

/** A marker in `StandardWire`: the slot is not a Standard Schema, callers see the handler's type. */
export declare const sameAsHandler: unique symbol

/**
 * What callers see of a tool whose slots include a Standard Schema, where it differs from the
 * handler's view: they send the input schema's input type (before transforms and defaults),
 * and get the output schema's output type. `typeof sameAsHandler` for a slot that is not one.
 */
export interface StandardWire<A, R> {
  readonly args: A
  readonly result: R
}

/**
 * `StandardWire` of the slots `IS` and `OS`, for a tool with at least one Standard Schema. An
 * interface, so that its members are computed only where they are read (the typed clients,
 * `ArgsOf`): a contract and `implement` never read them, and computed with the contract they
 * cost about 110 instantiations per tool of zod shapes (docs/type-performance.md).
 */
export interface WireOf<IS, OS> {
  readonly args: IS extends StandardTypedV1 ? InferInput<IS> : IS extends StandardShape ? ShapeType<IS, 'input'> : typeof sameAsHandler
  readonly result: OS extends StandardTypedV1 ? InferOutput<OS> : OS extends StandardShape ? ShapeType<OS, 'output'> : typeof sameAsHandler
}

/** A slot that is a library's schema, or a raw shape of them: callers see its own types. */
type Library = StandardTypedV1 | StandardShape

/**
 * A slot `emcp` takes as a library's schema without reading its keys: a Standard Schema (with
 * `validate`: a `~standard` of types alone is no schema, and is named as an unknown keyword) or
 * a raw shape of them.
 */
type LibrarySlot = StandardSchemaV1 | StandardShape

/** What describes a tool to people and models, besides its name and schemas. */
export interface ToolMeta {
  /** A short human-readable name. */
  readonly title?: string
  /** What the tool does; models read this to decide when to call it. */
  readonly description?: string
  readonly annotations?: ToolAnnotations
  readonly icons?: ReadonlyArray<Icon>
  readonly _meta?: { readonly [key: string]: unknown }
  /** Labels for visibility rules (a mount's `include`, `exclude`); listed in `_meta` under `emcp/tags`. */
  readonly tags?: ReadonlyArray<string>
}

/**
 * Whether a call may run as a task (the `io.modelcontextprotocol/tasks` extension, served by
 * the `tasks` feature): `optional` lets the server hand a slow call off to a task for clients
 * that declared the extension; `required` runs it only that way (other clients get -32021);
 * `forbidden` (the default) always answers inline.
 */
export type TaskSupport = 'forbidden' | 'optional' | 'required'

/**
 * What `emcp` takes for the name `N`, the slots `IS` and `OS` and the claim-bound arguments
 * `CL` (see `claims`): its parameter's type, so that the two cannot drift apart.
 */
export type ToolDef<N extends string, IS extends InputSpec, OS extends OutputSpec | undefined = undefined, CL extends ClaimMap = {}> = Parameters<
  typeof emcp<N, IS, OS, CL>
>[0]

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
 * result type; `S` says whether the tool has an output schema (structured results); `D`
 * names the arguments with a `default` (the handler always gets them, a caller may leave
 * them out; `never`: none; `string`: not known, as for a contract not made by `emcp`); `C`
 * names the claim-bound arguments, which callers do not send (`never`: none; `string`: not known).
 *
 * The variance annotations say what the compiler cannot measure by itself (a conditional
 * member reads `S` and `O`); without them it relates each contract to `AnyTool` member by
 * member, about 4 instantiations per tool in `mcpServer`. `I` is both read by the handler
 * (`_H`'s argument) and given (`_I`), so it is invariant; so is `O`, whose keys `_R` reads.
 */
export interface Tool<
  out N extends string = string,
  in out I = any,
  in out O = any,
  out S extends boolean = boolean,
  out D extends string = string,
  out C extends string = string,
  out A extends string = string,
  out W = unknown,
> extends ListedTool {
  readonly name: N
  /** The input slot as given (a schema literal or a codec). */
  readonly input: unknown
  /** The output slot as given, when there is one. */
  readonly output?: unknown
  /** Whether a call may run as a task (not listed: the tasks extension is server-directed). */
  readonly taskSupport?: TaskSupport
  /** OAuth scopes a caller must hold to see and call the tool (not listed). */
  readonly scopes?: ReadonlyArray<string>
  /** The claim-bound arguments: argument name -> claim (not listed). */
  readonly claims?: ClaimMap
  /** With claim-bound arguments: the whole input schema, which the handler's arguments meet (`inputSchema` is what clients are shown). */
  readonly wholeInputSchema?: JsonSchema
  /** Phantom: the handler's argument type. Never present at run time. */
  readonly _I: I
  /** Phantom: the handler's result type. Never present at run time. */
  readonly _O: O
  /** Phantom: true when the tool has an output schema. Never present at run time. */
  readonly _S: S
  /** Phantom: the arguments with a default (top-level). Never present at run time. */
  readonly _D: D
  /** Phantom: the claim-bound arguments, which callers do not send. Never present at run time. */
  readonly _C: C
  /**
   * Phantom: the handler's type (`HandlerOf<I, O>`, which reads it from here). It lives on the
   * contract so that the compiler makes it once per contract, where it is first read:
   * `implement` reads it for every tool, and the alias applied to each contract there cost
   * about 8 instantiations per tool more. The result union is written out, so that a result of
   * the wrong kind is reported with the forms allowed; a TaskEither is written as the function
   * it is, which reuses the `Either` before it (about 6 instantiations per tool less); and no
   * alias (its arguments instantiated with it cost 2 per tool more). Never present at run time.
   */
  readonly _H: (args: I, ctx: ToolContext) => O | ToolError | PromiseLike<O | ToolError> | Either<unknown, O> | (() => PromiseLike<Either<unknown, O>>)
  /**
   * Phantom: what `implement` needs of the result to find extra result keys: the name, the keys
   * the output type allows (`keyof O`) and whether there is an output schema, as a
   * `ResultShape`. An interface of literals, so that the compiler never walks it again: a
   * handler-shaped type here (a function of a mapped type of `O`) made each conditional test
   * of `implement` instantiate every contract of the union, with its argument and result types,
   * twice (about 10 instantiations per tool). Never present at run time.
   */
  readonly _R: ResultShape<N, keyof O, S>
  /**
   * Phantom: the URI of the app the tool links (`linkApp`); `never` when it links none. As a
   * parameter, `mcpServer` asks one indexed access of the list whether any tool links an app
   * (a test per tool cost about 7 instantiations per tool). Never present at run time.
   */
  readonly _app: A
  /** Phantom: what callers see when a slot is a Standard Schema (`StandardWire`), else `unknown`. Never present at run time. */
  readonly _W: W
}

/**
 * A tool's name and the keys its structured result may have (`K`: `keyof` the output type; `S`:
 * whether it has one), read by `implement`'s check of result keys. It is itself a handler whose
 * result has every allowed key, each required and of any type (`any` without an output
 * schema): a handler whose result it is assignable to returns no other key. An open object
 * keeps its index signature, a result that is not an object has the keys of its apparent type:
 * this is only the fast path; a handler that fails it is looked at key by key. (`S` as a
 * parameter of its own rather than a marker in `K`: a test of `K` cost a tuple per tool. The
 * handler as the interface's call signature rather than a member `fn`: the record `implement`
 * relates to the handlers then holds these interfaces themselves, one indexed access less
 * per tool, 1.3 instantiations per tool on the bench.)
 */
export interface ResultShape<N extends string, K extends PropertyKey, S extends boolean> {
  (...args: any[]): S extends true ? { readonly [P in K]-?: any } : any
  readonly name: N
}

/**
 * A handler of arguments `I` and result `O`: typed arguments in, a typed result in any of its
 * forms out (a value, a tool error, a promise of either, an `Either` or a `TaskEither`). Read
 * from `Tool`'s `_H`, where the forms are written once.
 */
export type HandlerOf<I, O> = Tool<string, I, O>['_H']

/** Any tool contract. */
export type AnyTool = Tool<string, any, any, boolean, string, string>

/** The name of a tool, as a literal type. */
export type NameOf<T extends AnyTool> = T['name']

/** The argument type of a tool's handler. */
export type InputOf<T extends AnyTool> = T['_I']

/** The result type of a tool's handler (its structured output, or content for plain tools). */
export type OutputOf<T extends AnyTool> = T['_O']

/**
 * The characters the compiler rejects in a name: space, tab and line breaks, ASCII
 * punctuation, the letters of Latin-1 with diacritics in both cases (`café`, `naïve`,
 * `Über`, `señor`, `straße`, and `œ`), and the typographic marks a name picks up when pasted
 * from prose (no-break space, en and em dashes, curly quotes, the ellipsis). Any other
 * character (another script, an emoji, a control character) compiles and is refused by
 * `mcpServer` when the server is built, with the same message. Why a list and not a test of
 * each character against the allowed ones: each character here is a template the compiler
 * tests a name against, one relation each and no instantiation; reading a name character
 * by character cost 80 to 200 instantiations per tool in every form tried (words split on
 * `_`, two or eight characters a step), a quarter or more of a contract's whole cost. Why no
 * `Lowercase` to halve the letters: the check would then stop distributing over a union of
 * names, and making it distribute again costs 3 instantiations per tool. Figures in
 * docs/type-performance.md.
 */
type BadChar =
  | '\u0009' | '\u000a' | '\u000d' | '\u0020' | '!' | '"' | '#' | '$' | '%' | '&' | "'" | '(' | ')' | '*' | '+' | ',' | '/' | ':'
  | ';' | '<' | '=' | '>' | '?' | '@' | '[' | '\\' | ']' | '^' | '`' | '{' | '|' | '}' | '~'
  | 'À' | 'Á' | 'Â' | 'Ã' | 'Ä' | 'Å' | 'Æ' | 'Ç' | 'È' | 'É' | 'Ê' | 'Ë' | 'Ì' | 'Í' | 'Î' | 'Ï' | 'Ð'
  | 'Ñ' | 'Ò' | 'Ó' | 'Ô' | 'Õ' | 'Ö' | 'Ø' | 'Ù' | 'Ú' | 'Û' | 'Ü' | 'Ý' | 'Þ' | 'Œ'
  | 'ß' | 'à' | 'á' | 'â' | 'ã' | 'ä' | 'å' | 'æ' | 'ç' | 'è' | 'é' | 'ê' | 'ë' | 'ì' | 'í' | 'î' | 'ï'
  | 'ð' | 'ñ' | 'ò' | 'ó' | 'ô' | 'õ' | 'ö' | 'ø' | 'ù' | 'ú' | 'û' | 'ü' | 'ý' | 'þ' | 'ÿ' | 'œ'
  | '\u00a0' | '\u2013' | '\u2014' | '\u2018' | '\u2019' | '\u201c' | '\u201d' | '\u2026'

/** Any one or more characters (`${Ch}${Ch}` cannot match fewer than two, unlike `${string}${string}`). */
type Ch = string & {}
type Ch8 = `${Ch}${Ch}${Ch}${Ch}${Ch}${Ch}${Ch}${Ch}`
type AtLeast129 = `${Ch8}${Ch8}${Ch8}${Ch8}${Ch8}${Ch8}${Ch8}${Ch8}${Ch8}${Ch8}${Ch8}${Ch8}${Ch8}${Ch8}${Ch8}${Ch8}${Ch}${Ch}`

/**
 * The names that are not allowed, as one union the compiler tests a literal against without
 * instantiating anything: empty, longer than 128 characters, or with a `BadChar`. (The `''`
 * in the union matters: it lets the compiler test the templates as a set, about ten times
 * cheaper than a union of templates alone.)
 */
type Invalid = '' | AtLeast129 | `${string}${BadChar}${string}`

/**
 * `N` when it is a valid tool name, otherwise a message saying so, in the words of the run-time
 * check (`invalid tool name "café": use 1-128 of A-Z a-z 0-9 _ - .`). A name that is not
 * one literal (`string`, a pattern such as `tool_${string}`) passes: it is checked at run time.
 * (`NoInfer`: the name is inferred from the `N` branch alone, never from the message. The
 * message names no offending character: the compiler instantiates a branch it does not take
 * while it infers `N`, and working out the character there cost 12 instantiations per tool.)
 */
export type ValidName<N extends string> = N extends Invalid ? InvalidName<N> : N

/** The message of an invalid tool name, in the words of the run-time check. */
type InvalidName<N extends string> = NoInfer<`invalid tool name "${N}": use 1-128 of A-Z a-z 0-9 _ - .`>

/**
 * `TypeOfSpec` for a slot already known to be a schema literal or a codec (the constraints of
 * `emcp` say so): the schema tests come first, codecs last (see fast-schema.ts).
 */
type SpecType<S> = FastFromSchema<S> // codecs included: tested last, off the common path

/**
 * The handler's argument type of input slot `IS`: a zod shape's read directly (`ZodOutputs`),
 * without `FastFromSchema`'s first test and alias. For the paths off the bench's (no output
 * schema, claims); `emcp`'s result type writes it out in its branches. `{}` (no argument
 * declared) passes for a zod shape: its arguments are `{}`, any object, which the server
 * makes of it (`{ type: 'object' }`); a test for it cost 5 instantiations per zod tool.
 */
type ArgsType<IS> = IS extends ZodShape ? ZodOutputs<IS> : SpecType<IS>

// ---------------------------------------------------------------------------------------
// constructors

/**
 * Defines a tool contract. The name stays a literal type; the argument and result types
 * come from the schemas (json-schema-to-ts for literals, `t.TypeOf` for codecs).
 */
export function emcp<
  N extends string,
  IS extends InputSpec,
  OS extends OutputSpec | undefined = undefined,
  const CL extends ClaimMap = {},
  // the keys of both slots: a library's schema (zod's methods, a shape's property names) fails
  // `Allowed` too, and `MarkedLiteral` gives it back as it is. One test skips them for a shape of
  // zod schemas, the commonest library slot, whose keys cost about 16 instantiations per tool
  // (literals pay 2 for the test); a test of each slot for any library's schema cost literals
  // about 10 (docs/type-performance.md). `V` says whether every key is allowed, tested once
  // here for both slots: the keys as a type parameter, tested in each slot, cost 2 per zod tool
  // and 1 per literal tool more
  V = IS extends ZodShape
    ? (OS extends ZodShape ? true : [CheckedKeys<OS>] extends [Allowed] ? true : false)
    : [CheckedKeys<IS> | CheckedKeys<OS>] extends [Allowed] ? true : false,
>(
  // written here rather than as a named type: a generic type applied here cost the compiler
  // about 7 instantiations per tool more (ToolDef is this parameter's type, read back)
  def: ToolMeta & {
    /** The tool's name: 1 to 128 of `A-Z a-z 0-9 _ - .`, unique within a server. */
    // `ValidName` written out: the alias applied here cost 1 instantiation per tool
    readonly name: N extends Invalid ? InvalidName<N> : N
    /** The arguments: a JSON Schema literal (`type: 'object'`), an io-ts codec or a Standard Schema. */
    // inferred from the first branch; a library's schema (whose keys are no keywords) is itself, one
    // test; a literal with an unknown key has that key typed as its message
    readonly input: V extends true ? IS : IS extends LibrarySlot ? IS : NoInfer<MarkedLiteral<IS>>
    /** The structured result: a JSON Schema literal, an io-ts codec or a Standard Schema. */
    readonly output?: V extends true ? OS : OS extends LibrarySlot ? OS : NoInfer<MarkedLiteral<OS>>
    /** Whether a call may run as a task; the handler is the same either way. */
    readonly taskSupport?: TaskSupport
    /** OAuth scopes a caller's token must grant, all of them, to see and call the tool (`session.identity.scopes`). */
    readonly scopes?: ReadonlyArray<string>
    /**
     * Arguments filled from a claim of the caller's token (`session.identity.claims`), never
     * by the client: argument name -> claim name (or path into nested claims). They leave the
     * listed input schema and the typed client's arguments; the handler gets them, checked
     * against their schema. A call without the claim is refused (-32003).
     */
    readonly claims?: {} extends CL ? CL : CheckedClaims<CL, ArgsType<IS>>
  },
  // NoInfer: a contract written inside another generic call (`mcpServer([emcp({...})])`,
  // `linkApp(emcp({...}), app)`) would otherwise take its name and types from that call's
  // expectation (`AnyTool`: a `string` name, `any` arguments) rather than from its definition.
  // `{} extends CL`: no claims (nearly every tool) is one relation test, cheaper than `keyof CL & string`.
  // One test of `OS` picks the result type and `S` together (a Standard Schema result: what it
  // accepts), and with an output (the common path) tests of `IS` pick the defaulted names `D`
  // and the callers' types `W` together: a raw shape has no defaulted names (its callers' types
  // come from `_W`) and is a library's schema, one test for both; a literal with plain
  // properties has none; any other input has its `DefaultedOf`. Type parameters for the result
  // and `D`, and a test each for `S`, `D` and `W`, cost 5 instantiations per zod tool and 1 per
  // literal more (docs/type-performance.md).
  // The handler's argument type is written out in each branch, not a defaulted type parameter
  // (instantiated while the compiler infers, and again where read): a zod shape (tested first)
  // reads it as `ZodOutputs` with no test for `{}` (see `ArgsType`), other inputs as `SpecType`:
  // 7 per zod tool fewer (NoInfer keeps an outer call from inferring through it).
): NoInfer<
  OS extends undefined
    ? Tool<N, ArgsType<IS>, ToolContent, false, IS extends WithPlainProperties | StandardShape ? never : DefaultedOf<IS>, {} extends CL ? never : keyof CL & string, never, IS extends Library ? WireOf<IS, OS> : unknown>
    : IS extends ZodShape
      ? // a zod shape's result read as `FastFromSchema` reads it, without its first test and alias: 2 per zod tool
        Tool<N, ZodOutputs<IS>, OS extends ZodShape ? ({} extends OS ? FastFromSchema<OS, 'input'> : Optionalized<ZodInputs<OS>>) : FastFromSchema<OS, 'input'>, true, never, {} extends CL ? never : keyof CL & string, never, WireOf<IS, OS>>
      : IS extends StandardShape
        ? Tool<N, SpecType<IS>, OS extends ZodShape ? ({} extends OS ? FastFromSchema<OS, 'input'> : Optionalized<ZodInputs<OS>>) : FastFromSchema<OS, 'input'>, true, never, {} extends CL ? never : keyof CL & string, never, WireOf<IS, OS>>
        : IS extends WithPlainProperties
          ? Tool<N, SpecType<IS>, FastFromSchema<OS, 'input'>, true, never, {} extends CL ? never : keyof CL & string, never, IS extends Library ? WireOf<IS, OS> : OS extends Library ? WireOf<IS, OS> : unknown>
          : Tool<N, SpecType<IS>, FastFromSchema<OS, 'input'>, true, DefaultedOf<IS>, {} extends CL ? never : keyof CL & string, never, IS extends Library ? WireOf<IS, OS> : OS extends Library ? WireOf<IS, OS> : unknown>
>
// the implementation: it builds what the signature above promises, from the definition as given
export function emcp(def: ToolDefinition): AnyTool {
  return contractOf(def)
}
