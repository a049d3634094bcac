/**
 * How deeply a client's JSON nests, found without recursion: a request whose parameters nest
 * deeper than the server's `maxDepth` is refused before anything walks them (a digest, a
 * validator, a handler's own code), so no walk can overflow the stack. Internal.
 *
 * @example
 * import { deeperThan } from './json-depth.js'
 * deeperThan({ a: [1] }, 2) // false: the object, then the array
 * deeperThan({ a: [[1]] }, 2) // true
 */

// ---------------------------------------------------------------------------------------
// functions

/** The default limit: far deeper than any tool's arguments, far shallower than the stack. */
export const defaultMaxDepth = 512

/**
 * True when `u` holds arrays and objects nested more than `max` deep (`u` itself, when it is
 * one, counts as 1). Visits each value once, with an explicit stack; stops at the first value
 * past the limit.
 */
export const deeperThan = (u: unknown, max: number): boolean => {
  const values: unknown[] = [u]
  const depths: number[] = [0]
  while (values.length > 0) {
    const v = values.pop()
    const d = depths.pop() as number
    if (typeof v !== 'object' || v === null) continue
    if (d + 1 > max) return true
    const children = Array.isArray(v) ? v : Object.values(v)
    for (const c of children)
      if (typeof c === 'object' && c !== null) {
        values.push(c)
        depths.push(d + 1)
      }
  }
  return false
}
