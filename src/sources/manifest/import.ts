/**
 * Import: a manifest becomes a server. With a manifest of a const type (a module that
 * exports it `as const`, e.g. written by `emcp manifest --format ts`), the handler record is
 * checked by the compiler: a missing or extra handler, or an argument name the schema does
 * not declare, does not compile. At run time (a JSON file read at startup) the same checks
 * run before the server is built, and fail naming the tool and the key (a schema that
 * cannot work, by its JSON pointer). Each tool's execution policy (`_meta["emcp/policy"]`
 * or SEMOSS's `SMSS_MCP_EXECUTION`) is honoured: `disabled` tools are declared but neither
 * listed nor callable, `ask` tools run only after the user has reviewed their arguments
 * (review.ts). Handlers are keyed by the name a tool dispatches to: SEMOSS's
 * `SMSS_FUNCTION_NAME`, else the tool's own.
 *
 * @example
 * import { fromManifest } from 'emcp/manifest'
 * const manifest = {
 *   tools: [{ name: 'add', description: 'Add.', inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] } }],
 * } as const
 * const server = fromManifest(manifest, { add: ({ a, b }) => String(a + b) })
 */
import * as E from 'fp-ts/lib/Either.js'
import * as t from 'io-ts'
import type { Handler, HandlerResult } from '../../server/call.js'
import { toolError, type ToolContent } from '../../contract/content.js'
import type { ToolContext } from '../../server/context.js'
import type { Tool } from '../../contract/emcp.js'
import type { DefaultedOf } from '../../schema/fast-schema.js'
import { isObject } from '../../util/json-object.js'
import { runtimeToolOf, type RuntimeTool } from '../../contract/runtime-tool.js'
import { keywordProblems } from './validate.js'
import { formatIssues, validatorOf, type SchemaSpec, type TypeOfSpec, type Validator } from '../../schema/schema.js'
import { mcpServer, type NoExtraHandlers, type Server, type ServerInfo, type ServerOptions } from '../../server/server.js'
import type { RepeatedNames } from '../../contract/sum.js'
import { meosKey, slotsOf, type Codecs, type Slots } from './dispatch.js'
import { metaKeys, type Manifest, type ManifestTool } from './manifest.js'
import { policyOf } from './policy.js'
import { reviewByConfirm, reviewByElicitation, type Confirm, type Review, type Reviewed, type WireArguments } from './review.js'
import { schemaErrors } from './schema-errors.js'
import { dispatchNameOf, withSemossApp } from './semoss.js'
import { missingAppLinks } from '../../features/apps.js'
import { readManifest, type ManifestProblem } from './validate.js'

// ---------------------------------------------------------------------------------------
// model

/** The entries of a manifest type, as a union. */
export type EntryOf<M> = M extends { readonly tools: ReadonlyArray<infer T> } ? T : never

export type { Codecs } from './dispatch.js'

/** Argument -> codec name, from an entry's dispatch metadata (emcp's, or a MEOS manifest's `x-meos.decode`). */
type DispatchArgs<T> = (T extends { readonly _meta: { readonly 'emcp/dispatch': { readonly arguments: infer A } } } ? A : {}) &
  (T extends { readonly 'x-meos': { readonly decode: infer A } } ? A : {})

/** Result property -> codec name, from an entry's dispatch metadata (emcp's, or `x-meos.encode` of the `result` property). */
type DispatchResult<T> = (T extends { readonly _meta: { readonly 'emcp/dispatch': { readonly result: infer R } } } ? R : {}) &
  (T extends { readonly 'x-meos': { readonly encode: infer N extends string } } ? { readonly result: N } : {})

/** The argument type with each argument that names a given codec typed as what the codec decodes to. */
type Decoded<I, A, C> = keyof A extends never
  ? I
  : { [K in keyof I]: K extends keyof A ? (A[K] extends keyof C ? (C[A[K]] extends t.Any ? t.TypeOf<C[A[K]]> : I[K]) : I[K]) : I[K] }

