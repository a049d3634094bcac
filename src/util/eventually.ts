/**
 * A value now or later: `A | Promise<A>`. The dispatcher's hot path stays synchronous when
 * a handler returns a plain value, and allocates promises only when something is actually
 * asynchronous; it is internal and not exported from the package.
 *
 * @example
 * import { map } from './eventually.js'
 * map(1, (n) => n + 1)                   // 2
 * map(Promise.resolve(1), (n) => n + 1)  // Promise<2>
 */

// ---------------------------------------------------------------------------------------
// model

/** A value now, or a promise of it. */
export type Eventually<A> = A | Promise<A>

// ---------------------------------------------------------------------------------------
// functions

/** True for anything with a `then` method. */
export const isThenable = (u: unknown): u is PromiseLike<unknown> =>
  typeof u === 'object' && u !== null && typeof (u as PromiseLike<unknown>).then === 'function'

/** Applies `f` now, or when the value arrives. */
export const map = <A, B>(a: Eventually<A>, f: (a: A) => Eventually<B>): Eventually<B> =>
  isThenable(a) ? (a as Promise<A>).then(f) : f(a as A)

/** A promise of the value, resolved at once when it is already here. */
export const toPromise = <A>(a: Eventually<A>): Promise<A> => (isThenable(a) ? (a as Promise<A>) : Promise.resolve(a))

/** Every value of a list of eventual values, in order; synchronous when all are. */
export const all = <A>(xs: ReadonlyArray<Eventually<A>>): Eventually<ReadonlyArray<A>> =>
  xs.some(isThenable) ? Promise.all(xs) : (xs as ReadonlyArray<A>)
