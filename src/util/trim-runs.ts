/**
 * Trimming runs of one character from the ends of a text, in linear time. An anchored regex
 * such as `/=+$/` or `/^-+|-+$/g` backtracks quadratically on a long run followed by another
 * character (the ReDoS check in test/hardening/redos.test.ts refuses them), so these walk the
 * ends once instead.
 *
 * @example
 * import { trimRuns } from './trim-runs.js'
 * trimRuns('--my-server--', '-') // 'my-server'
 * trimRuns('abc==', '=', 'end') // 'abc'
 */

/** `text` without the runs of `char` (one UTF-16 unit) at its start and end, or at its end only. */
export const trimRuns = (text: string, char: string, ends: 'both' | 'end' = 'both'): string => {
  let start = 0
  let end = text.length
  if (ends === 'both') while (start < end && text[start] === char) start++
  while (end > start && text[end - 1] === char) end--
  return text.slice(start, end)
}
