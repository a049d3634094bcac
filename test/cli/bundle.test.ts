/**
 * `emcp bundle` (src/cli/bundle.ts): a module becomes a .mcpb whose manifest the official
 * validator (`mcpb validate`, @anthropic-ai/mcpb) accepts, that `mcpb unpack` opens, and
 * whose bundled server answers a typed client over stdio with the user_config variable set.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { connect } from '../../src/client/index.js'
import { runCli, type CommandIO } from '../../src/cli/index.js'
import { root } from '../interop/children.js'
import { run } from '../support/run.js'

let dir: string
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'emcp-bundle-'))
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const cli = async (argv: string[]) => {
  let out = ''
  let err = ''
  const io: CommandIO = { out: (s) => void (out += s), err: (s) => void (err += s), cwd: root, interactive: false }
  return { code: await runCli(argv, io), out, err }
}
const mcpb = join(root, 'node_modules', '@anthropic-ai', 'mcpb', 'dist', 'cli', 'cli.js')
const module = 'test/cli/fixtures/weather-server.mjs'

describe('emcp bundle', () => {
  it('writes a bundle that mcpb validates and unpacks, whose server runs', async () => {
    const out = join(dir, 'weather.mcpb')
    const made = await cli(['bundle', module, '-o', out, '--env', 'WEATHER_API_KEY=Your weather service key', '--author', 'Ada Lovelace'])
    expect(made.err).toMatch(/^wrote .*weather\.mcpb: weather 1\.2\.3, 1 tool, \d+ KiB\n$/)
    expect(made.code).toBe(0)
    const unpacked = join(dir, 'unpacked')
    const opened = await run(process.execPath, [mcpb, 'unpack', out, unpacked], root)
    expect(opened.code).toBe(0)
    const manifest = JSON.parse(readFileSync(join(unpacked, 'manifest.json'), 'utf8')) as Record<string, unknown>
    expect(manifest).toMatchObject({
      manifest_version: '0.3',
      name: 'weather',
      display_name: 'Weather',
      version: '1.2.3',
      description: 'Forecasts for any city.',
      author: { name: 'Ada Lovelace' },
      server: { type: 'node', entry_point: 'server/index.js', mcp_config: { command: 'node', args: ['${__dirname}/server/index.js'], env: { WEATHER_API_KEY: '${user_config.weather_api_key}' } } },
      tools: [{ name: 'forecast', description: 'A made-up forecast for a city.' }],
      user_config: { weather_api_key: { type: 'string', title: 'WEATHER_API_KEY', description: 'Your weather service key', required: true, sensitive: true } },
    })
    const validated = await run(process.execPath, [mcpb, 'validate', join(unpacked, 'manifest.json')], root)
    expect(validated.stdout + validated.stderr).toMatch(/Manifest schema validation passes/)
    expect(validated.code).toBe(0)
    // the bundled server alone (no node_modules beside it), as a client would start it
    await using c = await connect({ command: process.execPath, args: [join(unpacked, 'server', 'index.js')], env: { WEATHER_API_KEY: 'k' }, stderr: 'ignore', cwd: unpacked })
    expect(await c.call('forecast', { city: 'Oslo' })).toEqual({ city: 'Oslo', keyed: true })
  })

  it('refuses what it cannot bundle, saying why', async () => {
    expect((await cli(['bundle', module])).err).toMatch(/-o name\.mcpb/)
    expect((await cli(['bundle', module, '-o', join(dir, 'x.mcpb'), '--env', '9X'])).err).toMatch(/a variable name is letters/)
    expect((await cli(['bundle', 'test/cli/fixtures/missing.mjs', '-o', join(dir, 'x.mcpb')])).err).toMatch(/cannot find module/)
  })
})
