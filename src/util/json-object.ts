/**
 * Small checks on JSON objects shared by the protocol modules. Internal.
 *
 * @example
 * import { isObject, stripUndefined } from './json-object.js'
 * isObject({ a: 1 }) // true
 * stripUndefined({ a: 1, b: undefined }) // { a: 1 }
 */
import type { Params } from '../protocol/jsonrpc.js'

// ---------------------------------------------------------------------------------------
// functions

/** True for a JSON object (not null, not an array). */
export const isObject = (u: unknown): u is Params => typeof u === 'object' && u !== null && !Array.isArray(u)

/** True for an array (read-only to whoever asks). */
export const isReadonlyArray = (u: unknown): u is ReadonlyArray<unknown> => Array.isArray(u)

/** Drops the keys whose value is undefined (they must not reach the wire as nulls). */
export const stripUndefined = <A extends object>(o: A): A => {
  // a loop rather than fromEntries(entries(...).filter(...)): this runs for every listed tool, with no pair arrays
  const out: Record<string, unknown> = {}
  for (const key of Object.keys(o)) {
    const value = (o as Record<string, unknown>)[key]
    if (value === undefined) continue
    // a "__proto__" key (JSON.parse makes one) stays data, as fromEntries keeps it
    if (key === '__proto__') Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true })
    else out[key] = value
  }
  return out as A
}

/**
 * The `x-` extension fields of an object (as OpenAPI spells them, and MEOS manifests their
 * `x-meos`), in code-unit order of their keys. A tool carries them to `tools/list` and to
 * its manifest; clients ignore what they do not know.
 */
export const extensionFields = (o: object): { readonly [key: `x-${string}`]: unknown } => {
  const out: Record<string, unknown> = {}
  for (const key of Object.keys(o).filter((k) => k.startsWith('x-')).sort()) {
    const value = (o as Record<string, unknown>)[key]
    if (value !== undefined) out[key] = value
  }
  return out
}

/** Fails unless the common metadata (name, title, description) has the right types. */
export const checkMeta = (what: string, def: { readonly name?: unknown; readonly title?: unknown; readonly description?: unknown }): void => {
  if (typeof def.name !== 'string' || def.name === '') throw new TypeError(`emcp: ${what}: name must be a non-empty string`)
  for (const key of ['title', 'description'] as const)
    if (def[key] !== undefined && typeof def[key] !== 'string') throw new TypeError(`emcp: ${what}: ${key} must be a string`)
}
