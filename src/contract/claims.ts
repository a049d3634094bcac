/**
 * Claim-bound arguments: a tool argument filled from a claim of the caller's token instead
 * of by the model. A contract names them (`claims: { userId: 'sub' }`, or a path into nested
 * claims: `{ org: ['org', 'id'] }`); the argument leaves the schema clients are shown, stays
 * in the one the handler's arguments meet, and is typed for the handler but not for callers.
 * This module checks the declaration and splits the schema, once, where the tool is defined;
 * server/claims.ts fills the arguments on each call.
 *
 * @example
 * import { emcp } from 'emcp'
 * const orders = emcp({
 *   name: 'orders',
 *   description: 'The caller’s orders.',
 *   input: { type: 'object', properties: { userId: { type: 'string' }, limit: { type: 'integer' } }, required: ['userId'] },
 *   claims: { userId: 'sub' },
 * })
 * orders.inputSchema // { type: 'object', properties: { limit: { type: 'integer' } } }: userId is not shown
 */
import type { JsonSchema } from '../schema/schema.js'

// ---------------------------------------------------------------------------------------
// model

/** Where a claim-bound argument comes from: a top-level claim's name (taken as it is, dots and all), or a path of names into nested claims (1 to 8). */
export type ClaimPath = string | readonly [string, ...string[]]

/** The claim-bound arguments of a tool: argument name -> claim. */
export type ClaimMap = { readonly [argument: string]: ClaimPath }

/** The property names an argument type spells out, without index signatures (of every member, for a union). */
type KeysOf<I> = I extends unknown ? keyof { [K in keyof I as string extends K ? never : number extends K ? never : K]: 0 } : never

/**
 * `CL` when every key names a property of the arguments `I`; otherwise the map with a
 * message in place of each claim whose argument does not exist (`NoInfer`: `CL` is inferred
 * from the first branch alone). Arguments whose properties are not known (`any`, only an
 * index signature) pass: they are checked when the tool is defined.
 */
export type CheckedClaims<CL, I> = {} extends CL
  ? CL // no claims (nearly every tool): the arguments' keys are never computed (one relation test, cheaper than testing `keyof CL`)
  : [Exclude<keyof CL, KeysOf<I>>] extends [never]
    ? CL
    : [KeysOf<I>] extends [never]
      ? CL
      : NoInfer<{ readonly [K in keyof CL]: K extends KeysOf<I> ? CL[K] : `claim-bound argument '${K & string}' is not a property of the input schema` }>

/** The input schemas of a tool with claim-bound arguments: the one clients are shown, and the whole one the handler's arguments meet. */
export interface ClaimSchemas {
  readonly shown: JsonSchema
  readonly whole: JsonSchema
}

// ---------------------------------------------------------------------------------------
// functions

/** The longest claim path accepted: nested claims deeper than this are not looked into. */
export const maxClaimDepth = 8

/**
 * Checks a tool's `claims` against its (object-rooted) input schema and splits the schema;
 * a problem is a `TypeError` naming the tool, thrown where the tool is defined.
 */
export const claimSchemas = (tool: string, claims: unknown, inputSchema: JsonSchema): ClaimSchemas => {
  const fail = (why: string): never => {
    throw new TypeError(`emcp: tool ${tool}: claims: ${why}`)
  }
  if (typeof claims !== 'object' || claims === null || Array.isArray(claims)) return fail('must be an object of argument name -> claim name (or path)')
  const properties = inputSchema.properties
  const bound = Object.keys(claims)
  if (bound.length === 0) return fail('names no argument')
  for (const [argument, claim] of Object.entries(claims as { readonly [key: string]: unknown })) {
    if (typeof properties !== 'object' || properties === null || !Object.hasOwn(properties, argument))
      fail(`${JSON.stringify(argument)} is not a property of the input schema`)
    const path = typeof claim === 'string' ? [claim] : claim
    if (!Array.isArray(path) || path.length === 0 || path.length > maxClaimDepth || !path.every((p) => typeof p === 'string' && p !== ''))
      fail(`the claim of ${JSON.stringify(argument)} must be a claim name or a path of 1 to ${maxClaimDepth} names, got ${JSON.stringify(claim)?.slice(0, 200)}`)
  }
  const shownProperties = Object.fromEntries(Object.entries(properties as object).filter(([k]) => !bound.includes(k)))
  const required = Array.isArray(inputSchema.required) ? (inputSchema.required as ReadonlyArray<string>).filter((k) => !bound.includes(k)) : undefined
  const { required: _all, ...rest } = inputSchema
  const shown: JsonSchema = { ...rest, properties: shownProperties, ...(required === undefined || required.length === 0 ? {} : { required }) }
  return { shown, whole: inputSchema }
}

/** The claim a path names in a claim set, or undefined when any step is missing (or not an object). */
export const claimAt = (claims: { readonly [key: string]: unknown } | undefined, path: ClaimPath): unknown => {
  let at: unknown = claims
  for (const name of typeof path === 'string' ? [path] : path) {
    if (typeof at !== 'object' || at === null || Array.isArray(at) || !Object.hasOwn(at, name)) return undefined
    at = (at as { readonly [key: string]: unknown })[name]
  }
  return at
}

/** The slots of a contract for its input: `inputSchema` (what clients are shown) and, with claims, the whole schema and the claims. */
export const inputSlots = (
  tool: string,
  claims: unknown,
  inputSchema: JsonSchema,
): { readonly inputSchema: JsonSchema; readonly wholeInputSchema?: JsonSchema; readonly claims?: ClaimMap } => {
  if (claims === undefined) return { inputSchema }
  const { shown, whole } = claimSchemas(tool, claims, inputSchema)
  return { inputSchema: shown, wholeInputSchema: whole, claims: Object.freeze({ ...(claims as ClaimMap) }) }
}
