/**
 * Type tests of `emcp/cli` (src/cli/*): a subcommand is a plain `Command` value, and
 * `runCli` takes the built-in table extended with more.
 */
import { expectAssignable, expectError, expectType } from 'tsd'
import { commands, runCli, UsageError, type Command, type CommandIO } from 'emcp/cli'

const hello: Command = {
  name: 'hello',
  summary: 'Greet.',
  help: 'Usage: emcp hello',
  run: async (argv, io) => {
    expectType<ReadonlyArray<string>>(argv)
    io.out(`hello ${argv[0] ?? 'world'}\n`)
    return 0
  },
}
const io: CommandIO = { out: () => {}, err: () => {}, cwd: '/', interactive: false }
expectType<Promise<number>>(runCli(['hello'], io, [...commands, hello]))
expectAssignable<Error>(new UsageError('bad flag'))
// run must resolve to an exit code
expectError<Command>({ name: 'x', summary: '', help: '', run: async () => 'done' })
