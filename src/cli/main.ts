/**
 * The `emcp` executable: the process edge of the command line. Runs the command table on
 * `process.argv` and exits with the code the command gave.
 *
 * @example
 * // npx emcp call dist/examples/calculator.js add --arg a=2 --arg b=3
 */
import { createInterface } from 'node:readline'
import { runCli } from './run.js'

/** One question at the terminal, on standard error (standard output carries only the result). */
const ask = (question: string): Promise<string | undefined> =>
  new Promise((resolve) => {
    const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: true })
    let answered = false
    rl.question(question, (line) => {
      answered = true
      rl.close()
      resolve(line)
    })
    // Ctrl+D or Ctrl+C: no answer
    rl.once('close', () => {
      if (!answered) resolve(undefined)
    })
  })

const code = await runCli(process.argv.slice(2), {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
  cwd: process.cwd(),
  interactive: process.stderr.isTTY === true,
  ...(process.stdin.isTTY === true ? { ask } : {}),
})
// a command that served until stopped, or a module that left timers behind, must not keep the process alive
process.stdout.write('', () => process.exit(code))
