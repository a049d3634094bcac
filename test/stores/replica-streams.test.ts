/**
 * SSE resumption across replicas: two servers over one shared store (one memory store in this
 * process; two Redis or two PostgreSQL store values, as two processes would have, when
 * EMCP_TEST_REDIS_URL / EMCP_TEST_DATABASE_URL are set). A 2025-11-25 session's GET stream on
 * A receives events, is cut, and is resumed on B with `Last-Event-ID`: B replays exactly the
 * events written meanwhile (counted: none lost, none twice), and the session, taken over with
 * its resource subscriptions, gets `resources/updated` on B. A replica at its session limit
 * answers a takeover with 503. The official SDK 1.x client resumes its GET stream on B.
 */
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js'
import { emcp, mcpServer, resource, resources, type ResourcesFeature, type Server, type SharedStore } from '../../src/index.js'
import { serveHttp, type RunningHttp } from '../../src/transport/http.js'
import { onReplicaBackends } from '../support/replica-backends.js'
import { headers, initialize, V } from '../support/raw-session.js'
import { parseSse } from '../support/sse.js'

const noop = emcp({ name: 'noop', description: 'Does nothing.', input: { type: 'object' } })
const URI = 'docs://readme'
const N1 = 'docs://n1'
const N2 = 'docs://n2'

/** One replica: its own server and resources feature, over `store`. */
const replica = (store: SharedStore) => {
  const docs: ResourcesFeature = resources([URI, N1, N2].map((uri) => resource({ uri, name: uri.slice(7), read: () => '# Hello' })), { subscribe: true })
  const server = mcpServer([noop], { name: 'replica', version: '1' }, { store, features: [docs] }).implement({ noop: () => 'ok' }) as unknown as Server
  return { server, docs }
}

/** One JSON-RPC request in a session; its status and response. */
const post = async (url: string, sid: string, method: string, params: Record<string, unknown>): Promise<{ status: number; body: any }> => {
  const r = await fetch(url, { method: 'POST', headers: headers(sid), body: JSON.stringify({ jsonrpc: '2.0', id: randomUUID(), method, params }) })
  return { status: r.status, body: JSON.parse(await r.text()) }
}

/** A GET stream, read event by event. */
const openGet = async (url: string, sid: string, lastEventId?: string) => {
  const r = await fetch(url, { headers: { accept: 'text/event-stream', 'mcp-protocol-version': V, 'mcp-session-id': sid, ...(lastEventId === undefined ? {} : { 'last-event-id': lastEventId }) } })
  const reader = r.body === null ? undefined : r.body.getReader()
  const decoder = new TextDecoder()
  let text = ''
  const events: Array<{ id?: string; data?: string }> = []
  /** Reads until `count` events with data have come (the priming event has none); all events with data so far. */
  const until = async (count: number): Promise<Array<{ id?: string; data?: string }>> => {
    const withData = () => events.filter((e) => e.data !== undefined && e.data !== '')
    while (withData().length < count) {
      const { done, value } = await (reader as ReadableStreamDefaultReader<Uint8Array>).read()
      if (done) break
      text += decoder.decode(value, { stream: true })
      const end = text.lastIndexOf('\n\n')
      if (end === -1) continue
      events.push(...parseSse(text.slice(0, end + 2)))
      text = text.slice(end + 2)
    }
    return withData()
  }
  return { status: r.status, until, events, cut: () => reader?.cancel() }
}

const uriOf = (e: { data?: string }): unknown => JSON.parse(e.data ?? '{}').params?.uri

