/**
 * Import: a manifest becomes a server. With a manifest of a const type (a module that
 * exports it `as const`, e.g. written by `emcp manifest --format ts`), the handler record is
 * checked by the compiler: a missing or extra handler, or an argument name the schema does
 * not declare, does not compile. At run time (a JSON file read at startup) the same checks
 * run before the server is built, and fail naming the tool and the key. Each tool's
 * execution policy (`_meta["emcp/policy"]`) is honoured: `disabled` tools are declared but
 * neither listed nor callable, `ask` tools run only after the user confirms.
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
import type { Handler, HandlerResult } from '../call.js'
import { toolError, type ToolContent } from '../content.js'
import type { ToolContext } from '../context.js'
import { emcp, type AnyTool, type Tool } from '../emcp.js'
import type { DefaultedOf } from '../fast-schema.js'
import { isObject } from '../json-object.js'
import { withSchema, type JsonSchema, type TypeOfSpec } from '../schema.js'
import { MissingClientCapability } from '../protocol/input-required.js'
import { mcpServer, type NoExtraHandlers, type Server, type ServerInfo, type ServerOptions } from '../server.js'
import type { RepeatedNames } from '../sum.js'
import { metaKeys, policyOf, type Manifest, type ManifestTool } from './manifest.js'
import { readManifest, type ManifestProblem } from './validate.js'

// ---------------------------------------------------------------------------------------
// model

/** The entries of a manifest type, as a union. */
export type EntryOf<M> = M extends { readonly tools: ReadonlyArray<infer T> } ? T : never

/** Wire codecs by name, as `fromManifest` takes them. */
export type Codecs = { readonly [name: string]: t.Type<any, string, unknown> }

/** Argument -> codec name, from an entry's dispatch metadata. */
type DispatchArgs<T> = T extends { readonly _meta: { readonly 'emcp/dispatch': { readonly arguments: infer A } } } ? A : {}

/** The argument type with each argument that names a given codec typed as what the codec decodes to. */
type Decoded<I, A, C> = keyof A extends never
  ? I
  : { [K in keyof I]: K extends keyof A ? (A[K] extends keyof C ? (C[A[K]] extends t.Any ? t.TypeOf<C[A[K]]> : I[K]) : I[K]) : I[K] }

/** The wire codec names a manifest type's dispatch metadata uses. */
type CodecNamesOf<M> = EntryOf<M> extends infer T ? (T extends unknown ? DispatchArgs<T>[keyof DispatchArgs<T>] & string : never) : never

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
    ? Tool<N, Decoded<ArgsOf<IS>, DispatchArgs<T>, C>, TypeOfSpec<OS>, true, DefaultedOf<IS>>
    : 'outputSchema' extends keyof T
      ? Tool<N, Decoded<ArgsOf<IS>, DispatchArgs<T>, C>, unknown, boolean, DefaultedOf<IS>> // a manifest read at run time: it may or may not have one
      : Tool<N, Decoded<ArgsOf<IS>, DispatchArgs<T>, C>, ToolContent, false, DefaultedOf<IS>>
  : never

/** The contracts of a manifest type, as a union. */
export type ManifestTools<M, C = {}> = EntryTool<EntryOf<M>, C>

type IsDisabled<T> = T extends { readonly _meta: { readonly 'emcp/policy': 'disabled' } } ? true : false

/**
 * One handler per tool of the manifest, keyed by name; tools whose policy is `disabled`
 * may have one (it is never called) or not.
 */
export type ManifestHandlers<M, C = {}> = {
  readonly [T in EntryOf<M> as IsDisabled<T> extends true ? never : NameOfEntry<T>]: Handler<EntryTool<T, C>>
} & {
  readonly [T in EntryOf<M> as IsDisabled<T> extends true ? NameOfEntry<T> : never]?: Handler<EntryTool<T, C>>
}

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

/** Asks the user whether an `ask` tool may run with these arguments. */
export type Confirm = (tool: ManifestTool, args: unknown, ctx: ToolContext) => Promise<boolean>

/** How `fromManifest` builds the server. */
export interface FromManifestOptions extends ServerOptions {
  /** Who the server is; by default the manifest's `_meta["emcp/server"]`. */
  readonly info?: ServerInfo
  /** The wire codecs the manifest's dispatch metadata names, by name. */
  readonly codecs?: Codecs
  /** How `ask` tools get the user's confirmation; by default an elicitation (see `confirmByElicitation`). */
  readonly confirm?: Confirm
}

// ---------------------------------------------------------------------------------------
// constructors

/**
 * A server from a manifest and one handler per tool. Throws at startup, naming every tool
 * and key that does not fit, when the handlers, the codecs or the manifest disagree.
 */
