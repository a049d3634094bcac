/**
 * One tool call, from wire arguments to a `CallToolResult`: validate and decode the
 * arguments, run the handler, settle whatever it returned (value, Promise, Either,
 * TaskEither, tool error, throw), then encode and check the output. Every failure on the
 * way becomes an `isError` result here, in one place.
 *
 * @example
 * import { emcp, mcpServer, inMemoryClient } from 'emcp'
 * const half = emcp({ name: 'half', input: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] } })
 * const s = mcpServer([half], { name: 'h', version: '1' }).implement({ half: ({ n }) => String(n / 2) })
 * await inMemoryClient(s).callResult('half', { n: 3 }) // { content: [{ type: 'text', text: '1.5' }] }
 */
import * as E from 'fp-ts/lib/Either.js'
import {
  errorMessage,
  errorResult,
  isCallToolResult,
  isContentBlock,
  ToolError,
  type CallToolResult,
  type ContentBlock,
} from '../contract/content.js'
import type { ToolContext } from './context.js'
import type { AnyTool, HandlerOf, Tool } from '../contract/emcp.js'
import { isThenable, map, type Eventually } from '../util/eventually.js'
import { MissingClientCapability } from '../protocol/2026-07-28/input-required.js'
import { StructuredResult } from '../protocol/jsonrpc.js'
import { formatIssues, validatorOf, type Issue, type JsonSchema, type SchemaSpec } from '../schema/schema.js'
import { isStandardSchema } from '../schema/standard/detect.js'
import { standardValidator, type SlotValidator } from '../schema/standard/validator.js'
import { passesSchema, quickCheckFor } from '../schema/standard/quick.js'

// ---------------------------------------------------------------------------------------
// model

/** What a handler may return for result type `O` (read from `HandlerOf`, where the forms are written once). */
export type HandlerResult<O> = ReturnType<HandlerOf<unknown, O>>

/**
 * The handler of tool `T`: typed arguments in, a typed result (in any of its forms) out. The
 * result union is written out rather than as `HandlerResult<...>`, so that a result of the
 * wrong kind is reported with the forms allowed: `Type 'number' is not assignable to type
 * 'string | readonly ContentBlock[] | CallToolResult | ToolError | PromiseLike<...> | ...'`.
 * (The same type as the contract's `_H`, which `Handlers` reads.)
 */
export type Handler<T extends AnyTool> = HandlerOf<T['_I'], T['_O']>

/**
 * One handler per tool of the union `U`, keyed by name: missing or extra keys do not compile
 * (two tools of one name would get a union of handlers; `mcpServer` refuses such lists).
 */
export type Handlers<U extends AnyTool> = { readonly [T in U as T['name']]: T['_H'] }

/** A tool ready to be called: its contract, its handler and its (lazily compiled) validators. */
export interface Callable {
  readonly tool: AnyTool
  readonly handler: (args: unknown, ctx: ToolContext) => unknown
  readonly input: SlotValidator
  readonly output: SlotValidator | undefined
}

// ---------------------------------------------------------------------------------------
// constructors

/** Pairs a contract with its handler; its validators are made on its first call. */
export const callable = (tool: Tool, handler: (args: unknown, ctx: ToolContext) => unknown): Callable => new ReadyTool(tool, handler)

// ---------------------------------------------------------------------------------------
// functions

/**
 * Runs one call; never rejects: every failure is an `isError` result. A handler that
 * returns a plain value is settled synchronously, without allocating a promise.
 */
export const runCall = (c: Callable, args: unknown, ctx: ToolContext): Eventually<CallToolResult> => {
  // a raw shape of plain types and plainly valid arguments: their copy, without the libraries
  const quick = c.input.quick?.(args)
  if (quick !== undefined) return runHandler(c, quick, ctx)
  // a JSON Schema slot without codec: the arguments are the decoded value, no Either to unwrap
  const check = c.input.checkInput
  if (check !== undefined) {
    const issues = check(args)
    return issues === undefined ? runHandler(c, args, ctx) : invalidArguments(c, issues)
  }
  const decoded = c.input.decode(args)
  // a Standard Schema may validate asynchronously; every other slot answers now
  return isThenable(decoded) ? decoded.then((d) => runDecoded(c, d, ctx), failureResult) : runDecoded(c, decoded, ctx)
}

/** The call once its arguments are validated and decoded. */
const runDecoded = (c: Callable, decoded: E.Either<ReadonlyArray<Issue>, unknown>, ctx: ToolContext): Eventually<CallToolResult> =>
  E.isLeft(decoded) ? invalidArguments(c, decoded.left) : runHandler(c, decoded.right, ctx)

