/**
 * subscriptions/listen over stdio (2026-07-28): on the one shared channel notifications are
 * told apart by their subscription id, several subscriptions live side by side, and when the
 * client closes its input the server ends each subscription gracefully with a result.
 */
import { PassThrough, Writable } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { emcp, mcpServer, type Server } from '../../../src/index.js'
import { startStdio } from '../../../src/transport/stdio.js'

const noop = emcp({ name: 'noop', description: 'Does nothing.', input: { type: 'object' } })
const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} }

const wired = () => {
  const server = mcpServer([noop], { name: 's', version: '1' }).implement({ noop: () => 'ok' }) as unknown as Server
  const input = new PassThrough()
  const lines: any[] = []
  let buffer = ''
  const output = new Writable({
    write(chunk: Buffer, _enc, done) {
      buffer += chunk.toString()
      let nl: number
      while ((nl = buffer.indexOf('\n')) !== -1) {
        lines.push(JSON.parse(buffer.slice(0, nl)))
        buffer = buffer.slice(nl + 1)
      }
      done()
    },
  })
  const handle = startStdio(server, { input, output, redirectConsole: false, handleSignals: false })
  const send = (m: unknown) => input.write(`${JSON.stringify(m)}\n`)
  return { server, input, lines, handle, send }
}

const settle = () => new Promise((r) => setTimeout(r, 20))

describe('subscriptions/listen over stdio', () => {
  it('clients MUST correlate by io.modelcontextprotocol/subscriptionId: two subscriptions share the channel, each tagged with its own id', async () => {
    const { server, lines, send, input, handle } = wired()
    send({ jsonrpc: '2.0', id: 'a', method: 'subscriptions/listen', params: { _meta: meta, notifications: { toolsListChanged: true } } })
    send({ jsonrpc: '2.0', id: 'b', method: 'subscriptions/listen', params: { _meta: meta, notifications: { toolsListChanged: true } } })
    await settle()
    expect(lines.map((l) => [l.method, l.params._meta['io.modelcontextprotocol/subscriptionId']])).toEqual([
      ['notifications/subscriptions/acknowledged', 'a'],
      ['notifications/subscriptions/acknowledged', 'b'],
    ])
    send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'a' } })
    await settle()
    server.disableTool('noop')
    await settle()
    expect(lines.slice(2)).toEqual([
      { jsonrpc: '2.0', method: 'notifications/tools/list_changed', params: { _meta: { 'io.modelcontextprotocol/subscriptionId': 'b' } } },
    ])
    input.end()
    await handle.done
  })

  it('when the connection ends the server SHOULD respond to subscriptions/listen with a completion result before closing', async () => {
    const { lines, send, input, handle } = wired()
    send({ jsonrpc: '2.0', id: 3, method: 'subscriptions/listen', params: { _meta: meta, notifications: {} } })
    await settle()
    input.end()
    await handle.done
    expect(lines.at(-1)).toEqual({
      jsonrpc: '2.0',
      id: 3,
      result: { _meta: { 'io.modelcontextprotocol/subscriptionId': 3, 'io.modelcontextprotocol/serverInfo': { name: 's', version: '1' } }, resultType: 'complete' },
    })
  })
})
