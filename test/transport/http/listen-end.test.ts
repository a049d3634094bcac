/**
 * A `subscriptions/listen` stream whose reader goes away ends the subscription itself, not
 * only its bytes, whatever tells the server: with the fetch adapter, a runtime that cancels
 * the response body without aborting `request.signal` (the body's cancel is all it owes);
 * the listener leaves the hub and its keep-alive timer stops. Before, only the stream's slot
 * came back: the listener stayed in the hub, its timer ran and its request never ended. Over
 * a real socket, Node adapter: a client that stops reading, its stream cut once 16 MiB wait
 * for it (the response then ends normally, so no signal tells of it).
 */
import * as E from 'fp-ts/lib/Either.js'
import { expect, it } from 'vitest'
import { Agent, request } from 'node:http'
import { emcp, mcpServer, resource, resources, type Middleware } from '../../../src/index.js'
import { serveHttp, toFetchHandler } from '../../../src/transport/http.js'
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

it('Node adapter: a listen stream cut for a client that stops reading ends the subscription', async () => {
  let ended: (() => void) | undefined
  const listenEnded = new Promise<void>((resolve) => (ended = resolve))
  const watch: Middleware = {
    request: async (req, next) => {
      const out = await next()
      if (req.method === 'subscriptions/listen') ended?.()
      return out
    },
  }
  const uri = 'docs://busy'
  const docs = resources([resource({ uri, name: 'busy', read: () => 'x' })], { subscribe: true })
  const noop = emcp({ name: 'noop', description: 'Does nothing.', input: { type: 'object' } })
  const server = mcpServer([noop], { name: 'listen-cut', version: '1' }, { features: [docs], middleware: [watch] }).implement({ noop: () => 'ok' })
  const running = await serveHttp(server, { port: 0, handleSignals: false })
  const body = JSON.stringify({ jsonrpc: '2.0', id: 'l', method: 'subscriptions/listen', params: { _meta: meta26, notifications: { resourceSubscriptions: [uri] } } })
  const req = request(running.url, { method: 'POST', agent: new Agent(), headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': V26, 'mcp-method': 'subscriptions/listen' } })
  // the client reads the acknowledgement, then nothing more
  await new Promise<void>((resolve, reject) => {
    req.on('error', reject)
    req.on('response', (res) => res.once('data', () => {
      res.pause()
      resolve()
    }))
    req.end(body)
  })
  // updates pile up for it until its stream is cut (16 MiB queued), a batch at a time so the writes can back up
  let done = false
  void listenEnded.then(() => (done = true))
  while (!done) {
    for (let i = 0; i < 2000; i++) docs.updated(uri)
    await new Promise((resolve) => setImmediate(resolve))
  }
  await listenEnded
  req.destroy()
  await running.close()
}, 60_000)
