/**
 * Transforms of a mounted tool: rename it; change its title, description, annotations or
 * tags; hide an argument behind a fixed or computed value; give an argument a default; keep
 * only some keys of its structured result. The part's handler runs unchanged: the transform
 * edits what clients are shown and the call on its way in and out. Its types follow: a hidden
 * argument leaves `ArgsOf` and the input schema, a defaulted one becomes optional, a rename
 * changes the name type, a pick narrows the result type.
 *
 * @example
 * import { emcp, mcpServer, mount, mounted } from 'emcp'
 * const charge = emcp({
 *   name: 'charge',
 *   description: 'Charge an amount.',
 *   input: { type: 'object', properties: { amount: { type: 'number' }, currency: { type: 'string' } }, required: ['amount', 'currency'] },
 * })
 * const billing = mcpServer([charge], { name: 'billing', version: '1' }).implement({ charge: ({ amount, currency }) => `${amount} ${currency}` })
 * const shop = mount([mounted(billing, 'billing', { tools: { charge: { name: 'pay', hide: { currency: 'EUR' } } } })], { name: 'shop', version: '1' })
 * // shop's tool: billing_pay, whose arguments are { amount: number }
 */
import type { CallToolResult } from '../contract/content.js'
import type { AnyTool, sameAsHandler, StandardWire, Tool, ToolAnnotations } from '../contract/emcp.js'
import type { JsonSchema } from '../schema/schema.js'
import type { Identity, Session } from '../server/session.js'
import { isObject } from '../util/json-object.js'

// ---------------------------------------------------------------------------------------
// model

/** What a computed hidden value may read: the caller's session and identity. */
export interface TransformContext {
  readonly session: Readonly<Session>
  /** Who is calling (`session.identity`); undefined when anonymous. */
  readonly identity: Identity | undefined
  /** The caller's token claims (`identity.claims`), `{}` when there are none. */
  readonly claims: { readonly [claim: string]: unknown }
}

/** A fixed value of an argument, or how to compute it for each call. */
export type HiddenValue<V> = V | ((ctx: TransformContext) => V)

/** What may change of one tool `T` of a mounted server. */
export interface ToolTransform<T extends AnyTool = AnyTool> {
  /** The tool's new name (before the namespace). */
  readonly name?: string
  readonly title?: string
  readonly description?: string
  /** Replaces the tool's annotations. */
  readonly annotations?: ToolAnnotations
  /** Replaces the tool's tags (see visibility). */
  readonly tags?: ReadonlyArray<string>
  /** Arguments clients no longer see nor send, each filled with a constant or a value computed per call. */
  readonly hide?: { readonly [K in keyof T['_I']]?: HiddenValue<T['_I'][K]> }
  /** Defaults: the arguments become optional for clients and are filled when left out. */
  readonly defaults?: { readonly [K in keyof T['_I']]?: T['_I'][K] }
  /** The keys of the structured result clients get (an object output schema); the rest is dropped. */
  readonly pick?: ReadonlyArray<keyof T['_O'] & string>
}

/** Transforms by the tool's name in the mounted server (before the namespace). */
export type Transforms<U extends AnyTool> = { readonly [T in U as T['name']]?: ToolTransform<T> }

/** The keys of `Tr[F]`, when `Tr` has that field. */
type KeysAt<Tr, F extends string> = Tr extends { readonly [P in F]: infer H } ? keyof H & string : never

/** `A` without the keys `H`, with the keys `D` optional. */
type Reshaped<A, H extends string, D extends string> = [H | D] extends [never]
  ? A
  : { [K in keyof A as K extends H | D ? never : K]: A[K] } & { [K in keyof A as K extends D ? (K extends H ? never : K) : never]?: A[K] }

/** The result `O` narrowed to the picked keys of `Tr`. */
type Picked<O, Tr> = Tr extends { readonly pick: ReadonlyArray<infer K> } ? Pick<O, K & keyof O> : O

/** What callers see of a Standard Schema slot after the transform. */
type WireAfter<W, Tr, H extends string, D extends string> =
  W extends StandardWire<infer A, infer R>
    ? StandardWire<[A] extends [typeof sameAsHandler] ? A : Reshaped<A, H, D>, [R] extends [typeof sameAsHandler] ? R : Picked<R, Tr>>
    : W

