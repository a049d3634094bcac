/**
 * Prompts: message templates a client offers its user (often as slash commands). A `prompt`
 * declares its arguments as a literal; `get` receives them typed (a required argument is a
 * `string`, any other `string | undefined`) and returns the messages: a string (one user
 * text message), one message, a list, or the whole result, with any content block (text,
 * image, audio, resource link, embedded resource). `prompts([...])` is both the feature the
 * server plugs in (`prompts/list`, `prompts/get`, completion of arguments) and a handle to
 * add and remove prompts at run time.
 *
 * @example
 * import { emcp, mcpServer, prompt, prompts } from 'emcp'
 * const review = prompt({
 *   name: 'review',
 *   description: 'Review a piece of code.',
 *   arguments: { code: { description: 'The code', required: true }, focus: { description: 'What to look at' } },
 *   get: ({ code, focus }) => `Review this code${focus === undefined ? '' : `, looking at ${focus}`}:\n${code}`,
 *   complete: { focus: (value) => ['performance', 'security', 'style'].filter((f) => f.startsWith(value)) },
 * })
 * const noop = emcp({ name: 'noop', description: 'Does nothing.', input: { type: 'object' } })
 * mcpServer([noop], { name: 'p', version: '1' }, { features: [prompts([review])] }).implement({ noop: () => 'ok' })
 */
import * as E from 'fp-ts/lib/Either.js'
import { clip } from '../util/clip.js'
import type { ContentBlock } from '../contract/content.js'
import type { ToolContext } from '../server/context.js'
import type { Icon } from '../contract/emcp.js'
import type { TypeOfSpec } from '../schema/schema.js'
import { map, type Eventually } from '../util/eventually.js'
import type { Completion, CompletionRequest, Feature, FeatureFactory } from '../server/feature.js'
import type { Hub } from '../server/hub.js'
import { rpcError, type Request, type RpcError } from '../protocol/jsonrpc.js'
import { completeWith, type Completer } from './completion.js'
import { argumentsOf, checkArguments, validArguments } from './prompt-arguments.js'
import type { ShapeType, StandardShape } from '../schema/standard/shape.js'
import type { InferInput, InferOutput, StandardSchemaV1 } from '../schema/standard/spec.js'
import { runWithContext } from '../server/context.js'
import { hubsOf } from '../server/hub.js'
import { checkMeta, isObject, stripUndefined } from '../util/json-object.js'
import { checkPageSize, pageAt, pageIndex, pagesOf } from '../server/pages.js'
import { registry } from '../server/registry.js'
import { checkScopes, isScoped, scopeRefusal, scopesHeld } from '../server/scopes.js'
import type { Session } from '../server/session.js'
import { checkTags, withTags } from '../util/tags.js'

// ---------------------------------------------------------------------------------------
// model

/** How a prompt declares one argument. */
export interface PromptArgumentSpec {
  /** A short human-readable name. */
  readonly title?: string
  /** What the argument is for. */
  readonly description?: string
  /** Whether `prompts/get` must carry it (default false). */
  readonly required?: boolean
}

/** A prompt's arguments, by name. */
export type PromptArgumentsSpec = { readonly [name: string]: PromptArgumentSpec }

/**
 * What `arguments` may be: declarations by name, a Standard Schema of an object of strings, a
 * raw shape of string schemas (`{ code: z.string() }`), or a JSON Schema literal of an object
 * (TypeBox's `Type.Object`).
 */
export type PromptArguments = PromptArgumentsSpec | StandardSchemaV1 | ObjectLiteral | StandardShape

/**
 * The arguments `get` receives: a schema's output (a shape's, property by property; a
 * literal's static type); else a required argument is a `string`, any other optional.
 */
export type PromptArgs<A> = A extends StandardSchemaV1
  ? InferOutput<A>
  : A extends ObjectLiteral
    ? ObjectLiteral extends A
      ? { readonly [name: string]: unknown } // the constraint itself, while the compiler infers A: not walked
      : TypeOfSpec<A>
    : A extends StandardShape
      ? ShapeType<A, 'output'>
      : A extends unknown
        ? Flat<RequiredArgs<A> & OptionalArgs<A>>
        : never

/** The names of a prompt's arguments (a schema's input properties). */
type ArgumentNames<A> = A extends StandardSchemaV1 ? keyof InferInput<A> : A extends ObjectLiteral ? keyof A['properties'] : keyof A

/**
 * `unknown` for arguments that are one form; for an object mixing schemas with declarations
 * (`{ name: z.string(), note: { description: '...' } }`), which is neither a raw shape nor
 * declarations, a message saying what to pass, in place of `arguments`.
 */
