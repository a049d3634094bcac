import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { ClientError, outbound, type ServerMessage } from '../../src/index.js'

/** A channel that records what it sends. */
const recorded = () => {
  const sent: ServerMessage[] = []
  return { sent, out: outbound((m) => sent.push(m)) }
}

/** The id of the last request sent. */
const lastId = (sent: ReadonlyArray<ServerMessage>): string | number => {
  const request = [...sent].reverse().find((m) => 'id' in m)
  if (request === undefined || !('id' in request)) throw new Error('no request was sent')
  return request.id
}

/** Whether a promise has settled yet (after the microtasks queued so far). */
const settled = async (p: Promise<unknown>): Promise<boolean> => {
  let done = false
  p.then(
    () => (done = true),
    () => (done = true),
  )
  await Promise.resolve()
  await Promise.resolve()
  return done
}

beforeEach(() => {
  vi.useFakeTimers()
})
afterEach(() => {
  vi.useRealTimers()
})

describe('outbound: notifications', () => {
  it('sends a notification, with no params member when there are none', () => {
    const { sent, out } = recorded()
    out.notify('notifications/tools/list_changed')
    out.notify('notifications/message', { level: 'info', data: 'hi' })
    expect(sent).toEqual([
      { jsonrpc: '2.0', method: 'notifications/tools/list_changed' },
      { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'hi' } },
    ])
    expect('params' in (sent[0] as object)).toBe(false)
    expect(vi.getTimerCount()).toBe(0)
  })
})

describe('outbound: requests settled by the client’s responses', () => {
  it('sends a request with a prefixed string id of its own, and resolves to the result', async () => {
    const { sent, out } = recorded()
    const roots = out.request('roots/list')
    const sample = out.request('sampling/createMessage', { maxTokens: 5 })
    expect(sent).toEqual([
      { jsonrpc: '2.0', id: 'emcp-1', method: 'roots/list' },
      { jsonrpc: '2.0', id: 'emcp-2', method: 'sampling/createMessage', params: { maxTokens: 5 } },
    ])
    expect('params' in (sent[0] as object)).toBe(false)
    expect(out.settle({ kind: 'response', id: 'emcp-2', result: { model: 'm' } })).toBe(true)
    expect(out.settle({ kind: 'response', id: 'emcp-1', result: { roots: [] } })).toBe(true)
    await expect(sample).resolves.toEqual({ model: 'm' })
    await expect(roots).resolves.toEqual({ roots: [] })
    // settling clears the timeout
    expect(vi.getTimerCount()).toBe(0)
  })

  it('resolves to an undefined result as it is', async () => {
    const { sent, out } = recorded()
    const p = out.request('ping')
    expect(out.settle({ kind: 'response', id: lastId(sent) })).toBe(true)
    await expect(p).resolves.toBeUndefined()
  })

  it('rejects with a ClientError carrying the code, the message and the data of an error response', async () => {
    const { sent, out } = recorded()
    const p = out.request('elicitation/create', { mode: 'form' })
    expect(out.settle({ kind: 'response', id: lastId(sent), error: { code: -32601, message: 'not supported', data: { why: 'no ui' } } })).toBe(true)
    const e = await p.then(
      () => undefined,
      (err: unknown) => err,
    )
    expect(e).toBeInstanceOf(ClientError)
    expect(e).toBeInstanceOf(Error)
    expect(e).toMatchObject({ name: 'ClientError', code: -32601, message: 'not supported', data: { why: 'no ui' } })
  })

  it('gives a ClientError without data when the error has none', async () => {
    const { sent, out } = recorded()
    const p = out.request('roots/list')
    out.settle({ kind: 'response', id: lastId(sent), error: { code: -32603, message: 'boom' } })
    const e = (await p.catch((err: unknown) => err)) as ClientError
    expect(e.code).toBe(-32603)
    expect(e.data).toBeUndefined()
  })

  it('settles each request once: a second response to the same id answers nothing', async () => {
    const { sent, out } = recorded()
    const p = out.request('roots/list')
    const id = lastId(sent)
    expect(out.settle({ kind: 'response', id, result: 1 })).toBe(true)
    expect(out.settle({ kind: 'response', id, result: 2 })).toBe(false)
    await expect(p).resolves.toBe(1)
  })

  it('returns false for a response to an id it never asked, and leaves pending requests alone', async () => {
    const { sent, out } = recorded()
    const p = out.request('roots/list')
    expect(out.settle({ kind: 'response', id: 'emcp-99', result: {} })).toBe(false)
    expect(out.settle({ kind: 'response', id: 1, result: {} })).toBe(false)
    expect(out.settle({ kind: 'response', id: 'nope', error: { code: -1, message: 'x' } })).toBe(false)
    expect(await settled(p)).toBe(false)
    out.settle({ kind: 'response', id: lastId(sent), result: 'ok' })
    await expect(p).resolves.toBe('ok')
  })
})