/** The tool `T` after the transform `Tr`. */
export type Transformed<T extends AnyTool, Tr> =
  T extends Tool<infer N, infer I, infer O, infer S, infer D, infer C, infer A, infer W>
    ? Tool<
        Tr extends { readonly name: infer M extends string } ? M : N,
        [KeysAt<Tr, 'hide'>] extends [never] ? I : Omit<I, KeysAt<Tr, 'hide'>>,
        Picked<O, Tr>,
        S,
        D | KeysAt<Tr, 'defaults'>,
        C,
        A,
        WireAfter<W, Tr, KeysAt<Tr, 'hide'>, KeysAt<Tr, 'defaults'>>
      >
    : never

/** Every tool of `U`, each transformed by its entry in `X`, if any. */
export type TransformedAll<U extends AnyTool, X> = [keyof X] extends [never] ? U : U extends AnyTool ? (U['name'] extends keyof X ? Transformed<U, X[U['name']]> : U) : never

// ---------------------------------------------------------------------------------------
// functions

/** The listed input schema after hiding and defaulting arguments. */
export const inputAfter = (schema: JsonSchema, t: ToolTransform): JsonSchema => {
  const hidden = Object.keys(t.hide ?? {})
  const defaults = Object.entries(t.defaults ?? {})
  if (hidden.length === 0 && defaults.length === 0) return schema
  const properties: Record<string, unknown> = { ...(isObject(schema.properties) ? schema.properties : {}) }
  for (const k of hidden) delete properties[k]
  for (const [k, v] of defaults) if (isObject(properties[k])) properties[k] = { ...properties[k], default: v }
  const gone = new Set([...hidden, ...defaults.map(([k]) => k)])
  const required = Array.isArray(schema.required) ? (schema.required as ReadonlyArray<string>).filter((k) => !gone.has(k)) : undefined
  return { ...schema, properties, ...(required === undefined ? {} : { required }) }
}

/** The listed output schema after a pick. */
export const outputAfter = (schema: JsonSchema | undefined, t: ToolTransform): JsonSchema | undefined => {
  if (t.pick === undefined || schema === undefined) return schema
  const keep = new Set(t.pick)
  const properties = Object.fromEntries(Object.entries(isObject(schema.properties) ? schema.properties : {}).filter(([k]) => keep.has(k)))
  const required = Array.isArray(schema.required) ? (schema.required as ReadonlyArray<string>).filter((k) => keep.has(k)) : undefined
  return { ...schema, properties, ...(required === undefined ? {} : { required }) }
}

/** The arguments the part's handler gets: the client's, hidden ones set (whatever the client sent), defaults filled. */
export const argumentsAfter = (args: { readonly [k: string]: unknown }, t: ToolTransform, session: Session): { readonly [k: string]: unknown } => {
  const out: Record<string, unknown> = { ...args }
  for (const [k, v] of Object.entries(t.defaults ?? {})) if (out[k] === undefined) out[k] = v
  if (t.hide !== undefined) {
    const ctx: TransformContext = { session, identity: session.identity, claims: session.identity?.claims ?? {} }
    for (const [k, v] of Object.entries(t.hide)) out[k] = typeof v === 'function' ? (v as (c: TransformContext) => unknown)(ctx) : v
  }
  return out
}

/** A result after a pick: the structured content, and its text block, narrowed to the picked keys. */
export const resultAfter = (r: CallToolResult, t: ToolTransform): CallToolResult => {
  if (t.pick === undefined || r.isError === true || !isObject(r.structuredContent)) return r
  const sc = r.structuredContent
  const kept = Object.fromEntries(t.pick.filter((k) => k in sc).map((k) => [k, sc[k]]))
  return { ...r, structuredContent: kept, content: [{ type: 'text', text: JSON.stringify(kept) }] }
}

/** Fails unless a transform names only keys a tool's schemas have. */
export const checkTransform = (tool: AnyTool, t: ToolTransform, server: string): void => {
  const props = isObject(tool.inputSchema.properties) ? tool.inputSchema.properties : {}
  for (const k of [...Object.keys(t.hide ?? {}), ...Object.keys(t.defaults ?? {})])
    if (!(k in props)) throw new TypeError(`emcp: mount: tool ${tool.name} of ${server} has no argument ${k} to hide or default`)
  if (t.pick !== undefined) {
    const out = tool.outputSchema
    if (out === undefined || out.type !== 'object') throw new TypeError(`emcp: mount: tool ${tool.name} of ${server} has no object output schema to pick from`)
  }
}
