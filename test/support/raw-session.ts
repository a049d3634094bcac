/**
 * A stateful 2025-11-25 session driven with plain `fetch`, for tests that must see each HTTP
 * status (which replica answers what): the headers of a request, and a session opened with
 * `initialize` and `notifications/initialized`.
 *
 * @example
 * import { initialize, headers } from '../support/raw-session.js'
 * const sid = await initialize(url)
 * await fetch(url, { method: 'DELETE', headers: headers(sid) })
 */
import { expect } from 'vitest'

/** The protocol version these sessions use. */
export const V = '2025-11-25'

/** The headers of a request in session `sid` (none: before initialize), with `extra` added. */
export const headers = (sid?: string, extra: Record<string, string> = {}): Record<string, string> => ({
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': V,
  ...(sid === undefined ? {} : { 'mcp-session-id': sid }),
  ...extra,
})

/** Initializes a session on `url`, sends `notifications/initialized`; its id. */
export const initialize = async (url: string): Promise<string> => {
  const r = await fetch(url, {
    method: 'POST',
    headers: headers(),
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: V, capabilities: {}, clientInfo: { name: 't', version: '1' } } }),
  })
  expect(r.status).toBe(200)
  const sid = r.headers.get('mcp-session-id') as string
  await r.text()
  const n = await fetch(url, { method: 'POST', headers: headers(sid), body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) })
  expect(n.status).toBe(202)
  return sid
}
