/**
 * Tool-search mode on a server whose tools change at run time, and on servers built every
 * way: a runtime tool added, removed, disabled and enabled is found (or not) by the next
 * search, the mode turned on and off on a running server tells clients the list changed,
 * and options that cannot work are refused when the server is built.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js'
import { describe, expect, it } from 'vitest'
import { emcp, inMemoryClient, mcpServer, runtimeTool, tasks, type AnyTool, type CallToolResult, type Server } from 'emcp'
import { serveHttp } from 'emcp/http'
import { catalogServer, fromManifest, type ListingBudget } from 'emcp/manifest'
import { conversions } from '../../../examples/tool-search.js'
import { meta, send, waitFor } from '../tasks/support.js'

const note = emcp({ name: 'note', description: 'Keep a note.', input: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } })

/** The in-memory client of a server, with the gateways' calls (their names are no contract of the server's type). */
const clientOf = <U extends AnyTool>(server: Server<U>) => {
  const c = inMemoryClient(server)
  const call = async (name: string, args: object): Promise<CallToolResult> => (await c.request('tools/call', { name, arguments: args })) as CallToolResult
  return { call, found: async (query: string) => ((await call('search_tools', { query })).structuredContent as { tools: Array<{ name: string }> }).tools.map((t) => t.name) }
}

