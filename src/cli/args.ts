/**
 * Command-line arguments: positionals, `--flag value` / `--flag=value` options (repeatable
 * ones collect every value), `--switch` booleans, and `-o` style short aliases. Anything
 * unknown is a usage error that names it.
 *
 * @example
 * import { parseArgs } from './args.js'
 * const a = parseArgs(['m.js', '--arg', 'a=1', '--json'], { options: ['arg'], switches: ['json'] })
 * // { positionals: ['m.js'], options: { arg: ['a=1'] }, switches: Set { 'json' } }
 */
import { UsageError } from './command.js'

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

/** Parses `argv` against `spec`; throws a UsageError for an unknown option or a missing value. */
export const parseArgs = (argv: ReadonlyArray<string>, spec: ArgSpec): Args => {
  const options: Record<string, string[]> = {}
  const switches = new Set<string>()
  const positionals: string[] = []
  const known = new Set([...(spec.options ?? []), ...(spec.switches ?? [])])
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string
    if (a === '--') {
      positionals.push(...argv.slice(i + 1))
      break
    }
    let name: string | undefined
    let inline: string | undefined
    if (a.startsWith('--')) {
      const eq = a.indexOf('=')
      name = eq === -1 ? a.slice(2) : a.slice(2, eq)
      inline = eq === -1 ? undefined : a.slice(eq + 1)
    } else if (/^-[A-Za-z]$/.test(a)) {
      name = spec.aliases?.[a.slice(1)]
      if (name === undefined) throw new UsageError(`unknown option ${a}`)
    } else {
      positionals.push(a)
      continue
    }
    if (!known.has(name)) {
      const near = [...known].filter((k) => k.startsWith(name.slice(0, 2)))
      throw new UsageError(`unknown option --${name}${near.length > 0 ? ` (did you mean ${near.map((n) => `--${n}`).join(' or ')}?)` : ''}`)
    }
    if (spec.switches?.includes(name)) {
      if (inline !== undefined) throw new UsageError(`--${name} takes no value`)
      switches.add(name)
      continue
    }
    const value = inline ?? argv[++i]
    if (value === undefined) throw new UsageError(`--${name} needs a value`)
    ;(options[name] ??= []).push(value)
  }
  return { positionals, options, switches }
}

/** The last value given for an option, if any. */
export const lastOption = (args: Args, name: string): string | undefined => args.options[name]?.at(-1)
