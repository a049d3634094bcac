import { describe, expect, it } from 'vitest'
import * as E from 'fp-ts/lib/Either.js'
import { digestOf, requestStates } from '../../../src/protocol/2026-07-28/request-state.js'

const payload = { method: 'tools/call', digest: 'd1', answers: [{ action: 'accept', content: { a: 1 } }], pending: ['roots/list'], keys: ['roots'] }

describe('protocol/request-state', () => {
  it('opens what it sealed', () => {
    const s = requestStates({ key: 'sixteen bytes at least' })
    expect(s.open(s.seal(payload))).toEqual(E.right(payload))
  })

  it('refuses a state with any byte changed', () => {
    const s = requestStates({ key: 'sixteen bytes at least' })
    const sealed = s.seal(payload)
    for (const i of [0, 5, sealed.indexOf('.') + 3, sealed.length - 1]) {
      const c = sealed[i] === 'A' ? 'B' : 'A'
      expect(E.isLeft(s.open(sealed.slice(0, i) + c + sealed.slice(i + 1))), `byte ${i}`).toBe(true)
    }
    expect(E.isLeft(s.open(42))).toBe(true)
    expect(E.isLeft(s.open(''))).toBe(true)
  })

  it('refuses another spelling of the same signature (unused bits of the last character, stray characters)', () => {
    const s = requestStates({ key: 'sixteen bytes at least' })
    const sealed = s.seal(payload)
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'
    // 32 bytes of HMAC are 43 characters: the last one carries 4 bits and 2 unused ones
    const last = alphabet.indexOf(sealed[sealed.length - 1] as string)
    const respelled = sealed.slice(0, -1) + alphabet[last ^ 1]
    expect(Buffer.from(respelled.split('.')[1] as string, 'base64url')).toEqual(Buffer.from(sealed.split('.')[1] as string, 'base64url'))
    expect(E.isLeft(s.open(respelled))).toBe(true)
    expect(E.isLeft(s.open(`${sealed}=`))).toBe(true)
    expect(E.isLeft(s.open(`${sealed.slice(0, -5)}*${sealed.slice(-5)}`))).toBe(true)
  })

  it('each server without a key makes its own, so states do not travel between them', () => {
    const a = requestStates()
    const b = requestStates()
    expect(E.isLeft(b.open(a.seal(payload)))).toBe(true)
  })

  it('digests ignore key order, _meta and the MRTR fields, not the arguments', () => {
    const d = digestOf('tools/call', { name: 't', arguments: { a: 1, b: [1, { c: 2 }] }, _meta: { x: 1 } })
    expect(digestOf('tools/call', { arguments: { b: [1, { c: 2 }], a: 1 }, name: 't', requestState: 's', inputResponses: {} })).toBe(d)
    expect(digestOf('tools/call', { name: 't', arguments: { a: 2, b: [1, { c: 2 }] } })).not.toBe(d)
    expect(digestOf('prompts/get', { name: 't', arguments: { a: 1, b: [1, { c: 2 }] } })).not.toBe(d)
  })
})
