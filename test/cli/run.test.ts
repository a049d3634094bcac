import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { commands, runCli, type Command, type CommandIO } from '../../src/cli/index.js'
import { progress } from '../../src/cli/progress.js'
import { example, root } from '../interop/children.js'

/** Runs the command line in process; what it printed and its exit code. */
const cli = async (argv: string[], interactive = false) => {
  let out = ''
  let err = ''
  const io: CommandIO = { out: (s) => void (out += s), err: (s) => void (err += s), cwd: root, interactive }
  const code = await runCli(argv, io)
  return { code, out, err }
}

const calculator = example('calculator')
const catalog = example('catalog')

describe('emcp (in process)', () => {
  it('lists its commands, and every command answers --help', async () => {
    const top = await cli(['--help'])
    expect(top.code).toBe(0)
    for (const c of commands) {
      expect(top.out).toContain(c.name)
      const h = await cli([c.name, '--help'])
      expect(h.code).toBe(0)
      expect(h.out).toMatch(new RegExp(`^Usage: emcp ${c.name} `))
    }
    expect((await cli([])).code).toBe(2)
    const unknown = await cli(['frobnicate'])
    expect(unknown.code).toBe(2)
    expect(unknown.err).toContain('unknown command frobnicate')
  })

  it('prints the version of the package it belongs to', async () => {
    const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }
    for (const flag of ['--version', '-v', 'version']) expect(await cli([flag])).toEqual({ code: 0, out: `emcp ${version}\n`, err: '' })
    expect((await cli(['--help'])).out).toContain('emcp --version')
  })

  it('counts one tool as one tool', async () => {
    // a module inside the package, so that 'emcp' resolves to the package itself
    mkdirSync(join(root, '.cache'), { recursive: true })
    const dir = mkdtempSync(join(root, '.cache', 'one-tool-'))
    writeFileSync(join(dir, 'one.js'), `import { emcp, mcpServer } from 'emcp'
const ping = emcp({ name: 'ping', description: 'Answers pong.', input: { type: 'object' } })
export default mcpServer([ping], { name: 'one', version: '1' }).implement({ ping: () => 'pong' })
`)
    const file = join(dir, 'one.json')
    expect(await cli(['manifest', join(dir, 'one.js'), '--output', file])).toMatchObject({ code: 0, err: `wrote 1 tool to ${file}\n` })
    expect(await cli(['manifest', join(dir, 'one.js'), '--check', file])).toMatchObject({ code: 0, err: expect.stringContaining('is up to date (1 tool)') })
    expect(await cli(['list', join(dir, 'one.js')])).toMatchObject({ code: 0, err: expect.stringMatching(/^1 tool, listing/) })
    rmSync(dir, { recursive: true, force: true })
  })

  it('takes one more command as one more table entry', async () => {
    const hello: Command = { name: 'hello', summary: 'Greet.', help: 'Usage: emcp hello', run: async (argv, io) => (io.out(`hello ${argv[0]}\n`), 0) }
    let out = ''
    expect(await runCli(['hello', 'pg'], { out: (s) => void (out += s), err: () => {}, cwd: root, interactive: false }, [...commands, hello])).toBe(0)
    expect(out).toBe('hello pg\n')
  })

  it('call: runs the tool and prints the result; sum 5', async () => {
    const r = await cli(['call', calculator, 'add', '--arg', 'a=2', '--arg', 'b=3'])
    expect(r.code).toBe(0)
    expect(JSON.parse(r.out)).toEqual({ content: [{ type: 'text', text: '{"sum":5}' }], structuredContent: { sum: 5 } })
  })

  it('call: strings stay strings where the schema says so; --json gives all arguments', async () => {
    const r = await cli(['call', calculator, 'echo', '--arg', 'text=42'])
    expect(JSON.parse(r.out).content).toEqual([{ type: 'text', text: '42' }])
    const j = await cli(['call', calculator, 'add', '--json', '{"a":1,"b":1}', '--arg', 'b=9'])
    expect(JSON.parse(j.out).structuredContent).toEqual({ sum: 10 })
  })

  it('call: sends wire values, so a codec argument goes as its text (a geometry as WKT)', async () => {
    const r = await cli(['call', catalog, 'geometry.area_wkt', '--arg', 'shape=POLYGON ((0 0, 2 0, 2 2, 0 2, 0 0))'])
    expect(JSON.parse(r.out).structuredContent).toEqual({ result: 4 })
    const bad = await cli(['call', catalog, 'geometry.area_wkt', '--arg', 'shape=POLYGON ((0 0, 2 0'])
    expect(bad.code).toBe(1)
    expect(JSON.parse(bad.out).content[0].text).toContain('Invalid arguments for tool geometry.area_wkt: /shape: is not a 2D geometry in well-known text')
  })

  it('call: without a terminal an ask tool runs only with --yes; the question goes to standard error; a disabled tool is refused', async () => {
    const ops = example('ops')
    const no = await cli(['call', ops, 'drop_table', '--arg', 'table=orders'])
    expect(no.code).toBe(1)
    expect(JSON.parse(no.out).content[0].text).toBe('the user did not allow tool drop_table to run')
    expect(no.err).toContain('The tool "Drop a table" is about to run. Review its arguments')
    expect(no.err).toContain('declined: nobody can be asked here (standard input is not a terminal); rerun with --yes to accept the arguments as proposed')
    const yes = await cli(['call', ops, 'drop_table', '--arg', 'table=orders', '--yes'])
    expect(yes.code).toBe(0)
    expect(JSON.parse(yes.out).content).toEqual([{ type: 'text', text: 'dropped orders' }])
    const gone = await cli(['call', ops, 'format_disk'])
    expect(gone).toMatchObject({ code: 1, out: '', err: 'emcp call: the server refused the call: Tool format_disk is disabled (JSON-RPC error -32602)\n' })
  })

  it('call: exits 1 on isError, and gives readable errors for bad input', async () => {
    const bad = await cli(['call', calculator, 'add', '--arg', 'a=x', '--arg', 'b=3'])
    expect(bad.code).toBe(1)
    expect(JSON.parse(bad.out)).toEqual({ content: [{ type: 'text', text: 'Invalid arguments for tool add: /a: must be number' }], isError: true })
    expect(await cli(['call', 'dist/examples/nope.js', 'x'])).toMatchObject({ code: 2, err: expect.stringContaining('cannot find module dist/examples/nope.js') })
    expect(await cli(['call', 'dist/src/index.js', 'x'])).toMatchObject({ code: 2, err: expect.stringContaining('has no default-exported server') })
    expect(await cli(['call', calculator, 'nope'])).toMatchObject({ code: 2, err: expect.stringContaining('no tool is named nope. The server has 3 tools: add, echo, add_days') })
    expect(await cli(['call', calculator, 'add', '--arg', 'a'])).toMatchObject({ code: 2, err: expect.stringContaining('--arg a: write it key=value') })
    expect(await cli(['call', calculator, 'add', '--json', '{'])).toMatchObject({ code: 2, err: expect.stringContaining('--json is not valid JSON') })
    expect(await cli(['call', calculator, 'add', '--frob'])).toMatchObject({ code: 2, err: expect.stringContaining('unknown option --frob') })
    expect(await cli(['call', 'examples/nope.ts', 'add'])).toMatchObject({ code: 2, err: expect.stringContaining('examples/nope.ts is TypeScript: compile it (npx tsc) and give the .js module: dist/examples/nope.js') })
    // an existing TypeScript source is refused the same way, before Node tries to load it
    expect(await cli(['list', 'examples/calculator.ts'])).toMatchObject({ code: 2, err: expect.stringContaining('examples/calculator.ts is TypeScript') })
    expect(await cli(['serve', './src/server.mts'])).toMatchObject({ code: 2, err: expect.stringContaining('give the .js module: dist/server.mjs') })
  })

  it('list: names and descriptions, a token estimate, categories, selections and a budget', async () => {
    const r = await cli(['list', calculator])
    expect(r.out.split('\n')[0]).toMatch(/^add\s+Add two numbers and return their sum\.$/)
    expect(r.err).toMatch(/^3 tools, listing about \d+ tokens\n$/)
    const cats = await cli(['list', catalog, '--categories'])
    expect(cats.out).toContain('vector\t1080\n')
    const geo = await cli(['list', catalog, '--category', 'geometry', '--tag', 'wkt', '--json'])
    expect(JSON.parse(geo.out).map((t: { name: string }) => t.name)).toEqual([
      'geometry.area_wkt', 'geometry.num_points_wkt', 'geometry.translate_wkt', 'geometry.length_wkt', 'geometry.centroid_wkt', 'geometry.bbox_wkt',
    ])
    const over = await cli(['list', catalog, '--budget', '1000'])
    expect(over.code).toBe(1)
    expect(over.err).toContain('warning: the tool listing takes about')
  })

  it('manifest: identical bytes twice; --check passes on its own output and names the edited tool otherwise', async () => {
    const first = await cli(['manifest', catalog])
    const second = await cli(['manifest', catalog])
    expect(first.code).toBe(0)
    expect(first.out).toBe(second.out)
    const m = JSON.parse(first.out)
    expect(m.tools).toHaveLength(2000)
    expect(m._meta['emcp/excluded'].length).toBeGreaterThan(0)
    const dir = mkdtempSync(join(tmpdir(), 'emcp-cli-'))
    const file = join(dir, 'catalog.json')
    writeFileSync(file, first.out)
    expect(await cli(['manifest', catalog, '--check', file])).toMatchObject({ code: 0, err: expect.stringContaining('is up to date (2000 tools)') })
    const edited = first.out.replace('"Add two 3-element f32 vectors element by element."', '"Adds vectors."')
    writeFileSync(file, edited)
    const drift = await cli(['manifest', catalog, '--check', file])
    expect(drift.code).toBe(1)
    expect(drift.err).toContain('~ tool vector.add_f32x3\n    /description\n      - "Adds vectors."\n      + "Add two 3-element f32 vectors element by element."')
    const out = join(dir, 'calc.json')
    expect((await cli(['manifest', calculator, '-o', out])).code).toBe(0)
    expect(JSON.parse(readFileSync(out, 'utf8')).tools.map((t: { name: string }) => t.name)).toEqual(['add', 'add_days', 'echo'])
    const ts = await cli(['manifest', calculator, '--format', 'ts'])
    expect(ts.out).toMatch(/^\/\/ The tool manifest[^\n]*\nexport default \{\n[\s\S]*\} as const\n$/)
  }, 120_000)

  it('validate: a valid manifest passes; a broken one fails naming tool and key; progress on a terminal', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'emcp-cli-'))
    const good = join(dir, 'good.json')
    writeFileSync(good, (await cli(['manifest', calculator])).out)
    const ok = await cli(['validate', good])
    expect(ok.code).toBe(0)
    expect(ok.err).toContain('3 tools, 0 errors')
    const bad = join(dir, 'bad.json')
    writeFileSync(bad, JSON.stringify({ tools: [{ name: 'f', description: 'F.', inputSchema: { type: 'array' } }] }))
    const r = await cli(['validate', bad])
    expect(r.code).toBe(1)
    expect(r.out).toContain('error: tool f: /inputSchema/type: the inputSchema root must have type "object"')
    writeFileSync(bad, '{ nope')
    expect(await cli(['validate', bad])).toMatchObject({ code: 1, err: expect.stringContaining('is not valid JSON') })
    expect(await cli(['validate', join(dir, 'missing.json')])).toMatchObject({ code: 2, err: expect.stringContaining('no such file') })
  })
})

