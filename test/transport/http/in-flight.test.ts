/**
 * The budget of request-body bytes in flight: per client and in all, waiters served in
 * order without one client's queue holding up another, and over HTTP a client's second
 * large request waiting, body unread, while other clients are answered.
 */
import { Agent, request } from 'node:http'
import { afterEach, describe, expect, it } from 'vitest'
import { emcp, mcpServer } from '../../../src/index.js'
import { serveHttp, type RunningHttp } from '../../../src/transport/http.js'
import { byteBudget } from '../../../src/transport/http/in-flight.js'

/** Whether a promise has settled, seen after the microtasks queued so far. */
const settled = async (p: Promise<unknown>): Promise<boolean> => {
  let done = false
  void p.then(() => (done = true))
  await new Promise((resolve) => setImmediate(resolve))
  return done
}

describe('byteBudget', () => {
  it('takeNow grants bytes that fit while nobody waits, and otherwise leaves the request to take (no cutting in line)', async () => {
    const b = byteBudget({ total: 100, perClient: 60 })
    const a = b.takeNow('a', 50)
    expect(a).toBeTypeOf('function')
    expect(b.state()).toEqual({ held: 50, waiting: 0 })
    // over the client's share, over the total: not now
    expect(b.takeNow('a', 20)).toBeUndefined()
    expect(b.takeNow('b', 60)).toBeUndefined()
    expect(b.state()).toEqual({ held: 50, waiting: 0 })
    // someone waits: a newcomer that would fit does not pass them
    const waiter = b.take('b', 60)
    expect(b.takeNow('c', 10)).toBeUndefined()
    a?.()
    ;(await waiter)()
    expect(b.takeNow('c', 0)).toBeTypeOf('function')
    const c = b.takeNow('c', 10)
    expect(b.state()).toEqual({ held: 10, waiting: 0 })
    c?.()
    c?.()
    expect(b.state()).toEqual({ held: 0, waiting: 0 })
  })

  it('lets a waiter whose client went away leave the line holding nothing, and serves the next', async () => {
    const b = byteBudget({ total: 100, perClient: 0 })
    const first = await b.take('a', 100)
    const gone = new AbortController()
    const leaving = b.take('b', 60, () => gone.signal)
    const next = b.take('c', 40)
    expect(b.state()).toEqual({ held: 100, waiting: 2 })
    gone.abort()
    expect(await settled(leaving)).toBe(true)
    expect(b.state()).toEqual({ held: 100, waiting: 1 })
    first()
    ;(await leaving)()
    expect(await settled(next)).toBe(true)
    expect(b.state()).toEqual({ held: 40, waiting: 0 })
    const already = new AbortController()
    already.abort()
    const hold = await b.take('d', 60)
    expect(await settled(b.take('e', 60, () => already.signal))).toBe(true)
    expect(b.state()).toEqual({ held: 100, waiting: 0 })
    hold()
  })

  it('grants shares while they fit, then makes the next wait until one is given back', async () => {
    const b = byteBudget({ total: 100, perClient: 0 })
    const r1 = await b.take('a', 60)
    const second = b.take('b', 60)
    expect(await settled(second)).toBe(false)
    expect(b.state()).toEqual({ held: 60, waiting: 1 })
    r1()
    const r2 = await second
    expect(b.state()).toEqual({ held: 60, waiting: 0 })
    r2()
    r2() // giving back twice counts once
    expect(b.state()).toEqual({ held: 0, waiting: 0 })
  })

  it("holds a client to its share without holding up other clients", async () => {
    const b = byteBudget({ total: 1_000, perClient: 100 })
    const a1 = await b.take('a', 80)
    const a2 = b.take('a', 80)
    const c1 = b.take('c', 80)
    expect(await settled(c1)).toBe(true)
    expect(await settled(a2)).toBe(false)
    a1()
    expect(await settled(a2)).toBe(true)
  })

  it('is pressed only while a request waits for the budget in all, not for its own client\'s share', async () => {
    // a client over its own share holds up only itself: the bodies of others are not given up for it
    const b = byteBudget({ total: 200, perClient: 100 })
    const a1 = await b.take('a', 100)
    const a2 = b.take('a', 50)
    expect(b.pressed()).toBe(false)
    const c1 = await b.take('c', 90)
    const d1 = b.take('d', 50)
    expect(await settled(d1)).toBe(false)
    expect(b.pressed()).toBe(true)
    c1()
    expect(await settled(d1)).toBe(true)
    expect(b.pressed()).toBe(false)
    a1()
    expect(await settled(a2)).toBe(true)
  })

  it('runs a request larger than the budget alone', async () => {
    const b = byteBudget({ total: 100, perClient: 50 })
    const big = await b.take('a', 500)
    const small = b.take('b', 1)
    expect(await settled(small)).toBe(false)
    big()
    expect(await settled(small)).toBe(true)
  })

  it('serves waiters in order: a large one that waits for the whole budget is not overtaken', async () => {
    const b = byteBudget({ total: 100, perClient: 0 })
    const first = await b.take('a', 90)
    const large = b.take('b', 90)
    const small = b.take('c', 5)
    expect(await settled(small)).toBe(false)
    first()
    expect(await settled(large)).toBe(true)
    expect(await settled(small)).toBe(true)
  })

  it('lets a request grow its share ahead of newcomers, and the first grower go on when growers hold everything', async () => {
    const b = byteBudget({ total: 100, perClient: 0 })
    const a = await b.take('a', 50)
    const c = await b.take('c', 50)
    const newcomer = b.take('n', 10)
    // both holders want more: neither fits, but all that is held is theirs, so the first goes on
    const aMore = b.take('a', 40, undefined, 50)
    expect(await settled(aMore)).toBe(false)
    const cMore = b.take('c', 40, undefined, 50)
    expect(await settled(aMore)).toBe(true)
    expect(await settled(cMore)).toBe(false)
    expect(await settled(newcomer)).toBe(false)
    a()
    ;(await aMore)()
    expect(await settled(cMore)).toBe(true)
    expect(await settled(newcomer)).toBe(true)
    c()
  })

  it("lets the first of one client's growers go on when they hold all of its share, without holding up other clients", async () => {
    const b = byteBudget({ total: 1_000, perClient: 100 })
    const a1 = await b.take('a', 50)
    const a2 = await b.take('a', 50)
    const a1More = b.take('a', 40, undefined, 50)
    expect(await settled(a1More)).toBe(false)
    const a2More = b.take('a', 40, undefined, 50)
    // all that client a holds belongs to its growers: the first goes on, the second waits
    expect(await settled(a1More)).toBe(true)
    expect(await settled(a2More)).toBe(false)
    expect(await settled(b.take('c', 90))).toBe(true)
    a1()
    ;(await a1More)()
    expect(await settled(a2More)).toBe(true)
    a2()
  })

  it('never waits for an empty body', async () => {
    const b = byteBudget({ total: 1, perClient: 1 })
    await b.take('a', 1)
    expect(await settled(b.take('a', 0))).toBe(true)
  })
})