/** The tests, over two stores that share state (the same value for memory). */
const replicaStreams = (name: string, makeStores: () => Promise<[SharedStore, SharedStore]>, cleanUp: () => Promise<void> = async () => {}) =>
  describe(`SSE resumption across replicas (${name})`, () => {
    let stores: [SharedStore, SharedStore]
    let a: ReturnType<typeof replica>
    let b: ReturnType<typeof replica>
    let httpA: RunningHttp
    let httpB: RunningHttp
    beforeAll(async () => {
      stores = await makeStores()
      a = replica(stores[0])
      b = replica(stores[1])
      httpA = await serveHttp(a.server, { port: 0, handleSignals: false, sessions: true })
      httpB = await serveHttp(b.server, { port: 0, handleSignals: false, sessions: true })
    })
    afterAll(async () => {
      await httpA.close()
      await httpB.close()
      for (const s of new Set(stores)) await s.close()
      await cleanUp()
    })

    it('a GET stream cut on A resumes on B with exactly the events missed, then carries resources/updated from B', async () => {
      const sid = await initialize(httpA.url)
      expect((await post(httpA.url, sid, 'resources/subscribe', { uri: URI })).body.result).toEqual({})
      const first = await openGet(httpA.url, sid)
      expect(first.status).toBe(200)
      for (let i = 0; i < 3; i++) a.docs.updated(URI)
      const seen = await first.until(3)
      expect(seen.map(uriOf)).toEqual([URI, URI, URI])
      const last = seen[2]?.id as string
      expect(last).toBeTruthy()
      await first.cut()
      const missed = 4
      for (let i = 0; i < missed; i++) a.docs.updated(URI)
      // the events are kept before B reads them: A's writes are chained; wait for the log to hold them
      await vi.waitFor(async () => expect((await stores[1].events.after(last))?.events.length).toBe(missed), { timeout: 10_000, interval: 20 })

      const resumed = await openGet(httpB.url, sid, last)
      expect(resumed.status).toBe(200)
      const replayed = await resumed.until(missed)
      expect(replayed).toHaveLength(missed)
      expect(replayed.map(uriOf)).toEqual(Array(missed).fill(URI))
      // every id new, none of those read before
      const ids = replayed.map((e) => e.id)
      expect(new Set([...ids, ...seen.map((e) => e.id)]).size).toBe(missed + 3)
      // B took the session over with its subscription: an update caused on B reaches the stream on B
      b.docs.updated(URI)
      const all = await resumed.until(missed + 1)
      expect(all).toHaveLength(missed + 1)
      expect(uriOf(all[missed] as { data?: string })).toBe(URI)
      await resumed.cut()
    })

    it('a session taken over on B keeps its subscriptions: resources/updated after takeover, none after unsubscribe on B', async () => {
      const sid = await initialize(httpA.url)
      expect((await post(httpA.url, sid, 'resources/subscribe', { uri: URI })).body.result).toEqual({})
      const other = 'docs://other'
      const onB = await openGet(httpB.url, sid)
      expect(onB.status).toBe(200)
      await onB.until(0)
      b.docs.updated(other) // not subscribed: never delivered
      b.docs.updated(URI)
      const got = await onB.until(1)
      expect(got.map(uriOf)).toEqual([URI])
      // unsubscribed on B: the record says so, and a replica that takes the session over later sees none
      expect((await post(httpB.url, sid, 'resources/unsubscribe', { uri: URI })).body.result).toEqual({})
      expect((await stores[0].sessions.get(sid))?.subscriptions).toEqual([])
      await onB.cut()
    })

    it('a replica at its session limit answers a takeover with 503, not 404', async () => {
      const c = replica(stores[1])
      const httpC = await serveHttp(c.server, { port: 0, handleSignals: false, sessions: { maxSessions: 1 } })
      try {
        // C's one session is busy (its GET stream is open), so nothing can make room
        const own = await initialize(httpC.url)
        const busy = await openGet(httpC.url, own)
        await busy.until(0)
        const sid = await initialize(httpA.url)
        const r = await post(httpC.url, sid, 'ping', {})
        expect(r.status).toBe(503)
        expect(r.body.error.message).toMatch(/no room to take the session over/)
        await busy.cut()
      } finally {
        await httpC.close()
      }
    })

    it('the official SDK 1.x client resumes its GET stream on B and receives every event once', async () => {
      let toB = false
      const kill = new AbortController()
      const route = (async (url: string | URL, init?: RequestInit) => {
        const target = new URL(String(url))
        target.host = new URL(toB ? httpB.url : httpA.url).host
        // A's connections die with `kill`, as if A went away
        const signals = [init?.signal, toB ? undefined : kill.signal].filter((x): x is AbortSignal => x !== undefined && x !== null)
        return fetch(target, { ...init, signal: AbortSignal.any(signals) })
      }) as typeof fetch
      const transport = new StreamableHTTPClientTransport(new URL(httpA.url), {
        fetch: route,
        reconnectionOptions: { initialReconnectionDelay: 10, maxReconnectionDelay: 50, reconnectionDelayGrowFactor: 1, maxRetries: 50 },
      })
      const client = new Client({ name: 'sdk', version: '1' })
      const heard: string[] = []
      client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void heard.push(n.params.uri))
      await client.connect(transport)
      for (const uri of [URI, N1, N2]) await client.subscribeResource({ uri })
      // the SDK opens its GET stream after initialize: an update reaches it once it is open
      let caused = 0
      await vi.waitFor(
        () => {
          caused++
          a.docs.updated(URI)
          expect(heard.length).toBeGreaterThan(0)
        },
        { timeout: 10_000, interval: 50 },
      )
      // A goes away mid-stream; the client resumes with its Last-Event-ID, now routed to B
      toB = true
      kill.abort()
      b.docs.updated(N1)
      await vi.waitFor(() => expect(heard).toContain(N1), { timeout: 20_000, interval: 20 })
      b.docs.updated(N2)
      await vi.waitFor(() => expect(heard).toContain(N2), { timeout: 20_000, interval: 20 })
      // nothing twice, nothing lost: every update caused once the stream was open heard once, in order
      // (those caused before the SDK opened its GET stream had no stream to go to, as MCP allows)
      const early = heard.filter((u) => u === URI).length
      expect(early).toBeGreaterThan(0)
      expect(early).toBeLessThanOrEqual(caused)
      expect(heard).toEqual([...Array(early).fill(URI), N1, N2])
      await client.close()
    })
  })

onReplicaBackends('replica stream tests', replicaStreams)
