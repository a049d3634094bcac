/**
 * A value made on its first use, then kept. A module's top level runs at every start of a
 * server, before its first answer, whether or not the value is ever read: a table or a tool
 * contract that only some servers use (tool search, a protocol era's tables) is cheaper made
 * when first asked for. The value is made once, by the first caller; a `make` that throws is
 * tried again by the next call, so a failure is never kept.
 *
 * @example
 * import { once } from './once.js'
 * const table = once(() => new Map([['a', 1]]))
 * table().get('a') // 1, and table() === table()
 */

/** `make` called on the first call only; every call gets its result (the same value). */
export const once = <A>(make: () => A): (() => A) => {
  let made: { readonly value: A } | undefined
  return () => (made ??= { value: make() }).value
}
