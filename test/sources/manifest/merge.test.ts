/**
 * `mergeManifests(file, code)`: re-export from code, keeping hand edits. Two versions of a
 * server stand for the code before and after a change; the file is the manifest the first
 * one wrote, then edited by hand.
 */
import { describe, expect, it } from 'vitest'
import { emcp, mcpServer } from '../../../src/index.js'
import { manifestText, mergeManifests, toManifest, validateManifest, type Manifest, type ManifestTool } from '../../../src/sources/manifest/index.js'

const forecast = (description: string, withDays: boolean) =>
  emcp({
    name: 'forecast',
    description,
    input: withDays
      ? { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer' } }, required: ['city'] }
      : { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  })
const convert = emcp({ name: 'c2f', description: 'Celsius to Fahrenheit.', input: { type: 'object', properties: { c: { type: 'number' } } } })
const wipe = emcp({ name: 'wipe', description: 'Delete forecasts.', input: { type: 'object' } })

/** The manifest of the code, in a version: v1 as first written, v2 with a changed description, v3 with a new argument and no `wipe`. */
const code = (v: 1 | 2 | 3): Manifest => {
  const f = forecast(v === 2 ? 'The forecast of a city, day by day.' : 'The forecast of a city.', v === 3)
  const server = v === 3 ? mcpServer([f, convert], { name: 'w', version: '3' }).implement({ forecast: () => 'x', c2f: () => 'x' }) : mcpServer([f, convert, wipe], { name: 'w', version: String(v) }).implement({ forecast: () => 'x', c2f: () => 'x', wipe: () => 'x' })
  return toManifest(server)
}

/** The manifest with one tool edited by hand. */
const edit = (m: Manifest, name: string, f: (t: ManifestTool) => ManifestTool): Manifest => ({ ...m, tools: m.tools.map((t) => (t.name === name ? f(t) : t)) })

const handEdited = edit(code(1), 'forecast', (t) => ({
  ...t,
  title: 'Weather forecast',
  description: 'Forecast for one city. Use for questions about the weather.',
  _type: 'python',
  _meta: { ...t._meta, SMSS_MCP_EXECUTION: 'ask', SMSS_MCP_UI: { resourceURI: '/#/forecast' } },
}))

const tool = (m: Manifest, name: string) => m.tools.find((t) => t.name === name)!

describe('mergeManifests', () => {
  it('an entry nobody edited takes the code: the file is simply re-exported', () => {
    const merged = mergeManifests(code(1), code(2))
    expect(merged.manifest).toEqual(code(2))
    expect(merged).toMatchObject({ kept: [], added: [], removed: [], conflicts: [] })
  })

  it('the code did not change the tool: every hand edit is kept (titles, descriptions, policies, _meta, _type)', () => {
    const merged = mergeManifests(handEdited, code(1))
    const f = tool(merged.manifest, 'forecast')
    expect(f).toMatchObject({ title: 'Weather forecast', description: 'Forecast for one city. Use for questions about the weather.', _type: 'python' })
    expect(f._meta).toMatchObject({ SMSS_MCP_EXECUTION: 'ask', SMSS_MCP_UI: { resourceURI: '/#/forecast' } })
    expect(merged.kept).toEqual(['forecast'])
    expect(merged.conflicts).toEqual([])
    // keys in the order toManifest writes them, whatever order the hand edit left
    expect(Object.keys(f)).toEqual(['name', 'title', 'description', 'inputSchema', '_type', '_meta'])
    expect(Object.keys(f._meta ?? {})).toEqual(['SMSS_MCP_EXECUTION', 'SMSS_MCP_UI', 'emcp/fingerprint'])
    // the fingerprint stays the code's, so the next merge still sees the edits as edits
    expect(f._meta?.['emcp/fingerprint']).toBe(tool(code(1), 'forecast')._meta?.['emcp/fingerprint'])
    expect(manifestText(mergeManifests(merged.manifest, code(1)).manifest)).toBe(manifestText(merged.manifest))
    expect(validateManifest(merged.manifest).errors).toEqual([])
  })

  it('both changed the tool: the contract from the code, the hand edits kept, each field both now disagree on listed', () => {
    const merged = mergeManifests(handEdited, code(3))
    const f = tool(merged.manifest, 'forecast')
    expect(Object.keys((f.inputSchema as { properties: object }).properties)).toEqual(['city', 'days'])
    expect(f.description).toBe('Forecast for one city. Use for questions about the weather.')
    expect(f._meta?.SMSS_MCP_EXECUTION).toBe('ask')
    expect(merged.contractChanged).toEqual(['forecast'])
    expect(merged.conflicts).toEqual([
      { tool: 'forecast', path: '/description', file: 'Forecast for one city. Use for questions about the weather.', code: 'The forecast of a city.' },
    ])
    expect(merged.removed).toEqual(['wipe'])
    expect(merged.manifest.tools.map((t) => t.name)).toEqual(['c2f', 'forecast'])
  })

  it('only the code changed a field the file never had: taken from the code, no conflict', () => {
    const policyOnly = edit(code(1), 'forecast', (t) => ({ ...t, _meta: { ...t._meta, 'emcp/policy': 'ask' } }))
    const merged = mergeManifests(policyOnly, code(2))
    const f = tool(merged.manifest, 'forecast')
    expect(f._meta?.['emcp/policy']).toBe('ask')
    // the description the file still had from v1 differs from v2's: listed, the file's kept
    expect(merged.conflicts).toEqual([{ tool: 'forecast', path: '/description', file: 'The forecast of a city.', code: 'The forecast of a city, day by day.' }])
  })

  it('a hand-written file without fingerprints (as SEMOSS keeps them): its edits are kept while the contract agrees; a new contract lists the disagreements', () => {
    const strip = (m: Manifest): Manifest => ({
      tools: m.tools.map(({ _meta, ...t }) => {
        const { 'emcp/fingerprint': _f, ...rest } = _meta ?? {}
        return { ...t, _meta: rest }
      }),
    })
    const semoss = strip(handEdited)
    const same = mergeManifests(semoss, code(1))
    expect(tool(same.manifest, 'forecast').description).toBe('Forecast for one city. Use for questions about the weather.')
    expect(same.conflicts).toEqual([])
    const changed = mergeManifests(semoss, code(3))
    expect(changed.conflicts.map((c) => c.path)).toEqual(['/description'])
    expect(Object.keys((tool(changed.manifest, 'forecast').inputSchema as { properties: object }).properties)).toEqual(['city', 'days'])
  })

  it('a tool renamed in the file keeps its name when its SMSS_FUNCTION_NAME names the code tool; new code tools are added', () => {
    const renamed = edit(code(1), 'c2f', (t) => ({ ...t, name: 'celsius_to_fahrenheit', _meta: { ...t._meta, SMSS_FUNCTION_NAME: 'c2f' } }))
    const withoutWipe: Manifest = { ...renamed, tools: renamed.tools.filter((t) => t.name !== 'wipe') }
    const merged = mergeManifests(withoutWipe, code(2))
    expect(merged.manifest.tools.map((t) => t.name)).toEqual(['celsius_to_fahrenheit', 'forecast', 'wipe'])
    expect(tool(merged.manifest, 'celsius_to_fahrenheit')._meta?.SMSS_FUNCTION_NAME).toBe('c2f')
    expect(merged.added).toEqual(['wipe'])
    expect(merged.removed).toEqual([])
  })
})
