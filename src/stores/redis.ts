/**
 * `emcp/redis`: the shared state of replicas on Redis, through `redis` (node-redis, an
 * optional peer dependency: `npm install redis`). Chosen over `ioredis` because it is the
 * client Redis itself maintains and recommends for new code, it reconnects and re-subscribes
 * by itself, and it can refuse commands while disconnected instead of queueing them (so that
 * a request fails fast with 503 rather than waiting on a dead server).
 *
 * - session and task records: one string key each, JSON, with a time to live (`PX`);
 * - the SSE event log: sorted sets and hashes changed only by Lua scripts (redis-scripts.ts),
 *   bounded in bytes in all and per session as the memory log is;
 * - the bus: Redis pub/sub on a second connection (a subscribed connection can do nothing else).
 *
 * @example
 * import { mcpServer } from 'emcp'
 * import { redisStore } from 'emcp/redis'
 * const store = await redisStore({ url: 'redis://127.0.0.1:6379', requestStateKeys: [process.env.KEY ?? 'a key of 16 bytes or more'] })
 * // mcpServer(tools, info, { store }) on every replica, with the same url and keys
 * await store.close()
 */
import { createHash } from 'node:crypto'
import { localHandlers } from './bus.js'
import { eventStoreDefaults } from './event-store.js'
import { afterScript, appendScript, forgetScript, primeScript } from './redis-scripts.js'
import type { BusMessage, EventLog, EventReplay, SessionRecord, SharedStore, StoredTask } from './store.js'
import { redactedUrl } from '../util/redacted-url.js'

// ---------------------------------------------------------------------------------------
// model

/** Where the Redis server is and how the shared state is kept there. */
export interface RedisStoreOptions {
  /** `redis://[user:password@]host:port[/db]` or `rediss://…` (TLS). */
  readonly url: string
  /** Put before every key and channel, so that several servers can share one Redis (default `emcp:`). */
  readonly prefix?: string
  /** The event log's bounds (default: the memory log's, 64 MiB in all, 8 MiB a session). */
  readonly events?: { readonly maxBytes?: number; readonly maxSessionBytes?: number; readonly ttlMs?: number }
  /** The `requestState` keys of every replica (the first signs, all verify). */
  readonly requestStateKeys?: ReadonlyArray<string | Uint8Array>
  /** Milliseconds to wait for a connection, the first one included (default 5000). */
  readonly connectTimeoutMs?: number
  /**
   * More options for node-redis's `createClient`, passed as given (e.g. `{ socket: { tls: true, ca } }`,
   * `{ database: 2 }`); `url`, the connect timeout and the reconnection settings above win.
   */
  readonly client?: { readonly [option: string]: unknown }
}

/** What an event costs besides its text, counted against the budgets as the memory log counts it. */
const eventOverhead = 128
/** A `Last-Event-ID` longer than this was never given out: refused without asking Redis. */
const maxEventIdLength = 512

// ---------------------------------------------------------------------------------------
// constructors

