/**
 * The `pattern` checks of a form, each in a Worker (pattern-worker.ts) with a time limit: a
 * schema's pattern is the server's text and the value is the user's, and a backtracking
 * pattern (`(a+)+$` on 28 characters) would otherwise freeze the tab for seconds or hours.
 * Why a Worker rather than an analysis of the pattern: only another thread can be stopped,
 * whatever the pattern does (exponential or polynomial, `(a+)+$` or `.*.*.*x` on 10 000
 * characters), and a safe pattern is always checked. A test that runs past `patternTimeMs`
 * is stopped (the worker is ended, a new one serves the next test) and its pattern is not
 * checked again on this page: the field gets a visible note instead of a verdict, the form
 * may be sent, and the server checks the pattern as it always does.
 *
 * @example
 * const { problems, notes } = await checkPatterns([{ path: 'code', pattern: '^[A-Z]{3}$', value: 'abc' }])
 * // problems: [{ path: 'code', message: 'must match ^[A-Z]{3}$' }]; notes: []
 */
import type { Problem } from './validate.js'

/** One value to test against one pattern, and the field it came from. */
export interface PatternCheck {
  readonly path: string
  readonly pattern: string
  readonly value: string
}

/** The verdicts: a problem for each value that does not match, a note for each pattern not checked. */
export interface PatternVerdicts {
  readonly problems: ReadonlyArray<Problem>
  readonly notes: ReadonlyArray<Problem>
}

/** How long one pattern test may run in the worker, in milliseconds. */
export const patternTimeMs = 1000

/** Tests each value against its pattern, one after the other, each within `patternTimeMs`. */
export const checkPatterns = async (checks: ReadonlyArray<PatternCheck>): Promise<PatternVerdicts> => {
  const problems: Problem[] = []
  const notes: Problem[] = []
  for (const c of checks) {
    const verdict = slow.has(c.pattern) ? 'slow' : await test(c)
    if (verdict === false) problems.push({ path: c.path, message: `must match ${c.pattern}` })
    else if (verdict === 'slow') notes.push({ path: c.path, message: slowNote })
    else if (verdict === 'no-worker') notes.push({ path: c.path, message: 'pattern not checked here (this browser runs no workers); the server checks it' })
  }
  return { problems, notes }
}

// ---------------------------------------------------------------------------------------
// internals

const slowNote = `pattern not checked here: testing it took more than ${patternTimeMs} ms (it backtracks); the server checks it`

/** Patterns that ran out of time once: never tested again on this page. */
const slow = new Set<string>()

/** The worker serving tests, started on first use and replaced when one is stopped. */
let current: Promise<Worker> | undefined

const started = (): Promise<Worker> => {
  current ??= new Promise<Worker>((resolve, reject) => {
    const w = new Worker(new URL('pattern-worker.js', import.meta.url))
    // a worker whose script never arrives must not hold the form forever
    const timer = setTimeout(() => {
      w.terminate()
      reject(new Error('the pattern worker did not start'))
    }, startTimeMs)
    w.onmessage = () => {
      clearTimeout(timer)
      resolve(w)
    }
    w.onerror = (e) => {
      clearTimeout(timer)
      reject(new Error(e.message))
    }
  })
  return current
}

/** How long the worker may take to start before the patterns go unchecked (the server checks them). */
const startTimeMs = 10_000

/** One test: the verdict, null for a pattern the browser cannot compile, or why there is none. */
const test = async (c: PatternCheck): Promise<boolean | null | 'slow' | 'no-worker'> => {
  let w: Worker
  try {
    w = await started()
  } catch {
    current = undefined
    return 'no-worker'
  }
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      // the worker is stuck in the pattern: end it; the next test gets a new one
      w.terminate()
      current = undefined
      slow.add(c.pattern)
      resolve('slow')
    }, patternTimeMs)
    w.onmessage = (e: MessageEvent<boolean | null>) => {
      clearTimeout(timer)
      resolve(e.data)
    }
    w.postMessage({ pattern: c.pattern, value: c.value })
  })
}
