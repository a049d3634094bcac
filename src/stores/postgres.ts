/**
 * `emcp/postgres-store`: the shared state of replicas in PostgreSQL, through `pg` (an optional
 * peer dependency, as for `emcp/postgres`). Tables in a schema of their own (postgres-schema.ts
 * is the documented migration, run at start unless `migrate: false`); the bus is
 * LISTEN/NOTIFY on one channel, on a connection of its own that reconnects and listens again
 * by itself. For users whose tools already live in PostgreSQL: one server to run, not two.
 *
 * @example
 * import { postgresStore } from 'emcp/postgres-store'
 * const store = await postgresStore({ url: 'postgres://app@127.0.0.1/app', requestStateKeys: [process.env.KEY ?? 'a key of 16 bytes or more'] })
 * // mcpServer(tools, info, { store }) on every replica
 * await store.close()
 */
import { createHash } from 'node:crypto'
import { localHandlers } from './bus.js'
import { eventStoreDefaults } from './event-store.js'
import { quoteIdent } from '../sources/postgres/database.js'
import { storeSchemaSql } from './postgres-schema.js'

export { storeSchemaSql, storeSchemaVersion } from './postgres-schema.js'
import type { BusMessage, EventLog, EventReplay, SessionRecord, SharedStore, StoredTask } from './store.js'
import { redactedUrl } from '../util/redacted-url.js'

// ---------------------------------------------------------------------------------------
// model

/** Where the database is and how the shared state is kept there. */
export interface PostgresStoreOptions {
  /** `postgres://user:password@host:port/database`. */
  readonly url: string
  /** The schema of the store's tables (default `emcp_store`). */
  readonly schema?: string
  /** Run the migration at start (default true); false when a DBA runs `storeSchemaSql` instead. */
  readonly migrate?: boolean
  /** The event log's bounds (default: the memory log's, 64 MiB in all, 8 MiB a session); streams untouched for `ttlMs` are forgotten. */
  readonly events?: { readonly maxBytes?: number; readonly maxSessionBytes?: number; readonly ttlMs?: number }
  /** The `requestState` keys of every replica (the first signs, all verify). */
  readonly requestStateKeys?: ReadonlyArray<string | Uint8Array>
  /** The most pooled connections (default 10). */
  readonly maxConnections?: number
  /** Milliseconds to wait for a connection (default 5000). */
  readonly connectTimeoutMs?: number
}

/** What an event costs besides its text, counted against the budgets as the memory log counts it. */
const eventOverhead = 128
/** A `Last-Event-ID` longer than this was never given out: refused without a query. */
const maxEventIdLength = 512
/** NOTIFY payloads are limited to 8000 bytes: a larger message goes through the bus table. */
const maxNotifyBytes = 7000

// ---------------------------------------------------------------------------------------
// constructors