/** A shared store on the Redis server at `options.url`, connected (a failure to connect rejects). */
export const redisStore = async (options: RedisStoreOptions): Promise<SharedStore> => {
  const redis = await loadRedis()
  const prefix = options.prefix ?? 'emcp:'
  const connectTimeout = options.connectTimeoutMs ?? 5000
  const given = options.client ?? {}
  const socket = typeof given['socket'] === 'object' && given['socket'] !== null ? given['socket'] : {}
  const client = redis.createClient({
    ...given,
    url: options.url,
    // fail fast while disconnected (a 503 now, not a request waiting on a dead server); reconnect
    // by itself, backing off to 2 s
    disableOfflineQueue: true,
    socket: { ...socket, connectTimeout, reconnectStrategy: (retries: number) => Math.min(50 * 2 ** retries, 2000) },
  })
  const subscriber = client.duplicate()
  // node-redis reports connection trouble as 'error' events: without a listener they would crash
  // the process; the calls that fail meanwhile reject, which is what the server reports
  const quiet = (): void => undefined
  client.on('error', quiet)
  subscriber.on('error', quiet)
  await withTimeout(Promise.all([client.connect(), subscriber.connect()]), connectTimeout, `cannot reach Redis at ${redactedUrl(options.url)}`).catch(async (e: unknown) => {
    client.destroy()
    subscriber.destroy()
    throw e
  })
  const run = scriptRunner(client)
  const events = options.events ?? {}
  const maxBytes = events.maxBytes ?? eventStoreDefaults.maxBytes
  const maxSessionBytes = events.maxSessionBytes ?? eventStoreDefaults.maxSessionBytes
  const ttlMs = String(events.ttlMs ?? 3_600_000)
  const log: EventLog = {
    prime: async (streamId, owner) => String(await run(primeScript, [prefix, streamId, owner ?? streamId, ttlMs])),
    append: async (streamId, data) => String(await run(appendScript, [prefix, streamId, data, String(maxBytes), String(maxSessionBytes), ttlMs, String(eventOverhead)])),
    after: (lastEventId) => replay(run, prefix, lastEventId),
    forget: async (streamId) => void (await run(forgetScript, [prefix, streamId])),
  }
  const records = <A>(kind: string) => ({
    put: async (key: string, value: A, ttl: number | null): Promise<void> => {
      const text = JSON.stringify(value)
      if (ttl === null) await client.set(`${prefix}${kind}:${key}`, text)
      else await client.set(`${prefix}${kind}:${key}`, text, { expiration: { type: 'PX', value: positiveTtl(ttl, kind) } })
    },
    get: async (key: string): Promise<A | undefined> => {
      const text = await client.get(`${prefix}${kind}:${key}`)
      return text === null ? undefined : (JSON.parse(text) as A)
    },
    touch: async (key: string, ttl: number): Promise<boolean> => Number(await client.pExpire(`${prefix}${kind}:${key}`, positiveTtl(ttl, kind))) === 1,
    // XX: only a key that exists is written
    replace: async (key: string, value: A, ttl: number): Promise<boolean> =>
      (await client.set(`${prefix}${kind}:${key}`, JSON.stringify(value), { condition: 'XX', expiration: { type: 'PX', value: positiveTtl(ttl, kind) } })) !== null,
    delete: async (key: string): Promise<boolean> => (await client.del(`${prefix}${kind}:${key}`)) === 1,
  })
  const sessions = records<SessionRecord>('s')
  const tasks = records<StoredTask>('t')
  const bus = redisBus(client, subscriber, prefix)
  return {
    kind: 'redis',
    sessions: {
      put: (record, ttl) => sessions.put(record.id, record, ttl),
      replace: (record, ttl) => sessions.replace(record.id, record, ttl),
      get: sessions.get,
      touch: sessions.touch,
      delete: sessions.delete,
    },
    events: log,
    bus,
    tasks: { put: (task, ttl) => tasks.put(task.taskId, task, ttl), get: tasks.get, delete: tasks.delete },
    ...(options.requestStateKeys === undefined ? {} : { requestStateKeys: options.requestStateKeys }),
    close: async () => {
      await Promise.allSettled([client.close(), subscriber.close()])
    },
  }
}

// ---------------------------------------------------------------------------------------
// internals

