/**
 * Running the command line: picks the subcommand from a table, answers `--help` at every
 * level, and turns failures into readable messages and exit codes (2 for usage errors, 1
 * for failures, never a stack trace for something the user can fix).
 *
 * @example
 * import { runCli } from 'emcp/cli'
 * const code = await runCli(['list', 'dist/examples/calculator.js'], { out: console.log, err: console.error, cwd: process.cwd(), interactive: false })
 */
import type { Command, CommandIO } from './command.js'
import { UsageError } from './command.js'
import { commands as builtIn } from './commands.js'
import { packageVersion } from './version.js'

/** The text of `emcp --help` for a table of commands. */
export const usage = (commands: ReadonlyArray<Command>): string => {
  const width = Math.max(...commands.map((c) => c.name.length))
  return `Usage: emcp <command> [options]

Commands:
${commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`).join('\n')}

Run \`emcp <command> --help\` for the options of a command; \`emcp --version\` prints the version.
`
}

/** Runs `argv` (the words after `emcp`) against a table of commands; resolves to the exit code. */
export const runCli = async (argv: ReadonlyArray<string>, io: CommandIO, commands: ReadonlyArray<Command> = builtIn): Promise<number> => {
  const [name, ...rest] = argv
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    const topic = name === 'help' ? commands.find((c) => c.name === rest[0]) : undefined
    if (topic !== undefined) io.out(`${topic.help}\n`)
    else io.out(usage(commands))
    return name === undefined ? 2 : 0
  }
  if (name === '--version' || name === '-v' || name === 'version') {
    io.out(`emcp ${packageVersion()}\n`)
    return 0
  }
  const command = commands.find((c) => c.name === name)
  if (command === undefined) {
    io.err(`emcp: unknown command ${name}\n\n${usage(commands)}`)
    return 2
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    io.out(`${command.help}\n`)
    return 0
  }
  try {
    return await command.run(rest, io)
  } catch (e) {
    if (e instanceof UsageError) {
      io.err(`emcp ${command.name}: ${e.message}\n${e.exitCode === 2 ? `Run \`emcp ${command.name} --help\` for usage.\n` : ''}`)
      return e.exitCode
    }
    io.err(`emcp ${command.name}: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`)
    return 1
  }
}
