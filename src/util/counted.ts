/**
 * A count and its noun, in the right number: what every message that counts things prints,
 * so that no message says "1 tools".
 *
 * @example
 * import { counted } from './counted.js'
 * counted(1, 'tool') // '1 tool'
 * counted(3, 'tool') // '3 tools'
 * counted(2, 'entry', 'entries') // '2 entries'
 */

/** `n` and `noun`, plural when `n` is not 1. */
export const counted = (n: number, noun: string, plural = `${noun}s`): string => `${n} ${n === 1 ? noun : plural}`
