/**
 * DELETE across replicas, without a race: two servers over one shared store (one memory store
 * in this process; two Redis or two PostgreSQL store values, as two processes would have,
 * when EMCP_TEST_REDIS_URL / EMCP_TEST_DATABASE_URL are set), each store seen through a
 * wrapper of this test that holds back the bus's "session ended" messages until released and
 * counts the session calls. A session DELETEd on A is answered 404 on B, which holds it, at
 * once after A's answer, though B has heard nothing of the end. A DELETE whose store delete
 * fails is a 503 and the session goes on everywhere; a replica that cannot read the store
 * answers 503 for a session it holds. A session held busy on B (its GET stream
 * open) keeps its record alive past the idle time, and ends on B once its record is gone. On
 * its own default store a server makes no store call for a request.
 */
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { channels, emcp, mcpServer, memoryStore, type BusMessage, type Server, type SharedStore } from '../../src/index.js'
import { serveHttp, type RunningHttp } from '../../src/transport/http.js'
import { postgres } from '../../src/sources/postgres/database.js'
import { postgresStore } from '../../src/stores/postgres.js'
import { redisStore } from '../../src/stores/redis.js'

const noop = emcp({ name: 'noop', description: 'Does nothing.', input: { type: 'object' } })
const newServer = (store?: SharedStore): Server => mcpServer([noop], { name: 'replica', version: '1' }, store === undefined ? {} : { store }).implement({ noop: () => 'ok' }) as unknown as Server

const V = '2025-11-25'
const headers = (sid?: string): Record<string, string> => ({
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': V,
  ...(sid === undefined ? {} : { 'mcp-session-id': sid }),
})

/** Initializes a session on `url`, sends `notifications/initialized`; its id. */
const initialize = async (url: string): Promise<string> => {
  const r = await fetch(url, {
    method: 'POST',
    headers: headers(),
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: V, capabilities: {}, clientInfo: { name: 't', version: '1' } } }),
  })
  expect(r.status).toBe(200)
  const sid = r.headers.get('mcp-session-id') as string
  await r.text()
  const n = await fetch(url, { method: 'POST', headers: headers(sid), body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) })
  expect(n.status).toBe(202)
  return sid
}

/** The HTTP status of a tools/list in the session (its body read). */
const listStatus = async (url: string, sid: string): Promise<number> => {
  const r = await fetch(url, { method: 'POST', headers: headers(sid), body: JSON.stringify({ jsonrpc: '2.0', id: randomUUID(), method: 'tools/list', params: {} }) })
  await r.text()
  return r.status
}

/** The HTTP status of a DELETE of the session. */
const deleteStatus = async (url: string, sid: string): Promise<number> => {
  const r = await fetch(url, { method: 'DELETE', headers: headers(sid) })
  await r.text()
  return r.status
}

/** A GET stream of the session: its status, and a promise that resolves when the server ends it. */
const openGet = async (url: string, sid: string) => {
  const r = await fetch(url, { headers: { accept: 'text/event-stream', 'mcp-protocol-version': V, 'mcp-session-id': sid } })
  const reader = r.body?.getReader()
  const ended = (async () => {
    if (reader === undefined) return
    for (;;) if ((await reader.read()).done) return
  })()
  return { status: r.status, ended, cut: () => reader?.cancel() }
}

/**
 * `inner` as one replica sees it: the session calls counted, the bus's messages on the
 * sessions channel held until `release`, and the session deletes made to fail on demand.
 */
const watched = (inner: SharedStore) => {
  const held: Array<() => void> = []
  const calls: string[] = []
  const touches: Array<() => void> = []
  const state = { holding: true, failDeletes: false, failReads: false }
  const count = <A>(what: string, f: () => Promise<A>): Promise<A> => {
    calls.push(what)
    return f()
  }
  const store: SharedStore = {
    ...inner,
    sessions: {
      put: (record, ttlMs) => count('put', () => inner.sessions.put(record, ttlMs)),
      get: (id) => count('get', () => (state.failReads ? Promise.reject(new Error('the test fails reads')) : inner.sessions.get(id))),
      touch: (id, ttlMs) =>
        count('touch', () => (state.failReads ? Promise.reject(new Error('the test fails reads')) : inner.sessions.touch(id, ttlMs))).finally(() => {
          for (const f of touches.splice(0)) f()
        }),
      delete: (id) => count('delete', () => (state.failDeletes ? Promise.reject(new Error('the test fails deletes')) : inner.sessions.delete(id))),
    },
    bus: {
      publish: (channel, message) => inner.bus.publish(channel, message),
      subscribe: (channel, handler) =>
        inner.bus.subscribe(channel, (m: BusMessage) => {
          if (channel === channels.sessions && state.holding) held.push(() => handler(m))
          else handler(m)
        }),
    },
    close: () => inner.close(),
  }
  return {
    store,
    calls,
    held,
    state,
    /** Resolves after the next touch of any record has been answered. */
    touched: () => new Promise<void>((resolve) => touches.push(resolve)),
    /** Hands the held messages on, and every later one at once. */
    release: () => {
      state.holding = false
      for (const f of held.splice(0)) f()
    },
  }
}

