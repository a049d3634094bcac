/**
 * No request stalls the server: a body's share of the in-flight budget goes back once it is
 * parsed (a `subscriptions/listen` stream padded to 4 MiB holds none of it), a body that
 * trickles in holds only what it sent and is answered 408 past its deadline or below its
 * minimum rate, and with hostile streams and slow bodies open from other addresses, a fresh
 * client's `tools/call` is answered while they are still open. Real sockets, Node's `http`
 * client and `fetch`, default limits unless a test says otherwise.
 */
import { describe, expect, it } from 'vitest'
import { toFetchHandler } from '../../../src/transport/http.js'
import { callEcho, closedAfterEach, echoCall, echoServer, fetchEcho, listen, settled, slowBody, V26, type Held } from './hostile.js'

const MiB = 1024 * 1024
const addresses = ['127.0.0.2', '127.0.0.3', '127.0.0.4', '127.0.0.5']

const { serve, hold } = closedAfterEach()

/** The text of `echo`'s answer. */
const echoed = (text: string): unknown => JSON.parse(text).result.content[0].text

describe('the in-flight budget and streamed answers', () => {
  it('gives a listen stream’s body share back once parsed: 8 listens of 4 MiB (2 per address) leave room for a fresh call', async () => {
    const running = await serve()
    const streams: Held[] = await Promise.all(addresses.flatMap((a) => [listen(running.url, a, 4 * MiB), listen(running.url, a, 4 * MiB)]))
    hold(...streams)
    expect(streams.map((s) => s.status)).toEqual(Array(8).fill(200))
    // every stream is open (its acknowledgement came); the budget is 32 MiB, 8 MiB per address
    const viaHttp = await callEcho(running.url, '127.0.0.6', 'fresh')
    expect(viaHttp.status).toBe(200)
    expect(echoed(viaHttp.text)).toBe('fresh')
    const viaFetch = await fetchEcho(running.url, 'fetched')
    expect(echoed(await viaFetch.text())).toBe('fetched')
  })
})

describe('bodies read halfway', () => {
  it('never wait for each other forever: three bodies of 150 KB at once in a budget of 200 KB are all answered', async () => {
    // each takes its first 64 KiB, then all three want more than is left: the first of them goes on, then the others
    const running = await serve({ maxBytesInFlight: 200_000, maxBytesInFlightPerClient: 0 })
    const text = 'x'.repeat(150_000)
    const answers = await Promise.all(addresses.slice(0, 3).map((a) => callEcho(running.url, a, text)))
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200])
    for (const a of answers) expect(echoed(a.text)).toBe(text)
  })
})

describe('slow bodies', () => {
  it('holds only what a slow body sent: 8 bodies declaring 4 MiB and sending a byte leave room for a fresh call', async () => {
    // no deadline, no minimum rate: the slow bodies stay open for as long as the test takes (what is tested is that they hold little)
    const running = await serve({ bodyTimeoutMs: 0, minBodyBytesPerSecond: 0 })
    const slow = addresses.flatMap((a) => [slowBody(running.url, a, 4 * MiB), slowBody(running.url, a, 4 * MiB)])
    hold(...slow)
    const fresh = await callEcho(running.url, '127.0.0.6', 'fresh')
    expect(echoed(fresh.text)).toBe('fresh')
    expect(echoed(await (await fetchEcho(running.url, 'fetched')).text())).toBe('fetched')
    // the slow ones are still open, unanswered
    for (const s of slow) expect(await settled(s.answer)).toBe(false)
  })

  it('gives up bodies sent quickly to a byte short of their end while others wait for the budget: they get 408, a fresh call is answered', async () => {
    // default limits: each keeps a fine average rate, and before held its 4 MiB until its 60 s deadline, everyone else's POSTs waiting;
    // ten of them from five addresses want 40 MiB of the 32 MiB budget, so that some wait whatever the order they come in
    const running = await serve()
    const full = [...addresses, '127.0.0.7'].flatMap((a) => [slowBody(running.url, a, 4 * MiB, 4 * MiB - 1), slowBody(running.url, a, 4 * MiB, 4 * MiB - 1)])
    hold(...full)
    const fresh = await callEcho(running.url, '127.0.0.6', 'fresh')
    expect(echoed(fresh.text)).toBe('fresh')
    // a body that holds its share without coming to its end is given up while others wait
    const first = await Promise.race(full.map((f) => f.answer))
    expect(first.status).toBe(408)
    expect(JSON.parse(first.text).error.message).toMatch(/stopped short of its end while other requests waited/)
  })

  it('answers a body that misses its deadline with 408, read by Node http', async () => {
    const running = await serve({ bodyTimeoutMs: 300 })
    const slow = slowBody(running.url, '127.0.0.2', 4 * MiB, 10)
    hold(slow)
    const answer = await slow.answer
    expect(answer.status).toBe(408)
    expect(answer.text).toMatch(/300 ms/)
  })

  it('answers a body that arrives below the minimum rate with 408, before any deadline', async () => {
    const running = await serve({ bodyTimeoutMs: 0, minBodyBytesPerSecond: 100_000 })
    const slow = slowBody(running.url, '127.0.0.2', 4 * MiB, 10)
    hold(slow)
    const answer = await slow.answer
    expect(answer.status).toBe(408)
    expect(answer.text).toMatch(/100000 bytes per second/)
  })

  it('answers a slow body with 408 through the fetch handler too', async () => {
    const handle = toFetchHandler(echoServer(), { bodyTimeoutMs: 200 })
    const body = new ReadableStream<Uint8Array>({
      start: (c) => c.enqueue(new TextEncoder().encode('{')),
      // never more, never the end
    })
    const res = await handle(
      new Request('http://127.0.0.1/mcp', {
        method: 'POST',
        body,
        duplex: 'half',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': V26, 'mcp-method': 'tools/call', 'mcp-name': 'echo' },
      } as RequestInit),
    )
    expect(res.status).toBe(408)
    // a body that keeps its pace is answered
    const ok = await handle(
      new Request('http://127.0.0.1/mcp', {
        method: 'POST',
        body: JSON.stringify(echoCall('on time')),
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': V26, 'mcp-method': 'tools/call', 'mcp-name': 'echo' },
      }),
    )
    expect(echoed(await ok.text())).toBe('on time')
  })
})
