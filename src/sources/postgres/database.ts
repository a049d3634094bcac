/**
 * The database behind `fromPostgres`, as one small interface over two drivers: PGlite
 * (PostgreSQL compiled to WebAssembly, in memory or in a directory: the embedded default)
 * and `pg` (a pool of connections to a real server). Each driver is imported on first use,
 * so code that never opens a database never loads either.
 *
 * @example
 * import { pglite, postgres } from 'emcp/postgres'
 * const embedded = await pglite()                       // in memory; pglite('./data') keeps it
 * const server = await postgres('postgres://app@127.0.0.1/shop', { max: 10 })
 * const { rows } = await embedded.query('select $1::int + 1 as n', [41])
 */
import { createHash } from 'node:crypto'
import { remember, rerun } from './prepared.js'

// ---------------------------------------------------------------------------------------
// model

/** A column of a result, as the driver describes it. */
export interface Field {
  readonly name: string
  readonly dataTypeID: number
}

/** The rows of one statement and its columns. */
export interface QueryResult {
  readonly rows: ReadonlyArray<{ readonly [column: string]: unknown }>
  readonly fields: ReadonlyArray<Field>
}

/** Anything that runs one parameterized statement: the database, or one transaction of it. */
export interface Queryable {
  readonly query: (sql: string, params?: ReadonlyArray<unknown>) => Promise<QueryResult>
}

/** A database: statements, transactions, scripts, notifications. */
export interface Database extends Queryable {
  /** Which driver: the embedded one, or a pool of connections to a server. */
  readonly kind: 'pglite' | 'postgres'
  /**
   * Runs one statement on its own (its own implicit transaction) with a statement timeout of
   * `timeoutMs` (0: none): a tool call's fast path, one round trip. On a `pg` pool the
   * statement is prepared once per connection and then only bound and run (prepared.ts), and
   * the timeout is that connection's session setting (`SET statement_timeout`, sent only when
   * it changes); PGlite enforces no timeout.
   */
  readonly call: (sql: string, params: ReadonlyArray<unknown>, timeoutMs: number) => Promise<QueryResult>
  /** Runs `f` in a transaction on one connection: committed when `f` resolves, rolled back when it rejects. */
  readonly transaction: <A>(f: (q: Queryable) => Promise<A>) => Promise<A>
  /** Runs a script of several statements without parameters (a schema file). */
  readonly exec: (script: string) => Promise<void>
  /**
   * Runs `f` on one connection, outside any transaction of its own: `run` sends statements
   * one at a time, as psql does with a script (`runScripts`).
   */
  readonly session: <A>(f: (run: (statement: string) => Promise<void>) => Promise<A>) => Promise<A>
  /** Calls `f` with the payload of every `NOTIFY` on `channel`; resolves to the way to stop. */
  readonly listen: (channel: string, f: (payload: string) => void) => Promise<() => Promise<void>>
  /** Closes the database (PGlite) or ends the pool (pg). */
  readonly close: () => Promise<void>
}

/** A failure reported by PostgreSQL: its SQLSTATE code and message, as data. */
export interface DatabaseError {
  readonly sqlstate: string
  readonly message: string
  readonly detail?: string
  readonly hint?: string
  /** Where in the statement (1-based, in characters), when PostgreSQL says. */
  readonly position?: number
}

/** Options of the `pg` pool. */
export interface PoolOptions {
  /** The most connections open at once (default 10). */
  readonly max?: number
  /** Close a connection idle this long (default 10 s). */
  readonly idleTimeoutMillis?: number
  /** Give up opening a connection after this long (default 10 s). */
  readonly connectionTimeoutMillis?: number
}

/** The parts of a `pg` Pool used here (so that emcp's types do not need the driver's). */
export interface PgPoolLike {
  query(sql: string, params?: unknown[]): Promise<{ rows: Array<Record<string, unknown>>; fields?: Field[] }>
  connect(): Promise<PgPooledClient>
  /** `pg`'s callback form (it then returns nothing), which emcp uses for a call; a pool that answers with a promise instead is followed. */
  connect(callback: PgCallback<PgPooledClient>): Promise<PgPooledClient> | void
  end(): Promise<void>
}

