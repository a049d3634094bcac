/**
 * `fromPostgres`: a live MCP server over a database's annotated routines (and `.sql`
 * files). Each call runs in its own transaction: a statement timeout, optionally the
 * caller's role (`SET LOCAL ROLE`), then the one parameterized statement. A database error
 * becomes an `isError` result carrying the SQLSTATE and message. `reload()` (or a `NOTIFY`
 * on the `listen` channel) re-reads the catalog and tells clients the list changed.
 *
 * @example
 * import { fromPostgres, pglite } from 'emcp/postgres'
 * import { serveHttp } from 'emcp/http'
 * const db = await pglite()
 * await db.exec(`create function add(a int, b int) returns int language sql as $$ select a + b $$;
 *                comment on function add(int, int) is '@mcp Adds two integers.'`)
 * const pg = await fromPostgres(db, { listen: 'emcp_reload' })
 * await serveHttp(pg.server, { port: 3000 })
 */
import type { Handler } from '../../server/call.js'
import { toolError } from '../../contract/content.js'
import type { RuntimeTool } from '../../contract/runtime-tool.js'
import { mcpServer, type Server } from '../../server/server.js'
import type { Identity } from '../../server/session.js'
import { databaseError, type Database, type DatabaseError } from './database.js'
import { readRoutines, type DbTool, type RoutineOptions, type Skipped } from './routines.js'
import { runScripts } from './scripts.js'
import { readSqlFiles, type SqlFile } from './sql-files.js'

// ---------------------------------------------------------------------------------------
// model

/** Options of `fromPostgres`. */
export interface PostgresOptions extends RoutineOptions {
  /** The server's name (default: the database's name). */
  readonly name?: string
  /** The server's version (default `1.0.0`). */
  readonly version?: string
  /** Guidance for the model, sent in the `initialize` result. */
  readonly instructions?: string
  /**
   * `.sql` files served as tools: paths, or `{ path, text }`. A file whose comments carry no
   * MCP annotation is left out with a warning; no file given here is ever run at start.
   */
  readonly sqlFiles?: ReadonlyArray<string | SqlFile>
  /** Setup scripts (a schema, seed data) run once, in order, before the catalog is read: see `runScripts`. */
  readonly init?: ReadonlyArray<string | SqlFile>
  /** The statement timeout of each call, in milliseconds (default 30 000; 0: none). Enforced by a real server; PGlite does not enforce it. */
  readonly timeoutMs?: number
  /**
   * Run each call under a role of the caller (`SET LOCAL ROLE` in the call's transaction):
   * `true` takes the first of the caller's roles that the routine's `@authorize` names (or
   * the caller's first role); a function chooses. Anonymous calls run as the connection's own role.
   */
  readonly setRole?: boolean | ((identity: Identity, allowed: ReadonlyArray<string> | undefined) => string | undefined)
  /** A `NOTIFY` channel: each notification reloads the catalog. */
  readonly listen?: string
  /** Tools per `tools/list` page. */
  readonly pageSize?: number
  /** Where warnings go (default: standard error). */
  readonly onWarning?: (message: string) => void
}

/** What a reload changed, by tool name. */
export interface Changes {
  readonly added: ReadonlyArray<string>
  readonly removed: ReadonlyArray<string>
  readonly changed: ReadonlyArray<string>
}

/** A database served as tools. */
export interface PostgresTools {
  /** The server: serve it over any transport. Its tools change on reload. */
  readonly server: Server
  /** The tools served now. */
  readonly tools: () => ReadonlyArray<DbTool>
  /** Routines and files that carry `@mcp` but are not served, and why (as of the last read). */
  readonly skipped: () => ReadonlyArray<Skipped>
  /** Re-reads the catalog and the files; clients hear `notifications/tools/list_changed`. */
  readonly reload: () => Promise<Changes>
  /** Stops listening for notifications (the database stays open: it is yours). */
  readonly close: () => Promise<void>
}

// ---------------------------------------------------------------------------------------
// constructors