/** A shared store in the PostgreSQL database at `options.url`, migrated and listening (a failure rejects). */
export const postgresStore = async (options: PostgresStoreOptions): Promise<SharedStore> => {
  const pg = await loadPg()
  const schema = options.schema ?? 'emcp_store'
  const s = quoteIdent(schema)
  const connectionTimeoutMillis = options.connectTimeoutMs ?? 5000
  const pool = new pg.Pool({ connectionString: options.url, max: options.maxConnections ?? 10, connectionTimeoutMillis, idleTimeoutMillis: 10_000 })
  // a pooled connection that breaks while idle must not crash the process
  pool.on('error', () => undefined)
  try {
    if (options.migrate ?? true) await pool.query(storeSchemaSql(schema))
  } catch (e) {
    await pool.end().catch(() => undefined)
    throw new Error(`cannot prepare the store in ${redactedUrl(options.url)}: ${e instanceof Error ? e.message : String(e)}`)
  }
  const events = options.events ?? {}
  const maxBytes = events.maxBytes ?? eventStoreDefaults.maxBytes
  const maxSessionBytes = events.maxSessionBytes ?? eventStoreDefaults.maxSessionBytes
  const ttlMs = events.ttlMs ?? 3_600_000
  const channel = `emcp_${createHash('sha256').update(schema).digest('hex').slice(0, 16)}`
  const bus = await postgresBus(pg, options.url, connectionTimeoutMillis, pool, s, channel)
  const one = async (sql: string, params: unknown[]): Promise<Record<string, unknown> | undefined> => (await pool.query(sql, params)).rows[0]
  const log: EventLog = {
    prime: async (streamId, owner) => String((await one(`select ${s}.prime_stream($1, $2) as id`, [streamId, owner ?? streamId]))?.['id']),
    append: async (streamId, data) => String((await one(`select ${s}.append_event($1, $2, $3, $4, $5) as id`, [streamId, data, maxBytes, maxSessionBytes, eventOverhead]))?.['id']),
    after: (lastEventId) => replay(pool, s, lastEventId),
    forget: async (streamId) => void (await pool.query(`select ${s}.forget_stream($1)`, [streamId])),
  }
  const records = <A>(table: string) => ({
    put: async (id: string, value: A, ttl: number | null): Promise<void> => {
      const expires = ttl === null ? null : new Date(Date.now() + positiveTtl(ttl, table)).toISOString()
      await pool.query(`insert into ${s}.${table} (id, record, expires_at) values ($1, $2, $3) on conflict (id) do update set record = excluded.record, expires_at = excluded.expires_at`, [id, JSON.stringify(value), expires])
    },
    get: async (id: string): Promise<A | undefined> => {
      const row = await one(`select record from ${s}.${table} where id = $1 and (expires_at is null or expires_at > now())`, [id])
      return row === undefined ? undefined : (row['record'] as A)
    },
    replace: async (id: string, value: A, ttl: number): Promise<boolean> =>
      ((await pool.query(`update ${s}.${table} set record = $2, expires_at = $3 where id = $1 and expires_at > now()`, [id, JSON.stringify(value), new Date(Date.now() + positiveTtl(ttl, table)).toISOString()])).rowCount ?? 0) === 1,
    touch: async (id: string, ttl: number): Promise<boolean> =>
      ((await pool.query(`update ${s}.${table} set expires_at = $2 where id = $1 and expires_at > now()`, [id, new Date(Date.now() + positiveTtl(ttl, table)).toISOString()])).rowCount ?? 0) === 1,
    delete: async (id: string): Promise<boolean> => ((await pool.query(`delete from ${s}.${table} where id = $1 and (expires_at is null or expires_at > now()) returning id`, [id])).rowCount ?? 0) === 1,
  })
  const sessions = records<SessionRecord>('sessions')
  const tasks = records<StoredTask>('tasks')
  // what has expired is invisible at once; its rows go within a minute
  const sweeper = setInterval(() => void sweep(pool, s, ttlMs).catch(() => undefined), 60_000)
  sweeper.unref()
  return {
    kind: 'postgres',
    sessions: { put: (record, ttl) => sessions.put(record.id, record, ttl), replace: (record, ttl) => sessions.replace(record.id, record, ttl), get: sessions.get, touch: sessions.touch, delete: sessions.delete },
    events: log,
    bus,
    tasks: { put: (task, ttl) => tasks.put(task.taskId, task, ttl), get: tasks.get, delete: tasks.delete },
    ...(options.requestStateKeys === undefined ? {} : { requestStateKeys: options.requestStateKeys }),
    close: async () => {
      clearInterval(sweeper)
      await bus.close()
      await pool.end().catch(() => undefined)
    },
  }
}

// ---------------------------------------------------------------------------------------
// internals

/** The parts of `pg` used here (so that emcp's types do not need the driver's). */
interface Result {
  readonly rows: Array<Record<string, unknown>>
  readonly rowCount: number | null
}
interface Pool {
  query(sql: string, params?: unknown[]): Promise<Result>
  on(event: 'error', f: (e: Error) => void): unknown
  end(): Promise<void>
}
interface Client {
  connect(): Promise<unknown>
  query(sql: string, params?: unknown[]): Promise<Result>
  on(event: 'notification', f: (m: { channel: string; payload?: string }) => void): unknown
  on(event: 'error' | 'end', f: (e?: Error) => void): unknown
  end(): Promise<void>
}
interface Pg {
  Pool: new (config: object) => Pool
  Client: new (config: object) => Client
}

/** The `pg` module: an optional peer, loaded when a store is made. */
const loadPg = async (): Promise<Pg> => {
  try {
    // by a name the compiler does not resolve: pg ships no types of its own, and emcp's need none
    const name = 'pg'
    const m = (await import(name)) as Pg & { default?: Pg }
    return m.default ?? m
  } catch (e) {
    throw new Error(`emcp/postgres-store needs the package pg: install it (npm install pg). ${e instanceof Error ? e.message : String(e)}`)
  }
}

/** A replay after `lastEventId`, or undefined for an id never given out or one after which events were dropped. */
const replay = async (pool: Pool, s: string, lastEventId: string): Promise<EventReplay | undefined> => {
  if (typeof lastEventId !== 'string' || lastEventId.length > maxEventIdLength) return undefined
  const slash = lastEventId.lastIndexOf('/')
  const digits = lastEventId.slice(slash + 1)
  if (slash <= 0 || !/^(0|[1-9][0-9]{0,15})$/.test(digits)) return undefined
  const streamId = lastEventId.slice(0, slash)
  const n = Number(digits)
  const r = await pool.query(
    `select st.next, st.dropped, e.n, e.data from ${s}.streams st left join ${s}.events e on e.stream = st.id and e.n > $2 where st.id = $1 order by e.n`,
    [streamId, n],
  )
  const head = r.rows[0]
  // only ids this store gave out, and only while nothing after them was dropped
  if (head === undefined || n >= Number(head['next']) || Number(head['dropped']) > n) return undefined
  const events = r.rows.filter((row) => row['n'] !== null).map((row) => ({ id: `${streamId}/${String(row['n'])}`, data: String(row['data']) }))
  return { streamId, events }
}