type Redis = typeof import('redis')
/** What this store asks of a node-redis client: its commands, and pub/sub on a connection of its own. */
interface Client {
  evalSha(sha: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>
  publish(channel: string, message: string): Promise<unknown>
  subscribe(channel: string, listener: (message: string, channel: string) => void): Promise<unknown>
  unsubscribe(channel: string, listener: (message: string, channel: string) => void): Promise<unknown>
  ping(): Promise<unknown>
}

/** The `redis` module: an optional peer, loaded when a store is made so that importing `emcp/redis` needs nothing. */
const loadRedis = (): Promise<Redis> =>
  import('redis').catch((e: unknown) => {
    throw new Error(`emcp/redis needs the package redis: install it (npm install redis). ${e instanceof Error ? e.message : String(e)}`)
  })

/** Runs a script by its SHA-1, loading it on the first NOSCRIPT (a restarted Redis forgets scripts). */
const scriptRunner = (client: Client) => {
  const shas = new Map<string, string>()
  return async (script: string, args: ReadonlyArray<string>): Promise<unknown> => {
    let sha = shas.get(script)
    if (sha === undefined) shas.set(script, (sha = createHash('sha1').update(script).digest('hex')))
    try {
      return await client.evalSha(sha, { keys: [], arguments: [...args] })
    } catch (e) {
      if (!(e instanceof Error && e.message.startsWith('NOSCRIPT'))) throw e
      return client.eval(script, { keys: [], arguments: [...args] })
    }
  }
}

/** A replay after `lastEventId`, or undefined for an id never given out or one after which events were dropped. */
const replay = async (run: ReturnType<typeof scriptRunner>, prefix: string, lastEventId: string): Promise<EventReplay | undefined> => {
  if (typeof lastEventId !== 'string' || lastEventId.length > maxEventIdLength) return undefined
  const slash = lastEventId.lastIndexOf('/')
  const digits = lastEventId.slice(slash + 1)
  if (slash <= 0 || !/^(0|[1-9][0-9]{0,15})$/.test(digits)) return undefined
  const streamId = lastEventId.slice(0, slash)
  const flat = await run(afterScript, [prefix, streamId, digits])
  if (!Array.isArray(flat)) return undefined
  const events: Array<{ id: string; data: string }> = []
  for (let i = 0; i + 1 < flat.length; i += 2) events.push({ id: `${streamId}/${String(flat[i])}`, data: String(flat[i + 1]) })
  return { streamId, events }
}

/**
 * Pub/sub: one Redis subscription per channel, shared by this process's handlers, which get
 * each message in order (bus.ts).
 */
const redisBus = (client: Client, subscriber: Client, prefix: string) => {
  const local = localHandlers((full) => full.slice(prefix.length))
  // node-redis calls a listener with (message, channel); one function for every channel, so that unsubscribe finds it
  const listener = (text: string, full: string): void => local.deliver(full, text)
  return {
    publish: async (channel: string, message: BusMessage): Promise<void> => void (await client.publish(`${prefix}${channel}`, JSON.stringify(message))),
    subscribe: async (channel: string, handler: (m: BusMessage) => void): Promise<() => Promise<void>> => {
      const full = `${prefix}${channel}`
      // the channel is heard already: messages published before this call may still be on
      // their way; a PING on the same connection is answered after them, so that the new
      // handler hears only what is published from now on, as a fresh subscription would
      if (local.has(full)) await subscriber.ping()
      const added = local.add(full, handler)
      if (added.first)
        try {
          await subscriber.subscribe(full, listener)
        } catch (e) {
          added.stop()
          throw e
        }
      return async () => {
        if (added.stop()) await subscriber.unsubscribe(full, listener)
      }
    },
  }
}

/** A TTL Redis takes (a positive whole number of milliseconds); anything else throws. */
const positiveTtl = (ttlMs: number, kind: string): number => {
  if (!(Number.isFinite(ttlMs) && ttlMs > 0)) throw new RangeError(`the ${kind === 's' ? 'session' : 'task'} TTL must be a positive number of milliseconds, got ${ttlMs}`)
  return Math.max(1, Math.ceil(ttlMs))
}

/** `p`, or a rejection with `message` when it takes longer than `ms`. */
const withTimeout = <A>(p: Promise<A>, ms: number, message: string): Promise<A> =>
  new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${message}: no connection within ${ms} ms`)), ms)
    p.then(
      (a) => (clearTimeout(timer), resolve(a)),
      (e: unknown) => (clearTimeout(timer), reject(new Error(`${message}: ${e instanceof Error ? e.message : String(e)}`))),
    )
  })
