/**
 * `connect` (emcp/client) against real server processes: emcp's built examples over stdio
 * and Streamable HTTP in both eras (typed calls, io-ts codecs, elicitation answered by the
 * callback, the 2025 wrapping of non-object results undone); the official SDK's own example
 * server, typed through the module `emcp types` wrote for it (test/client/fixtures), which
 * `emcp types --check` finds up to date and a changed copy drifted; and a client-credentials
 * call to examples/oauth.ts with its demo authorization server.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type * as t from 'io-ts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { connect, ToolCallError } from 'emcp/client'
import { calculator } from '../../examples/calculator.js'
import { erasServer } from '../../examples/eras.js'
import { add, clear } from '../../examples/oauth.js'
import { tools as weatherTools } from '../client/fixtures/sdk-weather-tools.js'
import { run } from '../support/run.js'
import { example, root, spawnListening, stop, type Listening } from './children.js'

const eras = ['2025-11-25', '2026-07-28'] as const
const contracts = erasServer()
const elicit = async () => ({ action: 'accept' as const, content: { name: 'Ada' } })
const sdkExample = 'node_modules/@modelcontextprotocol/sdk/dist/esm/examples/server/mcpServerOutputSchema.js'
const emcpBin = join(root, 'bin', 'emcp.js')

describe.each(eras)('emcp examples over stdio at %s', (protocolVersion) => {
  it('eras: typed calls, the elicitation callback, a non-object result as it was returned', async () => {
    await using c = await connect({ command: process.execPath, args: [example('eras')], stderr: 'ignore' }, { contracts, protocolVersion, elicit })
    expect(c.protocolVersion()).toBe(protocolVersion)
    expect(await c.call('era', {})).toEqual({ protocolVersion })
    const greeting = await c.call('greet', { greeting: 'Hi' })
    expect(greeting.greeting).toBe('Hi, Ada!')
    expect(await c.call('primes', { below: 12 })).toEqual([2, 3, 5, 7, 11])
    expect((await c.prompts.get('weather_chat', { region: 'eu-north' })).messages[0]?.content).toMatchObject({ text: 'How is the weather in eu-north?' })
  })

  it('calculator: io-ts codecs applied both ways, tool errors rejected as data', async () => {
    await using c = await connect({ command: process.execPath, args: [example('calculator'), '--stdio'], stderr: 'ignore' }, { contracts: calculator, protocolVersion })
    const later = await c.call('add_days', { date: new Date('2025-03-01T00:00:00Z'), days: 1 as t.Int })
    expect(later.date).toBeInstanceOf(Date)
    expect(later).toEqual({ date: new Date('2025-03-02T00:00:00Z'), weekday: 'Sunday' })
    const bad = await c.call('add_days', { date: new Date('2025-03-01T00:00:00Z'), days: 1.5 as t.Int }).catch((e: unknown) => e)
    expect(bad).toBeInstanceOf(ToolCallError)
  })
})

describe('emcp examples over HTTP', () => {
  let server: Listening
  beforeAll(async () => {
    server = await spawnListening(example('eras'), (port) => ['--http', '--port', String(port)])
  })
  afterAll(async () => {
    await stop(server.child, server.exited)
  })

  it.each(eras)('eras at %s: typed calls, elicitation, resources', async (protocolVersion) => {
    await using c = await connect(server.url, { contracts, protocolVersion, elicit })
    expect(c.protocolVersion()).toBe(protocolVersion)
    expect(await c.call('era', {})).toEqual({ protocolVersion })
    expect((await c.call('greet', {})).greeting).toBe('Hello, Ada!')
    expect(await c.call('primes', { below: 6 })).toEqual([2, 3, 5])
    expect(await c.resources.read('eras://about')).toEqual([expect.objectContaining({ text: 'Served to both protocol eras.' })])
  })

  it('without a protocolVersion, the client probes and speaks 2026-07-28', async () => {
    await using c = await connect<typeof contracts>(server.url, { elicit })
    expect(c.protocolVersion()).toBe('2026-07-28')
    expect(await c.call('primes', { below: 4 })).toEqual([2, 3])
  })
})

describe('examples/client.ts', () => {
  it('makes its typed calls over stdio and HTTP in both eras, answering the elicitation', async () => {
    const ran = await run(process.execPath, [example('client'), '--name', 'Lin'], root)
    expect(ran.code).toBe(0)
    const lines = ran.stdout.trim().split('\n')
    expect(lines).toEqual(['stdio', 'stdio', 'http ', 'http '].map((t, i) => `${t} ${eras[i % 2]}: Hello, Lin! primes below 20: 2 3 5 7 11 13 17 19`))
    expect(ran.stderr.match(/the server asks: What is your name\?/g)).toHaveLength(4)
  })
})

describe('a server emcp did not write: the official SDK example, typed through emcp types', () => {
  it('the module emcp types wrote is up to date, and the typed client calls the server', async () => {
    const checked = await run(process.execPath, [emcpBin, 'types', '--check', 'test/client/fixtures/sdk-weather-tools.ts', '--', 'node', sdkExample], root)
    expect(checked.stderr).toContain('is up to date (1 tool)')
    expect(checked.code).toBe(0)
    await using c = await connect({ command: process.execPath, args: [sdkExample], stderr: 'ignore' }, { contracts: weatherTools })
    const weather = await c.call('get_weather', { city: 'Oslo', country: 'NO' })
    expect(typeof weather.temperature.celsius).toBe('number')
    expect(['sunny', 'cloudy', 'rainy', 'stormy', 'snowy']).toContain(weather.conditions)
    expect(weather.humidity).toBeGreaterThanOrEqual(0)
  })

  it('--check reports drift tool by tool: a changed schema path, a removed and an added tool', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'emcp-types-'))
    try {
      const text = readFileSync(join(root, 'test/client/fixtures/sdk-weather-tools.ts'), 'utf8')
      const edited = text.replace('"City name"', '"Town name"').replace('"name": "get_weather"', '"name": "get_weather_old"')
      writeFileSync(join(dir, 'old.ts'), edited)
      const drifted = await run(process.execPath, [emcpBin, 'types', '--check', join(dir, 'old.ts'), '--', 'node', sdkExample], root)
      expect(drifted.code).toBe(1)
      expect(drifted.stdout).toContain('+ get_weather: new on the server')
      expect(drifted.stdout).toContain('- get_weather_old: no longer on the server')
      writeFileSync(join(dir, 'desc.ts'), text.replace('"City name"', '"Town name"'))
      const described = await run(process.execPath, [emcpBin, 'types', '--check', join(dir, 'desc.ts'), '--', 'node', sdkExample], root)
      expect(described.stdout).toContain('~ get_weather/inputSchema/properties/city/description: "Town name" -> "City name"')
      writeFileSync(join(dir, 'broken.ts'), 'export const tools = [{ name: ] as const')
      const broken = await run(process.execPath, [emcpBin, 'types', '--check', join(dir, 'broken.ts'), '--', 'node', sdkExample], root)
      expect(broken.code).toBe(1)
      expect(broken.stderr).toMatch(/broken\.ts cannot be checked: its tool list is not the JSON emcp types writes/)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe('examples/oauth.ts through connect', () => {
  let server: Listening
  beforeAll(async () => {
    server = await spawnListening(example('oauth'), (port) => ['--port', String(port)])
  })
  afterAll(async () => {
    await stop(server.child, server.exited)
  })

  it('a client-credentials client gets a token for the resource, calls, and steps up to calc:write on a 403; without auth, 401', async () => {
    const expectedIssuer = `http://127.0.0.1:${Number(new URL(server.url).port) + 1}`
    const clientCredentials = { clientId: 'demo-client', clientSecret: 'demo-secret', scope: 'calc:read', expectedIssuer }
    await using c = await connect(server.url, { contracts: [add, clear], auth: { clientCredentials } })
    expect(await c.call('add', { a: 2, b: 3 })).toEqual({ sum: 5 })
    // clear needs calc:write, which this token does not carry: the 403 names it, and the
    // client asks the authorization server again for both scopes (demo-client may have them)
    expect((await c.call('clear', {})).content).toEqual([{ type: 'text', text: 'forgot 1 sums' }])
    await expect(connect(server.url, { contracts: [add, clear] })).rejects.toThrow(/401|nauthorized/)
  })
})