export type CheckedArguments<A> = [A] extends [StandardSchemaV1 | ObjectLiteral | StandardShape]
  ? unknown
  : true extends { [K in keyof A]: A[K] extends { readonly '~standard': unknown } ? true : never }[keyof A]
    ? { readonly arguments: 'arguments mixes schemas with declarations: make every value a Standard Schema (a raw shape, { name: z.string() }) or every one a declaration { description?, required? }' }
    : unknown

/** A JSON Schema literal of an object with properties, as prompt arguments (a declaration's values are objects, never the string `"object"`). */
export interface ObjectLiteral {
  readonly type: 'object'
  readonly properties: { readonly [name: string]: object }
}

/** One message of a prompt. */
export interface PromptMessage {
  readonly role: 'user' | 'assistant'
  readonly content: ContentBlock
}

/** The result of `prompts/get`. */
export interface GetPromptResult {
  /** Defaults to the prompt's description. */
  readonly description?: string
  readonly messages: ReadonlyArray<PromptMessage>
  readonly _meta?: { readonly [key: string]: unknown }
}

/** What `get` returns: a string (one user text message), one message, a list, or the result. */
export type PromptResult = string | PromptMessage | ReadonlyArray<PromptMessage> | GetPromptResult

/** What `get` sees: the same context a tool handler gets. */
export type PromptContext = ToolContext

/** An argument as `prompts/list` describes it on the wire. */
export interface ListedPromptArgument {
  readonly name: string
  readonly title?: string
  readonly description?: string
  readonly required?: boolean
}

/** A prompt as `prompts/list` describes it on the wire. */
export interface ListedPrompt {
  readonly name: string
  readonly title?: string
  readonly description?: string
  readonly arguments?: ReadonlyArray<ListedPromptArgument>
  readonly icons?: ReadonlyArray<Icon>
  readonly _meta?: { readonly [key: string]: unknown }
}

/** What `prompt` takes; `N` is the name, `A` the argument declaration. */
export interface PromptDef<N extends string, A extends PromptArguments> {
  /** The prompt's name, unique within the server. */
  readonly name: N
  /** A short human-readable name. */
  readonly title?: string
  /** What the prompt does. */
  readonly description?: string
  readonly icons?: ReadonlyArray<Icon>
  readonly _meta?: { readonly [key: string]: unknown }
  /** The arguments, by name (`required: true` makes one mandatory), a raw shape of string schemas, or a Standard Schema (or JSON Schema literal, TypeBox's) of an object of string properties. */
  readonly arguments?: A
  /** Builds the messages from the arguments (checked: none missing, none unknown). */
  readonly get: (args: NoInfer<PromptArgs<A>>, ctx: PromptContext) => Eventually<PromptResult>
  /** Completers for the arguments (`completion/complete` with a `ref/prompt`). */
  readonly complete?: NoInfer<{ readonly [K in ArgumentNames<A>]?: Completer<PromptArgs<A>> }>
  /** OAuth scopes a caller's token must grant, all of them, to see the prompt, get it and complete its arguments (not listed). */
  readonly scopes?: ReadonlyArray<string>
  /** Labels for visibility rules (a mount's `include`, `exclude`); listed in `_meta` under `emcp/tags`. */
  readonly tags?: ReadonlyArray<string>
}

/** A prompt (`Prompt` alone: any prompt, whatever its arguments). */
export interface Prompt<N extends string = string, A extends PromptArguments = any> extends PromptDef<N, A> {
  readonly kind: 'prompt'
}

/** Any prompt; its arguments were checked where it was defined. */
export type AnyPrompt = Prompt<string>

/** `unknown` for a list of prompts with distinct names; otherwise a message naming a duplicate. */
export type CheckedPrompts<L extends ReadonlyArray<AnyPrompt>> = [DuplicateNames<L>] extends [never]
  ? unknown
  : `duplicate prompt name: ${DuplicateNames<L> & string}`

/** How `prompts` behaves. */
export interface PromptsOptions {
  /** Prompts per `prompts/list` page; all in one when absent. */
  readonly pageSize?: number
}

/** The prompts feature: plug it into a server, then add and remove prompts. */
export interface PromptsFeature extends FeatureFactory {
  /** Serves one more prompt and sends `notifications/prompts/list_changed`; a taken name is a `TypeError`. */
  readonly add: (p: AnyPrompt) => void
  /** Stops serving a prompt and sends `notifications/prompts/list_changed`; false when there was none. */
  readonly remove: (name: string) => boolean
  /** Lists and serves a disabled prompt again (a name of no prompt is a `TypeError`). */
  readonly enable: (name: string) => void
  /** Keeps a prompt declared but neither listed nor served, until enabled again. */
  readonly disable: (name: string) => void
  /** Runs `changes` (add, remove, enable, disable): clients are told once, when it returns. */
  readonly batch: (changes: () => void) => void
  /** What is declared now (enabled or not), in order. */
  readonly list: () => ReadonlyArray<AnyPrompt>
}

