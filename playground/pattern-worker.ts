/**
 * The playground's pattern tester, run as a Worker (served as `__emcp/pattern-worker.js`):
 * it tests a value against a schema's `pattern` off the page's thread, so that a pattern
 * that backtracks for seconds (`(a+)+$`) costs the page nothing; patterns.ts stops it when a
 * test runs too long. Answers `true`/`false`, or `null` for a pattern the browser cannot
 * compile (left to the server).
 *
 * @example
 * const w = new Worker(new URL('pattern-worker.js', import.meta.url))
 * w.postMessage({ pattern: '^[a-z]+$', value: 'abc' }) // answers true
 */

/** What the page asks: one value against one pattern. */
interface PatternTest {
  readonly pattern: string
  readonly value: string
}

const scope = globalThis as unknown as { onmessage: ((e: MessageEvent<PatternTest>) => void) | null; postMessage: (answer: boolean | null | 'ready') => void }

scope.onmessage = (e) => {
  let re: RegExp
  try {
    re = new RegExp(e.data.pattern, 'u')
  } catch {
    return scope.postMessage(null)
  }
  scope.postMessage(re.test(e.data.value))
}
// the page starts its clock once the worker has started, not while the browser loads it
scope.postMessage('ready')