/** A driver's result: rows, and the columns when it says. */
export interface DriverResult {
  readonly rows: Array<Record<string, unknown>>
  readonly fields?: Field[]
}

/** A connection of a pool: a client, and the way to give it back (an error: drop it). */
export type PgPooledClient = PgClientLike & { release(err?: Error | boolean): void }

/** A Node-style callback, as `pg` calls it. */
export type PgCallback<A> = (err: Error | undefined | null, value?: A) => void

/** The parts of a `pg` Client used here. */
export interface PgClientLike {
  query(sql: string, params?: unknown[]): Promise<{ rows: Array<Record<string, unknown>>; fields?: Field[] }>
  /** A named statement: prepared on the connection the first time, then only bound and run. */
  query(config: { readonly name: string; readonly text: string; readonly values: unknown[] }): Promise<DriverResult>
  /**
   * `pg`'s callback form (it then returns nothing), which emcp uses for a call; a client that
   * answers with a promise instead is followed. Without a name, a statement of its own.
   */
  query(config: { readonly name?: string; readonly text: string; readonly values: unknown[] }, callback: PgCallback<DriverResult>): Promise<DriverResult> | void
  on(event: 'notification', f: (m: { channel: string; payload?: string }) => void): unknown
  on(event: 'error', f: (e: Error) => void): unknown
}

/** The parts of a PGlite instance used here. */
export interface PGliteLike {
  query(sql: string, params?: unknown[]): Promise<{ rows: Array<Record<string, unknown>>; fields: Field[] }>
  exec(sql: string): Promise<unknown>
  transaction<A>(f: (tx: { query: PGliteLike['query'] }) => Promise<A>): Promise<A>
  listen(channel: string, f: (payload: string) => void): Promise<() => Promise<void>>
  close(): Promise<void>
}

// ---------------------------------------------------------------------------------------
// constructors

/**
 * An embedded PostgreSQL (PGlite): in memory without a directory, kept in `dir` otherwise;
 * or an existing PGlite instance. Loads `@electric-sql/pglite` on first use.
 */
export const pglite = async (dirOrInstance?: string | PGliteLike): Promise<Database> => {
  let db: PGliteLike
  if (typeof dirOrInstance === 'object') db = dirOrInstance
  else {
    const { PGlite } = await importDriver<{ PGlite: { create(dir?: string): Promise<PGliteLike> } }>('@electric-sql/pglite')
    db = await PGlite.create(dirOrInstance)
  }
  const q: Queryable['query'] = async (sql, params) => {
    const r = await db.query(sql, params === undefined ? undefined : [...params])
    return { rows: r.rows, fields: r.fields }
  }
  return {
    kind: 'pglite',
    query: q,
    call: (sql, params) => q(sql, params),
    transaction: (f) =>
      db.transaction((tx) =>
        f({
          query: async (sql, params) => {
            const r = await tx.query(sql, params === undefined ? undefined : [...params])
            return { rows: r.rows, fields: r.fields }
          },
        }),
      ),
    exec: async (script) => {
      await db.exec(script)
    },
    // one connection already: the statements go to it in turn
    session: (f) =>
      f(async (statement) => {
        await db.exec(statement)
      }),
    listen: (channel, f) => db.listen(channel, f),
    close: () => db.close(),
  }
}

/**
 * A real PostgreSQL server through a `pg` connection pool: a connection URL (with pool
 * options), or a Pool you made. Loads `pg` on first use.
 */