const invalidArguments = (c: Callable, issues: ReadonlyArray<Issue>): CallToolResult =>
  errorMessage(`Invalid arguments for tool ${c.tool.name}: ${formatIssues(issues)}`)

/** The handler on decoded arguments, then its result. */
const runHandler = (c: Callable, args: unknown, ctx: ToolContext): Eventually<CallToolResult> => {
  let returned: unknown
  try {
    returned = c.handler(args, ctx)
    // reading what came back can throw too (a JavaScript caller may return a Proxy, a getter that throws)
    if (typeof returned !== 'function' && !isThenable(returned)) return complete(c, returned)
  } catch (thrown) {
    return failureResult(thrown)
  }
  // a promise is followed as it is (an async wrapper around it would cost two promises and two jobs more)
  if (typeof returned !== 'function') return Promise.resolve(returned).then((value) => settled(c, value), failureResult)
  return later(returned)
    .then((value) => complete(c, value))
    .catch(failureResult)
}

/** `complete`, with what it throws turned into an `isError` result too. */
const settled = (c: Callable, value: unknown): Eventually<CallToolResult> => {
  try {
    return complete(c, value)
  } catch (e) {
    return failureResult(e)
  }
}

/** The `isError` result for anything a handler failed with, whatever was thrown (a Proxy, a throwing toString); it throws only to pass a missing client capability on. */
export const failureResult = (failure: unknown): CallToolResult => {
  // a question the client cannot answer is the protocol's error (2026-07-28: -32021), not the tool's
  if (isMissingCapability(failure)) throw failure
  try {
    return failure instanceof ToolError ? errorResult(failure) : errorMessage(describe(failure))
  } catch {
    return errorMessage('the tool failed with a value that cannot be read')
  }
}

// ---------------------------------------------------------------------------------------
// internals

/**
 * A `Callable` whose validators are made when a call first reads them, not when the server is
 * built: a server of 2000 tools made about 10 objects and closures per tool for validators
 * most of its tools never use in a session. (They compile on first use anyway, see
 * `validatorOf`; nothing about a schema is refused when its validator is made.)
 */
