import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createHmac } from 'node:crypto'
import * as E from 'fp-ts/lib/Either.js'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { oauth, type TokenRefusal } from 'emcp/oauth'
import { startIssuer, startKeyedIssuer, type Issuer, type Key } from '../support/issuer.js'

const resource = 'http://127.0.0.1:9/mcp'
let iss: Issuer
let key: Key

beforeAll(async () => {
  ;({ iss, key } = await startKeyedIssuer())
})
afterAll(() => iss.close())

/** The refusal of a token, or a failure when it was accepted. */
const refusal = async (r: Promise<E.Either<TokenRefusal, unknown>>): Promise<TokenRefusal> => {
  const x = await r
  if (E.isRight(x)) throw new Error(`accepted: ${JSON.stringify(x.right)}`)
  return x.left
}
const b64 = (x: unknown): string => Buffer.from(JSON.stringify(x)).toString('base64url')

describe('JWT access tokens', () => {
  test('a token for this resource gives its subject, scopes (scope or scp), roles and claims', async () => {
    const auth = oauth({ issuer: iss.issuer, audience: resource })
    const r = await auth.check(await iss.sign(key, { sub: 'alice', aud: resource, scope: 'calc:read calc:write', roles: ['staff', 7] }))
    expect(r).toEqual(E.right({ subject: 'alice', roles: ['staff'], scopes: ['calc:read', 'calc:write'], claims: expect.objectContaining({ sub: 'alice' }) }))
    const scp = await auth.check(await iss.sign(key, { sub: 'bob', aud: [resource, 'other'], scp: ['a', 'b'] }))
    expect(E.isRight(scp) && scp.right.scopes).toEqual(['a', 'b'])
    expect(await auth.verify(await iss.sign(key, { client_id: 'machine', aud: resource }))).toMatchObject({ subject: 'client:machine', scopes: [] })
  })

  test("a provider's own identifier for the API is accepted after the endpoint URL; the metadata names the URL", async () => {
    const auth = oauth({ issuer: iss.issuer, audience: [resource, '00000000-aaaa-4bbb-8ccc-000000000001', 'api://default'] })
    expect(auth.audience).toEqual([resource, '00000000-aaaa-4bbb-8ccc-000000000001', 'api://default'])
    expect(auth.documents[0]?.body.resource).toBe(resource)
    expect(E.isRight(await auth.check(await iss.sign(key, { sub: 'a', aud: '00000000-aaaa-4bbb-8ccc-000000000001' })))).toBe(true)
    expect(E.isRight(await auth.check(await iss.sign(key, { sub: 'a', aud: 'api://default' })))).toBe(true)
    expect((await refusal(auth.check(await iss.sign(key, { sub: 'a', aud: 'api://other' })))).description).toBe('the token was issued for another resource')
    // the first audience is the endpoint: it must be a URL; no audience may be empty
    expect(() => oauth({ issuer: iss.issuer, audience: ['api://default', resource] })).toThrow(/not an http or https URL/)
    expect(() => oauth({ issuer: iss.issuer, audience: [resource, ' '] })).toThrow('oauth: an audience is empty')
  })

  test('a token for another resource, from another issuer, expired, not yet valid or without exp is refused', async () => {
    const auth = oauth({ issuer: iss.issuer, audience: resource, clockToleranceSec: 5 })
    const now = Math.floor(Date.now() / 1000)
    expect(await refusal(auth.check(await iss.sign(key, { sub: 'a', aud: 'http://127.0.0.1:9/other' })))).toEqual({ error: 'invalid_token', description: 'the token was issued for another resource' })
    expect((await refusal(auth.check(await iss.sign(key, { sub: 'a', aud: resource, iss: 'http://evil.example' })))).description).toBe('the token was issued by another issuer')
    expect((await refusal(auth.check(await iss.sign(key, { sub: 'a', aud: resource, exp: now - 60 })))).description).toBe('the token has expired')
    expect((await refusal(auth.check(await iss.sign(key, { sub: 'a', aud: resource, nbf: now + 60 })))).error).toBe('invalid_token')
    expect((await refusal(auth.check(await iss.sign(key, { sub: 'a', aud: resource, exp: undefined })))).error).toBe('invalid_token')
    expect((await refusal(auth.check(await iss.sign(key, { aud: resource })))).description).toContain('no subject')
    // inside the tolerated skew
    expect(E.isRight(await auth.check(await iss.sign(key, { sub: 'a', aud: resource, exp: now - 2 })))).toBe(true)
  })

  test('only allowed algorithms: none, HMAC with a published oct key, and a tampered signature are refused', async () => {
    const secret = Buffer.from('a shared secret that is long enough for HS256!!')
    iss.published = [key, { kid: 'oct', alg: 'HS256', privateKey: key.privateKey, jwk: { kty: 'oct', k: secret.toString('base64url'), kid: 'oct', alg: 'HS256' } }]
    try {
      const auth = oauth({ issuer: iss.issuer, audience: resource })
      const payload = { sub: 'mallory', aud: resource, iss: iss.issuer, exp: Math.floor(Date.now() / 1000) + 600 }
      const hs = `${b64({ alg: 'HS256', kid: 'oct' })}.${b64(payload)}`
      const hsToken = `${hs}.${createHmac('sha256', secret).update(hs).digest('base64url')}`
      expect((await refusal(auth.check(hsToken))).description).toBe('the token is signed with an algorithm this server does not accept')
      expect((await refusal(auth.check(`${b64({ alg: 'none' })}.${b64(payload)}.`))).error).toBe('invalid_token')
      const good = await iss.sign(key, { sub: 'alice', aud: resource })
      const [h, , s] = good.split('.')
      expect((await refusal(auth.check(`${h}.${b64(payload)}.${s}`))).description).toBe('the token signature does not verify')
    } finally {
      iss.published = [key]
    }
  })

  test('jku and x5u in a token are never followed', async () => {
    let contacted = 0
    const attacker = createServer((_req, res) => {
      contacted++
      res.end('{"keys":[]}')
    })
    await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve))
    const at = `http://127.0.0.1:${(attacker.address() as AddressInfo).port}`
    try {
      const auth = oauth({ issuer: iss.issuer, audience: resource })
      const rogue = await iss.key('rogue')
      for (const header of [{ jku: `${at}/jwks` }, { x5u: `${at}/cert` }, { jwk: rogue.jwk }]) {
        const r = await refusal(auth.check(await iss.sign(rogue, { sub: 'mallory', aud: resource }, header)))
        expect(r.error).toBe('invalid_token')
      }
      expect(contacted).toBe(0)
    } finally {
      attacker.close()
    }
  })

  test('an unknown kid refetches the JWKS, at most once per cool-down', async () => {
    const before = iss.hits.get('/jwks') ?? 0
    const eager = oauth({ issuer: iss.issuer, audience: resource, jwksCooldownMs: 0 })
    expect(E.isRight(await eager.check(await iss.sign(key, { sub: 'a', aud: resource })))).toBe(true)
    const rotated = await iss.key('k2')
    iss.published = [key, rotated]
    expect(E.isRight(await eager.check(await iss.sign(rotated, { sub: 'a', aud: resource })))).toBe(true)
    const fetchedByEager = (iss.hits.get('/jwks') ?? 0) - before
    expect(fetchedByEager).toBe(2)

    const patient = oauth({ issuer: iss.issuer, audience: resource, jwksCooldownMs: 600_000 })
    expect(E.isRight(await patient.check(await iss.sign(key, { sub: 'a', aud: resource })))).toBe(true)
    const mark = iss.hits.get('/jwks') ?? 0
    const strangers = await Promise.all(Array.from({ length: 5 }, (_, i) => iss.key(`unknown-${i}`)))
    for (const k of strangers) expect((await refusal(patient.check(await iss.sign(k, { sub: 'm', aud: resource })))).description).toBe('the token is signed with a key the issuer does not publish')
    expect((iss.hits.get('/jwks') ?? 0) - mark).toBeLessThanOrEqual(1)
    iss.published = [key]
  })

  test('empty, oversized and malformed tokens are refused without a request to the issuer', async () => {
    const auth = oauth({ issuer: iss.issuer, audience: resource, maxTokenLength: 100 })
    const hitsBefore = [...iss.hits.values()].reduce((a, b) => a + b, 0)
    expect((await refusal(auth.check(''))).description).toBe('no token')
    expect((await refusal(auth.check('x'.repeat(101)))).description).toBe('the token is too long')
    expect((await refusal(auth.check('a.b.c'))).description).toBe('the token is not a JWT and introspection is not configured')
    expect([...iss.hits.values()].reduce((a, b) => a + b, 0)).toBe(hitsBefore)
  })
})

