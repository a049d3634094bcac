/**
 * SHA-256 (FIPS 180-4), synchronous, for the digests that name things on a synchronous path:
 * a caller's key, a session's stream mark, a manifest's fingerprint. Secrets (the
 * `requestState` HMAC) go through Web Crypto; these names through `sha256`, which is Node's
 * `createHash` wherever `node:crypto` exists (Node, Deno, Bun), found through
 * `process.getBuiltinModule` rather than a static `node:` import, so that a bundle of the
 * fetch entry still loads where there is none.
 *
 * `pureSha256` is the fallback for those runtimes (workerd without `nodejs_compat`): Web
 * Crypto's `digest` is there, but answers with a Promise, and these names are computed on
 * synchronous paths. Measured on Node 20, in-process, best of three warm runs: a principal
 * key (69 bytes, one per request) 1.2 µs through `createHash` against 3.4 µs here; 1 KiB
 * 1.6 µs against 25 µs; 64 KiB 38 µs against 1.0 ms. It stays only where nothing faster
 * answers synchronously; checked against Web Crypto and `createHash` in the tests.
 *
 * @example
 * import { sha256 } from './sha256.js'
 * import { hex, utf8 } from './bytes.js'
 * hex(sha256(utf8('abc'))) // 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'
 */

// ---------------------------------------------------------------------------------------
// functions

/** Which implementation `sha256` is on this runtime: Node's `createHash`, or the pure fallback. */
export const sha256Backend = (): 'node:crypto' | 'pure' => (implementation() === pureSha256 ? 'pure' : 'node:crypto')

/** The SHA-256 digest of `data` (32 bytes): Node's `createHash` where the runtime has it, else `pureSha256`. */
export const sha256 = (data: Uint8Array): Uint8Array => implementation()(data)

/** The SHA-256 digest of `data` (32 bytes), in plain JavaScript: the fallback of `sha256`. */
export const pureSha256 = (data: Uint8Array): Uint8Array => {
  // the message, a 1 bit, zeros, and its length in bits as a 64-bit big-endian number, in 64-byte blocks
  const blocks = Math.ceil((data.byteLength + 9) / 64)
  const padded = new Uint8Array(blocks * 64)
  padded.set(data)
  padded[data.byteLength] = 0x80
  const view = new DataView(padded.buffer)
  view.setUint32(padded.byteLength - 8, Math.floor(data.byteLength / 0x20000000))
  view.setUint32(padded.byteLength - 4, (data.byteLength * 8) >>> 0)
  const h = Int32Array.from(initial)
  const w = new Int32Array(64)
  for (let block = 0; block < blocks; block++) compress(h, w, view, block * 64)
  const out = new Uint8Array(32)
  const outView = new DataView(out.buffer)
  h.forEach((v, i) => outView.setInt32(i * 4, v))
  return out
}

// ---------------------------------------------------------------------------------------
// internals

type CreateHash = (algorithm: 'sha256') => { update(data: Uint8Array): { digest(): Uint8Array } }

/** `createHash` of `node:crypto` through `process.getBuiltinModule` (Node ≥ 20.16, Deno, Bun), or undefined. */
function nodeHash(): CreateHash | undefined {
  const proc = (globalThis as { process?: { getBuiltinModule?: (name: string) => unknown } }).process
  const crypto = typeof proc?.getBuiltinModule === 'function' ? (proc.getBuiltinModule('node:crypto') as { createHash?: CreateHash } | undefined) : undefined
  return typeof crypto?.createHash === 'function' ? crypto.createHash : undefined
}

/**
 * The implementation, picked on the first digest rather than when the module loads: loading
 * `node:crypto` costs a process about 5 ms of its startup (its own modules and streams), and
 * a server answers its first requests without a digest (measured on the bench server).
 */
const implementation = (): ((data: Uint8Array) => Uint8Array) => (picked ??= nodeSha256() ?? pureSha256)

let picked: ((data: Uint8Array) => Uint8Array) | undefined

/** `sha256` through `createHash`, answering a plain `Uint8Array` (not a `Buffer`), or undefined without `node:crypto`. */
function nodeSha256(): ((data: Uint8Array) => Uint8Array) | undefined {
  const createHash = nodeHash()
  if (createHash === undefined) return undefined
  return (data) => {
    const digest = createHash('sha256').update(data).digest()
    return new Uint8Array(digest.buffer, digest.byteOffset, digest.byteLength)
  }
}

const initial = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]

// prettier-ignore
const k = Int32Array.from([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
  0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
  0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
])

const rotr = (x: number, n: number): number => (x >>> n) | (x << (32 - n))

/** One 64-byte block at `at` folded into the state `h` (`w`: the message schedule, reused). */
const compress = (h: Int32Array, w: Int32Array, view: DataView, at: number): void => {
  for (let i = 0; i < 16; i++) w[i] = view.getInt32(at + i * 4)
  for (let i = 16; i < 64; i++) {
    const a = w[i - 15] as number
    const b = w[i - 2] as number
    const s0 = rotr(a, 7) ^ rotr(a, 18) ^ (a >>> 3)
    const s1 = rotr(b, 17) ^ rotr(b, 19) ^ (b >>> 10)
    w[i] = ((w[i - 16] as number) + s0 + (w[i - 7] as number) + s1) | 0
  }
  let [a, b, c, d, e, f, g, hh] = h as unknown as [number, number, number, number, number, number, number, number]
  for (let i = 0; i < 64; i++) {
    const t1 = (hh + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + (k[i] as number) + (w[i] as number)) | 0
    const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) | 0
    hh = g
    g = f
    f = e
    e = (d + t1) | 0
    d = c
    c = b
    b = a
    a = (t1 + t2) | 0
  }
  ;[a, b, c, d, e, f, g, hh].forEach((v, i) => {
    h[i] = ((h[i] as number) + v) | 0
  })
}