class ReadyTool implements Callable {
  #input: SlotValidator | undefined
  #output: SlotValidator | undefined
  constructor(
    readonly tool: Tool,
    readonly handler: (args: unknown, ctx: ToolContext) => unknown,
  ) {}
  get input(): SlotValidator {
    // validate against the schemas clients are shown, which may add to a derived one (the
    // whole input schema when some arguments are bound to token claims: they are filled by then)
    return (this.#input ??= slotValidator(this.tool.input, this.tool.wholeInputSchema ?? this.tool.inputSchema))
  }
  get output(): SlotValidator | undefined {
    const tool = this.tool
    return tool.output === undefined ? undefined : (this.#output ??= outputValidator(tool.output, tool.outputSchema as JsonSchema))
  }
}

/** A slot's validator: its Standard Schema's own, or the JSON Schema (and codec) one. */
const slotValidator = (spec: unknown, schema: JsonSchema): SlotValidator =>
  isStandardSchema(spec) ? standardValidator(spec, schema) : validatorOf(spec as SchemaSpec, schema)

/**
 * An output slot's validator. A Standard Schema's result is checked by its library, then
 * against the JSON Schema clients were shown, which they check it against: a library whose
 * conversion is looser or stricter than its validation never sends what the schema refuses.
 */
const outputValidator = (spec: unknown, schema: JsonSchema): SlotValidator => {
  if (!isStandardSchema(spec)) return slotValidator(spec, schema)
  const own = standardValidator(spec, schema)
  const wire = validatorOf(schema)
  const check = (u: unknown): E.Either<ReadonlyArray<Issue>, unknown> => {
    try {
      return wire.encode(u)
    } catch (e) {
      // the library's JSON Schema compiled for the first time here (a pattern the validator does not take, say)
      return E.left([{ path: '', message: `the listed output schema cannot be checked: ${describe(e)}` }])
    }
  }
  const encode = (a: unknown): Eventually<E.Either<ReadonlyArray<Issue>, unknown>> => map(own.encode(a), (r) => (E.isLeft(r) ? r : check(r.right)))
  return own.quick === undefined ? { schema, decode: own.decode, encode } : { schema, decode: own.decode, encode, quick: quickResult(spec, own.quick, schema, check) }
}

/**
 * A quick check of results: a value it passes goes out as its copy when the listed schema
 * is known to take every such value; else the copy is checked against it too (a failure, or
 * a schema that cannot be checked, left to `encode`, which says why).
 */
const quickResult = (spec: unknown, quick: (u: unknown) => unknown, schema: JsonSchema, check: (u: unknown) => E.Either<ReadonlyArray<Issue>, unknown>): ((u: unknown) => unknown) => {
  const q = quickCheckFor(spec)
  if (q !== undefined && passesSchema(q, schema)) return quick
  return (u) => {
    const copy = quick(u)
    return copy !== undefined && E.isRight(check(copy)) ? copy : undefined
  }
}

const isMissingCapability = (u: unknown): boolean => {
  try {
    return u instanceof MissingClientCapability
  } catch {
    return false
  }
}

const isEither = (u: unknown): u is E.Either<unknown, unknown> =>
  typeof u === 'object' &&
  u !== null &&
  (((u as E.Left<unknown>)._tag === 'Left' && 'left' in u) || ((u as E.Right<unknown>)._tag === 'Right' && 'right' in u))

/** Runs a TaskEither (or Task) thunk and awaits what it gives. */
const later = async (r: unknown): Promise<unknown> => (r as () => unknown)()

/** Turns whatever the handler finally produced (value, Either, tool error) into a result. */
const complete = (c: Callable, value: unknown): Eventually<CallToolResult> => {
  if (isEither(value)) {
    if (E.isLeft(value)) return failureResult(value.left)
    value = value.right
  }
  // checked after unwrapping: a tool error inside a Right is still a tool error
  if (value instanceof ToolError) return errorResult(value)
  try {
    return c.output === undefined ? contentResult(c.tool.name, value) : structuredResult(c, value)
  } catch (e) {
    return errorMessage(`Tool ${c.tool.name} returned a result that cannot be serialised: ${describe(e)}`)
  }
}

/** A readable reason for any thrown value; never throws (a value whose toString throws is named by its type). */
export const describe = (failure: unknown): string => {
  try {
    if (failure instanceof Error) return failure.message || failure.name
    if (typeof failure === 'string') return failure
    try {
      const json = JSON.stringify(failure)
      if (json !== undefined) return json
    } catch {
      // a cycle, a BigInt, a throwing toJSON: fall back to String
    }
    return String(failure)
  } catch {
    return `a thrown ${typeof failure} that cannot be shown`
  }
}

const structuredResult = (c: Callable, value: unknown): Eventually<CallToolResult> => {
  const output = c.output as SlotValidator
  const quick = output.quick?.(value)
  if (quick !== undefined) return structuredValue(quick)
  // a JSON Schema slot without codec: the value goes on the wire as it is, no Either to unwrap
  if (output.checkOutput !== undefined) {
    const issues = output.checkOutput(value)
    return issues === undefined ? structuredValue(value) : mismatch(c, issues)
  }
  const encoded = output.encode(value)
  return isThenable(encoded) ? encoded.then((e) => structured(c, e), failureResult) : structured(c, encoded)
}

const structured = (c: Callable, encoded: E.Either<ReadonlyArray<Issue>, unknown>): CallToolResult => {
  try {
    return structuredOf(c, encoded)
  } catch (e) {
    return errorMessage(`Tool ${c.tool.name} returned a result that cannot be serialised: ${describe(e)}`)
  }
}

const structuredOf = (c: Callable, encoded: E.Either<ReadonlyArray<Issue>, unknown>): CallToolResult =>
  E.isLeft(encoded) ? mismatch(c, encoded.left) : structuredValue(encoded.right)

const mismatch = (c: Callable, issues: ReadonlyArray<Issue>): CallToolResult =>
  errorMessage(`Tool ${c.tool.name} returned a result that does not match its output schema: ${formatIssues(issues)}`)

/** The result of a structured value, with its JSON as the text block (throws when JSON cannot carry it). */
const structuredValue = (structured: unknown): CallToolResult => new StructuredResult(JSON.stringify(structured), structured)

const contentResult = (name: string, value: unknown): CallToolResult => {
  if (typeof value === 'string') return { content: [{ type: 'text', text: value }] }
  if (Array.isArray(value) && value.every(isContentBlock)) return { content: value as ContentBlock[] }
  if (isCallToolResult(value)) return value
  return errorMessage(
    `Tool ${name} returned an unsupported value: expected a string, content blocks or a CallToolResult`,
  )
}