/** Reads the annotated routines of `db` and serves them; fails when there is none. */
export const fromPostgres = async (db: Database, options: PostgresOptions = {}): Promise<PostgresTools> => {
  const warn = options.onWarning ?? ((m: string) => console.error(`emcp/postgres: ${m}`))
  const read = (): Promise<Read> => readTools(db, options, warn)
  if (options.init !== undefined) await runScripts(db, options.init)
  const first = await read()
  if (first.tools.length === 0)
    throw new Error(
      `emcp/postgres: no routine in schema(s) ${(options.schemas ?? ['public']).join(', ')} and no .sql file carries @mcp (or @mcp_description, @mcp_desc, @mcp_name)` +
        (first.skipped.length > 0 ? ` (not served: ${first.skipped.map((s) => `${s.source}: ${s.reason}`).join('; ')})` : ''),
    )
  const state: State = { current: new Map(first.tools.map((t) => [t.tool.name, t])), skipped: first.skipped }
  const handler = handlerOf(db, options, state)
  const authorize = (tool: { readonly name: string }, session: { readonly identity?: Identity | undefined }): boolean => {
    const roles = state.current.get(tool.name)?.authorize
    if (roles === undefined) return true
    const who = session.identity
    if (who === undefined) return false
    // an @authorize name is a role the verifier gave, or an OAuth scope the token grants
    return roles.length === 0 || roles.some((r) => who.roles.includes(r) || (who.scopes?.includes(r) ?? false))
  }

  const name = options.name ?? String((await db.query('SELECT current_database() AS name')).rows[0]?.name ?? 'postgres')
  const tools = first.tools.map((t) => t.tool)
  const handlers: Record<string, Handler<RuntimeTool>> = Object.fromEntries(tools.map((t) => [t.name, handler(t.name)]))
  const server: Server = mcpServer(
    tools,
    { name, version: options.version ?? '1.0.0' },
    {
      ...(options.instructions === undefined ? {} : { instructions: options.instructions }),
      ...(options.pageSize === undefined ? {} : { pageSize: options.pageSize }),
      authorize,
    },
  ).implement(handlers)

  const reload = reloader(async () => {
    const next = await read()
    const fresh = new Map(next.tools.map((t) => [t.tool.name, t]))
    const changes = changesOf(state.current, fresh)
    state.current = fresh
    state.skipped = next.skipped
    for (const n of [...changes.removed, ...changes.changed]) server.removeTool(n)
    for (const n of [...changes.changed, ...changes.added]) server.addTool((fresh.get(n) as DbTool).tool, handler(n))
    return changes
  })
  const unlisten =
    options.listen === undefined
      ? undefined
      : await db.listen(options.listen, () => {
          reload().catch((e: unknown) => warn(`reload failed: ${e instanceof Error ? e.message : String(e)}`))
        })

  return {
    server,
    tools: () => [...state.current.values()],
    skipped: () => state.skipped,
    reload,
    close: async () => {
      await unlisten?.()
    },
  }
}

// ---------------------------------------------------------------------------------------
// internals

/** What one reading of the catalog and the files serves, and what it skips. */
interface Read {
  readonly tools: ReadonlyArray<DbTool>
  readonly skipped: ReadonlyArray<Skipped>
}

/** The tools served now (by name) and the sources skipped, replaced by each reload. */
interface State {
  current: Map<string, DbTool>
  skipped: ReadonlyArray<Skipped>
}

/** The routines and files, with duplicate names skipped; warnings go to `warn`. */
const readTools = async (db: Database, options: PostgresOptions, warn: (m: string) => void): Promise<Read> => {
  const routines = await readRoutines(db, options)
  const files = await readSqlFiles(db, options.sqlFiles ?? [], options)
  const skipped: Skipped[] = [...routines.skipped, ...files.skipped]
  const tools: DbTool[] = []
  const names = new Set<string>()
  for (const t of [...routines.tools, ...files.tools]) {
    if (names.has(t.tool.name)) skipped.push({ source: t.source, reason: `duplicate tool name ${t.tool.name} (an overloaded routine? give it an @mcp_name)` })
    else {
      names.add(t.tool.name)
      tools.push(t)
    }
  }
  for (const w of [...routines.warnings, ...files.warnings]) warn(w)
  for (const s of skipped) warn(`${s.source} is not served: ${s.reason}`)
  return { tools, skipped }
}

