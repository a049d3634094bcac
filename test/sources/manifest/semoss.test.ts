/**
 * SEMOSS manifests, as their users write them (examples/semoss/py_mcp.json), through the
 * public API: SMSS_MCP_EXECUTION is the execution policy, SMSS_FUNCTION_NAME the handler,
 * SMSS_MCP_UI and `_type` are listed and exported as they came, and every value emcp cannot
 * honour stops the server at startup naming the tool (and `validateManifest` says so too).
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { inMemoryClient, type AnyTool, type CallToolResult, type Server } from '../../../src/index.js'
import { fromManifest, policyOf, readPolicy, serverOfManifest, toManifest, validateManifest, type Manifest, type ManifestTool } from '../../../src/sources/manifest/index.js'
import { root } from '../../interop/children.js'
import { wired } from '../../support/wired.js'

/**
 * A run-time manifest's server as a plain Server: the compiler cannot compare the two types
 * (TS2589, as before this change), so the tests say it once, here.
 */
const plain = <U extends AnyTool>(server: Server<U>): Server => server as unknown as Server

/** One call, untyped: a manifest read at run time has tools of any name, which the typed client cannot take. */
const callResult = <U extends AnyTool>(server: Server<U>, name: string, args: object): Promise<CallToolResult> =>
  inMemoryClient(server).request('tools/call', { name, arguments: args }) as Promise<CallToolResult>

const manifest = JSON.parse(readFileSync(join(root, 'examples', 'semoss', 'py_mcp.json'), 'utf8')) as Manifest

const handlers = {
  GetWeather: ({ city }: { readonly [k: string]: unknown }) => `${String(city)}: 14°C`,
  CelsiusToFahrenheit: ({ celsius }: { readonly [k: string]: unknown }) => `${(Number(celsius) * 9) / 5 + 32}°F`,
  SendReport: ({ to, days }: { readonly [k: string]: unknown }) => `sent ${String(days)} days to ${String(to)}`,
  ScheduleAlerts: ({ city }: { readonly [k: string]: unknown }) => `alerts for ${String(city)}`,
}

/** The manifest with one tool entry changed. */
const editTool = (name: string, edit: (t: ManifestTool) => ManifestTool): Manifest => ({
  ...manifest,
  tools: manifest.tools.map((t) => (t.name === name ? edit(t) : t)),
})

const withMeta = (name: string, meta: { readonly [k: string]: unknown }): Manifest => editTool(name, (t) => ({ ...t, _meta: { ...t._meta, ...meta } }))

const problemsOf = (m: Manifest, h: { readonly [k: string]: unknown } = handlers) => {
  const out = serverOfManifest(m, h)
  return out._tag === 'Left' ? out.left : []
}

