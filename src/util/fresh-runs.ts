/**
 * One run of an asynchronous check per key, shared by the callers who asked before it began:
 * a caller never gets the answer of a run that began before it asked, for that answer may
 * predate a change the caller must see (a session deleted on another replica, and the
 * deletion's answer already given). A caller who asks while a run is in flight waits for the
 * next run, which begins when that one ends and answers everyone who asked meanwhile: per
 * key, at most one run in flight and one waiting, however many callers.
 *
 * @example
 * import { freshRuns } from './fresh-runs.js'
 * const read = async (id: string): Promise<boolean> => id.length > 3 // a store read, in real use
 * const exists = freshRuns(read)
 * await exists('abcd') // true, from a run begun after this call
 */

/** `run`, shared per key among the callers who asked before it began. */
export const freshRuns = <K, A>(run: (key: K) => Promise<A>): ((key: K) => Promise<A>) => {
  const running = new Map<K, Promise<A>>()
  const waiting = new Map<K, Promise<A>>()
  const begin = (key: K): Promise<A> => {
    const settled: Promise<A> = started(run, key).finally(() => {
      if (running.get(key) === settled) running.delete(key)
    })
    running.set(key, settled)
    return settled
  }
  return (key) => {
    const next = waiting.get(key)
    if (next !== undefined) return next
    const current = running.get(key)
    if (current === undefined) return begin(key)
    const after = current.then(ignore, ignore).then(() => {
      waiting.delete(key)
      return begin(key)
    })
    waiting.set(key, after)
    return after
  }
}

// ---------------------------------------------------------------------------------------
// internals

/** `run(key)`, a throw turned into a rejection. */
const started = <K, A>(run: (key: K) => Promise<A>, key: K): Promise<A> => {
  try {
    return run(key)
  } catch (e) {
    return Promise.reject(e)
  }
}

const ignore = (): void => undefined
