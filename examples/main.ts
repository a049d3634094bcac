/**
 * How every runnable example starts. When the module is the program node was started with,
 * its options are parsed with `node:util`'s `parseArgs`:
 * - `--help` (or `-h`) prints the usage and exits 0, before anything starts;
 * - an unknown or malformed option prints the error and the usage, and exits 2;
 * - a failure of the program prints one line and exits 1 (a port in use: the port, and `--port 0`).
 * Imported by another module, the example only defines its values.
 *
 * @example
 * import { runMain } from './main.js'
 * runMain(import.meta.url, { usage: 'node dist/examples/x.js [--port N]', options: { port: { type: 'string', default: '3000' } } }, ({ port }) => {
 *   console.log(`would listen on ${port}`)
 * })
 */
import { basename } from 'node:path'
import { parseArgs, type ParseArgsConfig } from 'node:util'
import { isMain } from './is-main.js'

/** The options of a program, as `parseArgs` takes them. */
export type Options = NonNullable<ParseArgsConfig['options']>

/** What an example's program takes: its usage text, its options, and whether it takes positionals. */
export interface Program<O extends Options> {
  readonly usage: string
  readonly options: O
  readonly positionals?: boolean
}

/** The values `parseArgs` gives for the options `O`. */
export type Values<O extends Options> = ReturnType<typeof parseArgs<{ options: O; strict: true; allowPositionals: true }>>['values']

/** Whether the module at a URL is the program node was started with (is-main.ts). */
export { isMain }

/** Runs `run` with the parsed options when the module at `url` is the program (see the header). */
export const runMain = <O extends Options>(url: string, program: Program<O>, run: (values: Values<O>, positionals: ReadonlyArray<string>) => unknown): void => {
  if (!isMain(url)) return
  const name = basename(new URL(url).pathname).replace(/\.js$/, '')
  const args = process.argv.slice(2)
  if (args.includes('--help') || args.includes('-h')) {
    process.stdout.write(`${program.usage.trim()}\n`)
    return
  }
  let parsed: { values: Values<O>; positionals: string[] }
  try {
    parsed = parseArgs({ args, options: program.options, strict: true, allowPositionals: program.positionals ?? false })
  } catch (e) {
    process.stderr.write(`${name}: ${e instanceof Error ? e.message : String(e)}\n\n${program.usage.trim()}\n`)
    process.exit(2)
  }
  Promise.resolve()
    .then(() => run(parsed.values, parsed.positionals))
    .catch((e: unknown) => {
      process.stderr.write(`${name}: ${failure(e)}\n`)
      process.exit(1)
    })
}

/** A failure in one line; a port in use names the port and the way out. */
const failure = (e: unknown): string => {
  const { code, port, address } = (e ?? {}) as { code?: unknown; port?: unknown; address?: unknown }
  if (code === 'EADDRINUSE')
    return `port ${String(port)} on ${String(address)} is in use (another server is listening there): stop it, or give another port with --port N (--port 0 picks a free one; npm start -- --port 0)`
  return e instanceof Error ? e.message : String(e)
}

/** A `--port` value as a port number; anything else throws, naming the option. */
export const portOf = (value: string | undefined, fallback: number, option = '--port'): number => {
  const port = Number(value ?? fallback)
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`${option} must be a port number (got ${JSON.stringify(value)})`)
  return port
}