export const postgres = async (urlOrPool: string | PgPoolLike, options: PoolOptions = {}): Promise<Database> => {
  type Pg = {
    Pool: new (config: object) => PgPoolLike
    Client: new (config: object) => PgClientLike & { connect(): Promise<void>; end(): Promise<void> }
  }
  const url = typeof urlOrPool === 'string' ? urlOrPool : undefined
  const pg = url === undefined ? undefined : await importDriver<Pg>('pg')
  const pool: PgPoolLike =
    url === undefined
      ? (urlOrPool as PgPoolLike)
      : new (pg as Pg).Pool({
          connectionString: url,
          max: options.max ?? 10,
          idleTimeoutMillis: options.idleTimeoutMillis ?? 10_000,
          connectionTimeoutMillis: options.connectionTimeoutMillis ?? 10_000,
        })
  // a connection that breaks while idle in the pool must not crash the process
  ;(pool as unknown as { on?: (e: string, f: () => void) => void }).on?.('error', () => undefined)
  // each connection's statement timeout, as last set by call()
  const timeouts = new WeakMap<object, number>()
  return {
    kind: 'postgres',
    query: async (sql, params) => result(await pool.query(sql, params === undefined ? undefined : [...params])),
    call: callOn(pool, timeouts),
    transaction: async (f) => {
      const client = await pool.connect()
      heard(client)
      let broken: Error | undefined
      try {
        await client.query('BEGIN')
        const out = await f({ query: async (sql, params) => result(await client.query(sql, params === undefined ? undefined : [...params])) })
        await client.query('COMMIT')
        return out
      } catch (e) {
        // a connection that cannot even roll back is dropped from the pool, never reused
        await client.query('ROLLBACK').catch((r: unknown) => {
          broken = r instanceof Error ? r : new Error(String(r))
        })
        throw e
      } finally {
        client.release(broken)
      }
    },
    exec: async (script) => {
      await pool.query(script)
    },
    session: async (f) => {
      const client = await pool.connect()
      heard(client)
      let failed: Error | undefined
      try {
        return await f(async (statement) => {
          await client.query(statement)
        })
      } catch (e) {
        // the script may have left a transaction open or a setting changed: the connection is not reused
        failed = e instanceof Error ? e : new Error(String(e))
        throw e
      } finally {
        client.release(failed)
      }
    },
    listen: async (channel, f) => {
      // LISTEN holds its connection for good: a client of its own, outside the pool
      if (url === undefined || pg === undefined) {
        const client = await pool.connect()
        return listenOn(client, channel, f, async () => client.release())
      }
      const client = new pg.Client({ connectionString: url })
      await client.connect()
      return listenOn(client, channel, f, () => client.end())
    },
    close: () => pool.end(),
  }
}

// ---------------------------------------------------------------------------------------
// functions

/** The SQLSTATE and message of a driver's error, or undefined when it did not come from PostgreSQL. */
export const databaseError = (e: unknown): DatabaseError | undefined => {
  if (typeof e !== 'object' || e === null) return undefined
  const { code, message, detail, hint, position } = e as { code?: unknown; message?: unknown; detail?: unknown; hint?: unknown; position?: unknown }
  if (typeof code !== 'string' || !/^[0-9A-Z]{5}$/.test(code)) return undefined
  const at = Number(position)
  return {
    sqlstate: code,
    message: typeof message === 'string' ? message : String(message),
    ...(typeof detail === 'string' && detail !== '' ? { detail } : {}),
    ...(typeof hint === 'string' && hint !== '' ? { hint } : {}),
    ...(Number.isInteger(at) && at > 0 ? { position: at } : {}),
  }
}

/** An identifier as SQL text: double-quoted, inner quotes doubled. */
export const quoteIdent = (name: string): string => `"${name.replace(/"/g, '""')}"`

// ---------------------------------------------------------------------------------------
// internals

/** A driver's answer as a `QueryResult` (no columns when it gave none). */
const result = (r: { rows: Array<Record<string, unknown>>; fields?: Field[] }): QueryResult => ({ rows: r.rows, fields: r.fields ?? [] })

/**
 * `Database.call` on a `pg` pool: one checkout, the statement timeout when it changed, the
 * statement, the answer; `timeouts` holds each connection's statement timeout as last set here.
 * Callbacks, not promises, from checkout to answer: one promise per call instead of five (a
 * call allocated 1.5 KB here, measured, and the pool's and driver's promises more besides).
 */