export function fromManifest<const M extends Manifest, H extends ManifestHandlers<M, C>, const C extends Codecs = {}>(
  manifest: M & NoInfer<DistinctNames<M>>,
  handlers: H & NoExtraHandlers<H, NameOfEntry<EntryOf<M>>> & CodecsGiven<M, C>,
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
  const names = new Set(m.tools.map((t) => t.name))
  for (const key of Object.keys(handlers))
    if (!names.has(key)) problems.push({ tool: key, path: '', message: `a handler is given, but the manifest has no tool ${key} (it has ${[...names].slice(0, 20).join(', ')}${names.size > 20 ? ', …' : ''})` })
  const tools: AnyTool[] = []
  const wrapped: Record<string, unknown> = {}
  const confirm = options.confirm ?? confirmByElicitation
  for (const entry of m.tools) {
    const policy = policyOf(entry)
    const handler = handlers[entry.name]
    if (handler === undefined && policy !== 'disabled') {
      problems.push({ tool: entry.name, path: '', message: 'no handler is given for this tool' })
      continue
    }
    if (handler !== undefined && typeof handler !== 'function') {
      problems.push({ tool: entry.name, path: '', message: `the handler must be a function, not ${typeof handler}` })
      continue
    }
    problems.push(...argumentMismatches(entry, handler))
    const input = inputOf(entry, options.codecs ?? {}, problems)
    tools.push(contractOf(entry, input))
    wrapped[entry.name] =
      policy === 'disabled'
        ? // served only once enabled (enableTool): with its handler when one is given
          (handler ?? (() => toolError(`tool ${entry.name} is disabled by its manifest and has no handler`)))
        : policy === 'ask'
          ? asking(entry, handler as Handler<AnyTool>, confirm)
          : handler
  }
  if (problems.length > 0) return E.left(problems)
  const { info, codecs: _codecs, confirm: _confirm, ...serverOptions } = options
  const server = mcpServer(tools as unknown as readonly [AnyTool], info ?? infoOf(m), serverOptions).implement(wrapped as never) as Server
  for (const entry of m.tools) if (policyOf(entry) === 'disabled') server.disableTool(entry.name)
  return E.right(server)
}

/**
 * The default confirmation of an `ask` tool: an elicitation with one yes/no field. A
 * 2025-11-25 client gets `elicitation/create`; a 2026-07-28 client gets an `input_required`
 * result and its retry carries the answer (the server needs `requestState` then). A client
 * that cannot elicit gets an error; the tool does not run.
 */
export const confirmByElicitation: Confirm = async (tool, args, ctx) => {
  const answer = await ctx.elicit({
    message: `Allow the tool "${tool.title ?? tool.name}" to run with these arguments?\n${JSON.stringify(args, null, 2)}`,
    requestedSchema: {
      type: 'object',
      properties: { allow: { type: 'boolean', title: `Run ${tool.name}`, description: tool.description ?? '' } },
      required: ['allow'],
    },
  })
  return answer.action === 'accept' && answer.content.allow === true
}

// ---------------------------------------------------------------------------------------
// internals

const infoOf = (m: Manifest): ServerInfo => {
  const s = m._meta?.[metaKeys.server]
  if (isObject(s) && typeof s.name === 'string' && typeof s.version === 'string')
    return { name: s.name, version: s.version, ...(typeof s.title === 'string' ? { title: s.title } : {}) }
  return { name: 'manifest', version: '0.0.0' }
}

/** The contract of an entry: its schemas and every other field as the manifest has them. */
const contractOf = (entry: ManifestTool, input: JsonSchema | t.Any): AnyTool => {
  const { inputSchema, outputSchema, ...rest } = entry
  const def: Record<string, unknown> = { ...rest, input }
  if (outputSchema !== undefined) def.output = outputSchema
  // a definition built at run time: emcp checks it as it runs
  return emcp(def as never) as unknown as AnyTool
}

/**
 * The input slot: the schema itself, or, when the dispatch metadata names wire codecs, an
 * object codec that validates against the schema and then decodes those arguments.
 */
const inputOf = (entry: ManifestTool, codecs: Codecs, problems: ManifestProblem[]): JsonSchema | t.Any => {
  const dispatch = entry._meta?.[metaKeys.dispatch]
  const args = isObject(dispatch) && isObject(dispatch.arguments) ? (dispatch.arguments as Record<string, string>) : undefined
  if (args === undefined) return entry.inputSchema
  const byArg: Record<string, t.Type<any, string, unknown>> = {}
  for (const [arg, name] of Object.entries(args)) {
    const codec = codecs[name]
    if (codec === undefined)
      problems.push({ tool: entry.name, path: `/_meta/${metaKeys.dispatch}/arguments/${arg}`, message: `no wire codec named ${name} is given (pass it in options.codecs)` })
    else byArg[arg] = codec
  }
  const props = t.partial(byArg)
  const codec = new t.Type<Record<string, unknown>, Record<string, unknown>, unknown>(
    `${entry.name} arguments`,
    (u): u is Record<string, unknown> => isObject(u),
    (u, c) => {
      if (!isObject(u)) return t.failure(u, c, 'must be an object')
      const decoded = props.validate(u, c)
      return E.isRight(decoded) ? t.success({ ...u, ...decoded.right }) : decoded
    },
    (a) => ({ ...a, ...props.encode(a) }),
  )
  return withSchema(codec, entry.inputSchema)
}

/** Runs the handler only once `confirm` says yes. */
const asking =
  (entry: ManifestTool, handler: Handler<AnyTool>, confirm: Confirm) =>
  async (args: unknown, ctx: ToolContext): Promise<unknown> => {
    let allowed: boolean
    try {
      allowed = await confirm(entry, args, ctx)
    } catch (e) {
      // a 2026 client that cannot answer gets the protocol's own error, as for any other question
      if (e instanceof MissingClientCapability) throw e
      return toolError(`tool ${entry.name} needs the user's confirmation, which could not be asked: ${e instanceof Error ? e.message : String(e)}`)
    }
    if (!allowed) return toolError(`the user did not allow tool ${entry.name} to run`)
    const out: HandlerResult<unknown> = handler(args, ctx)
    return typeof out === 'function' ? (out as () => Promise<unknown>)() : out
  }

/**
 * The argument names a handler destructures (`({ a, b }) => …`) that the entry's input
 * schema does not declare: in a hand-edited manifest, a key spelt differently from the
 * handler's parameter would otherwise fail silently (the argument would just be missing).
 */
const argumentMismatches = (entry: ManifestTool, handler: unknown): ReadonlyArray<ManifestProblem> => {
  if (typeof handler !== 'function') return []
  const props = entry.inputSchema.properties
  if (!isObject(props)) return []
  const declared = Object.keys(props)
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
