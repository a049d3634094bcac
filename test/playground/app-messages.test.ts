/**
 * The checks on every message from an MCP App's frame (playground/app-messages.ts): size,
 * JSON-RPC shape, and the allow-lists of requests and notifications.
 */
import { describe, expect, it } from 'vitest'
import { checkAppMessage, maxMessageBytes } from '../../playground/app-messages.js'

describe('checkAppMessage', () => {
  it('accepts the allowed requests, notifications and answers', () => {
    expect(checkAppMessage({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'add' } })).toEqual({ kind: 'request', id: 1, method: 'tools/call', params: { name: 'add' } })
    expect(checkAppMessage({ jsonrpc: '2.0', id: 'a', method: 'ui/initialize' })).toEqual({ kind: 'request', id: 'a', method: 'ui/initialize', params: {} })
    expect(checkAppMessage({ jsonrpc: '2.0', method: 'ui/notifications/size-changed', params: { height: 10 } })).toMatchObject({ kind: 'notification' })
    expect(checkAppMessage({ jsonrpc: '2.0', id: 'host-1', result: {} })).toEqual({ kind: 'answer', id: 'host-1', result: {} })
  })

  it('refuses what is not JSON-RPC, too large, or not allowed, with a code and the id when there is one', () => {
    expect(checkAppMessage('hello')).toMatchObject({ kind: 'refused', code: -32600, reason: 'not a JSON-RPC 2.0 message' })
    expect(checkAppMessage({ jsonrpc: '1.0', id: 1, method: 'ping' })).toMatchObject({ kind: 'refused', code: -32600 })
    const cyclic: Record<string, unknown> = { jsonrpc: '2.0', method: 'ping' }
    cyclic.self = cyclic
    expect(checkAppMessage(cyclic)).toMatchObject({ kind: 'refused', code: -32700, reason: 'not JSON' })
    expect(checkAppMessage({ jsonrpc: '2.0', method: 'notifications/message', params: { data: 'x'.repeat(maxMessageBytes) } })).toMatchObject({ kind: 'refused', reason: `larger than ${maxMessageBytes} bytes` })
    expect(checkAppMessage({ jsonrpc: '2.0', id: { x: 1 }, method: 'ping' })).toMatchObject({ kind: 'refused', code: -32600 })
    expect(checkAppMessage({ jsonrpc: '2.0', id: 7, method: 'sampling/createMessage' })).toMatchObject({ kind: 'refused', code: -32601, id: 7 })
    expect(checkAppMessage({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: [1] })).toMatchObject({ kind: 'refused', code: -32602, id: 7 })
    expect(checkAppMessage({ jsonrpc: '2.0', method: 'ui/notifications/sandbox-resource-ready' })).toMatchObject({ kind: 'refused', code: -32601 })
    expect(checkAppMessage({ jsonrpc: '2.0', id: 3, result: {}, error: {} })).toMatchObject({ kind: 'refused', id: 3 })
    expect(checkAppMessage({ jsonrpc: '2.0', method: 'x'.repeat(200) })).toMatchObject({ kind: 'refused', reason: 'its method is not a short string' })
  })
})
