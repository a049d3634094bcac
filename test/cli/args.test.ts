/**
 * The command line's argument reader (src/cli/args.ts, public as `parseArgs` of emcp/cli):
 * Node's `util.parseArgs` underneath, every mistake a `UsageError` (exit code 2) that names it.
 */
import { describe, expect, it } from 'vitest'
import { lastOption, wholeOption } from '../../src/cli/args.js'
import { parseArgs, UsageError, type ArgSpec } from '../../src/cli/index.js'

const spec: ArgSpec = { options: ['arg', 'output', 'port'], switches: ['json', 'yes'], aliases: { o: 'output' } }

/** The UsageError `argv` raises, as its message. */
const refusal = (argv: string[], s: ArgSpec = spec): string => {
  try {
    parseArgs(argv, s)
  } catch (e) {
    expect(e).toBeInstanceOf(UsageError)
    expect((e as UsageError).exitCode).toBe(2)
    return (e as UsageError).message
  }
  throw new Error(`${JSON.stringify(argv)} was accepted`)
}

describe('parseArgs', () => {
  it('reads positionals, options in both spellings, repeated options, switches and short aliases', () => {
    const a = parseArgs(['m.js', '--arg', 'a=1', 'tool', '--arg=b=2', '--json', '-o', 'out.json'], spec)
    expect(a.positionals).toEqual(['m.js', 'tool'])
    expect(a.options).toEqual({ arg: ['a=1', 'b=2'], output: ['out.json'] })
    expect([...a.switches]).toEqual(['json'])
    expect(lastOption(a, 'arg')).toBe('b=2')
    expect(lastOption(a, 'port')).toBeUndefined()
    expect(parseArgs(['-oshort.json'], spec).options).toEqual({ output: ['short.json'] })
  })

  it('takes everything after -- as positionals, and values that start with one dash as values', () => {
    const a = parseArgs(['--arg', '-1', '--', '--json', '-o'], spec)
    expect(a.options).toEqual({ arg: ['-1'] })
    expect(a.positionals).toEqual(['--json', '-o'])
    expect(a.switches.size).toBe(0)
    expect(parseArgs(['--arg=--literal'], spec).options).toEqual({ arg: ['--literal'] })
  })

  it('gives nothing for nothing', () => {
    const a = parseArgs([], spec)
    expect(a).toEqual({ positionals: [], options: {}, switches: new Set() })
  })

  it('refuses an unknown option, naming it and the known ones that start alike', () => {
    expect(refusal(['--frob'])).toBe('unknown option --frob')
    expect(refusal(['--jsno'])).toBe('unknown option --jsno (did you mean --json?)')
    expect(refusal(['--a', 'x'], { options: ['arg', 'all'] })).toBe('unknown option --a (did you mean --arg or --all?)')
    expect(refusal(['--frob=1'])).toBe('unknown option --frob')
    expect(refusal(['-x'])).toBe('unknown option -x')
  })

  it('refuses an option without its value, and a value given to a switch', () => {
    expect(refusal(['--arg'])).toBe('--arg needs a value')
    expect(refusal(['--port', '--json'])).toBe('--port needs a value')
    expect(refusal(['-o'])).toBe('--output needs a value')
    expect(refusal(['--json=yes'])).toBe('--json takes no value')
  })

  it('reads whole numbers within bounds, and names the option of one that is not', () => {
    expect(wholeOption(parseArgs(['--port', '8080'], spec), 'port', 0, 65535)).toBe(8080)
    expect(wholeOption(parseArgs([], spec), 'port')).toBeUndefined()
    const bad = (v: string): string => {
      try {
        wholeOption(parseArgs(['--port', v], spec), 'port', 0, 65535)
      } catch (e) {
        expect(e).toBeInstanceOf(UsageError)
        return (e as Error).message
      }
      return 'accepted'
    }
    expect(bad('many')).toBe('--port needs a whole number from 0 to 65535, not "many"')
    expect(bad('1.5')).toBe('--port needs a whole number from 0 to 65535, not "1.5"')
    expect(bad('65536')).toBe('--port needs a whole number from 0 to 65535, not "65536"')
    expect(bad('')).toBe('--port needs a whole number from 0 to 65535, not ""')
    expect(bad('1e3')).toBe('--port needs a whole number from 0 to 65535, not "1e3"')
    expect(bad('0x10')).toBe('--port needs a whole number from 0 to 65535, not "0x10"')
    expect(bad(' 80')).toBe('--port needs a whole number from 0 to 65535, not " 80"')
    expect(bad('=1')).toBe('--port needs a whole number from 0 to 65535, not "=1"')
    expect(bad('9'.repeat(100))).toBe(`--port needs a whole number from 0 to 65535, not "${'9'.repeat(40)}"`)
    expect(() => wholeOption(parseArgs(['--port', '0'], spec), 'port', 1)).toThrow('--port needs a whole number from 1 up, not "0"')
    expect(() => wholeOption(parseArgs(['--port', '-1'], spec), 'port')).toThrow('--port needs a whole number, not "-1"')
  })
})
