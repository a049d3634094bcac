/**
 * Setup scripts, run only when asked (`init` of `fromPostgres`, `emcp pg --init FILE`): a
 * schema, seed data. Like `psql -v ON_ERROR_STOP=1 -f FILE`, each script runs statement by
 * statement on one connection, in order, and stops at the first error, which names the file
 * and the line (`schema.sql:12: PostgreSQL error 42P01: relation "x" does not exist`). A
 * file given as a tool source (`sqlFiles`, `--sql`) is never run.
 *
 * @example
 * import { pglite, runScripts } from 'emcp/postgres'
 * const db = await pglite()
 * await runScripts(db, ['schema.sql', { path: 'seed.sql', text: 'insert into notes (body) values (\'first\')' }])
 */
import { readFile } from 'node:fs/promises'
import { databaseError, type Database, type DatabaseError } from './database.js'
import type { SqlFile } from './sql-files.js'
import { lineAt, scanSql } from './sql-text.js'

// ---------------------------------------------------------------------------------------
// model

/** A statement of a setup script that failed: where, and PostgreSQL's error. */
export class ScriptError extends Error {
  override readonly name = 'ScriptError'
  constructor(
    /** The script's path, as given. */
    readonly path: string,
    /** The 1-based line of the error (of its position when PostgreSQL gives one, else where the statement starts). */
    readonly line: number,
    readonly error: DatabaseError,
  ) {
    super(`${path}:${line}: PostgreSQL error ${error.sqlstate}: ${error.message}${error.detail === undefined ? '' : `\nDETAIL: ${error.detail}`}${error.hint === undefined ? '' : `\nHINT: ${error.hint}`}`)
  }
}

// ---------------------------------------------------------------------------------------
// functions

/** Runs the scripts in order; rejects with a `ScriptError` at the first failing statement. */
export const runScripts = async (db: Database, scripts: ReadonlyArray<string | SqlFile>): Promise<void> => {
  for (const s of scripts) {
    const script = typeof s === 'string' ? { path: s } : s
    const text = (script.text ?? (await readFile(script.path, 'utf8'))).replace(/^\uFEFF/, '')
    const { statements } = scanSql(text)
    await db.session(async (run) => {
      for (const st of statements) {
        try {
          await run(st.source)
        } catch (e) {
          // a script that failed inside its own begin ... commit leaves nothing half done (and PGlite, its one connection usable)
          await run('ROLLBACK').catch(() => undefined)
          const d = databaseError(e)
          if (d === undefined) throw e
          throw new ScriptError(script.path, st.line + (d.position === undefined ? 0 : lineAt(st.source, d.position) - 1), d)
        }
      }
    })
  }
}
