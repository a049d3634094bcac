import { describe, expect, it } from 'vitest'
import { calculator } from '../../examples/calculator.js'
import { latestVersion, newSession } from '../../src/index.js'
import { abortCall } from '../../src/server/session.js'

describe('session: a new session', () => {
  it('starts at our latest revision, uninitialized, with nothing in flight', () => {
    const s = newSession()
    expect(s.protocolVersion).toBe(latestVersion)
    expect(s.clientInfo).toBeUndefined()
    expect(s.clientCapabilities).toBeUndefined()
    expect(s.initialized).toBe(false)
    expect(s.inFlight.size).toBe(0)
    expect(s.cancelled.size).toBe(0)
  })

  it('can start at a known revision (stateless HTTP: from the MCP-Protocol-Version header)', () => {
    expect(newSession('2025-06-18').protocolVersion).toBe('2025-06-18')
  })

  it('is updated by initialize and notifications/initialized, and is not shared between sessions', async () => {
    const a = newSession()
    const b = newSession()
    await calculator.dispatch(
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-03-26', capabilities: { roots: {} }, clientInfo: { name: 'x', version: '2' } } },
      a,
    )()
    await calculator.dispatch({ jsonrpc: '2.0', method: 'notifications/initialized' }, a)()
    expect(a).toMatchObject({ protocolVersion: '2025-03-26', clientInfo: { name: 'x', version: '2' }, clientCapabilities: { roots: {} }, initialized: true })
    expect(b).toMatchObject({ protocolVersion: latestVersion, initialized: false })
  })
})

describe('session: abortCall', () => {
  it('aborts the call with the reason, forgets it and marks it cancelled; false for an id not in flight', () => {
    const s = newSession()
    const reasons: unknown[] = []
    s.inFlight.set(3, (reason) => reasons.push(reason))
    expect(abortCall(s, 3, 'stop')).toBe(true)
    expect(reasons).toEqual(['stop'])
    expect(s.inFlight.has(3)).toBe(false)
    expect(s.cancelled.has(3)).toBe(true)
    expect(abortCall(s, 3, 'again')).toBe(false)
    expect(reasons).toEqual(['stop'])
  })
})