// ---------------------------------------------------------------------------------------
// constructors

/** A prompt; `get` receives the arguments typed from the declaration (write it inline or `as const`). */
export const prompt = <const N extends string, const A extends PromptArguments = {}>(def: PromptDef<N, A> & CheckedArguments<A>): Prompt<N, A> => {
  checkMeta(`prompt ${String(def.name)}`, def)
  checkTags(`prompt ${String(def.name)}`, def.tags)
  if (typeof def.get !== 'function') throw new TypeError(`emcp: prompt ${def.name}: get must be a function`)
  const made = Object.freeze({ ...def, kind: 'prompt' as const })
  // a schema's arguments are derived (and refused) now, when the prompt is made, not on the first list
  const declared = argumentsOf(made, def.name, def.arguments).spec
  if (!isObject(declared))
    throw new TypeError(`emcp: prompt ${def.name}: arguments must be an object of argument declarations, a Standard Schema, a raw shape of them or a JSON Schema of an object`)
  for (const [name, spec] of Object.entries(declared)) {
    if (name === '') throw new TypeError(`emcp: prompt ${def.name}: an argument name must not be empty`)
    if (!isObject(spec) || (spec.required !== undefined && typeof spec.required !== 'boolean'))
      throw new TypeError(`emcp: prompt ${def.name}: argument ${name} must be { description?, required?: boolean }`)
  }
  for (const name of Object.keys(def.complete ?? {}))
    if (!Object.hasOwn(declared, name)) throw new TypeError(`emcp: prompt ${def.name}: complete names ${name}, which is not one of its arguments`)
  checkScopes(`prompt ${def.name}`, def.scopes)
  return made
}

/**
 * The feature serving a list of prompts. A name given twice does not compile (and is a
 * `TypeError` for lists built at run time). The result is also the handle: `add`, `remove`.
 */
export const prompts = <const L extends ReadonlyArray<AnyPrompt>>(list: L & CheckedPrompts<L>, options: PromptsOptions = {}): PromptsFeature => {
  checkPageSize(options.pageSize)
  const hubs = hubsOf()
  // list pages and the index by name change with the registry, never per request
  const reg = registry(checkUnique(list), {
    noun: 'prompt',
    keyOf: (p) => p.name,
    derive: (enabled) => {
      const wire = enabled.map(listed)
      // with scoped prompts each caller sees its own list, paged per request from the listed forms
      const scoped = enabled.some(isScoped) ? enabled.map((p, i) => ({ p, wire: wire[i] as ListedPrompt })) : undefined
      return { byName: new Map(enabled.map((p) => [p.name, p])), pages: pagesOf('prompts', wire, options.pageSize), scoped }
    },
    changed: () => hubs.broadcast('notifications/prompts/list_changed'),
  })

  const listPrompts = (req: Request, session: Session): E.Either<RpcError, unknown> => {
    const page = pageIndex('prompts/list', 'prompts', req.params?.cursor)
    if (E.isLeft(page)) return page
    const { pages, scoped } = reg.view()
    const seen = scoped === undefined ? pages : pagesOf('prompts', scoped.filter((x) => scopesHeld(x.p, session)).map((x) => x.wire), options.pageSize)
    return pageAt('prompts/list', seen, page.right, req.params?.cursor)
  }

  const get = (req: Request, session: Session): Eventually<E.Either<RpcError, unknown>> => {
    const name = req.params?.name
    if (typeof name !== 'string') return E.left(rpcError('InvalidParams', 'prompts/get: params.name must be a string'))
    const p = reg.view().byName.get(name)
    if (p === undefined) return E.left(rpcError('InvalidParams', `Unknown prompt: ${clip(name)}`, { name: clip(name) }))
    const refused = scopeRefusal(`prompt ${name}`, p, session)
    if (refused !== undefined) return E.left(refused)
    const args = req.params?.arguments ?? {}
    if (!isObject(args)) return E.left(rpcError('InvalidParams', `prompts/get: prompt ${name}: params.arguments must be an object of strings`))
    const of = argumentsOf(p, p.name, p.arguments)
    const checked = checkArguments(p.name, of.spec, args)
    if (E.isLeft(checked)) return checked
    // checked above: only declared arguments, every one a string; a schema's library has the last word
    return map(validArguments(p.name, of, args), (valid) =>
      E.isLeft(valid) ? valid : map(runWithContext(req, session, (ctx) => p.get(valid.right as never, ctx)), (r) => getResult(p, r)),
    )
  }

  const complete = (request: CompletionRequest, session: Session): Eventually<Completion | RpcError> | undefined => {
    const { ref } = request
    if (ref.type !== 'ref/prompt') return undefined
    const p = reg.view().byName.get(ref.name)
    if (p === undefined) return undefined
    return scopeRefusal(`prompt ${p.name}`, p, session) ?? completeWith(p.complete, request)
  }

  const factory = (hub: Hub): Feature => {
    hubs.add(hub)
    return {
      capabilities: { prompts: { listChanged: true } },
      methods: { 'prompts/list': listPrompts, 'prompts/get': get },
      complete,
    }
  }

  return Object.assign(factory, {
    add: (p: AnyPrompt): void => {
      checkUnique([...reg.list(), p])
      reg.add(p)
    },
    remove: reg.remove,
    enable: (name: string): void => reg.setEnabled(name, true),
    disable: (name: string): void => reg.setEnabled(name, false),
    batch: reg.batch,
    list: reg.list,
  })
}

