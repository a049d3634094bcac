/**
 * emcp/postgres: database routines as MCP tools. A function or procedure becomes a tool when
 * its comment carries `@mcp`; PGlite is the embedded default, `pg` serves a real server.
 * The drivers load on first use: `import 'emcp'` alone never loads them.
 *
 * @example
 * import { fromPostgres, pglite } from 'emcp/postgres'
 * import { serveStdio } from 'emcp/stdio'
 * const db = await pglite()
 * await db.exec(`create function hello(_who text) returns text language sql as $$ select 'hello ' || _who $$;
 *                comment on function hello(text) is '@mcp Greets someone.'`)
 * await serveStdio((await fromPostgres(db)).server)
 */
export { fromPostgres } from './from-postgres.js'
export type { Changes, PostgresOptions, PostgresTools } from './from-postgres.js'
export { databaseError, pglite, postgres } from './database.js'
export type { Database, DatabaseError, DriverResult, Field, PGliteLike, PgCallback, PgClientLike, PgPooledClient, PgPoolLike, PoolOptions, Queryable, QueryResult } from './database.js'
export { annotations } from './annotations.js'
export type { AnnotationContext, Annotations, Assignment, ParamLine } from './annotations.js'
export { runScripts, ScriptError } from './scripts.js'
export type { DbTool, NamingOptions, RoutineOptions, Skipped, Statement } from './routines.js'
export { splitSqlFile } from './sql-files.js'
export type { SqlFile } from './sql-files.js'
export type { PgType } from './types.js'