describe('progress', () => {
  it('redraws a bar on a terminal once the work takes longer than the delay', () => {
    let err = ''
    let clock = 0
    const io: CommandIO = { out: () => {}, err: (s) => void (err += s), cwd: '/', interactive: true }
    const p = progress(io, 'validating', 500, () => clock)
    p.update(1, 4)
    expect(err).toBe('')
    clock = 600
    p.update(2, 4)
    clock = 700
    p.update(4, 4)
    p.end()
    expect(err).toBe(`\rvalidating [${'#'.repeat(15)}${' '.repeat(15)}] 2/4\rvalidating [${'#'.repeat(30)}] 4/4\n`)
  })

  it('prints a line per tenth when standard error is not a terminal', () => {
    let err = ''
    let clock = 0
    const io: CommandIO = { out: () => {}, err: (s) => void (err += s), cwd: '/', interactive: false }
    const p = progress(io, 'v', 500, () => clock)
    p.update(1, 20)
    expect(err).toBe('')
    for (let i = 2; i <= 20; i++) {
      clock = 500 + i
      p.update(i, 20)
    }
    p.end()
    // the first line when the delay has passed, then one each time a tenth is crossed
    expect(err.trim().split('\n')).toEqual(['v: 2/20 (10%)', ...[4, 6, 8, 10, 12, 14, 16, 18, 20].map((i) => `v: ${i}/20 (${i * 5}%)`)])
  })

  it('prints nothing for work that ends within the delay, on a terminal or not', () => {
    for (const interactive of [false, true]) {
      let err = ''
      let clock = 0
      const io: CommandIO = { out: () => {}, err: (s) => void (err += s), cwd: '/', interactive }
      const quick = progress(io, 'v', 500, () => clock)
      for (let i = 1; i <= 20; i++) {
        clock = i * 20
        quick.update(i, 20)
      }
      quick.end()
      expect(err, `interactive: ${interactive}`).toBe('')
    }
  })
})
