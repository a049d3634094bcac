import { createHash } from 'node:crypto'
import { describe, expect, it, vi } from 'vitest'
import { base64, base64url, fromBase64, fromBase64url, hex, joinUtf8, utf8 } from '../../src/util/bytes.js'
import { pureSha256, sha256, sha256Backend } from '../../src/util/sha256.js'

describe('util/sha256', () => {
  it('gives the FIPS 180-4 test vectors', () => {
    expect(hex(sha256(utf8('abc')))).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad')
    expect(hex(sha256(utf8('')))).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855')
  })

  it('agrees with Web Crypto and node:crypto at every length around a block boundary, and on 1 MB, in both implementations', async () => {
    for (const n of [0, 1, 55, 56, 63, 64, 65, 119, 120, 127, 128, 1000, 1 << 20]) {
      const data = new Uint8Array(n).map((_, i) => (i * 131 + n) & 255)
      const web = hex(new Uint8Array(await crypto.subtle.digest('SHA-256', data)))
      expect(hex(sha256(data)), `length ${n}`).toBe(web)
      expect(hex(pureSha256(data)), `length ${n}, pure`).toBe(web)
      expect(web).toBe(createHash('sha256').update(data).digest('hex'))
    }
  })

  it("is Node's createHash where the runtime has node:crypto, answering a plain Uint8Array", () => {
    expect(sha256Backend()).toBe('node:crypto')
    const digest = sha256(utf8('abc'))
    expect(Object.getPrototypeOf(digest)).toBe(Uint8Array.prototype)
    expect(digest.byteLength).toBe(32)
  })

  it('falls back to the pure implementation on a runtime without process.getBuiltinModule (workerd)', async () => {
    const proc = globalThis.process as { getBuiltinModule?: unknown }
    const kept = proc.getBuiltinModule
    vi.resetModules()
    proc.getBuiltinModule = undefined
    try {
      const fresh = await import('../../src/util/sha256.js')
      expect(fresh.sha256Backend()).toBe('pure')
      expect(hex(fresh.sha256(utf8('abc')))).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad')
    } finally {
      proc.getBuiltinModule = kept
      vi.resetModules()
    }
  })
})

describe('util/bytes', () => {
  it('writes and reads base64 and base64url as Buffer does', () => {
    const data = new Uint8Array(70_000).map((_, i) => (i * 7) & 255)
    expect(base64(data)).toBe(Buffer.from(data).toString('base64'))
    expect(base64url(data)).toBe(Buffer.from(data).toString('base64url'))
    expect(fromBase64url(base64url(data))).toEqual(data)
    expect(fromBase64(base64(data))).toEqual(data)
  })

  it('refuses text that is not base64 rather than skipping characters', () => {
    expect(fromBase64url('ab*c')).toBeUndefined()
    expect(fromBase64url('ab+c')).toBeUndefined()
    expect(fromBase64('a')).toBeUndefined()
  })

  it('joins UTF-8 chunks split inside a character', () => {
    const bytes = utf8('héllo → 世界')
    expect(joinUtf8([bytes.subarray(0, 2), bytes.subarray(2, 9), bytes.subarray(9)])).toBe('héllo → 世界')
  })
})
