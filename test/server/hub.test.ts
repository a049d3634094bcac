import { describe, expect, it } from 'vitest'
import { hub, newSession, outbound, type ServerMessage } from '../../src/index.js'

describe('hub: the sessions a server can reach', () => {
  const reachable = () => {
    const sent: ServerMessage[] = []
    return { sent, session: newSession('2025-11-25', outbound((m) => sent.push(m))) }
  }

  it('broadcasts to every added session, and no longer to a removed one', () => {
    const h = hub()
    const a = reachable()
    const b = reachable()
    h.add(a.session)
    h.add(b.session)
    h.broadcast('notifications/tools/list_changed')
    h.remove(b.session)
    h.broadcast('notifications/prompts/list_changed', { x: 1 })
    expect(a.sent).toEqual([
      { jsonrpc: '2.0', method: 'notifications/tools/list_changed' },
      { jsonrpc: '2.0', method: 'notifications/prompts/list_changed', params: { x: 1 } },
    ])
    expect(b.sent).toEqual([{ jsonrpc: '2.0', method: 'notifications/tools/list_changed' }])
    expect(h.size()).toBe(1)
  })

  it('ignores sessions without a channel (stateless HTTP) and sends only to those picked', () => {
    const h = hub()
    h.add(newSession())
    expect(h.size()).toBe(0)
    const a = reachable()
    const b = reachable()
    h.add(a.session)
    h.add(b.session)
    h.broadcast('notifications/resources/updated', { uri: 'x' }, (s) => s === b.session)
    expect(a.sent).toEqual([])
    expect(b.sent).toHaveLength(1)
  })
})