describe('outbound: requests that give up', () => {
  it('times out after timeoutMs: tells the client notifications/cancelled and rejects', async () => {
    const { sent, out } = recorded()
    const p = out.request('roots/list', undefined, { timeoutMs: 50 })
    const id = lastId(sent)
    vi.advanceTimersByTime(49)
    expect(await settled(p)).toBe(false)
    vi.advanceTimersByTime(1)
    await expect(p).rejects.toThrow('roots/list timed out after 50 ms')
    await expect(p).rejects.not.toBeInstanceOf(ClientError)
    expect(sent[1]).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: id, reason: 'roots/list timed out after 50 ms' },
    })
    // a late answer settles nothing
    expect(out.settle({ kind: 'response', id, result: {} })).toBe(false)
    expect(sent).toHaveLength(2)
  })

  it('times out after 60 seconds by default', async () => {
    const { sent, out } = recorded()
    const p = out.request('sampling/createMessage', { maxTokens: 1 })
    vi.advanceTimersByTime(59_999)
    expect(await settled(p)).toBe(false)
    vi.advanceTimersByTime(1)
    await expect(p).rejects.toThrow('sampling/createMessage timed out after 60000 ms')
    expect(sent.map((m) => m.method)).toEqual(['sampling/createMessage', 'notifications/cancelled'])
  })

  it('gives up when its signal aborts: notifications/cancelled, then a rejection', async () => {
    const { sent, out } = recorded()
    const controller = new AbortController()
    const p = out.request('elicitation/create', { mode: 'form' }, { signal: controller.signal })
    const id = lastId(sent)
    controller.abort('the user left')
    await expect(p).rejects.toThrow('elicitation/create was cancelled')
    expect(sent[1]).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: id, reason: 'elicitation/create was cancelled' },
    })
    expect(out.settle({ kind: 'response', id, result: {} })).toBe(false)
    // the timeout is gone with it: nothing more is sent later
    expect(vi.getTimerCount()).toBe(0)
    vi.advanceTimersByTime(120_000)
    expect(sent).toHaveLength(2)
  })

  it('does not cancel a request already answered when its signal aborts later', async () => {
    const { sent, out } = recorded()
    const controller = new AbortController()
    const p = out.request('roots/list', undefined, { signal: controller.signal })
    out.settle({ kind: 'response', id: lastId(sent), result: { roots: [] } })
    controller.abort()
    await expect(p).resolves.toEqual({ roots: [] })
    expect(sent).toHaveLength(1)
  })

  it('rejects at once, sending nothing, when the signal is already aborted', async () => {
    const { sent, out } = recorded()
    const p = out.request('roots/list', undefined, { signal: AbortSignal.abort() })
    await expect(p).rejects.toThrow('roots/list was cancelled')
    expect(sent).toEqual([])
    expect(vi.getTimerCount()).toBe(0)
    // the id it would have had was never handed out as pending
    expect(out.settle({ kind: 'response', id: 'emcp-1', result: {} })).toBe(false)
  })

  it('leaves other requests pending when one times out or aborts', async () => {
    const { sent, out } = recorded()
    const controller = new AbortController()
    const a = out.request('a', undefined, { signal: controller.signal })
    const b = out.request('b', undefined, { timeoutMs: 10 })
    const c = out.request('c')
    controller.abort()
    vi.advanceTimersByTime(10)
    await expect(a).rejects.toThrow('a was cancelled')
    await expect(b).rejects.toThrow('b timed out after 10 ms')
    expect(out.settle({ kind: 'response', id: 'emcp-3', result: 'c' })).toBe(true)
    await expect(c).resolves.toBe('c')
    expect(sent.filter((m) => m.method === 'notifications/cancelled')).toHaveLength(2)
  })
})

describe('outbound: close', () => {
  it('rejects every pending request with the reason, sends nothing, and clears the timers', async () => {
    const { sent, out } = recorded()
    const controller = new AbortController()
    const a = out.request('roots/list')
    const b = out.request('sampling/createMessage', { maxTokens: 1 }, { signal: controller.signal, timeoutMs: 1000 })
    out.close('the connection closed')
    await expect(a).rejects.toThrow('the connection closed')
    await expect(b).rejects.toThrow('the connection closed')
    expect(sent).toHaveLength(2)
    expect(vi.getTimerCount()).toBe(0)
    // nothing is pending any more: aborting or answering does nothing
    controller.abort()
    expect(out.settle({ kind: 'response', id: 'emcp-1', result: {} })).toBe(false)
    expect(sent).toHaveLength(2)
  })

  it('does nothing without pending requests, and the channel still works afterwards', async () => {
    const { sent, out } = recorded()
    out.close('nothing to do')
    const p = out.request('roots/list')
    out.settle({ kind: 'response', id: lastId(sent), result: 'ok' })
    await expect(p).resolves.toBe('ok')
  })
})

describe('outbound: a send that throws', () => {
  it('rejects the request and leaves nothing pending (no timer, no later notifications/cancelled)', async () => {
    const sent: ServerMessage[] = []
    let broken = true
    const out = outbound((m) => {
      if (broken && 'id' in m) throw new Error('the pipe is closed')
      sent.push(m)
    })
    const p = out.request('roots/list', undefined, { timeoutMs: 100 })
    await expect(p).rejects.toThrow('the pipe is closed')
    broken = false
    vi.advanceTimersByTime(100)
    // the request never reached the client: nothing should be cancelled for it
    expect(sent).toEqual([])
    expect(vi.getTimerCount()).toBe(0)
  })
})
