// `emcp pg` as a process, for the stdio test (until the emcp command has it): the built run().
import { run } from '../../../dist/src/sources/postgres/cli.js'

process.exitCode = await run(process.argv.slice(2))
