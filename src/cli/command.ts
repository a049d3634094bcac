/**
 * One subcommand of the `emcp` command line. The command is a table of these (src/cli/main.ts),
 * one file each, so that a new subcommand is one more file and one more table entry.
 *
 * @example
 * import type { Command } from 'emcp/cli'
 * export const hello: Command = {
 *   name: 'hello',
 *   summary: 'Say hello.',
 *   help: 'Usage: emcp hello [name]\n\nPrints a greeting.',
 *   run: async (argv, io) => {
 *     io.out(`hello ${argv[0] ?? 'world'}\n`)
 *     return 0
 *   },
 * }
 */

/** Where a command writes, and what it may know of its surroundings. */
export interface CommandIO {
  /** Writes to standard output (the result: JSON, a manifest, a listing). */
  readonly out: (text: string) => void
  /** Writes to standard error (messages, progress). */
  readonly err: (text: string) => void
  /** The directory relative paths are read from. */
  readonly cwd: string
  /** True when standard error is a terminal: progress may redraw one line. */
  readonly interactive: boolean
  /**
   * Asks the person at the terminal one question and resolves to the line they typed
   * (undefined once input has ended). Absent when standard input is not a terminal: nobody
   * can be asked.
   */
  readonly ask?: (question: string) => Promise<string | undefined>
}

/** A subcommand: its name, a one-line summary for `emcp --help`, its own help, and what it does. */
export interface Command {
  /** The word after `emcp`. */
  readonly name: string
  /** One line for the list of commands. */
  readonly summary: string
  /** The full text of `emcp <name> --help`. */
  readonly help: string
  /** Runs with the arguments after the name; resolves to the process exit code. */
  readonly run: (argv: ReadonlyArray<string>, io: CommandIO) => Promise<number>
}

/** A failure the user can fix (a bad flag, a missing file): printed without a stack, exit code 2 unless given. */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = 2,
  ) {
    super(message)
    this.name = 'UsageError'
  }
}

/** A listen failure as one line that names the address and says what to do (a port in use: `--port 0`). */
export const listenError = (e: unknown, host: string, port: number): UsageError => {
  const code = (e as { code?: unknown } | null)?.code
  if (code === 'EADDRINUSE')
    return new UsageError(`port ${port} on ${host} is in use (another server is listening there): stop it, or give another port with --port N (--port 0 picks a free one)`, 1)
  if (code === 'EACCES') return new UsageError(`port ${port} on ${host} is not allowed for this user: give a port above 1023 with --port N (--port 0 picks a free one)`, 1)
  if (code === 'EADDRNOTAVAIL') return new UsageError(`cannot listen on ${host}: this machine has no such address; give one of its own with --host (127.0.0.1 by default)`, 1)
  return new UsageError(`cannot listen on ${host}:${port}: ${e instanceof Error ? e.message : String(e)}`, 1)
}
