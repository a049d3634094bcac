/**
 * The `--search` and `--pin` options shared by the commands that serve: tool-search mode
 * (`search_tools`, `call_tool` and the pinned tools listed instead of every tool), as the
 * `toolSearch` server option turns it on.
 *
 * @example
 * import { searchOf } from './search.js'
 * searchOf(parseArgs(['--search', '--pin', 'add'], { options: ['pin'], switches: ['search'] })) // { pinned: ['add'] }
 */
import type { ToolSearchOptions } from '../features/tool-search/mode.js'
import type { Server } from '../server/server.js'
import type { Args } from './args.js'
import { UsageError } from './command.js'

/** The option names, for an ArgSpec: `--pin` takes a value, `--search` is a switch. */
export const searchOptions = { options: ['pin'], switches: ['search'] } as const

/** The help lines of the options. */
export const searchHelp = `  --search        tool-search mode: list search_tools and call_tool (and the pinned
                  tools) instead of every tool; see docs/tool-search.md
  --pin NAME      with --search, keep tool NAME listed too (repeatable)`

/** The search mode the options ask for; undefined when they ask for none. A `--pin` without `--search` is a usage error. */
export const searchOf = (args: Args): ToolSearchOptions | undefined => {
  const pinned = args.options.pin
  if (!args.switches.has('search')) {
    if (pinned !== undefined) throw new UsageError('--pin needs --search')
    return undefined
  }
  return pinned === undefined ? {} : { pinned }
}

/** Turns search mode on for `server` as the options ask; a pinned name that is no tool is a usage error naming it. */
export const applySearch = (server: Server, args: Args): void => enableSearch(server, searchOf(args))

/** Turns search mode on for `server` with `options` (nothing when undefined); options that cannot work are a usage error. */
export const enableSearch = (server: Server, options: ToolSearchOptions | undefined): void => {
  if (options === undefined) return
  try {
    server.setToolSearch(options)
  } catch (e) {
    throw new UsageError(e instanceof Error ? e.message.replace(/^emcp: /, '').replace('toolSearch.pinned', '--pin') : String(e))
  }
}
