/**
 * Fair sessions in stateful HTTP: limits per caller (the identity's subject, else the client
 * address) before the global cap, authenticated sessions never ended to make room for
 * anonymous ones, a busy caller's sessions before an idle newcomer is refused, GET streams
 * per session, and a DELETEd session's events dropped from the store at once. The clients
 * come from different loopback addresses (127.0.0.2, 127.0.0.3, ...), as different hosts
 * would.
 */
import { Agent, request, type IncomingMessage } from 'node:http'
import { afterEach, describe, expect, it } from 'vitest'
import { emcp, mcpServer } from '../../../src/index.js'
import { addressKey, callerOf } from '../../../src/transport/http/caller.js'
import { until } from '../../interop/children.js'
import { memoryEventStore, serveHttp, type RunningHttp, type ServeHttpOptions } from '../../../src/transport/http.js'

const echo = emcp({ name: 'echo', description: 'Echo.', input: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } })
const wait = emcp({ name: 'wait', description: 'Answers once the test opens the gate.', input: { type: 'object', properties: { gate: { type: 'string' } }, required: ['gate'] } })
const gates = new Map<string, () => void>()
const server = mcpServer([echo, wait], { name: 'fair', version: '1' }).implement({
  echo: ({ text }) => text,
  wait: ({ gate }, ctx) =>
    new Promise<string>((resolve) => {
      ctx.progress(1)
      gates.set(gate, () => resolve(`opened ${gate}`))
    }),
})

const tokens: { readonly [token: string]: string } = { alice: 'alice', bob: 'bob' }
const auth = { verify: (token: string) => (tokens[token] === undefined ? undefined : { subject: tokens[token] as string, roles: [] }) }

let running: RunningHttp | undefined
const agents: Agent[] = []
const open: Array<{ destroy: () => void }> = []
afterEach(async () => {
  for (const o of open.splice(0)) o.destroy()
  for (const a of agents.splice(0)) a.destroy()
  await running?.close()
  running = undefined
})

const serve = async (options: ServeHttpOptions = {}): Promise<string> => {
  running = await serveHttp(server, { port: 0, handleSignals: false, auth, ...options, sessions: options.sessions ?? true })
  return running.url
}

/** A client on its own loopback address (n = 2 .. 254); `token` authenticates it. */
const client = (url: string, n: number, token?: string) => {
  const localAddress = `127.0.0.${n}`
  const agent = new Agent({ keepAlive: true, maxSockets: 4 })
  agents.push(agent)
  const headers = (sid?: string, extra: Record<string, string> = {}): Record<string, string> => ({
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2025-11-25',
    ...(sid === undefined ? {} : { 'mcp-session-id': sid }),
    ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
    ...extra,
  })
  const exchange = (method: string, sid: string | undefined, body?: unknown, extra: Record<string, string> = {}) =>
    new Promise<{ status: number; sid: string | undefined; text: string }>((resolve, reject) => {
      const req = request(url, { method, headers: headers(sid, extra), agent, localAddress }, (res) => {
        let text = ''
        res.setEncoding('utf8')
        res.on('data', (c: string) => (text += c))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, sid: header(res, 'mcp-session-id'), text }))
      })
      req.on('error', reject)
      req.end(body === undefined ? undefined : JSON.stringify(body))
    })
  return {
    /** Initializes a session: its id, or the refusal's status. */
    initialize: async (): Promise<{ status: number; sid: string | undefined }> => {
      const init = await exchange('POST', undefined, { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: `c${n}`, version: '1' } } })
      if (init.sid !== undefined) await exchange('POST', init.sid, { jsonrpc: '2.0', method: 'notifications/initialized' })
      return { status: init.status, sid: init.sid }
    },
    /** Calls echo in a session: the status and the text answered. */
    echo: async (sid: string, text: string): Promise<{ status: number; text: string }> => {
      const r = await exchange('POST', sid, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: { text } } }, { accept: 'application/json' })
      return { status: r.status, text: r.status === 200 ? (JSON.parse(r.text).result?.content?.[0]?.text as string) : r.text }
    },
    /** Opens a GET stream (its own connection, kept open until the test ends): its status once the headers came. */
    stream: (sid: string, lastEventId?: string) =>
      new Promise<number>((resolve, reject) => {
        const req = request(url, { method: 'GET', headers: headers(sid, { accept: 'text/event-stream', ...(lastEventId === undefined ? {} : { 'last-event-id': lastEventId }) }), agent: false, localAddress }, (res) => {
          if (res.statusCode !== 200) res.resume()
          resolve(res.statusCode ?? 0)
        })
        req.on('error', reject)
        req.end()
        open.push({ destroy: () => req.destroy() })
      }),
    /** Starts a call answered as SSE and drops its connection after the first event: the id of the event it had. */
    cutCall: (sid: string, gate: string) =>
      new Promise<string>((resolve, reject) => {
        const body = JSON.stringify({ jsonrpc: '2.0', id: gate, method: 'tools/call', params: { name: 'wait', arguments: { gate }, _meta: { progressToken: gate } } })
        const req = request(url, { method: 'POST', headers: headers(sid), agent: false, localAddress }, (res) => {
          let text = ''
          res.setEncoding('utf8')
          res.on('data', (c: string) => {
            text += c
            const ids = [...text.matchAll(/^id: (.+)$/gm)].map((m) => m[1] as string)
            if (text.includes('notifications/progress') && ids.length >= 2) {
              req.destroy()
              resolve(ids.at(-1) as string)
            }
          })
        })
        req.on('error', () => {})
        req.on('close', () => reject(new Error('the stream closed before its progress event')))
        req.end(body)
      }),
    ping: async (sid: string): Promise<number> => (await exchange('POST', sid, { jsonrpc: '2.0', id: 2, method: 'ping' }, { accept: 'application/json' })).status,
    delete: async (sid: string): Promise<number> => (await exchange('DELETE', sid)).status,
  }
}