/** The wire codec names a manifest type's dispatch metadata uses. */
type CodecNamesOf<M> = EntryOf<M> extends infer T
  ? T extends unknown
    ? (DispatchArgs<T>[keyof DispatchArgs<T>] | DispatchResult<T>[keyof DispatchResult<T>]) & string
    : never
  : never

/**
 * A manifest that names a wire codec `options.codecs` does not give: a type that says which,
 * required of the handlers (always passed, where options may not be). A manifest read at
 * run time names no codec statically; its codecs are checked at startup.
 */
type CodecsGiven<M, C> = string extends CodecNamesOf<M>
  ? {}
  : [Exclude<CodecNamesOf<M>, keyof C>] extends [never]
    ? {}
    : { readonly 'missing wire codec': `options.codecs has no codec named "${Exclude<CodecNamesOf<M>, keyof C>}"` }

/** The argument type of an input schema; an object of unknown values when the schema is not known statically. */
type ArgsOf<IS> = unknown extends TypeOfSpec<IS> ? { readonly [argument: string]: unknown } : TypeOfSpec<IS>

/** The contract a manifest entry describes: its name, and argument and result types from its schemas (and codecs). */
export type EntryTool<T, C = {}> = T extends { readonly name: infer N extends string; readonly inputSchema: infer IS }
  ? T extends { readonly outputSchema: infer OS }
    ? Tool<N, Decoded<ArgsOf<IS>, DispatchArgs<T>, C>, Decoded<TypeOfSpec<OS>, DispatchResult<T>, C>, true, DefaultedOf<IS>>
    : 'outputSchema' extends keyof T
      ? Tool<N, Decoded<ArgsOf<IS>, DispatchArgs<T>, C>, unknown, boolean, string> // a manifest read at run time: it may or may not have one; its defaults are not known
      : Tool<N, Decoded<ArgsOf<IS>, DispatchArgs<T>, C>, ToolContent, false, DefaultedOf<IS>>
  : never

/** The contracts of a manifest type, as a union. */
export type ManifestTools<M, C = {}> = EntryTool<EntryOf<M>, C>

/** Whether an entry's policy, by either key (SEMOSS's in any case), is `disabled`. */
type IsDisabled<T> = T extends { readonly _meta: { readonly 'emcp/policy': 'disabled' } }
  ? true
  : T extends { readonly _meta: { readonly SMSS_MCP_EXECUTION: infer P extends string } }
    ? Lowercase<P> extends 'disabled' ? true : false
    : false

/**
 * One handler per tool of the manifest, keyed by the name it dispatches to (its
 * `_meta.SMSS_FUNCTION_NAME`, else its own name); tools whose policy is `disabled` may have
 * one (it is never called) or not.
 */
export type ManifestHandlers<M, C = {}> = {
  readonly [T in EntryOf<M> as IsDisabled<T> extends true ? never : DispatchNameOf<T>]: Handler<EntryTool<T, C>>
} & {
  readonly [T in EntryOf<M> as IsDisabled<T> extends true ? DispatchNameOf<T> : never]?: Handler<EntryTool<T, C>>
}

/**
 * Extra handlers are a compile error when the names are known; with a manifest read at run
 * time (names are `string`) a record built at run time fits, and extras fail at startup.
 */
type ExtraHandlers<H, K> = string extends K ? {} : NoExtraHandlers<H, K>

type NameOfEntry<T> = T extends { readonly name: infer N extends string } ? N : never

/**
 * `unknown` when a manifest of a const type lists each name once; otherwise a type with one
 * key that names the repeated tool (`Property '"duplicate tool name: add"' is missing ...`),
 * so that such a manifest does not compile, as a tool list given to `mcpServer` does not. A
 * manifest read at run time (typed `Manifest`) is checked at startup.
 */
