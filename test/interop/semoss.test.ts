/**
 * A SEMOSS manifest (examples/semoss/py_mcp.json) served unchanged, driven by the official
 * clients: the 1.32.2 SDK client through `emcp serve` (2025-11-25: the review of an `ask`
 * tool is an `elicitation/create` request its handler answers, with edits), and the 2.4.0
 * client on the example itself (2026-07-28: the review is an `input_required` round trip
 * through the same kind of handler). A staged tool is never listed nor callable.
 */
import { join } from 'node:path'
import { Client as Client2026 } from '@modelcontextprotocol/client'
import { StdioClientTransport as Stdio2026 } from '@modelcontextprotocol/client/stdio'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { ElicitRequestSchema, type ElicitRequest, type ElicitResult } from '@modelcontextprotocol/sdk/types.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { connectStdio, example, root, texts, type Connection } from './children.js'

const bin = join(root, 'bin', 'emcp.js')
const proposal = { to: 'ada@example.com', city: 'Oslo', days: 3 }

/** The form of an elicitation request (the SDK types params as form or URL mode). */
const formOf = (params: unknown): { properties: Record<string, { default?: unknown }>; required?: string[] } =>
  (params as { requestedSchema: { properties: Record<string, { default?: unknown }>; required?: string[] } }).requestedSchema

describe('SEMOSS manifest through emcp serve, 1.32.2 client (2025-11-25)', () => {
  let c: Connection
  let answer: (request: ElicitRequest) => ElicitResult = () => ({ action: 'cancel' })
  const asked: ElicitRequest[] = []

  beforeAll(async () => {
    const client = new Client({ name: 'emcp-semoss', version: '0.0.0' }, { capabilities: { elicitation: { form: {} } } })
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request)
      return answer(request)
    })
    c = await connectStdio(bin, ['serve', example('semoss')], {}, client)
  })

  afterAll(async () => {
    await c?.dispose()
  })

  it('lists every tool but the staged one, with SEMOSS _meta as the manifest has it; the staged one cannot be called', async () => {
    const { tools } = await c.client.listTools()
    expect(tools.map((t) => t.name)).toEqual(['GetWeather', 'celsius_to_fahrenheit', 'SendReport', 'ScheduleAlerts'])
    expect(tools[0]?._meta).toEqual({
      SMSS_FUNCTION_NAME: 'GetWeather',
      SMSS_MCP_EXECUTION: 'auto',
      SMSS_MCP_UI: { resourceURI: '/#/forecast', displayLocation: 'sidebar', loadingMessage: 'Fetching the forecast...' },
    })
    await expect(c.client.callTool({ name: 'DeleteForecasts', arguments: { city: 'Oslo' } })).rejects.toThrow('Tool DeleteForecasts is disabled')
  })

  it('auto tools run at once, a renamed one on its handler', async () => {
    const before = asked.length
    expect(texts((await c.client.callTool({ name: 'celsius_to_fahrenheit', arguments: { celsius: 100 } })).content)).toEqual(['212°F'])
    expect(asked.length).toBe(before)
  })

  it('ask: the form carries the proposal as defaults; the tool runs with the edited arguments', async () => {
    answer = (request) => {
      const form = formOf(request.params)
      const kept = Object.fromEntries(Object.entries(form.properties).flatMap(([k, p]) => (p.default === undefined ? [] : [[k, p.default]])))
      return { action: 'accept', content: { ...kept, days: 5, units: 'imperial' } }
    }
    const r = await c.client.callTool({ name: 'SendReport', arguments: proposal })
    expect(texts(r.content)).toEqual(['sent 5 days of Oslo (imperial) to ada@example.com'])
    const form = formOf(asked.at(-1)!.params)
    expect(form.properties.days).toEqual({ type: 'integer', minimum: 1, maximum: 14, title: 'days', description: 'How many days ahead.', default: 3 })
    expect(form.required).toEqual(['to', 'city', 'days'])
  })

  it('ask: decline is an isError result, and nested arguments get a yes/no question', async () => {
    answer = () => ({ action: 'decline' })
    const declined = await c.client.callTool({ name: 'SendReport', arguments: proposal })
    expect(declined.isError).toBe(true)
    expect(texts(declined.content)).toEqual(['the user did not allow tool SendReport to run'])
    answer = () => ({ action: 'accept', content: { allow: true } })
    const nested = await c.client.callTool({ name: 'ScheduleAlerts', arguments: { city: 'Oslo', range: { low: -5, high: 25 } } })
    expect(texts(nested.content)).toEqual(['alerts for Oslo outside {"low":-5,"high":25}'])
    expect(Object.keys(formOf(asked.at(-1)!.params).properties)).toEqual(['allow'])
  })
})

describe('SEMOSS manifest, 2.4.0 client (2026-07-28)', () => {
  it('ask: the review is an input_required round trip through the client’s elicitation handler; the edit reaches the tool', async () => {
    const client = new Client2026({ name: 'emcp-semoss-2026', version: '0.0.0' }, { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: 'auto' } })
    const forms: unknown[] = []
    client.setRequestHandler('elicitation/create', async (req) => {
      const form = formOf(req.params)
      forms.push(form)
      return { action: 'accept', content: { to: String(form.properties.to?.default), city: 'Tromsø', days: Number(form.properties.days?.default) } }
    })
    await client.connect(new Stdio2026({ command: process.execPath, args: [example('semoss')], stderr: 'pipe' }))
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28')
      const r = await client.callTool({ name: 'SendReport', arguments: proposal })
      expect(r.isError).not.toBe(true)
      expect(r.content).toEqual([{ type: 'text', text: 'sent 3 days of Tromsø (metric) to ada@example.com' }])
      expect(forms).toHaveLength(1)
      const { tools } = await client.listTools()
      expect(tools.map((t) => t.name)).not.toContain('DeleteForecasts')
    } finally {
      await client.close()
    }
  })
})
