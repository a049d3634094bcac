/**
 * The `emcp` executable: the process edge of the command line. Runs the command table on
 * `process.argv` and exits with the code the command gave.
 *
 * @example
 * // npx emcp call dist/examples/calculator.js add --arg a=2 --arg b=3
 */
import { runCli } from './run.js'

const code = await runCli(process.argv.slice(2), {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
  cwd: process.cwd(),
  interactive: process.stderr.isTTY === true,
})
// a command that served until stopped, or a module that left timers behind, must not keep the process alive
process.stdout.write('', () => process.exit(code))