/** Deletes expired records, old bus rows, and streams (with their events) untouched for `ttlMs`. */
const sweep = async (pool: Pool, s: string, ttlMs: number): Promise<void> => {
  await pool.query(`delete from ${s}.sessions where expires_at <= now()`)
  await pool.query(`delete from ${s}.tasks where expires_at <= now()`)
  await pool.query(`delete from ${s}.bus where created_at < now() - interval '60 seconds'`)
  const stale = await pool.query(`select id from ${s}.streams where touched_at < now() - ($1::bigint * interval '1 millisecond') limit 1000`, [ttlMs])
  for (const row of stale.rows) await pool.query(`select ${s}.forget_stream($1)`, [row['id']])
  await pool.query(`delete from ${s}.owners o where bytes <= 0 and not exists (select 1 from ${s}.streams st where st.owner = o.owner)`)
}

/**
 * The bus: every message is one NOTIFY on the store's channel, `{ c, m }` (or `{ c, ref }` for a
 * message kept in the bus table when too large for a payload). One listening connection, which
 * reconnects (backing off to 2 s) and listens again when it breaks; handlers in this process
 * get each message in order (bus.ts).
 */
const postgresBus = async (pg: Pg, url: string, connectionTimeoutMillis: number, pool: Pool, s: string, channel: string) => {
  const local = localHandlers()
  const state: { client: Client | undefined; closed: boolean; retries: number; queue: Promise<unknown> } = { client: undefined, closed: false, retries: 0, queue: Promise.resolve() }
  // one query at a time on the listening connection: pg deprecates a query sent while another
  // runs (subscriptions made together, or one made while LISTEN is on its way, would do that)
  const serial = <A>(f: () => Promise<A>): Promise<A> => {
    const next = state.queue.then(f, f)
    state.queue = next.catch(() => undefined)
    return next
  }
  const onNotification = (payload: string): void => {
    const { c, m, ref } = JSON.parse(payload) as { c: string; m?: unknown; ref?: number }
    if (!local.has(c)) return
    if (ref === undefined) return local.deliver(c, JSON.stringify(m))
    void pool.query(`select message from ${s}.bus where id = $1`, [ref]).then(
      (r) => r.rows[0] !== undefined && local.deliver(c, JSON.stringify(r.rows[0]['message'])),
      () => undefined,
    )
  }
  const connect = async (): Promise<void> => {
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis, application_name: 'emcp-store-listener' })
    client.on('notification', (n) => n.channel === channel && n.payload !== undefined && onNotification(n.payload))
    const lost = (): void => {
      if (state.client !== client || state.closed) return
      state.client = undefined
      client.end().catch(() => undefined)
      const delay = Math.min(50 * 2 ** state.retries++, 2000)
      setTimeout(() => void connect().catch(() => lost()), delay).unref()
    }
    client.on('error', lost)
    client.on('end', lost)
    state.client = client
    await client.connect()
    await serial(() => client.query(`LISTEN ${quoteIdent(channel)}`))
    state.retries = 0
  }
  await connect()
  return {
    publish: async (name: string, message: BusMessage): Promise<void> => {
      const payload = JSON.stringify({ c: name, m: message })
      if (Buffer.byteLength(payload) <= maxNotifyBytes) {
        await pool.query('select pg_notify($1, $2)', [channel, payload])
        return
      }
      const r = await pool.query(`insert into ${s}.bus (channel, message) values ($1, $2) returning id`, [name, JSON.stringify(message)])
      await pool.query('select pg_notify($1, $2)', [channel, JSON.stringify({ c: name, ref: Number(r.rows[0]?.['id']) })])
    },
    subscribe: async (name: string, handler: (m: BusMessage) => void): Promise<() => Promise<void>> => {
      const client = state.client
      if (state.closed || client === undefined) throw new Error('the store is not listening (its connection is being restored)')
      // notifications already sent reach this connection before the answer to a query on it:
      // the new handler hears only what is published from now on
      await serial(() => client.query('select 1'))
      const added = local.add(name, handler)
      return async () => void added.stop()
    },
    close: async (): Promise<void> => {
      state.closed = true
      local.clear()
      await state.client?.end().catch(() => undefined)
    },
  }
}

/** A TTL as a positive whole number of milliseconds; anything else throws. */
const positiveTtl = (ttlMs: number, table: string): number => {
  if (!(Number.isFinite(ttlMs) && ttlMs > 0)) throw new RangeError(`the ${table === 'sessions' ? 'session' : 'task'} TTL must be a positive number of milliseconds, got ${ttlMs}`)
  return Math.ceil(ttlMs)
}
