/**
 * Small checks on JSON objects shared by the protocol modules. Internal.
 *
 * @example
 * import { isObject, stripUndefined } from './json-object.js'
 * isObject({ a: 1 }) // true
 * stripUndefined({ a: 1, b: undefined }) // { a: 1 }
 */
import type { Params } from './jsonrpc.js'

// ---------------------------------------------------------------------------------------
// functions

/** True for a JSON object (not null, not an array). */
export const isObject = (u: unknown): u is Params => typeof u === 'object' && u !== null && !Array.isArray(u)

/** True for an array (read-only to whoever asks). */
export const isReadonlyArray = (u: unknown): u is ReadonlyArray<unknown> => Array.isArray(u)

/** Drops the keys whose value is undefined (they must not reach the wire as nulls). */
export const stripUndefined = <A extends object>(o: A): A =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as A

/** Fails unless the common metadata (name, title, description) has the right types. */
export const checkMeta = (what: string, def: { readonly name?: unknown; readonly title?: unknown; readonly description?: unknown }): void => {
  if (typeof def.name !== 'string' || def.name === '') throw new TypeError(`emcp: ${what}: name must be a non-empty string`)
  for (const key of ['title', 'description'] as const)
    if (def[key] !== undefined && typeof def[key] !== 'string') throw new TypeError(`emcp: ${what}: ${key} must be a string`)
}
