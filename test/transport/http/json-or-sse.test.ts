/**
 * Stateful Streamable HTTP (MCP 2025-11-25) chooses JSON or SSE per tool call: a call that
 * finishes before it sends anything gets plain JSON (and writes nothing to the event log); one
 * that notifies or asks the client gets its SSE stream, opened at its first message, with
 * every event in order and resumable with Last-Event-ID; one that runs past `jsonWithinMs`
 * gets its stream at the threshold; a client whose Accept names only SSE gets SSE. Through
 * `serveHttp`, on 127.0.0.1.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { emcp, mcpServer } from '../../../src/index.js'
import { memoryEventStore, serveHttp, type EventStore, type RunningHttp } from '../../../src/transport/http.js'
import { parseFrame, parseSse, type SseEvent } from '../../support/sse.js'

// ---------------------------------------------------------------------------------------
// fixtures

const echo = emcp({ name: 'echo', description: 'Echo the text.', input: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } })
const steps = emcp({
  name: 'steps',
  description: 'Progress 1, a log line, then wait for the gate; progress 2, then answer.',
  input: { type: 'object', properties: { gate: { type: 'string' } }, required: ['gate'] },
})
const quiet = emcp({
  name: 'quiet',
  description: 'Send nothing; answer once the gate opens.',
  input: { type: 'object', properties: { gate: { type: 'string' } }, required: ['gate'] },
})
const ask = emcp({ name: 'ask', description: 'Ask the user for a name and greet them.', input: { type: 'object' } })

/** Gates the tools wait on, opened by the tests; `reached` resolves once a tool waits on it. */
const gates = new Map<string, { readonly opened: Promise<void>; readonly open: () => void; readonly reached: Promise<void>; readonly reach: () => void }>()
const gate = (name: string) => {
  let g = gates.get(name)
  if (g === undefined) {
    let open = (): void => {}
    let reach = (): void => {}
    const opened = new Promise<void>((resolve) => (open = resolve))
    const reached = new Promise<void>((resolve) => (reach = resolve))
    g = { opened, open, reached, reach }
    gates.set(name, g)
  }
  return g
}

const newServer = () =>
  mcpServer([echo, steps, quiet, ask], { name: 'json-or-sse', version: '1' }).implement({
    echo: ({ text }) => text,
    steps: async ({ gate: name }, ctx) => {
      ctx.progress(1, 2, 'one')
      ctx.log('info', 'between')
      gate(name).reach()
      await gate(name).opened
      ctx.progress(2, 2, 'two')
      return `steps ${name}`
    },
    quiet: async ({ gate: name }) => {
      gate(name).reach()
      await gate(name).opened
      return `quiet ${name}`
    },
    ask: async (_args, ctx) => {
      const answer = await ctx.elicit({ message: 'Who are you?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } })
      return answer.action === 'accept' ? `hello ${answer.content.name}` : answer.action
    },
  })

/** An event store that counts what reaches it. */
const countingStore = () => {
  const inner = memoryEventStore()
  const counts = { prime: 0, append: 0 }
  const store: EventStore = {
    prime: (streamId, owner) => (counts.prime++, inner.prime(streamId, owner)),
    append: (streamId, data) => (counts.append++, inner.append(streamId, data)),
    after: (id) => inner.after(id),
    forget: (streamId) => inner.forget?.(streamId),
  }
  return { store, counts }
}

const both = 'application/json, text/event-stream'
const call = (name: string, args: object, id: number, progressToken?: number): string =>
  JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args, ...(progressToken === undefined ? {} : { _meta: { progressToken } }) } })

/** A POST (or GET) to the endpoint. */
const post = (url: string, body: string | undefined, init: { accept?: string; session?: string; lastEventId?: string; signal?: AbortSignal } = {}) =>
  fetch(url, {
    method: body === undefined ? 'GET' : 'POST',
    body,
    signal: init.signal,
    headers: {
      accept: init.accept ?? both,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(init.session === undefined ? {} : { 'mcp-session-id': init.session }),
      ...(init.lastEventId === undefined ? {} : { 'last-event-id': init.lastEventId }),
    },
  })

/** Initializes a session (with elicitation) and sends notifications/initialized; its id. */
const open = async (url: string): Promise<string> => {
  const res = await post(
    url,
    JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: { elicitation: {} }, clientInfo: { name: 't', version: '1' } } }),
  )
  expect(res.status).toBe(200)
  await res.text()
  const sid = res.headers.get('mcp-session-id') as string
  const done = await post(url, JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }), { session: sid })
  expect(done.status).toBe(202)
  await done.text()
  return sid
}

