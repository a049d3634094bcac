/**
 * DELETE across replicas, without a race: two servers over one shared store (one memory store
 * in this process; two Redis or two PostgreSQL store values, as two processes would have,
 * when EMCP_TEST_REDIS_URL / EMCP_TEST_DATABASE_URL are set), with the default lease and with
 * none, each store seen through a wrapper of this test that holds back the bus's "session
 * ended" messages until released and counts the session calls. A session DELETEd on A is
 * answered 404 on B, which holds it, at once after A's answer, though B has heard nothing of
 * the end. A change written on B after A deleted the session does not make it again. A DELETE
 * whose store delete fails is a 503 and the session goes on everywhere; without a lease, a
 * replica that cannot read the store answers 503 for a session it holds. A session held busy
 * on B (its GET stream open) keeps its record alive past the idle time, and ends on B once
 * its record is gone. The store calls a request costs: none on a server's own default store,
 * one on a given store without a lease, none within one.
 */
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { channels, emcp, mcpServer, memoryStore, type BusMessage, type Server, type SharedStore } from '../../src/index.js'
import { serveHttp, type RunningHttp } from '../../src/transport/http.js'
import { onReplicaBackends } from '../support/replica-backends.js'
import { headers, initialize, V } from '../support/raw-session.js'

const noop = emcp({ name: 'noop', description: 'Does nothing.', input: { type: 'object' } })
const newServer = (store?: SharedStore): Server => mcpServer([noop], { name: 'replica', version: '1' }, store === undefined ? {} : { store }).implement({ noop: () => 'ok' }) as unknown as Server

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

/** A promise and its resolver. */
const deferred = () => {
  let resolve: () => void = () => undefined
  const promise = new Promise<void>((r) => (resolve = r))
  return { promise, resolve }
}

/**
 * `inner` as one replica sees it: the session calls counted, the bus's messages on the
 * sessions channel held until `release`, session deletes and reads made to fail on demand, and
 * record writes made to wait at a gate.
 */
