/**
 * `emcp manifest --merge FILE`: the manifest of a module written again without losing the hand
 * edits of FILE. Two versions of a small module (written under .cache/, importing the built
 * package) stand for the code before and after a change.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { runCli, type CommandIO } from '../../src/cli/index.js'
import { root } from '../interop/children.js'

const work = join(root, '.cache', `merge-${process.pid}`)
mkdirSync(work, { recursive: true })
afterAll(() => rmSync(work, { recursive: true, force: true }))

const cli = async (argv: string[]) => {
  let out = ''
  let err = ''
  const io: CommandIO = { out: (s) => void (out += s), err: (s) => void (err += s), cwd: work, interactive: false }
  const code = await runCli(argv, io)
  return { code, out, err }
}

/** A module whose server has `forecast` (with a `days` argument from v2 on) and `wipe`. */
const version = (v: number): string => {
  const file = join(work, `weather-v${v}.mjs`)
  const days = v >= 2 ? ", days: { type: 'integer' }" : ''
  writeFileSync(
    file,
    `import { emcp, mcpServer } from ${JSON.stringify(pathToFileURL(join(root, 'dist', 'bundle', 'index.js')).href)}
const forecast = emcp({ name: 'forecast', description: 'The forecast of a city.', input: { type: 'object', properties: { city: { type: 'string' }${days} }, required: ['city'] } })
const wipe = emcp({ name: 'wipe', description: 'Delete forecasts.', input: { type: 'object' } })
export default mcpServer([forecast, wipe], { name: 'weather', version: '${v}.0.0' }).implement({ forecast: () => 'x', wipe: () => 'x' })
`,
  )
  return file
}

describe('emcp manifest --merge', () => {
  it('keeps the hand edits of a tool whose contract did not change; lists a conflict where both sides changed; exits 1 then', async () => {
    const v1 = version(1)
    expect((await cli(['manifest', v1, '-o', 'tools.json'])).code).toBe(0)
    const file = join(work, 'tools.json')
    const m = JSON.parse(readFileSync(file, 'utf8'))
    for (const t of m.tools) {
      t.description = `${t.description} (edited)`
      t._meta = { ...t._meta, SMSS_MCP_EXECUTION: t.name === 'wipe' ? 'disabled' : 'ask' }
    }
    writeFileSync(file, JSON.stringify(m, null, 2))

    // the code did not change: all hand edits kept, nothing to report
    const same = await cli(['manifest', v1, '--merge', 'tools.json'])
    expect(same.code).toBe(0)
    const kept = JSON.parse(same.out)
    expect(kept.tools.map((t: { description: string }) => t.description)).toEqual(['The forecast of a city. (edited)', 'Delete forecasts. (edited)'])
    expect(kept.tools.map((t: { _meta: Record<string, unknown> }) => t._meta.SMSS_MCP_EXECUTION)).toEqual(['ask', 'disabled'])
    expect(same.err).toBe('merged with tools.json: 2 tools kept hand edits, 0 added, 0 removed, 0 conflicts\n  kept: forecast, wipe\n')

    // the code gave forecast a new argument: its schema from the code, its edits kept, the description a conflict
    const v2 = version(2)
    const changed = await cli(['manifest', v2, '--merge', 'tools.json', '-o', 'tools.json'])
    expect(changed.code).toBe(1)
    const merged = JSON.parse(readFileSync(file, 'utf8'))
    expect(Object.keys(merged.tools[0].inputSchema.properties)).toEqual(['city', 'days'])
    expect(merged.tools[0].description).toBe('The forecast of a city. (edited)')
    expect(merged.tools[0]._meta.SMSS_MCP_EXECUTION).toBe('ask')
    expect(changed.err).toBe(
      'wrote 2 tools to tools.json\n' +
        'merged with tools.json: 2 tools kept hand edits, 0 added, 0 removed, 1 conflict\n' +
        '  kept: forecast, wipe\n' +
        '  ~ contract new from the code, hand edits kept: forecast\n' +
        '! conflict: tool forecast /description\n' +
        '    tools.json (kept): "The forecast of a city. (edited)"\n' +
        '    code:  "The forecast of a city."\n',
    )
    // merged once, the file is the base of the next merge: the same code now merges cleanly
    const again = await cli(['manifest', v2, '--merge', 'tools.json'])
    expect(again.code).toBe(0)
    expect(again.out).toBe(readFileSync(file, 'utf8'))
  })

  it('refuses a file it cannot merge with, naming the problem, and --merge with --check', async () => {
    writeFileSync(join(work, 'bad.json'), JSON.stringify({ tools: [{ name: 'forecast', inputSchema: { type: 'object' }, _meta: { SMSS_MCP_EXECUTION: 'often' } }] }))
    const v1 = version(1)
    const bad = await cli(['manifest', v1, '--merge', 'bad.json'])
    expect(bad.code).toBe(2)
    expect(bad.err).toContain('bad.json is not a manifest emcp can merge with:\n  tool forecast: /_meta/SMSS_MCP_EXECUTION: unknown execution policy "often"')
    expect((await cli(['manifest', v1, '--merge', 'bad.json', '--check', 'bad.json'])).err).toContain('give --merge or --check, not both')
  })
})