const callOn =
  (pool: PgPoolLike, timeouts: WeakMap<object, number>): Database['call'] =>
  (sql, params, timeoutMs) =>
    new Promise((resolve, reject) => {
      const ms = Math.max(0, Math.floor(timeoutMs))
      const name = statementName(sql)
      callback<PgPooledClient>((cb) => pool.connect(cb), (e, client) => {
        if (client === undefined) return reject(e ?? new Error('emcp/postgres: the pool gave no connection'))
        heard(client)
        // a database error leaves the connection fine, unless it ends the session; anything else (a broken socket) drops it
        const done = (e: unknown, r?: DriverResult): void => {
          client.release(e === undefined || e === null || (databaseError(e) !== undefined && !endsSession(e)) ? undefined : e instanceof Error ? e : new Error(String(e)))
          if (r === undefined) reject(e ?? new Error('emcp/postgres: the driver gave no result'))
          else resolve(result(r))
        }
        // prepared on this connection already: Bind and Execute only (prepared.ts says why); else Parse, Describe too
        const run = (): void => {
          if (rerun(client, name, sql, params, done)) return
          callback<DriverResult>((cb) => client.query({ name, text: sql, values: [...params] }, cb), (e, r) => {
            if (r !== undefined) remember(client, name, r)
            done(e, r)
          })
        }
        if (timeouts.get(client) === ms) return run()
        callback<DriverResult>((cb) => client.query({ text: `SET statement_timeout = ${ms}`, values: [] }, cb), (e, r) => {
          if (r === undefined) return done(e ?? new Error('emcp/postgres: the driver gave no result'))
          timeouts.set(client, ms)
          run()
        })
      })
    })

const listenOn = async (client: PgClientLike, channel: string, f: (payload: string) => void, end: () => Promise<void>) => {
  client.on('notification', (m) => {
    if (m.channel === channel) f(m.payload ?? '')
  })
  client.on('error', () => undefined)
  await client.query(`LISTEN ${quoteIdent(channel)}`)
  return async () => {
    await client.query(`UNLISTEN ${quoteIdent(channel)}`).catch(() => undefined)
    await end()
  }
}

/**
 * Whether a driver error ends the connection's session: severity FATAL or PANIC (a killed
 * backend, a server shutting down), or a connection exception (SQLSTATE class 08). Its
 * connection may still look open for a moment, and must not go back to the pool.
 */
const endsSession = (e: unknown): boolean => {
  const { severity, code } = e as { severity?: unknown; code?: unknown }
  return severity === 'FATAL' || severity === 'PANIC' || (typeof code === 'string' && code.startsWith('08'))
}

/**
 * Listens for a pooled connection's 'error' events, once per connection: a connection that
 * dies under a call (a server restart, a killed backend) also emits one, which with no
 * listener would end the process; the call itself hears of it as its statement's failure.
 */
const heard = (client: PgClientLike): void => {
  if (listened.has(client)) return
  listened.add(client)
  client.on('error', () => undefined)
}
const listened = new WeakSet<object>()

/**
 * Runs `start` with a callback: a driver that takes callbacks (`pg`) answers through it; one
 * that answers with a promise instead (a pool of your own) is followed. `cb` is called once.
 */
const callback = <A>(start: (cb: PgCallback<A>) => Promise<A> | void, cb: (e: unknown, a?: A) => void): void => {
  let called = false
  const once = (e: unknown, a?: A): void => {
    if (called) return
    called = true
    cb(e, a)
  }
  let out: Promise<A> | void
  try {
    out = start((e, a) => once(e, e === undefined || e === null ? a : undefined))
  } catch (e) {
    once(e)
    return
  }
  if (out !== undefined && typeof out.then === 'function') out.then((a) => once(undefined, a), (e: unknown) => once(e ?? new Error('rejected')))
}

/** A prepared statement's name: the same text, the same name, on every connection (remembered for the texts seen last). */
const statementName = (sql: string): string => {
  let name = names.get(sql)
  if (name === undefined) {
    name = `emcp_${createHash('sha256').update(sql).digest('base64url').slice(0, 24)}`
    if (names.size >= 1024) names.clear()
    names.set(sql, name)
  }
  return name
}
const names = new Map<string, string>()

const importDriver = async <A>(name: string): Promise<A> => {
  try {
    const m = (await import(name)) as A & { default?: A }
    // CommonJS packages (pg) arrive as a default export
    return (m.default !== undefined && typeof m.default === 'object' ? m.default : m) as A
  } catch (e) {
    throw new Error(`emcp/postgres needs the package ${name}: install it (npm install ${name}). ${e instanceof Error ? e.message : ''}`)
  }
}