const watched = (inner: SharedStore) => {
  const held: Array<() => void> = []
  const calls: string[] = []
  const touches: Array<() => void> = []
  const state = { holding: true, failDeletes: false, failReads: false, gate: undefined as { reached: () => void; open: Promise<void> } | undefined }
  const count = <A>(what: string, f: () => Promise<A>): Promise<A> => {
    calls.push(what)
    return f()
  }
  const reading = <A>(f: () => Promise<A>) => (): Promise<A> => (state.failReads ? Promise.reject(new Error('the test fails reads')) : f())
  /** Waits at the gate, when one is set, then writes. */
  const writing = <A>(f: () => Promise<A>) => async (): Promise<A> => {
    const gate = state.gate
    if (gate !== undefined) {
      gate.reached()
      await gate.open
    }
    return f()
  }
  const store: SharedStore = {
    ...inner,
    sessions: {
      put: (record, ttlMs) => count('put', writing(() => inner.sessions.put(record, ttlMs))),
      replace: (record, ttlMs) => count('replace', writing(() => inner.sessions.replace(record, ttlMs))),
      get: (id) => count('get', reading(() => inner.sessions.get(id))),
      touch: (id, ttlMs) =>
        count('touch', reading(() => inner.sessions.touch(id, ttlMs))).finally(() => {
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

/** The tests, over two stores that share state (the same value for memory), with the servers' `leaseMs` (undefined: the default). */
const replicaDelete = (name: string, leaseMs: number | undefined, makeStores: () => Promise<[SharedStore, SharedStore]>, cleanUp: () => Promise<void> = async () => {}) =>
  describe(`DELETE across replicas (${name}, leaseMs ${leaseMs ?? 'default'})`, () => {
    let inner: [SharedStore, SharedStore]
    let a: ReturnType<typeof watched>
    let b: ReturnType<typeof watched>
    let httpA: RunningHttp
    let httpB: RunningHttp
    const idleMs = 2_000
    const sessions = { idleMs, ...(leaseMs === undefined ? {} : { leaseMs }) }
    beforeAll(async () => {
      inner = await makeStores()
      a = watched(inner[0])
      b = watched(inner[1])
      httpA = await serveHttp(newServer(a.store), { port: 0, handleSignals: false, sessions })
      httpB = await serveHttp(newServer(b.store), { port: 0, handleSignals: false, sessions })
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
      // the end came from the store, not the bus: B's copy of the bus message reaches the wrapper, which holds it
      await vi.waitFor(() => expect(b.held.length).toBeGreaterThan(heldBefore), { timeout: 10_000, interval: 10 })
      // B ended its copy: the GET stream it held is closed, and the session is unknown to every request
      await stream.ended
      expect((await openGet(httpB.url, sid)).status).toBe(404)
      expect(await deleteStatus(httpB.url, sid)).toBe(404)
      expect(await listStatus(httpA.url, sid)).toBe(404)
    })

    it('a change written on B after A deleted the session does not bring it back', async () => {
      const sid = await initialize(httpA.url)
      expect(await listStatus(httpB.url, sid)).toBe(200)
      // B's write of the changed log level waits at the gate while A deletes the session
      const reached = deferred()
      const open = deferred()
      b.state.gate = { reached: reached.resolve, open: open.promise }
      const setLevel = fetch(httpB.url, { method: 'POST', headers: headers(sid), body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'logging/setLevel', params: { level: 'debug' } }) })
      try {
        await reached.promise
        expect(await deleteStatus(httpA.url, sid)).toBe(200)
      } finally {
        b.state.gate = undefined
        open.resolve()
      }
      // the level was set while the session lived: answered; its write found no record, and made none
      expect((await setLevel).status).toBe(200)
      expect(await inner[0].sessions.get(sid)).toBeUndefined()
      expect(await listStatus(httpA.url, sid)).toBe(404)
      expect(await listStatus(httpB.url, sid)).toBe(404)
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

    // within a lease B serves what it holds without asking the store: with none it asks every time
    it.runIf(leaseMs === 0)('a replica that cannot read the store answers 503 for a session it holds (it cannot tell whether the session was deleted elsewhere)', async () => {
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

    it.runIf(leaseMs === undefined)('B keeps the record of a session it holds busy alive past the idle time, and ends the session once the record is gone', async () => {
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

/** Both the default lease and none, over the stores `makeStores` gives. */
const onBackend = (name: string, makeStores: () => Promise<[SharedStore, SharedStore]>, cleanUp?: () => Promise<void>) => {
  replicaDelete(name, undefined, makeStores, cleanUp)
  replicaDelete(name, 0, makeStores, cleanUp)
}

onReplicaBackends('replica DELETE tests', onBackend)

describe('store calls a request costs', () => {
  /** A server on `store` (its own default when undefined) over HTTP, the session calls of its store counted. */
  const served = async (store?: SharedStore, leaseMs?: number) => {
    const server = newServer(store)
    const calls: string[] = []
    const sessions = server.store.sessions as { -readonly [K in keyof SharedStore['sessions']]: SharedStore['sessions'][K] }
    for (const k of ['put', 'replace', 'get', 'touch', 'delete'] as const) {
      const f = sessions[k] as (...args: unknown[]) => Promise<unknown>
      ;(sessions as Record<string, unknown>)[k] = (...args: unknown[]) => (calls.push(k), f(...args))
    }
    const http = await serveHttp(server, { port: 0, handleSignals: false, sessions: leaseMs === undefined ? true : { leaseMs } })
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

  it('on a store given to it, with no lease: one read for each request (a touch when one is due), a read and the delete for DELETE', async () => {
    const store = memoryStore()
    const { http, calls } = await served(store, 0)
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

  it('on a store given to it, within the lease: none for the requests that follow a store call that found the record', async () => {
    const store = memoryStore()
    // a lease long enough that no request of this test outlives it (no DELETE here: it would wait the lease out)
    const { http, calls } = await served(store, 600_000)
    try {
      const sid = await initialize(http.url)
      // initialize wrote the record, notifications/initialized replaced it: each showed it exists
      expect(calls).toEqual(['put', 'replace'])
      for (let i = 0; i < 5; i++) expect(await listStatus(http.url, sid)).toBe(200)
      expect(calls).toEqual(['put', 'replace'])
    } finally {
      await http.close()
      await store.close()
    }
  })
})
