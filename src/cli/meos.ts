/**
 * `emcp meos`: serve the MEOS catalog in the real libmeos (see docs/meos.md). The work is in
 * src/sources/meos/cli.ts; this file puts it in the command table. koffi and libmeos are
 * loaded only by the worker processes the command starts.
 *
 * @example
 * import { meos } from './meos.js'
 * await meos.run(['--manifest', 'meos-mcp.json', '--catalog', 'meos-idl.json', '--http', '--port', '3000'], io)
 */
import { help, run } from '../sources/meos/cli.js'
import type { Command } from './command.js'

/** The `emcp meos` subcommand. */
export const meos: Command = {
  name: 'meos',
  summary: 'Serve the MEOS catalog (temporal and spatial types) in the real libmeos, in worker processes.',
  help: help.trimEnd(),
  run: (argv, io) => run(argv, io),
}
