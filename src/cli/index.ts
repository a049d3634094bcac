/**
 * emcp/cli: the command line as a library. `Command` is one subcommand; `commands` is the
 * built-in table; `runCli` runs a table (the built-in one plus yours, e.g. `emcp pg`).
 *
 * @example
 * import { commands, runCli, type Command } from 'emcp/cli'
 * const hello: Command = { name: 'hello', summary: 'Greet.', help: 'Usage: emcp hello', run: async (_argv, io) => (io.out('hello\n'), 0) }
 * await runCli(['hello'], { out: (s) => process.stdout.write(s), err: (s) => process.stderr.write(s), cwd: process.cwd(), interactive: false }, [...commands, hello])
 */
export { UsageError } from './command.js'
export type { Command, CommandIO } from './command.js'
export { commands } from './commands.js'
export { parseArgs } from './args.js'
export type { Args, ArgSpec } from './args.js'
export { isServer, loadServer } from './load.js'
export { progress } from './progress.js'
export type { Progress } from './progress.js'
export { runCli, usage } from './run.js'
