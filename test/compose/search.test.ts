/**
 * Tool-search mode on a mount, driven by the official SDK clients over Streamable HTTP:
 * `search_tools` searches the whole's tools under their namespaced names, `call_tool` is
 * routed to the part (whose middleware and scopes run), what a caller cannot see (tags,
 * `enabled`, per-session switches, scopes, switched-off tools) it can neither find nor call,
 * and the mode turns on and off on a running mount, telling clients the list changed.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js'
import { Client as Client2, StreamableHTTPClientTransport as Transport2 } from '@modelcontextprotocol/client'
import { afterEach, describe, expect, it } from 'vitest'
import { emcp, mcpServer, mount, mounted, runtimeTool, type Middleware, type Server } from 'emcp'
import { serveHttp } from 'emcp/http'

const charge = emcp({
  name: 'charge',
  description: 'Charge a customer an amount of money.',
  input: { type: 'object', properties: { cents: { type: 'integer' } }, required: ['cents'], additionalProperties: false },
  scopes: ['billing'],
})
const refund = emcp({
  name: 'refund',
  description: 'Refund money to a customer.',
  input: { type: 'object', properties: { cents: { type: 'integer' } }, required: ['cents'], additionalProperties: false },
  output: { type: 'object', properties: { refunded: { type: 'integer' } }, required: ['refunded'] },
})
const audit = emcp({ name: 'audit', description: 'Audit the money ledger of a customer.', input: { type: 'object' }, tags: ['internal'] })
const where = emcp({ name: 'where', description: 'Where am I: the city of the caller.', input: { type: 'object' } })
const forecast = emcp({ name: 'forecast', description: 'The weather forecast for a city.', input: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } })

const seen: string[] = []
const billingLog: Middleware = { toolCall: (call, next) => (seen.push(`billing:${call.tool.name}`), next()) }
const billingOf = () =>
  mcpServer([charge, refund, audit], { name: 'billing', version: '1' }, { middleware: [billingLog] }).implement({
    charge: ({ cents }) => `charged ${cents}`,
    refund: ({ cents }) => ({ refunded: cents }),
    audit: () => 'clean',
  })
const geoOf = () => mcpServer([where, forecast], { name: 'geo', version: '1' }).implement({ where: () => 'Lyon', forecast: ({ city }) => `sunny in ${city}` })

type Hit = { readonly name: string }
type Result = { readonly content?: ReadonlyArray<{ readonly text?: string }>; readonly structuredContent?: unknown; readonly isError?: boolean }

const closing: Array<() => Promise<unknown>> = []
afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close()
})

/** A connected official SDK 1.x client of a server served over stateful HTTP. */
const connect = async (server: Server) => {
  const running = await serveHttp(server, { port: 0, sessions: true })
  closing.push(() => running.close())
  const client = new Client({ name: 'sdk', version: '1' })
  await client.connect(new StreamableHTTPClientTransport(new URL(running.url)))
  closing.push(() => client.close())
  const call = async (name: string, args: object) => (await client.callTool({ name, arguments: args as Record<string, unknown> })) as Result
  const found = async (query: string) => ((await call('search_tools', { query })).structuredContent as { tools: ReadonlyArray<Hit> }).tools.map((t) => t.name)
  const listed = async () => (await client.listTools()).tools.map((t) => t.name)
  return { client, call, found, listed, url: running.url }
}

const text = (r: Result): string => (r.content ?? []).map((b) => b.text ?? '').join('\n')