export type DistinctNames<M> = M extends { readonly tools: ReadonlyArray<{ readonly name: string }> }
  ? [RepeatedNames<M['tools']>] extends [never]
    ? unknown
    : { readonly [P in `duplicate tool name: ${RepeatedNames<M['tools']>}`]: true }
  : unknown

/** The key of an entry's handler: its `SMSS_FUNCTION_NAME`, else its name. */
export type DispatchNameOf<T> = T extends { readonly _meta: { readonly SMSS_FUNCTION_NAME: infer F extends string } } ? F : NameOfEntry<T>

/** How `fromManifest` builds the server. */
export interface FromManifestOptions extends ServerOptions {
  /** Who the server is; by default the manifest's `_meta["emcp/server"]`. */
  readonly info?: ServerInfo
  /** The wire codecs the manifest's dispatch metadata names, by name. */
  readonly codecs?: Codecs
  /**
   * How the user reviews an `ask` tool's arguments before it runs; by default a form of the
   * arguments, prefilled with the model's proposal (`reviewByElicitation`).
   */
  readonly review?: Review
  /** A yes/no decision instead of a review (a policy engine, an audit log): the arguments run unchanged when it says yes. */
  readonly confirm?: Confirm
  /** Refuse a schema with an unknown keyword (`requird`) rather than warn (default false: manifests are edited by hand and made elsewhere). */
  readonly strict?: boolean
  /** Where warnings go (an unknown keyword, when not `strict`); by default `process.emitWarning`. */
  readonly onWarning?: (message: string) => void
}

// ---------------------------------------------------------------------------------------
// constructors

/**
 * A server from a manifest and one handler per tool. Throws at startup, naming every tool
 * and key that does not fit, when the handlers, the codecs or the manifest disagree.
 */
export function fromManifest<const M extends Manifest, H extends ManifestHandlers<M, C>, const C extends Codecs = {}>(
  manifest: M & NoInfer<DistinctNames<M>>,
  handlers: H & ExtraHandlers<H, DispatchNameOf<EntryOf<M>>> & CodecsGiven<M, C>,
  options: FromManifestOptions & { readonly codecs?: C } = {},
): Server<ManifestTools<M, C>> {
  const built = serverOfManifest(manifest, handlers as unknown as Record<string, unknown>, options)
  if (E.isLeft(built))
    throw new TypeError(`emcp: the manifest does not fit its handlers:\n${built.left.map((p) => `  tool ${p.tool}: ${p.path === '' ? '' : `${p.path}: `}${p.message}`).join('\n')}`)
  return built.right as unknown as Server<ManifestTools<M, C>>
}

