/**
 * Client input as an error message may quote it: whole when short, else its first
 * characters and its length. A message that echoed a 4 MB tool name would cost 4 MB again
 * in the answer, and once more in every place the answer is kept (an SSE event store); a
 * prefix names the culprit just as well.
 *
 * @example
 * import { clip } from './clip.js'
 * clip('add')                // 'add'
 * clip('x'.repeat(10_000))   // 'xxx…xxx… (10000 characters)' — the first 128 characters, then the length
 */

// ---------------------------------------------------------------------------------------
// model

/** The most characters of client input an error message quotes (a valid tool name, 1-128 characters, is always whole). */
export const clipLength = 128

// ---------------------------------------------------------------------------------------
// functions

/** `text` when it has at most `max` characters, else its first `max` (a surrogate pair is not split), `…`, and its length. */
export const clip = (text: string, max: number = clipLength): string => {
  if (text.length <= max) return text
  // a high surrogate at the cut would leave half a character
  const code = text.charCodeAt(max - 1)
  const end = code >= 0xd800 && code <= 0xdbff ? max - 1 : max
  return `${text.slice(0, end)}… (${text.length} characters)`
}


/** A client's value as a message may quote it: a clipped JSON string, a number, boolean or null as is, anything else by its kind only (never serialised: it may be huge or 100 000 deep). */
export const shown = (u: unknown, max: number = clipLength): string =>
  typeof u === 'string'
    ? JSON.stringify(clip(u, max))
    : u === null || typeof u === 'number' || typeof u === 'boolean'
      ? String(u)
      : `(${Array.isArray(u) ? 'an array' : typeof u === 'object' ? 'an object' : typeof u})`