describe('tool-search mode on a mount', () => {
  it('lists the gateways and the pinned tools, finds namespaced tools, and routes call_tool to the part', async () => {
    const shop = mount([mounted(geoOf(), 'geo'), mounted(billingOf(), 'billing')], { name: 'shop', version: '1' }, { toolSearch: { pinned: ['geo_where'] } })
    const c = await connect(shop)
    expect(await c.listed()).toEqual(['search_tools', 'call_tool', 'geo_where'])
    expect((await c.found('refund money'))[0]).toBe('billing_refund')
    expect((await c.found('weather forecast'))[0]).toBe('geo_forecast')
    seen.length = 0
    const r = await c.call('call_tool', { name: 'billing_refund', arguments: { cents: 7 } })
    expect(r.isError).not.toBe(true)
    expect(r.structuredContent).toEqual({ refunded: 7 })
    expect(seen).toEqual(['billing:refund']) // the part's middleware sees its own name
    expect(text(await c.call('call_tool', { name: 'geo_forecast', arguments: { city: 'Oslo' } }))).toBe('sunny in Oslo')
    expect(text(await c.call('geo_where', {}))).toBe('Lyon') // a pinned tool is called directly
  })

  it('checks the named tool\'s arguments, and answers an unknown or un-namespaced name with the nearest ones', async () => {
    const shop = mount([mounted(geoOf(), 'geo'), mounted(billingOf(), 'billing')], { name: 'shop', version: '1' }, { toolSearch: true })
    const c = await connect(shop)
    const bad = await c.call('call_tool', { name: 'billing_refund', arguments: { cents: 'seven' } })
    expect(bad.isError).toBe(true)
    expect(text(bad)).toContain('cents')
    const bare = await c.call('call_tool', { name: 'refund', arguments: { cents: 1 } })
    expect(bare.isError).toBe(true)
    expect(text(bare)).toContain('no tool is named refund; the nearest: billing_refund')
    const self = await c.call('call_tool', { name: 'call_tool', arguments: {} })
    expect(text(self)).toContain('cannot call itself')
  })

  it('neither finds nor calls what the caller cannot see: tags, scopes, switched-off tools', async () => {
    const shop = mount([mounted(geoOf(), 'geo'), mounted(billingOf(), 'billing', { exclude: ['internal'] })], { name: 'shop', version: '1' }, { toolSearch: true })
    const c = await connect(shop)
    const money = await c.found('money customer')
    expect(money).toContain('billing_refund')
    expect(money).not.toContain('billing_audit') // excluded by tag
    expect(money).not.toContain('billing_charge') // needs a scope this caller has not
    const hidden = await c.call('call_tool', { name: 'billing_audit', arguments: {} })
    expect(hidden.isError).toBe(true)
    expect(text(hidden)).toContain('no tool is named billing_audit')
    const scoped = await c.call('call_tool', { name: 'billing_charge', arguments: { cents: 1 } }).catch((e: Error) => ({ isError: true, content: [{ text: e.message }] }))
    expect(scoped.isError).toBe(true)
    expect(text(scoped)).not.toContain('charged')
    shop.disableTool('geo_forecast')
    expect(await c.found('weather forecast')).not.toContain('geo_forecast')
    expect(text(await c.call('call_tool', { name: 'geo_forecast', arguments: { city: 'Oslo' } }))).toContain('no tool is named geo_forecast')
    shop.enableTool('geo_forecast')
    expect((await c.found('weather forecast'))[0]).toBe('geo_forecast')
  })

  it('follows a per-request enabled(ctx) of the whole: each client searches its own view', async () => {
    const shop = mount([mounted(geoOf(), 'geo'), mounted(billingOf(), 'billing')], { name: 'shop', version: '1' }, {
      toolSearch: { pinned: ['billing_refund'] },
      enabled: (ctx) => ctx.kind !== 'tool' || ctx.clientInfo?.name !== 'guest' || !ctx.name.startsWith('billing_'),
    })
    const c = await connect(shop)
    const guest = new Client({ name: 'guest', version: '1' })
    await guest.connect(new StreamableHTTPClientTransport(new URL(c.url)))
    closing.push(() => guest.close())
    expect((await guest.listTools()).tools.map((t) => t.name)).toEqual(['search_tools', 'call_tool'])
    const hits = ((await guest.callTool({ name: 'search_tools', arguments: { query: 'refund money' } })).structuredContent as { tools: ReadonlyArray<Hit> }).tools
    expect(hits.map((h) => h.name)).not.toContain('billing_refund')
    const refused = (await guest.callTool({ name: 'call_tool', arguments: { name: 'billing_refund', arguments: { cents: 1 } } })) as Result
    expect(refused.isError).toBe(true)
    expect(await c.listed()).toEqual(['search_tools', 'call_tool', 'billing_refund'])
    expect((await c.found('refund money'))[0]).toBe('billing_refund')
  })

  it('turns on and off on a running mount, telling clients the list changed', async () => {
    const shop = mount([mounted(geoOf(), 'geo')], { name: 'shop', version: '1' })
    const c = await connect(shop)
    const told: Array<() => void> = []
    c.client.setNotificationHandler(ToolListChangedNotificationSchema, async () => void told.shift()?.())
    const changed = () => new Promise<void>((resolve) => told.push(resolve))
    expect(await c.listed()).toEqual(['geo_where', 'geo_forecast'])
    const on = changed()
    shop.setToolSearch({ pinned: ['geo_forecast'] })
    await on
    expect(await c.listed()).toEqual(['search_tools', 'call_tool', 'geo_forecast'])
    expect((await c.found('city of the caller'))[0]).toBe('geo_where')
    const off = changed()
    shop.setToolSearch(false)
    await off
    expect(await c.listed()).toEqual(['geo_where', 'geo_forecast'])
    await expect(c.client.callTool({ name: 'search_tools', arguments: { query: 'city' } })).rejects.toThrow(/Unknown tool: search_tools/)
  })

  it('serves the 2.x official client in the 2026-07-28 era the same way', async () => {
    const shop = mount([mounted(geoOf(), 'geo'), mounted(billingOf(), 'billing')], { name: 'shop', version: '1' }, { toolSearch: true })
    const running = await serveHttp(shop, { port: 0 })
    closing.push(() => running.close())
    const client = new Client2({ name: 'v2', version: '1' }, { versionNegotiation: { mode: 'auto' } })
    await client.connect(new Transport2(new URL(running.url)))
    closing.push(() => client.close())
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['search_tools', 'call_tool'])
    const hits = ((await client.callTool({ name: 'search_tools', arguments: { query: 'refund money', details: true } })).structuredContent as { tools: ReadonlyArray<Hit & { outputSchema?: unknown }> }).tools
    expect(hits[0]).toMatchObject({ name: 'billing_refund', outputSchema: refund.outputSchema })
    const r = (await client.callTool({ name: 'call_tool', arguments: { name: 'billing_refund', arguments: { cents: 2 } } })) as Result
    expect(r.structuredContent).toEqual({ refunded: 2 })
  })

  it('refuses a part tool named like a gateway, and a pinned name that is no tool of the whole', () => {
    const clash = mcpServer([runtimeTool({ name: 'search_tools', description: 'd', input: { type: 'object' } })], { name: 'odd', version: '1' }).implement({ search_tools: () => 'x' } as never)
    expect(() => mount([clash] as never, { name: 'w', version: '1' }, { toolSearch: true })).toThrow(/search_tools/)
    expect(() => mount([mounted(geoOf(), 'geo')], { name: 'w', version: '1' }, { toolSearch: { pinned: ['where'] } })).toThrow(/where/)
  })
})