/** `fromManifest` with the problems as data: every one, each naming the tool and the key. */
export const serverOfManifest = (
  manifest: unknown,
  handlers: { readonly [name: string]: unknown },
  options: FromManifestOptions = {},
): E.Either<ReadonlyArray<ManifestProblem>, Server> => {
  const read = readManifest(manifest)
  if (E.isLeft(read)) return read
  const m = read.right
  const problems: ManifestProblem[] = []
  const names = new Set(m.tools.map(dispatchNameOf))
  for (const key of Object.keys(handlers))
    if (!names.has(key)) problems.push({ tool: key, path: '', message: `a handler is given, but the manifest has no tool ${key} (it has ${[...names].slice(0, 20).join(', ')}${names.size > 20 ? ', …' : ''})` })
  const tools: RuntimeTool[] = []
  const wrapped: Record<string, Handler<RuntimeTool>> = {}
  const review = options.review ?? (options.confirm === undefined ? reviewByElicitation : reviewByConfirm(options.confirm))
  const declared = declaredByHandler(m.tools)
  for (const entry of m.tools) {
    const policy = policyOf(entry)
    const key = dispatchNameOf(entry)
    const given = handlers[key]
    if (given !== undefined && !isHandler(given)) {
      problems.push({ tool: entry.name, path: '', message: `the handler must be a function, not ${typeof given}` })
      continue
    }
    // a disabled tool is served only once enabled (enableTool): with its handler when one is given
    const handler = given ?? (policy === 'disabled' ? () => toolError(`tool ${entry.name} is disabled by its manifest and has no handler`) : undefined)
    if (handler === undefined) {
      problems.push(
        key === entry.name
          ? { tool: entry.name, path: '', message: 'no handler is given for this tool' }
          : { tool: entry.name, path: '/_meta/SMSS_FUNCTION_NAME', message: `no handler is given for this tool: it dispatches to ${key}, and no handler has that name` },
      )
      continue
    }
    const invalid = schemaErrors(entry)
    if (invalid.length > 0) {
      problems.push(...invalid)
      continue
    }
    const typos = keywordProblems(entry)
    if (options.strict === true) problems.push(...typos)
    else for (const t of typos) (options.onWarning ?? warnProcess)(`emcp: tool ${t.tool}: ${t.path}: ${t.message}`)
    problems.push(...argumentMismatches(entry, given, declared.get(key)))
    const slots = slotsOf(entry, options.codecs ?? {}, problems)
    tools.push(contractOf(entry, slots))
    wrapped[entry.name] = policy === 'ask' ? asking(entry, handler, review, validatorOf(slots.input as SchemaSpec, entry.inputSchema)) : handler
  }
  problems.push(...missingAppLinks(tools, options.apps ?? []).map(({ tool, message }) => ({ tool, path: '/_meta/ui/resourceUri', message })))
  if (problems.length > 0) return E.left(problems)
  const { info, codecs: _codecs, confirm: _confirm, review: _review, strict: _strict, onWarning: _onWarning, ...serverOptions } = options
  const server: Server = mcpServer(tools, info ?? infoOf(m), serverOptions).implement(wrapped)
  server.batch(() => {
    for (const entry of m.tools) if (policyOf(entry) === 'disabled') server.disableTool(entry.name)
  })
  return E.right(server)
}

// ---------------------------------------------------------------------------------------
// internals

const infoOf = (m: Manifest): ServerInfo => {
  const s = m._meta?.[metaKeys.server]
  if (isObject(s) && typeof s.name === 'string' && typeof s.version === 'string')
    return { name: s.name, version: s.version, ...(typeof s.title === 'string' ? { title: s.title } : {}) }
  // a MEOS manifest names its server in the document's x-meos, without a version
  const meos = m[meosKey]
  if (isObject(meos) && typeof meos.server === 'string' && meos.server !== '') return { name: meos.server, version: '0.0.0' }
  return { name: 'manifest', version: '0.0.0' }
}

/** The contract of an entry: its schema slots (with their codecs) and every other field as the manifest has them. */
const contractOf = (entry: ManifestTool, slots: Slots): RuntimeTool => {
  const { inputSchema: _input, outputSchema: _output, _meta, ...rest } = entry
  const meta = withSemossApp(_meta)
  return runtimeToolOf({ ...rest, ...(meta === undefined ? {} : { _meta: meta }), input: slots.input, ...(slots.output === undefined ? {} : { output: slots.output }) }, 'allow')
}

const warnProcess = (message: string): void => process.emitWarning(message, 'EmcpSchemaWarning')

/** A handler given in a record built at run time: any function (its arguments are checked by the tool's schema). */
const isHandler = (u: unknown): u is Handler<RuntimeTool> => typeof u === 'function'

/**
 * Runs the handler only after the user's review, with the arguments the review gives back,
 * decoded and checked against the tool's input schema again. A client that cannot be asked
 * (in either era) gets an `isError` result that says so: an `ask` tool never runs unasked.
 */