/** Reads an SSE body event by event (no clock: each read waits for the next chunk). */
const events = (res: Response) => {
  if (res.body === null) throw new Error('no body')
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader()
  let buffer = ''
  const ready: SseEvent[] = []
  return {
    next: async (): Promise<SseEvent | undefined> => {
      while (ready.length === 0) {
        const r = await reader.read()
        if (r.done) return undefined
        buffer += r.value
        for (let i = buffer.indexOf('\n\n'); i !== -1; i = buffer.indexOf('\n\n')) {
          ready.push(parseFrame(buffer.slice(0, i)))
          buffer = buffer.slice(i + 2)
        }
      }
      return ready.shift()
    },
    cancel: () => reader.cancel(),
  }
}

const methodOrResult = (e: SseEvent): string => {
  const m = JSON.parse(e.data as string)
  return m.method ?? (m.result !== undefined ? `result ${m.result.content?.[0]?.text ?? ''}` : 'error')
}

// ---------------------------------------------------------------------------------------
// tests

describe('stateful HTTP: JSON for a call that finishes at once, SSE when a call needs it', () => {
  let running: RunningHttp
  let slow: RunningHttp
  let always: RunningHttp
  const counting = countingStore()
  beforeAll(async () => {
    running = await serveHttp(newServer(), { port: 0, handleSignals: false, sessions: { eventStore: counting.store } })
    // a threshold no handler here reaches by itself before its gate opens (the gates decide, not the clock)
    slow = await serveHttp(newServer(), { port: 0, handleSignals: false, sessions: { jsonWithinMs: 10 } })
    always = await serveHttp(newServer(), { port: 0, handleSignals: false, sessions: { jsonWithinMs: 0 } })
  })
  afterAll(async () => {
    await Promise.all([running.close(), slow.close(), always.close()])
  })

  it('a call that finishes before it sends anything is answered as JSON, and writes nothing to the event log', async () => {
    const sid = await open(running.url)
    const before = { ...counting.counts }
    const res = await post(running.url, call('echo', { text: 'hi' }, 1), { session: sid })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/json')
    expect(await res.json()).toMatchObject({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'hi' }] } })
    expect(counting.counts).toEqual(before)
  })

  it('a call that notifies opens its stream at its first message: priming event, every event in order, each kept in the log', async () => {
    const sid = await open(running.url)
    const before = { ...counting.counts }
    const res = post(running.url, call('steps', { gate: 'in-order' }, 2, 7), { session: sid })
    // the headers come with the first progress, while the call still waits on its gate
    const answer = await res
    expect(answer.headers.get('content-type')).toBe('text/event-stream')
    await gate('in-order').reached
    gate('in-order').open()
    const all = parseSse(await answer.text())
    expect(all[0]).toMatchObject({ data: '' })
    expect(all[0]?.id).toBeTruthy()
    expect(all.slice(1).map(methodOrResult)).toEqual(['notifications/progress', 'notifications/message', 'notifications/progress', 'result steps in-order'])
    expect(all.slice(1).map((e) => JSON.parse(e.data as string).params?.progress)).toEqual([1, undefined, 2, undefined])
    expect(all.every((e) => e.id !== undefined)).toBe(true)
    expect(new Set(all.map((e) => e.id)).size).toBe(all.length)
    expect(counting.counts).toEqual({ prime: before.prime + 1, append: before.append + 4 })
  })

  it('a stream opened late is resumable with Last-Event-ID: the events after it, then the answer, once each', async () => {
    const sid = await open(running.url)
    const cut = new AbortController()
    const res = await post(running.url, call('steps', { gate: 'resume' }, 3, 8), { session: sid, signal: cut.signal })
    expect(res.headers.get('content-type')).toBe('text/event-stream')
    const reader = events(res)
    const priming = await reader.next()
    const first = await reader.next()
    expect(priming?.data).toBe('')
    expect(methodOrResult(first as SseEvent)).toBe('notifications/progress')
    // the connection goes after the first progress; the call goes on, and writes to the log
    cut.abort()
    await reader.cancel().catch(() => undefined)
    await gate('resume').reached
    gate('resume').open()
    const resumed = await post(running.url, undefined, { session: sid, accept: 'text/event-stream', lastEventId: first?.id as string })
    expect(resumed.status).toBe(200)
    const rest = parseSse(await resumed.text()).filter((e) => e.data !== '')
    expect(rest.map(methodOrResult)).toEqual(['notifications/message', 'notifications/progress', 'result steps resume'])
  })

  it('a call that asks the client (elicitation) gets its stream, and the answer posted back completes it', async () => {
    const sid = await open(running.url)
    const res = await post(running.url, call('ask', {}, 4), { session: sid })
    expect(res.headers.get('content-type')).toBe('text/event-stream')
    const reader = events(res)
    expect((await reader.next())?.data).toBe('')
    const request = JSON.parse((await reader.next())?.data as string)
    expect(request.method).toBe('elicitation/create')
    const back = await post(running.url, JSON.stringify({ jsonrpc: '2.0', id: request.id, result: { action: 'accept', content: { name: 'Ada' } } }), { session: sid })
    expect(back.status).toBe(202)
    await back.text()
    const answer = await reader.next()
    expect(JSON.parse(answer?.data as string)).toMatchObject({ id: 4, result: { content: [{ type: 'text', text: 'hello Ada' }] } })
    expect(await reader.next()).toBeUndefined()
  })

  it('a call that runs past jsonWithinMs without sending anything gets its stream at the threshold', async () => {
    const sid = await open(slow.url)
    // the answer's headers arrive while the call still waits on its gate: the threshold opened the stream
    const res = await post(slow.url, call('quiet', { gate: 'late' }, 5), { session: sid })
    expect(res.headers.get('content-type')).toBe('text/event-stream')
    const reader = events(res)
    const priming = await reader.next()
    expect(priming?.data).toBe('')
    expect(priming?.id).toBeTruthy()
    gate('late').open()
    expect(JSON.parse((await reader.next())?.data as string)).toMatchObject({ id: 5, result: { content: [{ type: 'text', text: 'quiet late' }] } })
    expect(await reader.next()).toBeUndefined()
  })

  it('the same quiet call answered before the threshold is JSON', async () => {
    const sid = await open(slow.url)
    gate('early').open()
    const res = await post(slow.url, call('quiet', { gate: 'early' }, 6), { session: sid })
    expect(res.headers.get('content-type')).toBe('application/json')
    expect(await res.json()).toMatchObject({ id: 6, result: { content: [{ type: 'text', text: 'quiet early' }] } })
  })

  it('a client whose Accept names only text/event-stream gets SSE even for a call that finishes at once', async () => {
    const sid = await open(running.url)
    const res = await post(running.url, call('echo', { text: 'sse' }, 7), { session: sid, accept: 'text/event-stream' })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('text/event-stream')
    const all = parseSse(await res.text())
    expect(all[0]?.data).toBe('')
    expect(JSON.parse(all[1]?.data as string)).toMatchObject({ id: 7, result: { content: [{ type: 'text', text: 'sse' }] } })
  })

  it('with only text/event-stream accepted, a request that is not a tool call gets 406; a notification still 202', async () => {
    const sid = await open(running.url)
    const ping = await post(running.url, JSON.stringify({ jsonrpc: '2.0', id: 8, method: 'ping' }), { session: sid, accept: 'text/event-stream' })
    expect(ping.status).toBe(406)
    expect((await ping.json()).error.message).toMatch(/Not Acceptable/)
    const note = await post(running.url, JSON.stringify({ jsonrpc: '2.0', method: 'notifications/roots/list_changed' }), { session: sid, accept: 'text/event-stream' })
    expect(note.status).toBe(202)
    await note.text()
    // without a session, an initialize that accepts only SSE is refused before anything opens
    const init = await post(running.url, JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: {} }), { accept: 'text/event-stream' })
    expect(init.status).toBe(406)
    await init.text()
  })

  it('jsonWithinMs: 0 streams every call, as before', async () => {
    const sid = await open(always.url)
    const res = await post(always.url, call('echo', { text: 'streamed' }, 9), { session: sid })
    expect(res.headers.get('content-type')).toBe('text/event-stream')
    const all = parseSse(await res.text())
    expect(JSON.parse(all[1]?.data as string)).toMatchObject({ id: 9, result: { content: [{ type: 'text', text: 'streamed' }] } })
  })

  it('other requests keep their JSON answers; a ping with both types accepted is JSON', async () => {
    const sid = await open(running.url)
    const res = await post(running.url, JSON.stringify({ jsonrpc: '2.0', id: 10, method: 'ping' }), { session: sid })
    expect(res.headers.get('content-type')).toBe('application/json')
    expect(await res.json()).toEqual({ jsonrpc: '2.0', id: 10, result: {} })
  })
})