/** The tests, over two stores that share state (the same value for memory). */
const replicaDelete = (name: string, makeStores: () => Promise<[SharedStore, SharedStore]>, cleanUp: () => Promise<void> = async () => {}) =>
  describe(`DELETE across replicas (${name})`, () => {
    let inner: [SharedStore, SharedStore]
    let a: ReturnType<typeof watched>
    let b: ReturnType<typeof watched>
    let httpA: RunningHttp
    let httpB: RunningHttp
    const idleMs = 2_000
    beforeAll(async () => {
      inner = await makeStores()
      a = watched(inner[0])
      b = watched(inner[1])
      httpA = await serveHttp(newServer(a.store), { port: 0, handleSignals: false, sessions: { idleMs } })
      httpB = await serveHttp(newServer(b.store), { port: 0, handleSignals: false, sessions: { idleMs } })
    })
    afterAll(async () => {
      await httpA.close()
      await httpB.close()
      for (const s of new Set(inner)) await s.close()
      await cleanUp()
    })

    it('a session DELETEd on A is 404 on B at once after the answer, though B holds it and has not heard of the end', async () => {
      const sid = await initialize(httpA.url)
      // B takes the session over and holds it, with its GET stream open
      expect(await listStatus(httpB.url, sid)).toBe(200)
      const stream = await openGet(httpB.url, sid)
      expect(stream.status).toBe(200)
      const heldBefore = b.held.length
      expect(await deleteStatus(httpA.url, sid)).toBe(200)
      expect(await listStatus(httpB.url, sid)).toBe(404)
      // the end came from the store, not the bus: B's copy of the bus message is still held
      if (name === 'one memory store') expect(b.held.length).toBeGreaterThan(heldBefore)
      // B ended its copy: the GET stream it held is closed, and the session is unknown to every request
      await stream.ended
      expect((await openGet(httpB.url, sid)).status).toBe(404)
      expect(await deleteStatus(httpB.url, sid)).toBe(404)
      expect(await listStatus(httpA.url, sid)).toBe(404)
    })

    it('a DELETE whose store delete fails is a 503, and the session goes on on both replicas', async () => {
      const sid = await initialize(httpA.url)
      expect(await listStatus(httpB.url, sid)).toBe(200)
      a.state.failDeletes = true
      try {
        const r = await fetch(httpA.url, { method: 'DELETE', headers: headers(sid) })
        expect(r.status).toBe(503)
        expect(await r.json()).toMatchObject({ error: { message: expect.stringContaining('sessions: delete the session') } })
      } finally {
        a.state.failDeletes = false
      }
      expect(await listStatus(httpA.url, sid)).toBe(200)
      expect(await listStatus(httpB.url, sid)).toBe(200)
      // tried again, it ends the session everywhere
      expect(await deleteStatus(httpA.url, sid)).toBe(200)
      expect(await listStatus(httpB.url, sid)).toBe(404)
    })

    it('a replica that cannot read the store answers 503 for a session it holds (it cannot tell whether the session was deleted elsewhere)', async () => {
      const sid = await initialize(httpA.url)
      expect(await listStatus(httpB.url, sid)).toBe(200)
      b.state.failReads = true
      try {
        const r = await fetch(httpB.url, { method: 'POST', headers: headers(sid), body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }) })
        expect(r.status).toBe(503)
        expect(r.headers.get('retry-after')).toBe('1')
        expect(await r.json()).toMatchObject({ error: { code: -32004, message: expect.stringMatching(/the test fails reads/) } })
      } finally {
        b.state.failReads = false
      }
      // the store back: served again, the session whole
      expect(await listStatus(httpB.url, sid)).toBe(200)
      expect(await deleteStatus(httpB.url, sid)).toBe(200)
    })

    it('B keeps the record of a session it holds busy alive past the idle time, and ends the session once the record is gone', async () => {
      const sid = await initialize(httpA.url)
      const stream = await openGet(httpB.url, sid)
      expect(stream.status).toBe(200)
      // a touch is due every idleMs/4 at most: five of them span more than idleMs since initialize
      for (let i = 0; i < 5; i++) await b.touched()
      expect(await inner[0].sessions.get(sid)).toMatchObject({ id: sid })
      // the record deleted behind the replicas' backs (B hears nothing): B's next touch finds it gone and ends the session
      expect(await inner[0].sessions.delete(sid)).toBe(true)
      await stream.ended
      expect(await listStatus(httpB.url, sid)).toBe(404)
    }, 30_000)

    it('after release, the held bus messages end nothing that lives', async () => {
      const sid = await initialize(httpA.url)
      expect(await listStatus(httpB.url, sid)).toBe(200)
      b.release()
      a.release()
      expect(await listStatus(httpB.url, sid)).toBe(200)
      expect(await listStatus(httpA.url, sid)).toBe(200)
      expect(await deleteStatus(httpB.url, sid)).toBe(200)
      expect(await listStatus(httpA.url, sid)).toBe(404)
    })
  })

