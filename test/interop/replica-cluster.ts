/**
 * Replica processes for the interop tests: N `dist/examples/everything.js` processes on one
 * store (EMCP_STORE) with the same EMCP_REQUEST_STATE_KEYS, behind a round-robin HTTP proxy
 * on 127.0.0.1 that streams answers (SSE included) through and logs what it forwarded where.
 * A replica can be killed (SIGKILL; the proxy then skips it, as a load balancer's health
 * check would) and started again in its place.
 */
import { randomUUID } from 'node:crypto'
import { createServer, request as httpRequest, type IncomingMessage, type Server as NodeServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll } from 'vitest'
import { example, spawnListening, stop, type Listening } from './children.js'

export const script = example('everything')
export const keys = 'replica key one sixteen bytes+,replica key two sixteen bytes+'
/** The backends under test, by name: their URL, or undefined when not given (those tests are skipped). */
export const backends = { redis: process.env.EMCP_TEST_REDIS_URL, postgres: process.env.EMCP_TEST_DATABASE_URL }

/** What the proxy forwarded: the JSON-RPC method (or the HTTP method), the replica it went to, and what came back. */
export interface Forwarded {
  readonly method: string
  readonly replica: number
  /** The `Last-Event-ID` the request carried (a resumption). */
  readonly lastEventId: string | undefined
  /** The upstream's HTTP status, once it answered (502: it could not be reached). */
  status?: number
}

/** A round-robin proxy on 127.0.0.1 over `targets` (read at each request); `alive(i)` false skips replica i. */
export const roundRobin = async (targets: () => ReadonlyArray<string>, alive: (i: number) => boolean = () => true) => {
  const log: Forwarded[] = []
  let next = 0
  /** The replica the next request goes to. */
  const peek = (): number => {
    const n = targets().length
    for (let k = 0; k < n; k++) if (alive((next + k) % n)) return (next + k) % n
    return next % n
  }
  const proxy: NodeServer = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const body = Buffer.concat(chunks)
      const replica = peek()
      next = replica + 1
      let method = req.method ?? ''
      try {
        method = (JSON.parse(body.toString()) as { method?: string }).method ?? `${method} (answer)`
      } catch {
        // a GET or DELETE: no body
      }
      const last = req.headers['last-event-id']
      const entry: Forwarded = { method, replica, lastEventId: typeof last === 'string' ? last : undefined }
      log.push(entry)
      const target = new URL(targets()[replica] as string)
      const upstream = httpRequest(target, { method: req.method, headers: { ...req.headers, host: target.host } }, (up: IncomingMessage) => {
        entry.status = up.statusCode
        res.writeHead(up.statusCode ?? 502, up.headers)
        res.flushHeaders()
        up.pipe(res)
        // the replica died mid-answer: the client sees its stream cut, as it would behind a real balancer
        up.on('error', () => res.destroy())
        up.on('aborted', () => res.destroy())
      })
      // the client went away (a closed SSE stream): so does the upstream request
      res.on('close', () => upstream.destroy())
      upstream.on('error', () => {
        entry.status ??= 502
        if (!res.headersSent) res.writeHead(502)
        res.end()
      })
      upstream.end(body)
    })
  })
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/mcp`
  const close = () =>
    new Promise<void>((resolve) => {
      proxy.closeAllConnections()
      proxy.close(() => resolve())
    })
  return { url, log, close, peek }
}

/** A namespace of the store of its own, for one group of replicas: groups that run at once (test files run in parallel) do not hear each other's bus. */
export const namespace = (): string => `t${randomUUID().replace(/-/g, '').slice(0, 16)}`

/** One replica process on `store`, in `ns` (replicas that serve the same clients share it). */
export const spawnReplica = (store: string, ns: string): Promise<Listening> =>
  spawnListening(script, () => [], (port) => ({ PORT: String(port), EMCP_STORE: store, EMCP_STORE_NAMESPACE: ns, EMCP_REQUEST_STATE_KEYS: keys }), 60_000)

/** N replicas of the everything example on one store, and the proxy in front of them (started before the suite's tests, stopped after). */
export const cluster = (store: string, n: number) => {
  const ns = namespace()
  const state = {
    replicas: [] as Listening[],
    dead: new Set<number>(),
    proxy: undefined as Awaited<ReturnType<typeof roundRobin>> | undefined,
  }
  beforeAll(async () => {
    for (let i = 0; i < n; i++) state.replicas.push(await spawnReplica(store, ns))
    state.proxy = await roundRobin(
      () => state.replicas.map((r) => r.url),
      (i) => !state.dead.has(i),
    )
  }, 180_000)
  afterAll(async () => {
    await state.proxy?.close()
    await Promise.all(state.replicas.map((r) => stop(r.child, r.exited, 'SIGKILL')))
  })
  const proxy = () => state.proxy as Awaited<ReturnType<typeof roundRobin>>
  return {
    url: () => proxy().url,
    log: () => proxy().log,
    /** The replica the proxy sends the next request to. */
    peek: () => proxy().peek(),
    replicas: () => state.replicas,
    /** Kills replica i at once (SIGKILL: no goodbye to clients or the store); the proxy skips it from now on. */
    kill: async (i: number) => {
      state.dead.add(i)
      const r = state.replicas[i] as Listening
      await stop(r.child, r.exited, 'SIGKILL')
    },
    /** Starts a fresh process in place of replica i (a restart: nothing of the old one's memory). */
    restart: async (i: number) => {
      const r = state.replicas[i] as Listening
      await stop(r.child, r.exited, 'SIGKILL')
      state.replicas[i] = await spawnReplica(store, ns)
      state.dead.delete(i)
    },
  }
}

/** The cluster's handle, as the tests use it. */
export type Cluster = ReturnType<typeof cluster>

/** The replicas that got `method`, in order. */
export const replicasOf = (log: ReadonlyArray<Forwarded>, method: string, from = 0): number[] => log.slice(from).filter((l) => l.method === method).map((l) => l.replica)

const V = '2026-07-28'
const tasksCaps = { elicitation: {}, extensions: { 'io.modelcontextprotocol/tasks': {} } }
let nextId = 1

/**
 * One 2026-07-28 POST as a client sends it (headers, capabilities in `_meta`; `name` the Mcp-Name
 * header): the SDK v2 client 2.4.0 has no API for the tasks extension, so its requests are written here.
 */
export const post2026 = async (url: string, method: string, params: Record<string, unknown>, name: string) => {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': V, 'mcp-method': method, 'mcp-name': name },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: nextId++,
      method,
      params: { ...params, _meta: { 'io.modelcontextprotocol/protocolVersion': V, 'io.modelcontextprotocol/clientCapabilities': tasksCaps } },
    }),
    signal: AbortSignal.timeout(15_000),
  })
  return { status: res.status, body: (await res.json()) as { result?: any; error?: { code: number; message: string } } }
}
