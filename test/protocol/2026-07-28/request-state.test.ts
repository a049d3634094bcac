import { describe, expect, it } from 'vitest'
import * as E from 'fp-ts/lib/Either.js'
import { digestOf, requestStates } from '../../../src/protocol/2026-07-28/request-state.js'

const payload = { method: 'tools/call', digest: 'd1', answers: [{ action: 'accept', content: { a: 1 } }], pending: ['roots/list'], keys: ['roots'] }

/** A Web Crypto HMAC key, as a platform's secret store would hand one over. */
const cryptoKey = (text: string, usages: KeyUsage[] = ['sign', 'verify']): Promise<CryptoKey> =>
  crypto.subtle.importKey('raw', new TextEncoder().encode(text), { name: 'HMAC', hash: 'SHA-256' }, false, usages)

describe('protocol/request-state', () => {
  it('opens what it sealed', async () => {
    const s = requestStates({ key: 'sixteen bytes at least' })
    expect(await s.open(await s.seal(payload))).toEqual(E.right(payload))
  })

  it('refuses a state with any byte changed', async () => {
    const s = requestStates({ key: 'sixteen bytes at least' })
    const sealed = await s.seal(payload)
    for (const i of [0, 5, sealed.indexOf('.') + 3, sealed.length - 1]) {
      const c = sealed[i] === 'A' ? 'B' : 'A'
      expect(E.isLeft(await s.open(sealed.slice(0, i) + c + sealed.slice(i + 1))), `byte ${i}`).toBe(true)
    }
    expect(E.isLeft(await s.open(42))).toBe(true)
    expect(E.isLeft(await s.open(''))).toBe(true)
  })

  it('refuses another spelling of the same signature (unused bits of the last character, stray characters)', async () => {
    const s = requestStates({ key: 'sixteen bytes at least' })
    const sealed = await s.seal(payload)
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'
    // 32 bytes of HMAC are 43 characters: the last one carries 4 bits and 2 unused ones
    const last = alphabet.indexOf(sealed[sealed.length - 1] as string)
    const respelled = sealed.slice(0, -1) + alphabet[last ^ 1]
    expect(Buffer.from(respelled.split('.')[1] as string, 'base64url')).toEqual(Buffer.from(sealed.split('.')[1] as string, 'base64url'))
    expect(E.isLeft(await s.open(respelled))).toBe(true)
    expect(E.isLeft(await s.open(`${sealed}=`))).toBe(true)
    expect(E.isLeft(await s.open(`${sealed.slice(0, -5)}*${sealed.slice(-5)}`))).toBe(true)
  })

  it('each server without a key makes its own, so states do not travel between them', async () => {
    const a = requestStates()
    const b = requestStates()
    expect(E.isLeft(await b.open(await a.seal(payload)))).toBe(true)
  })

  it('signs with a Web Crypto key, and a text key with the same bytes verifies it', async () => {
    const web = requestStates({ key: await cryptoKey('sixteen bytes at least') })
    const text = requestStates({ key: 'sixteen bytes at least' })
    const sealed = await web.seal(payload)
    expect(await text.open(sealed)).toEqual(E.right(payload))
    expect(await web.open(await text.seal(payload))).toEqual(E.right(payload))
    // rotation mixes kinds: a new CryptoKey in front of an old text key
    const rotated = requestStates({ keys: [await cryptoKey('the next key, sixteen bytes'), 'sixteen bytes at least'] })
    expect(await rotated.open(sealed)).toEqual(E.right(payload))
    expect(E.isLeft(await text.open(await rotated.seal(payload)))).toBe(true)
  })

  it('refuses a CryptoKey that cannot sign HMAC-SHA256, saying how to import one', async () => {
    const verifyOnly = await cryptoKey('sixteen bytes at least', ['verify'])
    expect(() => requestStates({ key: verifyOnly })).toThrow(/HMAC SHA-256 key that may sign/)
    const aes = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 128 }, false, ['encrypt'])
    expect(() => requestStates({ keys: [aes] })).toThrow(/requestState\.keys\[0\] is a CryptoKey/)
    expect(() => requestStates({ key: 'short' })).toThrow(/at least 16 bytes/)
  })

  it('digests ignore key order, _meta and the MRTR fields, not the arguments', async () => {
    const d = await digestOf('tools/call', { name: 't', arguments: { a: 1, b: [1, { c: 2 }] }, _meta: { x: 1 } })
    expect(await digestOf('tools/call', { arguments: { b: [1, { c: 2 }], a: 1 }, name: 't', requestState: 's', inputResponses: {} })).toBe(d)
    expect(await digestOf('tools/call', { name: 't', arguments: { a: 2, b: [1, { c: 2 }] } })).not.toBe(d)
    expect(await digestOf('prompts/get', { name: 't', arguments: { a: 1, b: [1, { c: 2 }] } })).not.toBe(d)
  })
})