const header = (res: IncomingMessage, name: string): string | undefined => {
  const v = res.headers[name]
  return Array.isArray(v) ? v[0] : v
}

describe('callers', () => {
  it('count an identity by its subject, an address by itself, IPv6 by its /64', () => {
    expect(callerOf({ subject: 'alice', roles: [] }, '10.0.0.1')).toEqual({ key: 'subject:alice', authenticated: true })
    expect(callerOf(undefined, '10.0.0.1')).toEqual({ key: 'address:10.0.0.1', authenticated: false })
    expect(callerOf(undefined, undefined)).toEqual({ key: undefined, authenticated: false })
    expect(addressKey('::ffff:10.0.0.1')).toBe('10.0.0.1')
    expect(addressKey('2001:db8:0:1:aaaa:bbbb:cccc:dddd')).toBe('2001:db8:0:1::/64')
    expect(addressKey('2001:db8:0:1::7')).toBe('2001:db8:0:1::/64')
    expect(addressKey('2001:db8::1')).toBe('2001:db8:0:0::/64')
    expect(addressKey('::1')).toBe('0:0:0:0::/64')
    expect(addressKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64')
  })
})

describe('stateful http: sessions per caller', () => {
  it("ends a caller's own least recently used idle session to make room for its next one", async () => {
    const url = await serve({ sessions: { maxSessionsPerCaller: 3 } })
    const c = client(url, 2)
    const sids = [await c.initialize(), await c.initialize(), await c.initialize()].map((r) => r.sid as string)
    await c.ping(sids[1] as string)
    await c.ping(sids[2] as string)
    const fourth = await c.initialize()
    expect(fourth.status).toBe(200)
    expect(await c.ping(sids[0] as string)).toBe(404)
    expect(await c.ping(sids[1] as string)).toBe(200)
    // another address is another caller: its sessions are its own
    const other = client(url, 3)
    expect((await other.initialize()).status).toBe(200)
    expect(await c.ping(sids[1] as string)).toBe(200)
  })

  it('refuses a caller whose sessions all hold streams with 429, and nobody else', async () => {
    const url = await serve({ sessions: { maxSessionsPerCaller: 2 } })
    const c = client(url, 2)
    for (let i = 0; i < 2; i++) {
      const { sid } = await c.initialize()
      expect(await c.stream(sid as string)).toBe(200)
    }
    const refused = await c.initialize()
    expect(refused.status).toBe(429)
    expect((await client(url, 3).initialize()).status).toBe(200)
  })

  it('counts an authenticated caller by its subject, wherever it connects from', async () => {
    const url = await serve({ sessions: { maxSessionsPerCaller: 1 } })
    const a = client(url, 2, 'alice')
    const first = await a.initialize()
    expect(await a.stream(first.sid as string)).toBe(200)
    expect((await client(url, 3, 'alice').initialize()).status).toBe(429)
    expect((await client(url, 3, 'bob').initialize()).status).toBe(200)
    expect((await client(url, 3).initialize()).status).toBe(200)
  })
})

describe('stateful http: the global cap', () => {
  it('never ends an authenticated session to make room for an anonymous one', async () => {
    const url = await serve({ sessions: { maxSessions: 4 } })
    const subjects = ['alice', 'bob']
    const held = []
    for (const [i, token] of subjects.entries()) {
      const c = client(url, 2 + i, token)
      held.push({ c, sids: [(await c.initialize()).sid as string, (await c.initialize()).sid as string] })
    }
    // four idle authenticated sessions: an anonymous newcomer finds no room
    expect((await client(url, 10).initialize()).status).toBe(503)
    for (const { c, sids } of held) for (const sid of sids) expect(await c.ping(sid)).toBe(200)
  })

  it('ends an idle anonymous session before an idle authenticated one', async () => {
    const url = await serve({ sessions: { maxSessions: 2 } })
    const anonymous = client(url, 2)
    const alice = client(url, 3, 'alice')
    const a = (await alice.initialize()).sid as string
    const n = (await anonymous.initialize()).sid as string
    // alice's session is the least recently used, but the anonymous one goes first
    const bob = client(url, 4, 'bob')
    expect((await bob.initialize()).status).toBe(200)
    expect(await alice.ping(a)).toBe(200)
    expect(await anonymous.ping(n)).toBe(404)
  })

  it('with 1000 anonymous sessions holding streams, a new authenticated client still initializes and calls', async () => {
    // ten hosts, a hundred sessions each (the per-caller default), each with its GET stream open
    const url = await serve()
    const hosts = Array.from({ length: 10 }, (_, i) => client(url, 2 + i))
    const sessions: Array<{ host: number; sid: string }> = []
    for (const [h, c] of hosts.entries())
      await Promise.all(
        Array.from({ length: 100 }, async () => {
          const { status, sid } = await c.initialize()
          expect(status).toBe(200)
          expect(await c.stream(sid as string)).toBe(200)
          sessions.push({ host: h, sid: sid as string })
        }),
      )
    expect(running?.server.listening).toBe(true)
    expect(sessions).toHaveLength(1000)
    // a host at its own limit, every session busy, is refused
    expect((await hosts[0]?.initialize())?.status).toBe(429)
    // an authenticated client gets in (an anonymous session makes room) and calls
    const alice = client(url, 50, 'alice')
    const mine = await alice.initialize()
    expect(mine.status).toBe(200)
    expect(await alice.echo(mine.sid as string, 'still served')).toEqual({ status: 200, text: 'still served' })
    // so does a new anonymous host: a host holding a hundred gives one up
    const newcomer = client(url, 51)
    const theirs = await newcomer.initialize()
    expect(theirs.status).toBe(200)
    expect(await newcomer.echo(theirs.sid as string, 'fair')).toEqual({ status: 200, text: 'fair' })
    // the authenticated session survives the newcomer
    expect(await alice.ping(mine.sid as string)).toBe(200)
  }, 60_000)
})

describe('stateful http: streams per session', () => {
  it('limits the GET streams of a session (the standalone one and resumptions) with 429', async () => {
    const url = await serve({ sessions: { maxGetStreams: 2 } })
    const c = client(url, 2)
    const { sid } = await c.initialize()
    const s = sid as string
    const first = await c.cutCall(s, 'one')
    const second = await c.cutCall(s, 'two')
    expect(await c.stream(s)).toBe(200)
    expect(await c.stream(s, first)).toBe(200)
    expect(await c.stream(s, second)).toBe(429)
    gates.get('one')?.()
    gates.get('two')?.()
  })

  it("drops a DELETEd session's events from the store at once", async () => {
    const store = memoryEventStore()
    const url = await serve({ sessions: { eventStore: store } })
    const c = client(url, 2)
    const { sid } = await c.initialize()
    const last = await c.cutCall(sid as string, 'gone')
    // the answer goes to the store: nobody reads the stream
    gates.get('gone')?.()
    await until(() => store.after(last)?.events.length === 1, 'the answer in the store')
    expect(await c.delete(sid as string)).toBe(200)
    expect(store.after(last)).toBeUndefined()
  })
})
