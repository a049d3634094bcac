/**
 * `emcp call`: runs one tool call in process (the command-line transport) and prints the
 * result as JSON; the exit code is 1 when the result is an error.
 *
 * @example
 * // emcp call dist/examples/calculator.js add --arg a=2 --arg b=3
 * import { call } from './call.js'
 * await call.run(['dist/examples/calculator.js', 'add', '--arg', 'a=2', '--arg', 'b=3'], io)
 */
import type { CallToolResult } from '../contract/content.js'
import { isObject } from '../util/json-object.js'
import type { Server } from '../server/server.js'
import { parseArgs } from './args.js'
import { UsageError, type Command } from './command.js'
import { loadServer } from './load.js'
import { answerForm } from './prompt.js'
import { WireError, wireClient } from './wire.js'

const help = `Usage: emcp call <module> <tool> [--arg key=value ...] [--json '{...}']

Calls one tool of the module's default-exported server, in this process, and prints the
CallToolResult as JSON. Exits 1 when the result has isError: true.

Options:
  --arg key=value   one argument (repeatable). The value is read as JSON (2, true,
                    [1,2], {"x":1}) unless the schema says the argument is a string,
                    or it is not valid JSON: then it is the text as given.
  --json '{...}'    all arguments as one JSON object (--arg values are merged over it)
  --yes             accept when the tool asks: an "ask" tool runs with the arguments
                    as given, without the review. Without it, a terminal asks for
                    each argument (Enter keeps the value shown in brackets, a new
                    value replaces it, - leaves an optional one out) and then
                    whether to run the tool; without a terminal the tool does not run
  --help            this text

Log messages the tool sends, and the questions of an "ask" tool, go to standard error.

Example:
  emcp call dist/examples/calculator.js add --arg a=2 --arg b=3`

/** The subcommand. */
export const call: Command = {
  name: 'call',
  summary: 'Call one tool in process and print the result',
  help,
  run: async (argv, io) => {
    const args = parseArgs(argv, { options: ['arg', 'json'], switches: ['yes'] })
    const [modulePath, toolName, ...extra] = args.positionals
    if (extra.length > 0) throw new UsageError(`unexpected argument ${extra[0]} (arguments to the tool go in --arg key=value)`)
    const server = await loadServer(modulePath, io.cwd)
    if (toolName === undefined) throw new UsageError(`which tool? ${toolList(server)}`)
    const tool = server.tools.find((t) => t.name === toolName)
    if (tool === undefined) throw new UsageError(`no tool is named ${toolName}. ${toolList(server)}`)
    const callArgs: Record<string, unknown> = {}
    for (const json of args.options.json ?? []) {
      let parsed: unknown
      try {
        parsed = JSON.parse(json)
      } catch (e) {
        throw new UsageError(`--json is not valid JSON: ${e instanceof Error ? e.message : String(e)}`)
      }
      if (!isObject(parsed)) throw new UsageError('--json must be a JSON object of arguments')
      Object.assign(callArgs, parsed)
    }
    for (const pair of args.options.arg ?? []) {
      const eq = pair.indexOf('=')
      if (eq <= 0) throw new UsageError(`--arg ${pair}: write it key=value`)
      const key = pair.slice(0, eq)
      callArgs[key] = argumentValue(pair.slice(eq + 1), propertyTypes(tool.inputSchema, key))
    }
    let result: CallToolResult
    try {
      // wire values, as a client sends them: a codec argument goes as its text
      const yes = args.switches.has('yes')
      const client = await wireClient(server, {
        elicit: (request) => answerForm(request, io, yes),
        log: (level, data) => io.err(`[${level}] ${typeof data === 'string' ? data : JSON.stringify(data)}\n`),
      })
      result = (await client.request('tools/call', { name: toolName, arguments: callArgs })) as unknown as CallToolResult
    } catch (e) {
      if (e instanceof WireError) {
        io.err(`emcp call: the server refused the call: ${e.message} (JSON-RPC error ${e.error.code})\n`)
        return 1
      }
      throw e
    }
    io.out(`${JSON.stringify(result, null, 2)}\n`)
    return result.isError === true ? 1 : 0
  },
}

// ---------------------------------------------------------------------------------------
// internals

const toolList = (server: Server): string => {
  const names = server.tools.map((t) => t.name)
  return `The server has ${names.length} tool${names.length === 1 ? '' : 's'}: ${names.slice(0, 30).join(', ')}${names.length > 30 ? ', … (emcp list shows all)' : ''}`
}

/** The JSON types the schema allows for one argument (empty when it does not say). */
const propertyTypes = (schema: { readonly [k: string]: unknown }, key: string): ReadonlyArray<string> => {
  const props = schema.properties
  if (!isObject(props)) return []
  const p = props[key]
  if (!isObject(p)) return []
  return typeof p.type === 'string' ? [p.type] : Array.isArray(p.type) ? p.type.filter((x): x is string => typeof x === 'string') : []
}

const argumentValue = (raw: string, types: ReadonlyArray<string>): unknown => {
  if (types.length > 0 && types.every((t) => t === 'string')) return raw
  try {
    return JSON.parse(raw)
  } catch {
    return raw
  }
}
