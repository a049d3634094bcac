/**
 * Long-lived streams are capped per client (its verified identity, else its address) and in
 * all: past `maxStreamsPerClient` or `maxStreams`, a `subscriptions/listen` gets 429 with a
 * JSON-RPC error naming the limit, and so does a stateful GET stream; a slot comes back when
 * its stream ends. Real sockets, Node's `http` client and `fetch`.
 */
import { Agent, request } from 'node:http'
import { describe, expect, it } from 'vitest'
import { headers as sessionHeaders, initialize } from '../../support/raw-session.js'
import { closedAfterEach, listen, meta26, readAll, V26, type Held } from './hostile.js'

const { serve, hold } = closedAfterEach()

/** A listen stream held open (closed after the test). */
const held = async (url: string, address: string, extra: Record<string, string> = {}): Promise<Held> => {
  const h = await listen(url, address, 0, extra)
  hold(h)
  return h
}
/** The JSON-RPC error of a refusal's text. */
const errorOf = (text: string): { code: number; message: string } => JSON.parse(text).error

describe('subscriptions/listen streams', () => {
  it('caps the streams of one address (maxStreamsPerClient): the next gets 429 naming the limit; other addresses go on', async () => {
    const { url } = await serve({ maxStreamsPerClient: 2 })
    expect((await held(url, '127.0.0.2')).status).toBe(200)
    const second = await held(url, '127.0.0.2')
    expect(second.status).toBe(200)
    const third = await held(url, '127.0.0.2')
    expect(third.status).toBe(429)
    expect(errorOf(third.first)).toMatchObject({ code: -32000, message: expect.stringMatching(/2 streams open \(maxStreamsPerClient\)/) })
    expect((await held(url, '127.0.0.3')).status).toBe(200)
    // a stream that ends gives its slot back: once the server has seen it go, the address opens one again
    second.close()
    let again: Held | undefined
    for (let i = 0; i < 2000 && again?.status !== 200; i++) again = await held(url, '127.0.0.2')
    expect(again?.status).toBe(200)
  })

  it('caps the streams of the whole server (maxStreams), fetch clients included', async () => {
    const { url } = await serve({ maxStreams: 2 })
    expect((await held(url, '127.0.0.2')).status).toBe(200)
    expect((await held(url, '127.0.0.3')).status).toBe(200)
    const body = JSON.stringify({ jsonrpc: '2.0', id: 'l', method: 'subscriptions/listen', params: { _meta: meta26, notifications: { toolsListChanged: true } } })
    const res = await fetch(url, {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': V26, 'mcp-method': 'subscriptions/listen' },
    })
    expect(res.status).toBe(429)
    expect(errorOf(await res.text()).message).toMatch(/2 streams open \(maxStreams\)/)
  })

  it('counts an authenticated caller by its identity, not its address', async () => {
    const { url } = await serve({ maxStreamsPerClient: 1, auth: { verify: (token) => ({ subject: token, roles: [] }) } })
    expect((await held(url, '127.0.0.2', { authorization: 'Bearer alice' })).status).toBe(200)
    expect((await held(url, '127.0.0.2', { authorization: 'Bearer bob' })).status).toBe(200)
    const again = await held(url, '127.0.0.3', { authorization: 'Bearer alice' })
    expect(again.status).toBe(429)
  })
})

describe('stateful GET streams', () => {
  /** Opens the GET stream of session `sid` from `localAddress`: its status (the stream is held open until the test ends). */
  const getStream = (url: string, sid: string, localAddress: string): Promise<{ status: number; text: string }> =>
    new Promise((resolve, reject) => {
      const req = request(url, { method: 'GET', agent: new Agent(), localAddress, headers: sessionHeaders(sid, { accept: 'text/event-stream' }) }, (res) => {
        hold({ close: () => req.destroy() })
        if (res.statusCode === 200) resolve({ status: 200, text: '' })
        else readAll(res).then((a) => resolve({ status: a.status, text: a.text }), reject)
      })
      req.on('error', reject)
      req.end()
    })

  it('caps the GET streams of one address across its sessions (maxStreamsPerClient): 429 naming the limit', async () => {
    const { url } = await serve({ sessions: true, maxStreamsPerClient: 2 })
    const sids = [await initialize(url), await initialize(url), await initialize(url)]
    expect((await getStream(url, sids[0] as string, '127.0.0.2')).status).toBe(200)
    expect((await getStream(url, sids[1] as string, '127.0.0.2')).status).toBe(200)
    const third = await getStream(url, sids[2] as string, '127.0.0.2')
    expect(third.status).toBe(429)
    expect(errorOf(third.text).message).toMatch(/maxStreamsPerClient/)
    expect((await getStream(url, sids[2] as string, '127.0.0.3')).status).toBe(200)
  })
})
