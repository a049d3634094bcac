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
  // most params nest a few levels: a walk bounded by a small constant (so by the stack too)
  // answers them without allocating; only deeper values take the explicit stack
  const cap = Math.min(max, shallowLevels) + 1
  const depth = depthUpTo(u, cap)
  if (depth < cap) return depth > max
  if (cap > max) return true
  return deeperThanWalk(u, max)
}

/** How many levels the quick walk looks down before it hands over to the explicit stack. */
const shallowLevels = 8

/** The nesting depth of `u`, or `cap` when it is at least that (recursion at most `cap` deep). */
const depthUpTo = (u: unknown, cap: number): number => {
  if (typeof u !== 'object' || u === null) return 0
  if (cap <= 1) return 1
  let deepest = 0
  if (Array.isArray(u)) {
    for (let i = 0; i < u.length && deepest < cap - 1; i++) deepest = Math.max(deepest, depthUpTo(u[i], cap - 1))
  } else {
    for (const key in u) {
      deepest = Math.max(deepest, depthUpTo((u as Record<string, unknown>)[key], cap - 1))
      if (deepest >= cap - 1) break
    }
  }
  return 1 + deepest
}

/** `deeperThan` with an explicit stack: each value visited once, stopping at the first past the limit. */
const deeperThanWalk = (u: unknown, max: number): boolean => {
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
