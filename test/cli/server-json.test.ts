/**
 * `emcp server-json` (src/cli/server-json.ts) and src/server/server-card.ts:
 * what they write validates against the official registry schema (read from
 * ../shared/mcp-registry, never copied here), for an npm package and a remote URL; a
 * package.json whose `mcpName` is missing or differs is refused by name.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Ajv from 'ajv'
import addFormats from 'ajv-formats'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli, type CommandIO } from '../../src/cli/index.js'
import { emcp, mcpServer } from '../../src/index.js'
import { serveHttp } from '../../src/transport/http.js'
import { root } from '../interop/children.js'

const schemaPath = join(root, '..', 'shared', 'mcp-registry', 'server.schema.json')
const present = existsSync(schemaPath)
if (!present && process.env.CI === 'true') throw new Error(`the registry schema is missing at ${schemaPath}`)

const validate = (() => {
  if (!present) return () => ({ valid: false, errors: 'the registry schema is absent' })
  const ajv = new Ajv.default({ allErrors: true, strict: false })
  addFormats.default(ajv)
  const check = ajv.compile(JSON.parse(readFileSync(schemaPath, 'utf8')) as object)
  return (data: unknown) => ({ valid: check(data), errors: check.errors })
})()

let dir: string
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'emcp-server-json-'))
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const cli = async (argv: string[], cwd = dir) => {
  let out = ''
  let err = ''
  const io: CommandIO = { out: (s) => void (out += s), err: (s) => void (err += s), cwd, interactive: false }
  return { code: await runCli(argv, io), out, err }
}

/** A package folder holding package.json `pkg` and a module that re-exports the weather fixture. */
const npmPackage = (folder: string, pkg: object): string => {
  const at = join(dir, folder)
  rmSync(at, { recursive: true, force: true })
  mkdirSync(at, { recursive: true })
  writeFileSync(join(at, 'package.json'), JSON.stringify(pkg))
  writeFileSync(join(at, 'server.mjs'), `export { default } from ${JSON.stringify(join(root, 'test/cli/fixtures/weather-server.mjs'))}\n`)
  return join(at, 'server.mjs')
}

describe.skipIf(!present && process.env.CI !== 'true')('emcp server-json', () => {
  it('an npm package whose mcpName matches: server.json valid against the registry schema', async () => {
    const module = npmPackage('good', { name: '@ada/weather', version: '1.2.3', mcpName: 'io.github.ada/weather', repository: { type: 'git', url: 'git+https://github.com/ada/weather.git' } })
    const r = await cli(['server-json', module, '--name', 'io.github.ada/weather', '--env', 'WEATHER_API_KEY=Your key', '-o', 'server.json'])
    expect(r).toMatchObject({ code: 0, err: 'wrote server.json for io.github.ada/weather\n' })
    const json = JSON.parse(readFileSync(join(dir, 'server.json'), 'utf8')) as Record<string, unknown>
    expect(json).toEqual({
      $schema: 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json',
      name: 'io.github.ada/weather',
      version: '1.2.3',
      description: 'Forecasts for any city.',
      title: 'Weather',
      repository: { url: 'https://github.com/ada/weather', source: 'github' },
      packages: [
        {
          registryType: 'npm',
          identifier: '@ada/weather',
          version: '1.2.3',
          runtimeHint: 'npx',
          transport: { type: 'stdio' },
          environmentVariables: [{ name: 'WEATHER_API_KEY', description: 'Your key', isRequired: true, isSecret: true }],
        },
      ],
    })
    expect(validate(json)).toEqual({ valid: true, errors: null })
  })

  it('a missing or different mcpName is refused, naming the file and both names', async () => {
    const missing = npmPackage('missing', { name: '@ada/weather', version: '1.2.3' })
    const none = await cli(['server-json', missing, '--name', 'io.github.ada/weather'])
    expect(none.code).toBe(1)
    expect(none.err).toContain(`${join(dir, 'missing', 'package.json')} has no "mcpName": add "mcpName": "io.github.ada/weather"`)
    const other = npmPackage('other', { name: '@ada/weather', version: '1.2.3', mcpName: 'io.github.bob/weather' })
    const differs = await cli(['server-json', other, '--name', 'io.github.ada/weather'])
    expect(differs.code).toBe(1)
    expect(differs.err).toContain(`${join(dir, 'other', 'package.json')} says "mcpName": "io.github.bob/weather", but --name is "io.github.ada/weather"`)
    expect((await cli(['server-json', other, '--name', 'weather'])).err).toMatch(/a registry name is namespace\/name/)
    expect((await cli(['server-json', other])).err).toMatch(/--name io\.github\.owner\/name/)
  })

  it('a remote URL: asked of the live server, valid against the registry schema', async () => {
    const ping = emcp({ name: 'ping', description: 'Ping.', input: { type: 'object' } })
    const running = await serveHttp(mcpServer([ping], { name: 'pinger', version: '2.0.0', description: 'Answers pings.' }).implement({ ping: () => 'pong' }), { port: 0 })
    try {
      const r = await cli(['server-json', running.url, '--name', 'org.example/pinger'])
      expect(r.code).toBe(0)
      const json = JSON.parse(r.out) as Record<string, unknown>
      expect(json).toMatchObject({ name: 'org.example/pinger', version: '2.0.0', remotes: [{ type: 'streamable-http', url: running.url }] })
      expect(validate(json)).toEqual({ valid: true, errors: null })
    } finally {
      await running.close()
    }
  })
})