replicaDelete('one memory store', async () => {
  const s = memoryStore()
  return [s, s]
})

const redisUrl = process.env.EMCP_TEST_REDIS_URL
if (redisUrl !== undefined) {
  const prefix = `emcp-test:${randomUUID()}:`
  replicaDelete('two Redis store values', async () => [await redisStore({ url: redisUrl, prefix }), await redisStore({ url: redisUrl, prefix })])
} else console.warn('replica DELETE tests on Redis SKIPPED: set EMCP_TEST_REDIS_URL')

const databaseUrl = process.env.EMCP_TEST_DATABASE_URL
if (databaseUrl !== undefined) {
  const schema = `emcp_test_${randomUUID().replace(/-/g, '').slice(0, 16)}`
  replicaDelete(
    'two PostgreSQL store values',
    async () => {
      // the first creates the schema; the second finds it
      const first = await postgresStore({ url: databaseUrl, schema })
      return [first, await postgresStore({ url: databaseUrl, schema })]
    },
    async () => {
      const db = await postgres(databaseUrl)
      await db.query(`drop schema if exists "${schema}" cascade`)
      await db.close()
    },
  )
} else console.warn('replica DELETE tests on PostgreSQL SKIPPED: set EMCP_TEST_DATABASE_URL')

describe('store calls a request costs', () => {
  /** A server on `store` (its own default when undefined) over HTTP, the session calls of its store counted. */
  const served = async (store?: SharedStore) => {
    const server = newServer(store)
    const calls: string[] = []
    const sessions = server.store.sessions as { -readonly [K in keyof SharedStore['sessions']]: SharedStore['sessions'][K] }
    for (const k of ['put', 'get', 'touch', 'delete'] as const) {
      const f = sessions[k] as (...args: unknown[]) => Promise<unknown>
      ;(sessions as Record<string, unknown>)[k] = (...args: unknown[]) => (calls.push(k), f(...args))
    }
    const http = await serveHttp(server, { port: 0, handleSignals: false, sessions: true })
    return { http, calls }
  }

  it('on its own default store: none for a request in a session it holds; one, the delete, for DELETE', async () => {
    const { http, calls } = await served()
    try {
      const sid = await initialize(http.url)
      const before = calls.length
      for (let i = 0; i < 5; i++) expect(await listStatus(http.url, sid)).toBe(200)
      expect(calls.slice(before)).toEqual([])
      expect(await deleteStatus(http.url, sid)).toBe(200)
      expect(calls.slice(before)).toEqual(['delete'])
    } finally {
      await http.close()
    }
  })

  it('on a store given to it, which other replicas may share: one read for each request (a touch when one is due), the delete for DELETE', async () => {
    const store = memoryStore()
    const { http, calls } = await served(store)
    try {
      const sid = await initialize(http.url)
      const before = calls.length
      for (let i = 0; i < 5; i++) expect(await listStatus(http.url, sid)).toBe(200)
      expect(calls.slice(before)).toEqual(['get', 'get', 'get', 'get', 'get'])
      expect(await deleteStatus(http.url, sid)).toBe(200)
      expect(calls.slice(before + 5)).toEqual(['get', 'delete'])
    } finally {
      await http.close()
      await store.close()
    }
  })
})
