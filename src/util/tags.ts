/**
 * Tags: labels on tools, prompts, resources and templates that visibility rules select by.
 * They are not part of MCP: a listed entry carries them in its `_meta`, under `emcp/tags`, so
 * that a client (or a mount of this server) can read them too.
 *
 * @example
 * import { tagsOf, withTags } from './tags.js'
 * const meta = withTags(undefined, ['admin']) // { 'emcp/tags': ['admin'] }
 * tagsOf({ name: 'x', _meta: meta })           // ['admin']
 */
import { isObject } from './json-object.js'

/** The `_meta` key a listed entry's tags travel under. */
export const tagsKey = 'emcp/tags'

/** The tags of a listed entry (from its `_meta`). */
export const tagsOf = (entry: unknown): ReadonlyArray<string> => {
  const meta = isObject(entry) ? entry._meta : undefined
  const tags = isObject(meta) ? meta[tagsKey] : undefined
  return Array.isArray(tags) ? tags.filter((t): t is string => typeof t === 'string') : []
}

/** `_meta` with the tags added (unchanged without tags). */
export const withTags = (meta: { readonly [key: string]: unknown } | undefined, tags: ReadonlyArray<string> | undefined): { readonly [key: string]: unknown } | undefined =>
  tags === undefined || tags.length === 0 ? meta : { ...meta, [tagsKey]: [...tags] }

/** Fails unless tags are a list of 1-128 character strings. */
export const checkTags = (what: string, tags: unknown): void => {
  if (tags !== undefined && !(Array.isArray(tags) && tags.every((t) => typeof t === 'string' && t.length > 0 && t.length <= 128)))
    throw new TypeError(`emcp: ${what}: tags must be a list of 1-128 character strings, got ${JSON.stringify(tags).slice(0, 200)}`)
}
