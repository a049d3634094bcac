/**
 * Canonical JSON and fingerprints. A fingerprint is the SHA-256 of a value's canonical JSON
 * (object keys sorted, no whitespace), so it does not change when a file is re-indented or
 * its keys reordered, and changes whenever anything a client sees changes. The text is that
 * of RFC 8785 (JCS): keys sorted by UTF-16 code units, numbers and strings as ECMAScript's
 * JSON.stringify writes them; NaN and the infinities, which JSON cannot carry, are refused.
 *
 * @example
 * import { canonicalJson, fingerprint } from 'emcp/manifest'
 * canonicalJson({ b: 1, a: [true, null] }) // '{"a":[true,null],"b":1}'
 * fingerprint({ a: 1 }) === fingerprint({ a: 1 }) // true; 'sha256:…'
 */
import { hex, utf8 } from '../../util/bytes.js'
import { sha256 } from '../../util/sha256.js'

/** The canonical JSON text of a value: keys sorted at every level, `undefined` members left out. */
export const canonicalJson = (value: unknown): string => {
  if (value === null || typeof value !== 'object') {
    // JSON.stringify would write null, and two different values would share one text
    if (typeof value === 'number' && !Number.isFinite(value)) throw new TypeError(`emcp: ${value} is not JSON`)
    const s = JSON.stringify(value)
    if (s === undefined) throw new TypeError(`emcp: ${typeof value} is not JSON`)
    return s
  }
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? 'null' : canonicalJson(v))).join(',')}]`
  const o = value as { readonly [key: string]: unknown }
  const keys = Object.keys(o)
    .filter((k) => o[k] !== undefined)
    .sort()
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(o[k])}`).join(',')}}`
}

/** `sha256:` and the hex SHA-256 of the value's canonical JSON. */
export const fingerprint = (value: unknown): string => `sha256:${hex(sha256(utf8(canonicalJson(value))))}`
