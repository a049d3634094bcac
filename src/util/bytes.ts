/**
 * Bytes and text without Node's `Buffer`: UTF-8 through `TextEncoder`/`TextDecoder`, base64
 * and base64url through `btoa`/`atob`. Every runtime emcp serves on (Node, Deno, Bun,
 * workerd without `nodejs_compat`) has these globals; `Buffer` only Node and Bun have.
 *
 * @example
 * import { base64url, fromBase64url, utf8 } from './bytes.js'
 * base64url(utf8('emcp'))          // 'ZW1jcA'
 * fromBase64url('ZW1jcA')          // Uint8Array of 'emcp', or undefined for malformed text
 */
import { trimRuns } from './trim-runs.js'

// ---------------------------------------------------------------------------------------
// functions

const encoder = new TextEncoder()
const decoder = new TextDecoder()

/** The UTF-8 bytes of `text`. */
export const utf8 = (text: string): Uint8Array<ArrayBuffer> => encoder.encode(text)

/** `bytes` read as UTF-8 (a malformed sequence becomes U+FFFD, as `Buffer#toString` does). */
export const fromUtf8 = (bytes: Uint8Array): string => decoder.decode(bytes)

/** The chunks of a body as one text: one allocation of the whole, then one decode. */
export const joinUtf8 = (chunks: ReadonlyArray<Uint8Array>): string => {
  if (chunks.length === 1) return decoder.decode(chunks[0])
  const all = new Uint8Array(chunks.reduce((n, c) => n + c.byteLength, 0))
  let at = 0
  for (const c of chunks) {
    all.set(c, at)
    at += c.byteLength
  }
  return decoder.decode(all)
}

/** `bytes` as padded base64. */
export const base64 = (bytes: Uint8Array): string => {
  // String.fromCharCode takes its arguments on the stack: a chunk at a time keeps large blobs safe
  let binary = ''
  for (let i = 0; i < bytes.byteLength; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000))
  return btoa(binary)
}

/** `bytes` as unpadded base64url (RFC 4648 §5). */
export const base64url = (bytes: Uint8Array): string => trimRuns(base64(bytes).replace(/\+/g, '-').replace(/\//g, '_'), '=', 'end')

/** The bytes of padded or unpadded base64; undefined when `text` is not base64. */
export const fromBase64 = (text: string): Uint8Array | undefined => {
  let binary: string
  try {
    binary = atob(text)
  } catch {
    return undefined
  }
  const bytes = new Uint8Array(binary.length)
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i)
  return bytes
}

/** The bytes of base64url text (padding optional); undefined when it is not base64url. */
export const fromBase64url = (text: string): Uint8Array | undefined =>
  /^[A-Za-z0-9_-]*={0,2}$/.test(text) ? fromBase64(text.replace(/-/g, '+').replace(/_/g, '/')) : undefined

/** The bytes as lowercase hex. */
export const hex = (bytes: Uint8Array): string => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')