const asking =
  (entry: ManifestTool, handler: Handler<RuntimeTool>, review: Review, input: Validator) =>
  async (args: unknown, ctx: ToolContext): Promise<unknown> => {
    // the review shows wire values (a geometry as its text), as the model sent them
    const wire = input.encode(args)
    let reviewed: Reviewed
    try {
      reviewed = await review(entry, (E.isRight(wire) ? wire.right : args) as WireArguments, ctx)
    } catch (e) {
      return toolError(`tool ${entry.name} runs only after the user has reviewed its arguments, and the review could not be done: ${e instanceof Error ? e.message : String(e)}`)
    }
    if (!reviewed.run) return toolError(reviewed.reason)
    const decoded = input.decode(reviewed.arguments)
    if (E.isLeft(decoded)) return toolError(`Invalid arguments for tool ${entry.name}, as the user reviewed them: ${formatIssues(decoded.left)}`)
    if (!isObject(decoded.right)) return toolError(`Invalid arguments for tool ${entry.name}, as the user reviewed them: not an object`)
    const out: HandlerResult<unknown> = handler(decoded.right, ctx)
    return typeof out === 'function' ? (out as () => Promise<unknown>)() : out
  }

/** Per handler key, the argument names the tools dispatching to it declare (undefined: one of them declares any). */
const declaredByHandler = (tools: ReadonlyArray<ManifestTool>): ReadonlyMap<string, ReadonlySet<string> | undefined> => {
  const out = new Map<string, Set<string> | undefined>()
  for (const t of tools) {
    const key = dispatchNameOf(t)
    const props = t.inputSchema.properties
    if (!out.has(key)) out.set(key, new Set())
    const names = out.get(key)
    if (names === undefined || !isObject(props)) out.set(key, undefined)
    else for (const p of Object.keys(props)) names.add(p)
  }
  return out
}

/**
 * The argument names a handler destructures (`({ a, b }) => …`) that the entry's input
 * schema does not declare: in a hand-edited manifest, a key spelt differently from the
 * handler's parameter would otherwise fail silently (the argument would just be missing).
 * A handler several tools dispatch to may read what any of them declares.
 */
const argumentMismatches = (entry: ManifestTool, handler: unknown, shared: ReadonlySet<string> | undefined): ReadonlyArray<ManifestProblem> => {
  if (typeof handler !== 'function' || shared === undefined) return []
  const declared = [...shared]
  return destructuredKeys(handler)
    .filter((k) => !declared.includes(k))
    .map((k) => ({
      tool: entry.name,
      path: `/inputSchema/properties`,
      message: `the handler reads argument "${k}", which the manifest does not declare (it declares ${declared.length === 0 ? 'none' : declared.join(', ')})`,
    }))
}

/** The keys of the first parameter's object pattern, read from the function's source; empty when it has none. */
export const destructuredKeys = (f: Function): ReadonlyArray<string> => {
  const source = Function.prototype.toString.call(f)
  const open = /^[^(=]*\(\s*\{/.exec(source)
  if (open === null) return []
  // the pattern ends at the brace that closes the first one
  let depth = 1
  let i = open[0].length
  for (; i < source.length && depth > 0; i++) {
    const c = source[i]
    if (c === '{' || c === '(' || c === '[') depth++
    else if (c === '}' || c === ')' || c === ']') depth--
  }
  const body = source.slice(open[0].length, i - 1)
  // split on top-level commas only
  const parts: string[] = []
  let level = 0
  let start = 0
  for (let j = 0; j < body.length; j++) {
    const c = body[j]
    if (c === '{' || c === '(' || c === '[') level++
    else if (c === '}' || c === ')' || c === ']') level--
    else if (c === ',' && level === 0) {
      parts.push(body.slice(start, j))
      start = j + 1
    }
  }
  parts.push(body.slice(start))
  const keys: string[] = []
  for (const part of parts) {
    const m = /^\s*(?:([A-Za-z_$][\w$]*)|'([^']*)'|"([^"]*)")/.exec(part)
    if (m !== null && !part.trim().startsWith('...')) keys.push(m[1] ?? m[2] ?? m[3] ?? '')
  }
  return keys
}
