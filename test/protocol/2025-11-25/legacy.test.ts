import { describe, expect, it } from 'vitest'
import * as E from 'fp-ts/lib/Either.js'
import { hub, newSession, outbound } from '../../../src/index.js'
import { initializeWith, legacyOnlyMethods, refuseLegacy, setLevel } from '../../../src/protocol/2025-11-25/legacy.js'

const req = (method: string, params?: Record<string, unknown>) => ({ kind: 'request' as const, id: 1, method, params })

describe('protocol/legacy', () => {
  it('initialize negotiates, remembers the client and joins the hub (a session with a channel)', () => {
    const h = hub()
    const initialize = initializeWith({ capabilities: { tools: {} }, serverInfo: { name: 's', version: '1' }, instructions: 'hi', hub: h })
    const session = newSession(undefined, outbound(() => {}))
    const out = initialize(req('initialize', { protocolVersion: '2025-06-18', capabilities: { roots: {} }, clientInfo: { name: 'c', version: '2' } }), session)
    expect(out).toEqual(E.right({ protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 's', version: '1' }, instructions: 'hi' }))
    expect(session.clientInfo).toEqual({ name: 'c', version: '2' })
    expect(h.size()).toBe(1)
    expect(E.isLeft(initialize(req('initialize', { protocolVersion: '2025-06-18' }), session) as E.Either<unknown, unknown>)).toBe(true)
  })

  it('logging/setLevel sets the session level, and refuses levels RFC 5424 lacks', () => {
    const session = newSession()
    expect(setLevel(req('logging/setLevel', { level: 'warning' }), session)).toEqual(E.right({}))
    expect(session.logLevel).toBe('warning')
    expect(E.isLeft(setLevel(req('logging/setLevel', { level: 'loud' }), session) as E.Either<unknown, unknown>)).toBe(true)
  })

  it('a server pinned to 2026-07-28 answers initialize with -32022 and the versions it speaks', () => {
    const out = refuseLegacy(['2026-07-28'], req('initialize', { protocolVersion: '2025-11-25' }))
    expect(E.isLeft(out) && out.left).toMatchObject({ _tag: 'UnsupportedProtocolVersion', data: { supported: ['2026-07-28'], requested: '2025-11-25' } })
    expect(E.isLeft(refuseLegacy(['2026-07-28'], req('tools/list'))) && refuseLegacy(['2026-07-28'], req('tools/list'))).toMatchObject({ left: { _tag: 'InvalidParams' } })
    expect([...legacyOnlyMethods]).toContain('ping')
  })
})
