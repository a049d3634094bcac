/**
 * `emcp pg`: serve a PostgreSQL database's annotated routines (see docs/postgres.md). The
 * work is in src/sources/postgres/cli.ts; this file puts it in the command table. PGlite and `pg`
 * are loaded only when the command opens a database.
 *
 * @example
 * import { pg } from './pg.js'
 * await pg.run(['--init', 'schema.sql', '--sql', 'find.sql', '--http', '--port', '3000'], { out: console.log, err: console.error, cwd: '.', interactive: false })
 */
import { help, run } from '../sources/postgres/cli.js'
import type { Command } from './command.js'

/** The `emcp pg` subcommand. */
export const pg: Command = {
  name: 'pg',
  summary: 'Serve the PostgreSQL functions whose comment carries @mcp (PGlite, or --url / DATABASE_URL).',
  help: help.trimEnd(),
  run: (argv, io) => run(argv, io),
}
