/**
 * Unit tests of the graceful drain: the count of work in flight, the refusal of new
 * requests, the one process listener for SIGTERM/SIGINT, and the HTTP chain's drain steps.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { inFlight, onShutdownSignal, refusalOf, shuttingDown } from '../../src/transport/drain.js'
import { drainGate } from '../../src/transport/http/drain.js'
import type { HttpReply, HttpRequest } from '../../src/transport/http/model.js'

// ---------------------------------------------------------------------------------------
// helpers

const request = (method: string, message?: unknown): HttpRequest => ({
  method,
  header: () => undefined,
  readBody: async () => ({ text: '' }),
  identity: undefined,
  message,
})

const ok: HttpReply = { status: 200, headers: {}, body: 'ok' }

// ---------------------------------------------------------------------------------------
// tests

describe('inFlight', () => {
  it('counts work in and out; leaving twice counts once', () => {
    const calls = inFlight()
    const a = calls.enter()
    const b = calls.enter()
    expect(calls.count()).toBe(2)
    a()
    a()
    expect(calls.count()).toBe(1)
    b()
    expect(calls.count()).toBe(0)
  })

  it('is drained at once when nothing is in flight', async () => {
    expect(await inFlight().drained(60_000)).toBe(true)
  })

  it('is drained (true) when the last piece of work leaves, before the deadline', async () => {
    const calls = inFlight()
    const leave = calls.enter()
    const drained = calls.drained(60_000)
    leave()
    expect(await drained).toBe(true)
  })

  it('gives up (false) at the deadline while work is still in flight, and a later drain still sees it', async () => {
    const calls = inFlight()
    const leave = calls.enter()
    expect(await calls.drained(1)).toBe(false)
    const again = calls.drained(60_000)
    leave()
    expect(await again).toBe(true)
  })
})

describe('refusalOf', () => {
  it('refuses a request under its own id, with -32000 and the shutdown message', () => {
    expect(refusalOf({ jsonrpc: '2.0', id: 'x', method: 'tools/list' })).toEqual({ jsonrpc: '2.0', id: 'x', error: { code: -32000, message: shuttingDown } })
  })

  it('lets notifications, responses and messages without a readable id pass', () => {
    expect(refusalOf({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } })).toBeUndefined()
    expect(refusalOf({ jsonrpc: '2.0', id: 1, result: {} })).toBeUndefined()
    expect(refusalOf({ jsonrpc: '2.0', id: { not: 'an id' }, method: 'ping' })).toBeUndefined()
    expect(refusalOf('text')).toBeUndefined()
  })

  it('refuses each request of a batch, and passes a batch with none', () => {
    const batch = [
      { jsonrpc: '2.0', id: 1, method: 'ping' },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'tools/list' },
    ]
    expect(refusalOf(batch)).toEqual([
      { jsonrpc: '2.0', id: 1, error: { code: -32000, message: shuttingDown } },
      { jsonrpc: '2.0', id: 2, error: { code: -32000, message: shuttingDown } },
    ])
    expect(refusalOf([{ jsonrpc: '2.0', method: 'notifications/initialized' }])).toBeUndefined()
  })
})

describe('onShutdownSignal', () => {
  const stops: Array<() => void> = []
  afterEach(() => {
    for (const stop of stops.splice(0)) stop()
  })

  it('adds one process listener per signal for any number of servers, calls each on a signal, and removes it with the last', () => {
    const before = { term: process.listenerCount('SIGTERM'), int: process.listenerCount('SIGINT') }
    const called: string[] = []
    const stopA = onShutdownSignal(() => called.push('a'))
    const stopB = onShutdownSignal(() => called.push('b'))
    stops.push(stopA, stopB)
    expect(process.listenerCount('SIGTERM')).toBe(before.term + 1)
    expect(process.listenerCount('SIGINT')).toBe(before.int + 1)
    // the listener added last is ours: call it as the signal would
    const ours = process.listeners('SIGTERM').at(-1) as () => void
    ours()
    expect(called).toEqual(['a', 'b'])
    stopA()
    ours()
    expect(called).toEqual(['a', 'b', 'b'])
    stopB()
    expect(process.listenerCount('SIGTERM')).toBe(before.term)
    expect(process.listenerCount('SIGINT')).toBe(before.int)
  })
})

describe('drainGate (the HTTP chain\'s drain steps)', () => {
  it('counts a request in flight until its reply is made; the drain waits for it', async () => {
    const gate = drainGate()
    let answer: (r: HttpReply) => void = () => {}
    const reply = gate.track(request('POST'), () => new Promise<HttpReply>((resolve) => (answer = resolve)))
    expect(gate.running.count()).toBe(1)
    gate.start()
    const drained = gate.running.drained(60_000)
    answer(ok)
    expect(await reply).toBe(ok)
    expect(await drained).toBe(true)
    expect(gate.running.count()).toBe(0)
  })

  it('while draining, refuses a GET at once (503, connection: close), and passes other methods on', async () => {
    const gate = drainGate()
    gate.start()
    expect(gate.draining()).toBe(true)
    const get = await gate.track(request('GET'), async () => ok)
    expect(get.status).toBe(503)
    expect(get.headers.connection).toBe('close')
    expect(await gate.track(request('POST'), async () => ok)).toBe(ok)
  })

  it('after the body: refuses the requests of a message under their ids while draining; notifications pass', async () => {
    const gate = drainGate()
    const ping = { jsonrpc: '2.0', id: 9, method: 'ping' }
    expect(await gate.refuse(request('POST', ping), async () => ok)).toBe(ok)
    gate.start()
    const refused = await gate.refuse(request('POST', ping), async () => ok)
    expect(refused.status).toBe(503)
    expect(JSON.parse(refused.body as string)).toEqual({ jsonrpc: '2.0', id: 9, error: { code: -32000, message: shuttingDown } })
    expect(await gate.refuse(request('POST', { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } }), async () => ok)).toBe(ok)
  })
})