describe('HTTP: bodies in flight per client', () => {
  const hold = emcp({ name: 'hold', description: 'Answers once the test opens its gate.', input: { type: 'object', properties: { pad: { type: 'string' } } } })
  const echo = emcp({ name: 'echo', description: 'Echo.', input: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } })
  let open: () => void = () => {}
  let entered: () => void = () => {}
  const server = mcpServer([hold, echo], { name: 'budget', version: '1' }).implement({
    hold: () =>
      new Promise<string>((resolve) => {
        open = () => resolve('held')
        entered()
      }),
    echo: ({ text }) => text,
  })
  let running: RunningHttp | undefined
  afterEach(async () => {
    await running?.close()
    running = undefined
  })

  const post = (url: string, localAddress: string, body: unknown) =>
    new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = request(
        url,
        { method: 'POST', agent: new Agent(), localAddress, headers: { 'content-type': 'application/json', accept: 'application/json', 'mcp-protocol-version': '2025-11-25' } },
        (res) => {
          let text = ''
          res.setEncoding('utf8').on('data', (c: string) => (text += c))
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text }))
        },
      )
      req.on('error', reject)
      req.end(JSON.stringify(body))
    })
  const call = (id: number, name: string, args: object) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } })

  it("makes a client's request wait while its share is taken by a body still arriving, and answers other clients meanwhile", async () => {
    running = await serveHttp(server, { port: 0, handleSignals: false, maxBytesInFlightPerClient: 2_000 })
    const pad = 'p'.repeat(1_500)
    // the first body declares its length and sends all but its last byte: it holds its share while it arrives
    const text = JSON.stringify(call(1, 'echo', { text: pad }))
    let first: (rest: string) => void = () => {}
    const firstAnswer = new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = request(
        running!.url,
        {
          method: 'POST',
          agent: new Agent(),
          localAddress: '127.0.0.2',
          headers: { 'content-type': 'application/json', accept: 'application/json', 'mcp-protocol-version': '2025-11-25', 'content-length': String(text.length) },
        },
        (res) => {
          let body = ''
          res.setEncoding('utf8').on('data', (c: string) => (body += c))
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text: body }))
        },
      )
      req.on('error', reject)
      req.write(text.slice(0, -1))
      first = (rest) => req.end(rest)
    })
    expect((await post(running.url, '127.0.0.3', call(2, 'echo', { text: 'x' }))).status).toBe(200)
    const second = post(running.url, '127.0.0.2', call(3, 'echo', { text: pad }))
    const other = await post(running.url, '127.0.0.3', call(4, 'echo', { text: pad }))
    expect(JSON.parse(other.text).result.content[0].text).toBe(pad)
    expect(await settled(second)).toBe(false)
    first(text.slice(-1))
    expect(JSON.parse((await firstAnswer).text).result.content[0].text).toBe(pad)
    expect(JSON.parse((await second).text).result.content[0].text).toBe(pad)
  })

  it("gives a body's share back once it is parsed, while its call still runs", async () => {
    running = await serveHttp(server, { port: 0, handleSignals: false, maxBytesInFlightPerClient: 2_000 })
    const pad = 'p'.repeat(1_500)
    const holding = new Promise<void>((resolve) => (entered = resolve))
    const first = post(running.url, '127.0.0.2', call(1, 'hold', { pad }))
    await holding
    // the first call is still running; its client's next body fits all the same
    const second = await post(running.url, '127.0.0.2', call(2, 'echo', { text: pad }))
    expect(JSON.parse(second.text).result.content[0].text).toBe(pad)
    open()
    expect(JSON.parse((await first).text).result.content[0].text).toBe('held')
  })
})