describe('SMSS_MCP_EXECUTION', () => {
  it('disabled: a staged tool is declared but neither listed nor callable, and needs no handler', async () => {
    const server = fromManifest(manifest, handlers)
    const listed = (await inMemoryClient(server).list()).map((t) => t.name)
    expect(listed).toEqual(['GetWeather', 'celsius_to_fahrenheit', 'SendReport', 'ScheduleAlerts'])
    await expect(callResult(server, 'DeleteForecasts', { city: 'Oslo' })).rejects.toThrow('Tool DeleteForecasts is disabled')
    expect(server.tools.map((t) => t.name)).toContain('DeleteForecasts')
  })

  it('disabled wins even with a handler given for it, and whatever the case of the value (SEMOSS reads it in any case)', async () => {
    for (const value of ['disabled', 'DISABLED', 'Disabled']) {
      const server = fromManifest(withMeta('GetWeather', { SMSS_MCP_EXECUTION: value }), handlers)
      expect((await inMemoryClient(server).list()).map((t) => t.name)).not.toContain('GetWeather')
      await expect(callResult(server, 'GetWeather', { city: 'Oslo' })).rejects.toThrow('Tool GetWeather is disabled')
    }
  })

  it('ask: the tool runs only after the user reviewed its arguments (an elicitation), never silently', async () => {
    let sent = 0
    const server = fromManifest(manifest, { ...handlers, SendReport: () => `sent ${++sent}` })
    const { request, asked, answer } = await wired(plain(server), { elicitation: {} })
    const question = asked()
    const call = request('tools/call', { name: 'SendReport', arguments: { to: 'ada@example.com', city: 'Oslo', days: 3 } })
    const ask = await question
    expect(ask.method).toBe('elicitation/create')
    expect(sent).toBe(0)
    await answer(ask.id, { action: 'accept', content: { to: 'ada@example.com', city: 'Oslo', days: 3 } })
    expect(await call).toMatchObject({ result: { content: [{ type: 'text', text: 'sent 1' }] } })
    // without a client that can be asked, never a silent run
    const silent = await callResult(server, 'SendReport', { to: 'ada@example.com', city: 'Oslo', days: 3 })
    expect(silent.isError).toBe(true)
    expect(sent).toBe(1)
  })

  it('behaves as emcp/policy does; the same value under both keys is fine', () => {
    expect(policyOf({ _meta: { SMSS_MCP_EXECUTION: 'ask' } })).toBe('ask')
    expect(policyOf({ _meta: { 'emcp/policy': 'ask', SMSS_MCP_EXECUTION: 'ASK' } })).toBe('ask')
    expect(policyOf({ _meta: { SMSS_MCP_EXECUTION: 'auto' } })).toBe('auto')
    expect(policyOf({})).toBe('auto')
    expect(problemsOf(withMeta('SendReport', { 'emcp/policy': 'ask' }))).toEqual([])
  })

  it('two keys that disagree fail the import, naming the tool', () => {
    const m = withMeta('SendReport', { 'emcp/policy': 'auto' })
    expect(problemsOf(m)).toEqual([
      {
        tool: 'SendReport',
        path: '/_meta',
        message: 'emcp/policy says "auto" but SMSS_MCP_EXECUTION says "ask": the two policies disagree; keep one, or make them the same',
      },
    ])
    expect(() => {
      fromManifest(m, handlers)
    }).toThrow('tool SendReport: /_meta: emcp/policy says "auto" but SMSS_MCP_EXECUTION says "ask"')
    // a policy that cannot be read is never taken for auto
    expect(policyOf(m.tools.find((t) => t.name === 'SendReport')!)).toBe('disabled')
  })

  it('an unknown value fails the import naming the tool and the value, and validateManifest reports it', () => {
    const m = withMeta('GetWeather', { SMSS_MCP_EXECUTION: 'sometimes' })
    const expected = { tool: 'GetWeather', path: '/_meta/SMSS_MCP_EXECUTION', message: 'unknown execution policy "sometimes": SMSS_MCP_EXECUTION must be one of auto, ask, disabled' }
    expect(problemsOf(m)).toEqual([expected])
    expect(validateManifest(m).errors).toEqual([expected])
    expect(readPolicy({ SMSS_MCP_EXECUTION: 7 })).toMatchObject({ _tag: 'Left', left: [{ message: 'unknown execution policy 7: SMSS_MCP_EXECUTION must be one of auto, ask, disabled' }] })
  })
})

describe('SMSS_FUNCTION_NAME', () => {
  it('names the handler: a tool renamed in the manifest keeps its handler', async () => {
    const server = fromManifest(manifest, handlers)
    const r = await callResult(server, 'celsius_to_fahrenheit', { celsius: 100 })
    expect(r.content).toEqual([{ type: 'text', text: '212°F' }])
    // rename it again: the handler record does not change
    const renamed = editTool('celsius_to_fahrenheit', (t) => ({ ...t, name: 'c2f' }))
    const server2 = fromManifest(renamed, handlers)
    const again = await callResult(server2, 'c2f', { celsius: 0 })
    expect(again.content).toEqual([{ type: 'text', text: '32°F' }])
  })

  it('a handler under the tool name instead of its function name is named as missing, and as extra', () => {
    const { CelsiusToFahrenheit, ...rest } = handlers
    const problems = problemsOf(manifest, { ...rest, celsius_to_fahrenheit: CelsiusToFahrenheit })
    expect(problems).toContainEqual({
      tool: 'celsius_to_fahrenheit',
      path: '/_meta/SMSS_FUNCTION_NAME',
      message: 'no handler is given for this tool: it dispatches to CelsiusToFahrenheit, and no handler has that name',
    })
    expect(problems.find((p) => p.tool === 'celsius_to_fahrenheit' && p.path === '')?.message).toContain('a handler is given, but the manifest has no tool celsius_to_fahrenheit')
  })

  it('several tools may dispatch to one handler; its argument check takes what any of them declares', async () => {
    const shared: Manifest = {
      tools: [
        { name: 'play_login', inputSchema: { type: 'object', properties: { user: { type: 'string' } } }, _meta: { SMSS_FUNCTION_NAME: 'Play' } },
        { name: 'play_search', inputSchema: { type: 'object', properties: { query: { type: 'string' } } }, _meta: { SMSS_FUNCTION_NAME: 'Play' } },
      ],
    }
    const server = fromManifest(shared, { Play: ({ user, query }) => `${String(user ?? '')}${String(query ?? '')}` })
    expect((await callResult(server, 'play_login', { user: 'ada' })).content).toEqual([{ type: 'text', text: 'ada' }])
    expect((await callResult(server, 'play_search', { query: 'rain' })).content).toEqual([{ type: 'text', text: 'rain' }])
    // a key neither declares is still caught
    expect(problemsOf(shared, { Play: ({ usr }: { usr?: unknown }) => String(usr) })).toEqual([
      { tool: 'play_login', path: '/inputSchema/properties', message: 'the handler reads argument "usr", which the manifest does not declare (it declares user, query)' },
      { tool: 'play_search', path: '/inputSchema/properties', message: 'the handler reads argument "usr", which the manifest does not declare (it declares user, query)' },
    ])
  })

  it('must name a handler', () => {
    const m = withMeta('GetWeather', { SMSS_FUNCTION_NAME: '' })
    expect(problemsOf(m)).toEqual([
      { tool: 'GetWeather', path: '/_meta/SMSS_FUNCTION_NAME', message: 'SMSS_FUNCTION_NAME must name a handler (a non-empty string of at most 256 characters), not ""' },
    ])
  })
})