// ---------------------------------------------------------------------------------------
// internals

/** One object type, so that editors and errors show its keys rather than an intersection. */
type Flat<T> = T extends unknown ? { [K in keyof T]: T[K] } : never

type RequiredArgs<A> = { readonly [K in keyof A as A[K] extends { readonly required: true } ? K : never]: string }

type OptionalArgs<A> = { readonly [K in keyof A as A[K] extends { readonly required: true } ? never : K]?: string }

/** Each position of the list paired with its prompt's name. */
type Entries<L extends ReadonlyArray<AnyPrompt>> = { [I in keyof L]: { n: L[I]['name']; i: I } }[number]

/** Name -> union of the positions that carry it. */
type PositionsByName<L extends ReadonlyArray<AnyPrompt>> = { [X in Entries<L> as X['n']]: X['i'] }

type IsUnion<U, A = U> = U extends unknown ? ([A] extends [U] ? false : true) : never

/** The names that occur more than once in the list. */
type DuplicateNames<L extends ReadonlyArray<AnyPrompt>, P = PositionsByName<L>> = {
  [K in keyof P]: true extends IsUnion<P[K]> ? K : never
}[keyof P]

const roles = new Set(['user', 'assistant'])
const contentTypes = new Set(['text', 'image', 'audio', 'resource_link', 'resource'])

const checkUnique = (list: ReadonlyArray<AnyPrompt>): ReadonlyArray<AnyPrompt> => {
  const seen = new Set<string>()
  const problems: string[] = []
  for (const p of list) {
    if (p?.kind !== 'prompt') problems.push(`${JSON.stringify(p)} is not a prompt (build prompts with prompt())`)
    else if (seen.has(p.name)) problems.push(`duplicate prompt name: ${p.name}`)
    else seen.add(p.name)
  }
  if (problems.length > 0) throw new TypeError(`emcp: invalid prompt list: ${problems.join('; ')}`)
  return [...list]
}

const listed = (p: AnyPrompt): ListedPrompt => {
  const args = Object.entries(argumentsOf(p, p.name, p.arguments).spec).map(([name, a]) =>
    stripUndefined({ name, title: a.title, description: a.description, required: a.required }),
  )
  return stripUndefined({
    name: p.name,
    title: p.title,
    description: p.description,
    arguments: args.length === 0 ? undefined : args,
    icons: p.icons,
    _meta: withTags(p._meta, p.tags),
  })
}

const isMessage = (u: unknown): u is PromptMessage =>
  isObject(u) && roles.has(u.role as string) && isObject(u.content) && contentTypes.has(u.content.type as string)

/** What `get` returned as a `GetPromptResult`; anything else is -32603 saying what was wrong. */
const getResult = (p: AnyPrompt, r: PromptResult): E.Either<RpcError, GetPromptResult> => {
  const result: { readonly description?: string; readonly messages: unknown; readonly _meta?: unknown } =
    typeof r === 'string'
      ? { messages: [{ role: 'user', content: { type: 'text', text: r } }] }
      : Array.isArray(r)
        ? { messages: r }
        : isObject(r) && 'messages' in r
          ? (r as GetPromptResult)
          : { messages: [r] }
  const messages = result.messages
  if (!Array.isArray(messages) || !messages.every(isMessage))
    return E.left(
      rpcError(
        'InternalError',
        `prompts/get: prompt ${p.name} returned something that is not messages ({ role: 'user' | 'assistant', content: a text, image, audio, resource_link or resource block })`,
      ),
    )
  const description = result.description ?? p.description
  return E.right((description === undefined ? result : { ...result, description }) as GetPromptResult)
}
