/**
 * The table of `emcp` subcommands. A new subcommand is one file exporting a `Command` and
 * one entry here.
 *
 * @example
 * import { commands } from './commands.js'
 * commands.map((c) => c.name) // ['serve', 'dev', 'call', 'list', 'manifest', 'validate', 'pg', 'meos', 'types', 'install', 'bundle', 'server-json', 'proxy', 'openapi']
 */
import { bundle } from './bundle.js'
import { call } from './call.js'
import type { Command } from './command.js'
import { dev } from './dev.js'
import { install } from './install.js'
import { list } from './list.js'
import { manifest } from './manifest.js'
import { meos } from './meos.js'
import { pg } from './pg.js'
import { openapiCommand } from './openapi.js'
import { proxyCommand } from './proxy.js'
import { serve } from './serve.js'
import { serverJsonCommand } from './server-json.js'
import { types } from './types.js'
import { validate } from './validate.js'

/** Every subcommand, in the order `emcp --help` shows them. */
export const commands: ReadonlyArray<Command> = [serve, dev, call, list, manifest, validate, pg, meos, types, install, bundle, serverJsonCommand, proxyCommand, openapiCommand]
