/**
 * Command-line arguments, read by Node's own `util.parseArgs`: positionals, `--flag value` /
 * `--flag=value` options (every value of a repeated one is kept), `--switch` booleans, `-o`
 * style short aliases, and `--` before positionals that start with a dash. This wrapper only
 * turns what Node reads into one shape and every mistake into a `UsageError` that names it:
 * an unknown option (with the known ones it may have meant), an option without its value, a
 * value given to a switch. A value that starts with `--` is taken for a forgotten value
 * (`--url --http`); write it `--name=--value` to mean it.
 *
 * @example
 * import { parseArgs } from './args.js'
 * const a = parseArgs(['m.js', '--arg', 'a=1', '--json'], { options: ['arg'], switches: ['json'] })
 * // { positionals: ['m.js'], options: { arg: ['a=1'] }, switches: Set { 'json' } }
 */
import { parseArgs as readArgs } from 'node:util'
import { UsageError } from './command.js'

// ---------------------------------------------------------------------------------------
// model

/** What a command accepts. */
export interface ArgSpec {
  /** Options that take a value (`--name value` or `--name=value`); may repeat. */
  readonly options?: ReadonlyArray<string>
  /** Options without a value. */
  readonly switches?: ReadonlyArray<string>
  /** Short spellings: `{ o: 'output' }` makes `-o x` mean `--output x`. */
  readonly aliases?: { readonly [short: string]: string }
}

/** Parsed arguments. */
export interface Args {
  readonly positionals: ReadonlyArray<string>
  readonly options: { readonly [name: string]: ReadonlyArray<string> }
  readonly switches: ReadonlySet<string>
}

/** How Node's reader is told about one option. */
interface OptionConfig {
  readonly type: 'string' | 'boolean'
  readonly multiple?: boolean
  readonly short?: string
}

// ---------------------------------------------------------------------------------------
// functions

/** Parses `argv` against `spec`; throws a UsageError for an unknown option, a missing value or a value given to a switch. */
export const parseArgs = (argv: ReadonlyArray<string>, spec: ArgSpec): Args => {
  const config = configOf(spec)
  // not strict: Node would refuse `--arg -1`, and its messages name no alternatives; the
  // tokens say everything needed to refuse what is wrong here, in this command line's words
  const { tokens } = readArgs({ args: [...argv], options: config, strict: false, allowPositionals: true, tokens: true })
  const options: Record<string, string[]> = {}
  const switches = new Set<string>()
  const positionals: string[] = []
  for (const token of tokens) {
    if (token.kind === 'positional') positionals.push(token.value)
    if (token.kind !== 'option') continue
    const known = config[token.name]
    if (known === undefined) throw unknownOption(token.rawName, Object.keys(config))
    if (known.type === 'boolean') {
      if (token.value !== undefined) throw new UsageError(`--${token.name} takes no value`)
      switches.add(token.name)
      continue
    }
    if (token.value === undefined || (!token.inlineValue && token.value.startsWith('--'))) throw new UsageError(`--${token.name} needs a value`)
    ;(options[token.name] ??= []).push(token.value)
  }
  return { positionals, options, switches }
}

/** The last value given for an option, if any. */
export const lastOption = (args: Args, name: string): string | undefined => args.options[name]?.at(-1)

/** A whole number option (a port, a timeout): undefined when not given; a UsageError when not a whole number in `[min, max]`. */
export const wholeOption = (args: Args, name: string, min = 0, max = Number.MAX_SAFE_INTEGER): number | undefined => {
  const raw = lastOption(args, name)
  if (raw === undefined) return undefined
  // digits only: Number() would also take ' 12 ', '1e6' and '0x10'
  const n = /^\d{1,16}$/.test(raw) ? Number(raw) : Number.NaN
  if (!Number.isSafeInteger(n) || n < min || n > max) throw new UsageError(`--${name} needs a whole number${rangeText(min, max)}, not ${JSON.stringify(raw.slice(0, 40))}`)
  return n
}

// ---------------------------------------------------------------------------------------
// internals

/** The range a whole-number option takes, for its message (nothing when any non-negative number goes). */
const rangeText = (min: number, max: number): string =>
  max < Number.MAX_SAFE_INTEGER ? ` from ${min} to ${max}` : min > 0 ? ` from ${min} up` : ''

/** Node's option table for a spec. */
const configOf = (spec: ArgSpec): Record<string, OptionConfig> => {
  const shortOf = new Map(Object.entries(spec.aliases ?? {}).map(([s, long]) => [long, s]))
  const config: Record<string, OptionConfig> = {}
  const add = (name: string, type: OptionConfig['type']): void => {
    const short = shortOf.get(name)
    config[name] = { type, ...(type === 'string' ? { multiple: true } : {}), ...(short === undefined ? {} : { short }) }
  }
  for (const name of spec.options ?? []) add(name, 'string')
  for (const name of spec.switches ?? []) add(name, 'boolean')
  return config
}

/** An unknown option, with the known ones that start alike. */
const unknownOption = (raw: string, known: ReadonlyArray<string>): UsageError => {
  if (!raw.startsWith('--')) return new UsageError(`unknown option ${raw}`)
  const near = known.filter((k) => k.startsWith(raw.slice(2, 4)))
  return new UsageError(`unknown option ${raw}${near.length > 0 ? ` (did you mean ${near.map((n) => `--${n}`).join(' or ')}?)` : ''}`)
}

/** Repeated `--header "Name: value"` options as a header record; a UsageError for a line that is not one. */
export const headersOption = (lines: ReadonlyArray<string>): { [name: string]: string } => {
  const headers: { [name: string]: string } = {}
  for (const line of lines) {
    const colon = line.indexOf(':')
    const name = line.slice(0, colon).trim()
    if (colon < 1 || !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) throw new UsageError(`--header needs "Name: value", not ${JSON.stringify(line.slice(0, 100))}`)
    headers[name] = line.slice(colon + 1).trim()
  }
  return headers
}