describe('opaque tokens by introspection', () => {
  test('an active token for this resource is accepted and cached; inactive, foreign and expired ones are refused', async () => {
    const auth = oauth({ issuer: iss.issuer, audience: resource, introspection: { clientId: 'rs', clientSecret: 's' } })
    const exp = Math.floor(Date.now() / 1000) + 600
    iss.introspection.set('good', { active: true, sub: 'alice', scope: 'calc:read', aud: resource, iss: iss.issuer, exp })
    iss.introspection.set('foreign', { active: true, sub: 'alice', aud: 'http://127.0.0.1:9/other', exp })
    iss.introspection.set('old', { active: true, sub: 'alice', aud: resource, exp: exp - 3600 })
    const before = iss.hits.get('/introspect') ?? 0
    for (let i = 0; i < 20; i++) expect(await auth.verify('good')).toMatchObject({ subject: 'alice', scopes: ['calc:read'] })
    expect((iss.hits.get('/introspect') ?? 0) - before).toBe(1)
    expect((await refusal(auth.check('inactive'))).description).toBe('the token is not active')
    expect((await refusal(auth.check('foreign'))).description).toBe('the token was issued for another resource')
    expect((await refusal(auth.check('old'))).description).toBe('the token has expired')
  })

  test('concurrent checks of one token share a request; beyond the in-flight bound tokens are refused as unavailable', async () => {
    const auth = oauth({ issuer: iss.issuer, audience: resource, introspection: { clientId: 'rs', clientSecret: 's' } })
    let release = (): void => undefined
    iss.hold = new Promise<void>((r) => (release = r))
    const before = iss.hits.get('/introspect') ?? 0
    const same = Array.from({ length: 10 }, () => auth.check('held-0'))
    const others = Array.from({ length: 15 }, (_, i) => auth.check(`held-${i + 1}`))
    const over = await auth.check('one-too-many')
    expect(over).toEqual(E.left({ error: 'temporarily_unavailable', description: 'introspection busy: 16 checks already in flight' }))
    release()
    iss.hold = undefined
    await Promise.all([...same, ...others])
    expect((iss.hits.get('/introspect') ?? 0) - before).toBe(16)
  })
})

describe('discovery', () => {
  test('metadata naming another issuer is not used', async () => {
    const liar = await startIssuer(() => 'https://somebody.else.example')
    try {
      const auth = oauth({ issuer: liar.issuer, audience: resource })
      const m = await auth.ready()
      expect(E.isLeft(m) && m.left).toContain('its issuer is "https://somebody.else.example"')
      const r = await refusal(auth.check(await liar.sign(await liar.key('k'), { sub: 'a', aud: resource })))
      expect(r.error).toBe('temporarily_unavailable')
    } finally {
      await liar.close()
    }
  })
})
