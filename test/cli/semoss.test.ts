/**
 * The `emcp` command on SEMOSS manifests: `emcp call` reviews an `ask` tool's arguments at the
 * terminal (the person's lines come through `CommandIO.ask`, as the executable reads them from
 * a terminal) or accepts them with `--yes`; `emcp validate` reads SEMOSS's keys and reports a
 * policy it cannot honour, or a schema that cannot work, with its JSON pointer.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCli, type CommandIO } from '../../src/cli/index.js'
import { example, root } from '../interop/children.js'

/** Runs the command line in process; `lines` are what the person at the terminal types, in order (none: no terminal). */
const cli = async (argv: string[], lines?: string[]) => {
  let out = ''
  let err = ''
  const questions: string[] = []
  const io: CommandIO = {
    out: (s) => void (out += s),
    err: (s) => void (err += s),
    cwd: root,
    interactive: false,
    ...(lines === undefined ? {} : { ask: async (q: string) => (questions.push(q), lines.shift()) }),
  }
  const code = await runCli(argv, io)
  return { code, out, err, questions }
}

const semoss = example('semoss')
const report = ['call', semoss, 'SendReport', '--arg', 'to=ada@example.com', '--arg', 'city=Oslo', '--arg', 'days=3']

describe('emcp call, an ask tool of a SEMOSS manifest', () => {
  it('asks for each argument with the proposal in brackets; Enter keeps it, a new value replaces it; then runs it on yes', async () => {
    const r = await cli(report, ['', 'Bergen', '5', 'imperial', 'y'])
    expect(r.code).toBe(0)
    expect(JSON.parse(r.out).content).toEqual([{ type: 'text', text: 'sent 5 days of Bergen (imperial) to ada@example.com' }])
    expect(r.questions).toEqual([
      '  to (Who gets the report.) [ada@example.com]: ',
      '  city (The city of the forecast.) [Oslo]: ',
      '  days (How many days ahead.) [3]: ',
      '  units (Celsius or Fahrenheit.) {metric|imperial}, optional: ',
      'Run it with {"to":"ada@example.com","city":"Bergen","days":5,"units":"imperial"}? [y/N] ',
    ])
    expect(r.err).toContain('The tool "Send a weather report" is about to run.')
  })

  it('a value that does not fit is asked again, saying why; no at the end means the tool does not run', async () => {
    const r = await cli(report, ['', '', '99', 'soon', '4', '-', 'n'])
    expect(r.err).toContain('    must be <= 14\n')
    expect(r.err).toContain('    must be integer\n')
    expect(r.code).toBe(1)
    expect(JSON.parse(r.out).content[0].text).toBe('the user did not allow tool SendReport to run')
  })

  it('input that ends mid-review cancels it', async () => {
    const r = await cli(report, ['', 'Bergen'])
    expect(r.code).toBe(1)
    expect(JSON.parse(r.out).content[0].text).toBe('the user cancelled the review of tool SendReport; it did not run')
  })

  it('--yes runs it with the arguments as given, without asking', async () => {
    const r = await cli([...report, '--yes'], [])
    expect(r.code).toBe(0)
    expect(r.questions).toEqual([])
    expect(r.err).toContain('accepted as proposed (--yes)')
    expect(JSON.parse(r.out).content).toEqual([{ type: 'text', text: 'sent 3 days of Oslo (metric) to ada@example.com' }])
  })

  it('nested arguments: one yes/no question, the arguments shown as JSON', async () => {
    const args = ['call', semoss, 'ScheduleAlerts', '--json', '{"city":"Oslo","range":{"low":-5,"high":25}}']
    const yes = await cli(args, ['yes'])
    expect(yes.questions).toEqual(['Run ScheduleAlerts? [y/N] '])
    expect(yes.err).toContain('"high": 25')
    expect(JSON.parse(yes.out).content).toEqual([{ type: 'text', text: 'alerts for Oslo outside {"low":-5,"high":25}' }])
    const no = await cli(args, [''])
    expect(JSON.parse(no.out).content[0].text).toBe('the user did not allow tool ScheduleAlerts to run')
  })

  it('a staged (disabled) tool is refused; a renamed tool runs its handler', async () => {
    expect(await cli(['call', semoss, 'DeleteForecasts', '--arg', 'city=Oslo'])).toMatchObject({ code: 1, err: 'emcp call: the server refused the call: Tool DeleteForecasts is disabled (JSON-RPC error -32602)\n' })
    const c2f = await cli(['call', semoss, 'celsius_to_fahrenheit', '--arg', 'celsius=100'])
    expect(JSON.parse(c2f.out).content).toEqual([{ type: 'text', text: '212°F' }])
  })
})

describe('emcp validate, a SEMOSS manifest', () => {
  const dir = mkdtempSync(join(tmpdir(), 'emcp-semoss-'))
  const original = JSON.parse(readFileSync(join(root, 'examples', 'semoss', 'py_mcp.json'), 'utf8')) as { tools: Array<Record<string, any>> }
  const write = (name: string, edit: (tools: Array<Record<string, any>>) => void): string => {
    const copy = structuredClone(original)
    edit(copy.tools)
    const file = join(dir, name)
    writeFileSync(file, JSON.stringify(copy, null, 2))
    return file
  }

  it('accepts the manifest as SEMOSS writes it', async () => {
    const r = await cli(['validate', 'examples/semoss/py_mcp.json', '--strict'])
    expect(r.code).toBe(0)
    expect(r.err).toBe('examples/semoss/py_mcp.json: 5 tools, 0 errors, 0 warnings - valid\n')
  })

  it('reports an unknown policy value and two policies that disagree, naming the tool', async () => {
    const file = write('policies.json', (tools) => {
      tools[0]!._meta.SMSS_MCP_EXECUTION = 'later'
      tools[2]!._meta['emcp/policy'] = 'auto'
    })
    const r = await cli(['validate', file])
    expect(r.code).toBe(1)
    expect(r.out).toBe(
      'error: tool GetWeather: /_meta/SMSS_MCP_EXECUTION: unknown execution policy "later": SMSS_MCP_EXECUTION must be one of auto, ask, disabled\n' +
        'error: tool SendReport: /_meta: emcp/policy says "auto" but SMSS_MCP_EXECUTION says "ask": the two policies disagree; keep one, or make them the same\n',
    )
  })

  it('reports a hand-edited schema that cannot work with its JSON pointer', async () => {
    const file = write('schema.json', (tools) => {
      tools[2]!.inputSchema.properties.days.minimum = 'one'
      tools[3]!.inputSchema.properties.range = { $ref: '#/$defs/Range' }
    })
    const r = await cli(['validate', file, '--quiet'])
    expect(r.code).toBe(1)
    expect(r.out).toBe(
      'error: tool SendReport: /inputSchema/properties/days/minimum: must be number ("minimum" is "one")\n' +
        'error: tool ScheduleAlerts: /inputSchema/properties/range/$ref: $ref "#/$defs/Range" points at nothing in the schema\n',
    )
  })
})