describe('SMSS_MCP_UI and _type', () => {
  it('are kept on tools/list, as the manifest has them', async () => {
    const server = fromManifest(manifest, handlers)
    const { request } = await wired(plain(server))
    const listed = (await request('tools/list', {})) as { result: { tools: Array<Record<string, unknown>> } }
    const weather = listed.result.tools.find((t) => t.name === 'GetWeather')
    expect(weather?._type).toBe('python')
    expect(weather?._meta).toEqual({
      SMSS_FUNCTION_NAME: 'GetWeather',
      SMSS_MCP_EXECUTION: 'auto',
      SMSS_MCP_UI: { resourceURI: '/#/forecast', displayLocation: 'sidebar', loadingMessage: 'Fetching the forecast...' },
    })
  })

  it('are kept on re-export, and the re-exported manifest serves the same', async () => {
    const exported = toManifest(fromManifest(manifest, handlers))
    const weather = exported.tools.find((t) => t.name === 'GetWeather')!
    expect(weather._type).toBe('python')
    expect(weather._meta?.SMSS_MCP_UI).toEqual({ resourceURI: '/#/forecast', displayLocation: 'sidebar', loadingMessage: 'Fetching the forecast...' })
    expect(exported.tools.find((t) => t.name === 'DeleteForecasts')?._meta?.SMSS_MCP_EXECUTION).toBe('disabled')
    const again = fromManifest(exported, handlers)
    expect(toManifest(again)).toEqual(exported)
    expect((await callResult(again, 'celsius_to_fahrenheit', { celsius: 10 })).content).toEqual([{ type: 'text', text: '50°F' }])
  })

  it('validateManifest accepts the manifest, and warns about UI metadata SEMOSS would show wrongly', () => {
    const report = validateManifest(manifest)
    expect(report.errors).toEqual([])
    expect(report.warnings).toEqual([])
    const odd = withMeta('GetWeather', { SMSS_MCP_UI: { resourceURI: '/forecast', displayLocation: 'popup' } })
    expect(validateManifest(odd).warnings).toEqual(
      expect.arrayContaining([
        { tool: 'GetWeather', path: '/_meta/SMSS_MCP_UI/resourceURI', message: 'resourceURI "/forecast" is not a hash route (/#/...): SEMOSS embeds apps in frames that only follow hash routes' },
        { tool: 'GetWeather', path: '/_meta/SMSS_MCP_UI/displayLocation', message: 'displayLocation should be one of inline, sidebar, hidden, none (found "popup")' },
      ]),
    )
    // a warning, not an error: the server still starts
    expect(problemsOf(odd)).toEqual([])
  })

  it('_type must be a string', () => {
    expect(problemsOf(editTool('GetWeather', (t) => ({ ...t, _type: 3 as never })))).toEqual([{ tool: 'GetWeather', path: '/_type', message: '"_type" must be a string' }])
  })
})
