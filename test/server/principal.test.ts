/**
 * The principal keys tasks and request states are bound to: an identity is its issuer and
 * subject (one subject from two issuers is two principals), the same for every token of it;
 * without one, a 2025-11-25 session is its id; otherwise nobody in particular. Keys are hashes
 * that name neither the subject nor the session.
 */
import { describe, expect, it } from 'vitest'
import { callerOf, ownerOf } from '../../src/server/principal.js'

const identity = (subject: string, iss?: string) => ({ subject, roles: [], ...(iss === undefined ? {} : { claims: { iss } }) })

describe('principal keys', () => {
  it('an identity is its issuer and subject, whatever else its token says', () => {
    const a1 = callerOf({ identity: { ...identity('alice', 'https://one.example'), scopes: ['a'] } })
    const a2 = callerOf({ identity: { ...identity('alice', 'https://one.example'), roles: ['admin'] } })
    expect(a1).toMatch(/^u:[\w-]{43}$/)
    expect(a2).toBe(a1)
    expect(callerOf({ identity: identity('alice', 'https://two.example') })).not.toBe(a1)
    expect(callerOf({ identity: identity('bob', 'https://one.example') })).not.toBe(a1)
    expect(callerOf({ identity: identity('alice') })).not.toBe(a1)
    expect(a1).not.toContain('alice')
  })

  it('parts cannot run into each other: an issuer ending where a subject begins is another principal', () => {
    expect(callerOf({ identity: identity('b', 'a') })).not.toBe(callerOf({ identity: identity('', 'ab') }))
  })

  it('an owner is the identity, else the session, else nobody', () => {
    expect(ownerOf({ identity: identity('alice', 'i'), id: 's1' })).toBe(callerOf({ identity: identity('alice', 'i') }))
    const session = ownerOf({ identity: undefined, id: 'f3c1-session' })
    expect(session).toMatch(/^s:[\w-]{43}$/)
    expect(session).not.toContain('f3c1')
    expect(ownerOf({ identity: undefined, id: 'another' })).not.toBe(session)
    expect(ownerOf({ identity: undefined, id: undefined })).toBeUndefined()
    expect(callerOf({ identity: undefined })).toBeUndefined()
  })
})
