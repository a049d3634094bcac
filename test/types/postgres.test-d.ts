/**
 * Type tests of `emcp/postgres`: opening databases, serving their routines, the options,
 * and the identity and authorization hooks it builds on.
 */
import { expectAssignable, expectError, expectNotAssignable, expectType } from 'tsd'
import type { Identity, Server, Session } from 'emcp'
import type { BearerAuth, HttpOptions } from 'emcp/http'
import {
  annotations,
  databaseError,
  fromPostgres,
  pglite,
  postgres,
  type Annotations,
  type Changes,
  type Database,
  type DatabaseError,
  type PostgresOptions,
  type PostgresTools,
  runScripts,
  ScriptError,
  type Assignment,
} from 'emcp/postgres'

expectType<Promise<Database>>(pglite())
expectType<Promise<Database>>(pglite('./data'))
expectType<Promise<Database>>(postgres('postgres://127.0.0.1/db', { max: 4 }))
expectError(postgres(42))

declare const db: Database
expectType<Promise<PostgresTools>>(fromPostgres(db))
expectType<Promise<PostgresTools>>(fromPostgres(db, { schemas: ['store'], prefix: 'shop.', timeoutMs: 1000, setRole: true, listen: 'reload' }))
expectAssignable<PostgresOptions>({ setRole: (identity: Identity, allowed: ReadonlyArray<string> | undefined) => allowed?.[0] ?? identity.roles[0] })
expectNotAssignable<PostgresOptions>({ schemas: 'public' })

declare const tools: PostgresTools
expectType<Server>(tools.server)
expectType<Promise<Changes>>(tools.reload())
expectType<string[]>(tools.tools().map((t) => t.tool.name))

expectType<Annotations>(annotations('@mcp Hello.', 'hello'))
expectType<ReadonlyArray<string> | undefined>(annotations('@mcp', 'f').authorize)
expectType<DatabaseError | undefined>(databaseError(new Error('x')))

// the core hooks
declare const session: Session
expectType<Identity | undefined>(session.identity)
expectAssignable<HttpOptions>({ auth: { verify: (token: string) => (token === 't' ? { subject: 's', roles: ['r'] } : undefined) } })
expectAssignable<BearerAuth>({ verify: async () => undefined, required: true, realm: 'shop' })
expectNotAssignable<BearerAuth>({ verify: (token: string) => token })

// setup scripts are their own option and function; tool files are never run
expectType<Promise<void>>(runScripts(db, ['schema.sql', { path: 'seed.sql', text: 'insert into notes values (1)' }]))
expectAssignable<PostgresOptions>({ init: ['schema.sql'], sqlFiles: [{ path: 'open.sql', text: '-- @mcp_description Opens.\nselect 1' }] })
expectNotAssignable<PostgresOptions>({ init: 'schema.sql' })
expectType<number>(new ScriptError('seed.sql', 3, { sqlstate: '42601', message: 'syntax error' }).line)
expectType<ReadonlyArray<Assignment>>(annotations('_user_id = select 1', 'f').assignments)
expectType<boolean>(annotations('disabled', 'f', { tags: ['function', 'stable'] }).disabled)
