/**
 * `emcp list`: the tools of a module's server, one line each (or the `tools/list` JSON),
 * with an estimate of the listing's size in tokens and a warning past a budget.
 *
 * @example
 * // emcp list dist/examples/catalog.js --category vector --budget 20000
 * import { list } from './list.js'
 * await list.run(['dist/examples/calculator.js'], io)
 */
import { categories as categoryCounts, selected } from '../sources/manifest/catalog.js'
import { listingBudget } from '../sources/manifest/tokens.js'
import { lastOption, parseArgs } from './args.js'
import { UsageError, type Command } from './command.js'
import { loadServer } from './load.js'
import { selectionHelp, selectionOf, selectionOptions } from './select.js'
import { wireClient } from './wire.js'
import { counted } from '../util/counted.js'

const help = `Usage: emcp list <module> [--json] [--categories] [--category C] [--tag T] [--budget N]

Lists the tools the module's default-exported server lists (disabled tools are not listed),
one per line: name, then description. Standard error gets the estimated size of the
listing in tokens (about 4 characters of JSON per token).

Options:
  --json          print the tools as tools/list gives them (a JSON array)
  --categories    print the categories and their tool counts instead
${selectionHelp}
  --budget N      warn (on standard error) and exit 1 when the listing is estimated
                  above N tokens
  --help          this text

Example:
  emcp list dist/examples/catalog.js --category vector --budget 20000`

/** The subcommand. */
export const list: Command = {
  name: 'list',
  summary: "List a module's tools, with a token estimate",
  help,
  run: async (argv, io) => {
    const args = parseArgs(argv, { options: [...selectionOptions, 'budget'], switches: ['json', 'categories'] })
    const [modulePath, ...extra] = args.positionals
    if (extra.length > 0) throw new UsageError(`unexpected argument ${extra[0]}`)
    const rawBudget = lastOption(args, 'budget')
    const budget = rawBudget === undefined ? undefined : Number(rawBudget)
    if (budget !== undefined && !(Number.isInteger(budget) && budget > 0)) throw new UsageError(`--budget must be a positive whole number of tokens, not ${rawBudget}`)
    const server = await loadServer(modulePath, io.cwd)
    const selection = selectionOf(args)
    const all = await (await wireClient(server)).list()
    const tools = selection === undefined ? all : all.filter(selected(selection))
    if (tools.length === 0) throw new UsageError('no tool matches the selection', 1)
    if (args.switches.has('categories')) for (const c of categoryCounts(tools)) io.out(`${c.category || '(none)'}\t${c.tools}\n`)
    else if (args.switches.has('json')) io.out(`${JSON.stringify(tools, null, 2)}\n`)
    else {
      const width = Math.min(40, Math.max(...tools.map((t) => t.name.length)))
      for (const t of tools) io.out(`${t.name.padEnd(width)}  ${firstLine(t.description ?? '')}\n`)
    }
    const estimate = listingBudget(tools, budget)
    io.err(`${counted(tools.length, 'tool')}, listing about ${estimate.tokens} tokens${budget === undefined ? '' : ` (budget ${budget})`}\n`)
    if (estimate.warning !== undefined) {
      io.err(`warning: ${estimate.warning}\n`)
      return 1
    }
    return 0
  },
}

const firstLine = (s: string): string => {
  const line = s.split('\n')[0] ?? ''
  return line.length > 100 ? `${line.slice(0, 99)}…` : line
}

