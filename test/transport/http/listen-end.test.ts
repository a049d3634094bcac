/**
 * A `subscriptions/listen` stream whose reader goes away ends the subscription itself, not
 * only its bytes, whatever tells the server: with the fetch adapter, a runtime that cancels
 * the response body without aborting `request.signal` (the body's cancel is all it owes);
 * the listener leaves the hub and its keep-alive timer stops. Before, only the stream's slot
 * came back: the listener stayed in the hub, its timer ran and its request never ended.
 */
import * as E from 'fp-ts/lib/Either.js'
import { expect, it } from 'vitest'
import { emcp, mcpServer, type Middleware } from '../../../src/index.js'
import { toFetchHandler } from '../../../src/transport/http.js'
import { meta26, V26 } from './hostile.js'

it('fetch adapter: cancelling the body of a listen stream ends the subscription (the request completes)', async () => {
  let ended: (() => void) | undefined
  const listenEnded = new Promise<void>((resolve) => (ended = resolve))
  const watch: Middleware = {
    request: async (req, next) => {
      const out = await next()
      if (req.method === 'subscriptions/listen' && E.isRight(out)) ended?.()
      return out
    },
  }
  const noop = emcp({ name: 'noop', description: 'Does nothing.', input: { type: 'object' } })
  const server = mcpServer([noop], { name: 'listen-end', version: '1' }, { middleware: [watch] }).implement({ noop: () => 'ok' })
  const handler = toFetchHandler(server, { maxStreams: 1 })
  const listen = (id: string): Promise<Response> =>
    handler(
      new Request('http://127.0.0.1/mcp', {
        method: 'POST',
        body: JSON.stringify({ jsonrpc: '2.0', id, method: 'subscriptions/listen', params: { _meta: meta26, notifications: { toolsListChanged: true } } }),
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': V26, 'mcp-method': 'subscriptions/listen' },
      }),
    )
  const res = await listen('l1')
  expect(res.status).toBe(200)
  const reader = (res.body as ReadableStream<Uint8Array>).getReader()
  const first = await reader.read()
  expect(new TextDecoder().decode(first.value)).toMatch(/notifications\/subscriptions\/acknowledged/)
  // the reader goes away; the request's signal never aborts (a Request built in code has none that does)
  await reader.cancel()
  await listenEnded
  // and its slot is free again
  const again = await listen('l2')
  expect(again.status).toBe(200)
  await again.body?.cancel()
})