describe('tool search over tools that change at run time', () => {
  it('finds a runtime tool once added, and no longer once removed or disabled', async () => {
    const server = mcpServer([note], { name: 'notes', version: '1' }, { toolSearch: true }).implement({ note: ({ text }) => text })
    const { call, found } = clientOf(server)
    expect(await found('weather forecast')).toEqual([])
    const forecast = runtimeTool({ name: 'weather_forecast', description: 'The weather forecast for a city.', input: { type: 'object', properties: { city: { type: 'string' } } } })
    server.addTool(forecast, (args) => `sunny in ${String(args.city)}`)
    expect(await found('weather forecast')).toEqual(['weather_forecast'])
    expect((await inMemoryClient(server).list()).map((t) => t.name)).toEqual(['search_tools', 'call_tool'])
    const r = await call('call_tool', { name: 'weather_forecast', arguments: { city: 'Lyon' } })
    expect(r.content).toEqual([{ type: 'text', text: 'sunny in Lyon' }])
    server.disableTool('note')
    expect(await found('keep a note')).toEqual([])
    server.enableTool('note')
    expect(await found('keep a note')).toEqual(['note'])
    expect(server.removeTool('weather_forecast')).toBe(true)
    expect(await found('weather forecast')).toEqual([])
  })

  it('turns on and off on a running server, telling clients the list changed (official SDK client, stateful HTTP)', async () => {
    const server = mcpServer([note], { name: 'notes', version: '1' }).implement({ note: ({ text }) => text })
    const running = await serveHttp(server, { port: 0, sessions: true })
    const client = new Client({ name: 'sdk', version: '1' })
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(running.url)))
      const told: Array<() => void> = []
      client.setNotificationHandler(ToolListChangedNotificationSchema, async () => void told.shift()?.())
      const changed = () => new Promise<void>((resolve) => told.push(resolve))
      const listed = async () => (await client.listTools()).tools.map((t) => t.name)
      expect(await listed()).toEqual(['note'])
      const on = changed()
      server.setToolSearch({ pinned: ['note'] })
      await on
      expect(await listed()).toEqual(['search_tools', 'call_tool', 'note'])
      const off = changed()
      server.setToolSearch(false)
      await off
      expect(await listed()).toEqual(['note'])
      await expect(client.callTool({ name: 'search_tools', arguments: { query: 'note' } })).rejects.toThrow(/Unknown tool: search_tools/)
    } finally {
      await client.close()
      await running.close()
    }
  })

  it('refuses options that cannot work: a pinned name of no tool, a tool of a gateway name, a bad default limit', () => {
    const build = (tools: ReadonlyArray<AnyTool>, toolSearch: object) => () =>
      mcpServer(tools as [AnyTool], { name: 's', version: '1' }, { toolSearch }).implement(Object.fromEntries(tools.map((t) => [t.name, () => 'x'])) as never)
    expect(build([note], { pinned: ['nope'] })).toThrow('emcp: toolSearch.pinned names no tool: nope')
    const own = runtimeTool({ name: 'search_tools', description: 'Mine.', input: { type: 'object' } })
    expect(build([own], {})).toThrow(/toolSearch lists its own search_tools/)
    expect(build([note], { defaultLimit: 0 })).toThrow(/defaultLimit must be a whole number from 1 to 50/)
    expect(build([note], { pinned: 'note' })).toThrow('emcp: toolSearch.pinned must be an array of tool names')
    expect(build([note], { abbreviations: { n: 3 } })).toThrow(/toolSearch.abbreviations must map each abbreviation/)
    expect(() => mcpServer([note], { name: 's', version: '1' }, { toolSearch: 'yes' as never }).implement({ note: () => 'x' })).toThrow(/toolSearch must be true, false or an object/)
    const server = mcpServer([note], { name: 's', version: '1' }, { toolSearch: true }).implement({ note: () => 'x' })
    expect(() => server.addTool(runtimeTool({ name: 'call_tool', description: 'Mine.', input: { type: 'object' } }), () => 'x')).toThrow(/tool search lists its own tool of that name/)
  })

  it('works on a manifest server, with a server\'s own abbreviations and a default limit', async () => {
    const manifest = {
      tools: [
        { name: 'inv_qty', description: 'Stock level of an item.', inputSchema: { type: 'object', properties: { sku: { type: 'string', title: 'Item code' } } } },
        { name: 'inv_move', description: 'Move stock between warehouses.', inputSchema: { type: 'object' } },
        { name: 'inv_count', description: 'Count of items.', inputSchema: { type: 'object' } },
      ],
    } as const
    const server = fromManifest(manifest, { inv_qty: () => '7', inv_move: () => 'moved', inv_count: () => '3' }, { toolSearch: { abbreviations: { inv: 'inventory', qty: 'quantity' }, defaultLimit: 1 } })
    const { call, found } = clientOf(server)
    expect(await found('inventory quantity')).toEqual(['inv_qty'])
    expect(await found('item code')).toEqual(['inv_qty'])
    const r = await call('call_tool', { name: 'inv_qty', arguments: { sku: 'A1' } })
    expect(r.content).toEqual([{ type: 'text', text: '7' }])
  })

  it('counts in a catalog server\'s listing budget only what search mode lists', () => {
    const estimates: ListingBudget[] = []
    const entries = [...conversions.tools].map((tool) => ({ tool, handler: () => 'x' }))
    catalogServer(entries, { name: 'all', version: '1' }, { budget: 1000, onBudget: (e) => estimates.push(e) })
    catalogServer(entries, { name: 'searching', version: '1' }, { budget: 1000, toolSearch: { pinned: ['convert_help'] }, onBudget: (e) => estimates.push(e) })
    expect(estimates.map((e) => e.tools)).toEqual([conversions.tools.length, 3])
    expect(estimates[0]?.warning).toBeDefined()
    expect(estimates[1]?.warning).toBeUndefined()
  })

  it('finds conversions in the example catalog by the words of its own abbreviations', async () => {
    const { call, found } = clientOf(conversions)
    expect((await found('kilometres to miles'))[0]).toBe('len_km_to_mi')
    expect((await found('celsius to fahrenheit'))[0]).toBe('temp_c_to_f')
    expect((await found('convert feet into metres'))[0]).toBe('len_ft_to_m')
    expect((await inMemoryClient(conversions).list()).map((t) => t.name)).toEqual(['search_tools', 'call_tool', 'convert_help'])
    expect((await call('call_tool', { name: 'temp_c_to_f', arguments: { value: 100 } })).structuredContent).toEqual({ result: 212 })
  })

  it('runs a tool that runs only as a task through call_tool as a task (2026-07-28, tasks extension), and answers a client without the extension as a direct call would', async () => {
    const report = emcp({ name: 'long_report', description: 'A report that takes a while.', input: { type: 'object' }, taskSupport: 'required' })
    let finish: (text: string) => void = () => undefined
    const server = mcpServer([note, report], { name: 'r', version: '1' }, { toolSearch: true, features: [tasks()] }).implement({
      note: ({ text }) => text,
      long_report: () => new Promise<string>((resolve) => (finish = resolve)),
    })
    const r = await send(server, 'tools/call', { name: 'call_tool', arguments: { name: 'long_report', arguments: {} } })
    expect(r.result).toMatchObject({ resultType: 'task', taskId: expect.any(String), status: 'working' })
    finish('the report')
    const done = await waitFor(server, r.result.taskId, 'completed')
    expect(done.status).toBe('completed')
    const inline = await send(server, 'tools/call', { name: 'call_tool', arguments: { name: 'long_report', arguments: {} } }, meta({}, false))
    const direct = await send(server, 'tools/call', { name: 'long_report', arguments: {} }, meta({}, false))
    expect(inline.error ?? inline.result).toBeDefined()
    expect(inline.error ?? inline.result).toEqual(direct.error ?? direct.result)
  })
})
