/**
 * JSON pointers (RFC 6901): a reference token escaped for a path, and the value a pointer
 * names in a document, as issue paths and local `$ref`s use them. Internal.
 *
 * @example
 * import { escapeToken, resolvePointer } from './json-pointer.js'
 * escapeToken('a/b~c')                                   // 'a~1b~0c'
 * resolvePointer({ $defs: { n: { type: 'number' } } }, '/$defs/n') // { type: 'number' }
 */
import { isObject } from './json-object.js'

// ---------------------------------------------------------------------------------------
// functions

/** A key as one token of a pointer: `~` and `/` escaped. */
export const escapeToken = (key: string): string => key.replace(/~/g, '~0').replace(/\//g, '~1')

/**
 * The value a pointer (`''` or `/a/b`, tokens percent-decoded as in a `$ref` fragment) names
 * in a document, or undefined. An array index is digits without leading zeros.
 */
export const resolvePointer = (doc: unknown, pointer: string): unknown => {
  if (pointer === '') return doc
  let v: unknown = doc
  for (const raw of pointer.slice(1).split('/')) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~')
    if (Array.isArray(v)) v = /^(0|[1-9]\d*)$/.test(key) ? v[Number(key)] : undefined
    else if (isObject(v)) v = v[key]
    else return undefined
    if (v === undefined) return undefined
  }
  return v
}