/** What a reload added, removed and changed, by name. */
const changesOf = (current: ReadonlyMap<string, DbTool>, fresh: ReadonlyMap<string, DbTool>): Changes => {
  const added: string[] = []
  const removed: string[] = []
  const changed: string[] = []
  for (const [n, t] of current) {
    const f = fresh.get(n)
    if (f === undefined) removed.push(n)
    else if (f.fingerprint !== t.fingerprint) changed.push(n)
  }
  for (const n of fresh.keys()) if (!current.has(n)) added.push(n)
  return { added, removed, changed }
}

/** Reloads run one at a time; requests during one ask for one more, not one each. */
const reloader = (once: () => Promise<Changes>): (() => Promise<Changes>) => {
  const flight: { running?: Promise<Changes>; again: boolean } = { again: false }
  const go = async (): Promise<Changes> => {
    try {
      let out = await once()
      while (flight.again) {
        flight.again = false
        out = await once()
      }
      return out
    } finally {
      delete flight.running
    }
  }
  return () => {
    if (flight.running !== undefined) {
      flight.again = true
      return flight.running
    }
    return (flight.running = go())
  }
}

/** The handler of each tool name: the caller's settings and role, the statement, the answer as JSON. */
const handlerOf = (db: Database, options: PostgresOptions, state: State) => {
  const timeoutMs = options.timeoutMs ?? 30_000
  const roleFor = (identity: Identity | undefined, allowed: ReadonlyArray<string> | undefined): string | undefined => {
    if (identity === undefined || options.setRole === undefined || options.setRole === false) return undefined
    if (typeof options.setRole === 'function') return options.setRole(identity, allowed)
    return (allowed !== undefined && allowed.length > 0 ? identity.roles.find((r) => allowed.includes(r)) : undefined) ?? identity.roles[0]
  }
  /** A call in a transaction of its own: its settings (all local to it), the caller's role, the resolved parameters, the statement. */
  const inTransaction = (t: DbTool, args: { readonly [key: string]: unknown }, present: ReadonlySet<string>, subject: string, roles: string, role: string | undefined) =>
    db.transaction(async (q) => {
      // readable in SQL as current_setting('emcp.subject', true) and current_setting('emcp.roles', true)
      await q.query(`SELECT set_config('statement_timeout', $1, true), set_config('emcp.subject', $2, true), set_config('emcp.roles', $3, true)`, [
        String(timeoutMs),
        subject,
        roles,
      ])
      if (role !== undefined) await q.query(`SELECT set_config('role', $1, true)`, [role])
      const given = t.statement.params(args)
      const params = t.statement.resolve === undefined ? given : await t.statement.resolve(q, given)
      return (await q.query(t.statement.sql(present), params)).rows[0]?.result
    })
  return (name: string) =>
    async (args: { readonly [key: string]: unknown }, ctx: { readonly session: { readonly identity?: Identity | undefined } }): Promise<unknown> => {
      const t = state.current.get(name)
      if (t === undefined) return toolError(`tool ${name} is no longer served`)
      const present = new Set(Object.keys(args))
      const who = ctx.session.identity
      const role = roleFor(who, t.authorize)
      const subject = who?.subject ?? ''
      const roles = who?.roles.join(',') ?? ''
      try {
        const text =
          t.statement.alone !== undefined && role === undefined
            ? // one round trip: the statement sets who calls itself; the timeout is the connection's
              (await db.call(t.statement.alone(present), [JSON.stringify(args), subject, roles], timeoutMs)).rows[0]?.result
            : await inTransaction(t, args, present, subject, roles, role)
        return t.statement.result === 'void' ? 'done' : JSON.parse(String(text))
      } catch (e) {
        const d = databaseError(e)
        if (d !== undefined) return toolError(describe(d))
        throw e
      }
    }
}

/** A database error as the model reads it: SQLSTATE, message, detail, hint. */
const describe = (d: DatabaseError): string =>
  [`PostgreSQL error ${d.sqlstate}: ${d.message}`, d.detail === undefined ? '' : `DETAIL: ${d.detail}`, d.hint === undefined ? '' : `HINT: ${d.hint}`]
    .filter((l) => l !== '')
    .join('\n')
