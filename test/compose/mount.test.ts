import { describe, expect, it } from 'vitest'
import {
  emcp,
  inMemoryClient,
  mcpServer,
  mount,
  mounted,
  newSession,
  outbound,
  prompt,
  prompts,
  resource,
  resources,
  resourceTemplate,
  runtimeTool,
  type Middleware,
  type ServerMessage,
} from '../../src/index.js'

const charge = emcp({
  name: 'charge',
  description: 'Charge an amount.',
  input: { type: 'object', properties: { cents: { type: 'integer' } }, required: ['cents'], additionalProperties: false },
  output: { type: 'object', properties: { receipt: { type: 'string' }, cents: { type: 'integer' } }, required: ['receipt', 'cents'] },
  scopes: ['billing'],
})
const refund = emcp({ name: 'refund', description: 'Refund.', input: { type: 'object', properties: { cents: { type: 'integer' } }, required: ['cents'] } })
const where = emcp({ name: 'where', description: 'Where am I.', input: { type: 'object' } })

const seen: string[] = []
const billingLog: Middleware = { toolCall: (call, next) => (seen.push(`billing:${call.tool.name}`), next()) }
const billingPrompts = prompts([prompt({ name: 'invoice', description: 'An invoice.', arguments: { customer: { description: 'Who' } }, complete: { customer: (v) => ['ada', 'bob'].filter((x) => x.startsWith(v)) }, get: ({ customer }) => `invoice for ${customer}` })])
const docs = resources([
  resource({ uri: 'billing://terms', name: 'terms', read: () => 'pay on time' }),
  resourceTemplate({ uriTemplate: 'billing://invoices/{id}', name: 'invoice', read: ({ id }) => `invoice ${id}` }),
], { subscribe: true })

const billingOf = () =>
  mcpServer([charge, refund], { name: 'billing', version: '1' }, { middleware: [billingLog], features: [billingPrompts, docs] }).implement({
    charge: ({ cents }) => ({ receipt: `r-${cents}`, cents }),
    refund: ({ cents }) => `refunded ${cents}`,
  })
const geoOf = () => mcpServer([where], { name: 'geo', version: '1' }).implement({ where: () => 'here' })

const granted = (scopes: string[]) => {
  const s = newSession()
  s.identity = { subject: 'u', roles: [], scopes }
  return s
}

describe('mount: tools', () => {
  it('serves each part under its namespace, typed, in both eras', async () => {
    const shop = mount([geoOf(), mounted(billingOf(), 'billing')], { name: 'shop', version: '1' })
    expect(shop.tools.map((t) => t.name)).toEqual(['where', 'billing_charge', 'billing_refund'])
    for (const protocolVersion of ['2025-11-25', '2026-07-28']) {
      const c = inMemoryClient(shop, { protocolVersion })
      expect((await c.list()).map((t) => t.name)).toEqual(['where', 'billing_refund']) // charge needs a scope
      await expect(c.callResult('where', {})).resolves.toMatchObject({ content: [{ type: 'text', text: 'here' }] })
      await expect(c.call('billing_refund', { cents: 3 })).resolves.toMatchObject({ content: [{ text: 'refunded 3' }] })
    }
  })

  it('keeps the part scopes and middleware: a scoped call needs the scope, the part middleware sees its own name', async () => {
    const shop = mount([mounted(billingOf(), 'billing')], { name: 'shop', version: '1' })
    const anonymous = inMemoryClient(shop)
    await expect(anonymous.call('billing_charge', { cents: 5 })).rejects.toMatchObject({ code: -32003 })
    seen.length = 0
    const r = await shop.dispatch({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'billing_charge', arguments: { cents: 5 } } }, granted(['billing']))()
    expect(JSON.stringify(r)).toContain('"receipt":"r-5"')
    expect(seen).toEqual(['billing:charge'])
  })

  it('refuses a name two parts serve at startup, naming the tool and both servers', () => {
    const a = mcpServer([runtimeTool({ name: 'x_charge', description: 'd', input: { type: 'object' } })], { name: 'alpha', version: '1' }).implement({ x_charge: () => 'a' } as never)
    const b = mcpServer([runtimeTool({ name: 'charge', description: 'd', input: { type: 'object' } })], { name: 'beta', version: '1' }).implement({ charge: () => 'b' } as never)
    expect(() => mount([a, mounted(b, 'x')] as never, { name: 'w', version: '1' })).toThrow('duplicate tool name: x_charge (from alpha and beta (as x))')
  })

  it('refuses a value that is not a built server, and a bad namespace', () => {
    expect(() => mount([{ tools: [] }] as never, { name: 'w', version: '1' })).toThrow('a part must be a server built by mcpServer or mount')
    expect(() => mount([mounted(geoOf(), 'bad name')], { name: 'w', version: '1' })).toThrow('invalid namespace "bad name"')
  })

  it('answers an unknown tool with -32602, and a tool added to a part at run time is served and announced', async () => {
    const geo = geoOf()
    const shop = mount([mounted(geo, 'geo')], { name: 'shop', version: '1' })
    const heard: ServerMessage[] = []
    const s = newSession(undefined, outbound((m) => heard.push(m)))
    await shop.dispatch({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } }, s)()
    const c = inMemoryClient(shop)
    await expect(c.request('tools/call', { name: 'nope', arguments: {} })).rejects.toMatchObject({ code: -32602 })
    geo.addTool(emcp({ name: 'near', description: 'Near.', input: { type: 'object' } }), () => 'close')
    expect(heard.map((m) => m.method)).toContain('notifications/tools/list_changed')
    expect((await c.list()).map((t) => t.name)).toEqual(['geo_where', 'geo_near'])
    await expect(c.callResult('geo_near' as never, {} as never)).resolves.toMatchObject({ content: [{ text: 'close' }] })
  })
})

describe('mount: the list of a mount without rules, one view for everyone', () => {
  const page = async (w: { dispatch: (m: unknown, s: ReturnType<typeof newSession>) => () => Promise<unknown> }, s = newSession()) =>
    ((await w.dispatch({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }, s)()) as { value: { result: unknown } }).value.result
  const namesOf = (result: unknown): string[] => (JSON.parse(JSON.stringify(result)) as { tools: { name: string }[] }).tools.map((t) => t.name)

  it('is served from one cache for every session, and follows the parts’ changes, whole switches and per-session switches', async () => {
    const geo = geoOf()
    // parts without scoped tools: each answers the same page objects to every session (a scoped part builds its pages per caller)
    const refunds = mcpServer([refund], { name: 'refunds', version: '1' }).implement({ refund: ({ cents }) => `refunded ${cents}` })
    const shop = mount([mounted(geo, 'geo'), mounted(refunds, 'billing')], { name: 'shop', version: '1' })
    const [a, b] = [await page(shop), await page(shop)]
    // the same page object: nothing was rebuilt for the second session
    expect(a).toBe(b)
    expect(namesOf(a)).toEqual(['geo_where', 'billing_refund'])
    geo.addTool(emcp({ name: 'near', description: 'Near.', input: { type: 'object' } }), () => 'close')
    const changed = await page(shop)
    expect(namesOf(changed)).toEqual(['geo_where', 'geo_near', 'billing_refund'])
    expect(await page(shop)).toBe(changed)
    shop.disableTool('billing_refund')
    expect(namesOf(await page(shop))).toEqual(['geo_where', 'geo_near'])
    shop.enableTool('billing_refund')
    const hidden = newSession()
    shop.disableFor(hidden, 'geo_near')
    expect(namesOf(await page(shop, hidden))).toEqual(['geo_where', 'billing_refund'])
    expect(namesOf(await page(shop))).toEqual(['geo_where', 'geo_near', 'billing_refund'])
    geo.removeTool('near')
    expect(namesOf(await page(shop))).toEqual(['geo_where', 'billing_refund'])
  })
})

describe('mount: prompts, resources, completion', () => {
  it('lists and gets prompts under the namespace, reads resources by their URI, completes through the part', async () => {
    const shop = mount([geoOf(), mounted(billingOf(), 'billing')], { name: 'shop', version: '1' })
    for (const protocolVersion of ['2025-11-25', '2026-07-28']) {
      const c = inMemoryClient(shop, { protocolVersion })
      const listed = (await c.request('prompts/list')) as { prompts: { name: string }[] }
      expect(listed.prompts.map((p) => p.name)).toEqual(['billing_invoice'])
      const got = (await c.request('prompts/get', { name: 'billing_invoice', arguments: { customer: 'ada' } })) as { messages: { content: { text: string } }[] }
      expect(got.messages[0]?.content.text).toBe('invoice for ada')
      const res = (await c.request('resources/list')) as { resources: { name: string; uri: string }[] }
      expect(res.resources).toMatchObject([{ name: 'billing_terms', uri: 'billing://terms' }])
      const tpl = (await c.request('resources/templates/list')) as { resourceTemplates: { name: string }[] }
      expect(tpl.resourceTemplates.map((t) => t.name)).toEqual(['billing_invoice'])
      const read = (await c.request('resources/read', { uri: 'billing://invoices/7' })) as { contents: { text: string }[] }
      expect(read.contents[0]?.text).toBe('invoice 7')
      await expect(c.request('resources/read', { uri: 'nowhere://x' })).rejects.toMatchObject({ code: protocolVersion === '2026-07-28' ? -32602 : -32002 })
      const done = (await c.request('completion/complete', { ref: { type: 'ref/prompt', name: 'billing_invoice' }, argument: { name: 'customer', value: 'a' } })) as { completion: { values: string[] } }
      expect(done.completion.values).toEqual(['ada'])
    }
  })

  it('relays a part resource update to the whole session subscribed to it', async () => {
    const shop = mount([mounted(billingOf(), 'billing')], { name: 'shop', version: '1' })
    const heard: ServerMessage[] = []
    const s = newSession(undefined, outbound((m) => heard.push(m)))
    await shop.dispatch({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } }, s)()
    await shop.dispatch({ jsonrpc: '2.0', id: 2, method: 'resources/subscribe', params: { uri: 'billing://terms' } }, s)()
    docs.updated('billing://terms')
    expect(heard).toContainEqual(expect.objectContaining({ method: 'notifications/resources/updated', params: { uri: 'billing://terms' } }))
  })
})

describe('mount: composition of mounts and the whole rules', () => {
  it('mounts a mount: namespaces nest, calls reach the innermost part', async () => {
    const inner = mount([mounted(geoOf(), 'geo')], { name: 'inner', version: '1' })
    const outer = mount([mounted(inner, 'eu')], { name: 'outer', version: '1' })
    expect(outer.tools.map((t) => t.name)).toEqual(['eu_geo_where'])
    await expect(inMemoryClient(outer).callResult('eu_geo_where', {})).resolves.toMatchObject({ content: [{ text: 'here' }] })
  })

  it('runs the whole middleware and authorization before the part', async () => {
    const order: string[] = []
    const whole: Middleware = { toolCall: (call, next) => (order.push(`whole:${call.tool.name}`), next()) }
    const shop = mount([mounted(billingOf(), 'billing')], { name: 'shop', version: '1' }, { middleware: [whole], authorize: (tool) => tool.name !== 'billing_refund' })
    seen.length = 0
    const c = inMemoryClient(shop)
    expect((await c.list()).map((t) => t.name)).toEqual([])
    await expect(c.request('tools/call', { name: 'billing_refund', arguments: { cents: 1 } })).rejects.toMatchObject({ code: -32003 })
    const s = granted(['billing'])
    await shop.dispatch({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'billing_charge', arguments: { cents: 1 } } }, s)()
    expect(order).toEqual(['whole:billing_charge'])
    expect(seen).toEqual(['billing:charge'])
  })

  it('refuses a per-session switch of a tool that does not exist, or of an unknown kind', () => {
    const shop = mount([geoOf()], { name: 'shop', version: '1' })
    expect(() => shop.disableFor(newSession(), 'nope')).toThrow('no tool is named nope')
    expect(() => shop.disableFor(newSession(), 'where', 'widget' as never)).toThrow('the kind of entry is tool, prompt or resource')
  })
})

describe('mount: prompts and resources two parts serve', () => {
  it('the first part keeps a prompt name or URI, and the clash is told once on stderr', async () => {
    const promptOf = (text: string) => prompts([prompt({ name: 'hello', description: 'Hi.', get: () => text })])
    const a = mcpServer([where], { name: 'a', version: '1' }, { features: [promptOf('from a')] }).implement({ where: () => 'a' })
    const b = mcpServer([refund], { name: 'b', version: '1' }, { features: [promptOf('from b')] }).implement({ refund: () => 'b' })
    const errors: string[] = []
    const original = console.error
    console.error = (m: string) => void errors.push(m)
    try {
      const w = mount([a, b], { name: 'w', version: '1' })
      const c = inMemoryClient(w)
      for (let i = 0; i < 3; i++) expect(((await c.request('prompts/list')) as { prompts: { name: string }[] }).prompts.map((p) => p.name)).toEqual(['hello'])
      const got = (await c.request('prompts/get', { name: 'hello' })) as { messages: { content: { text: string } }[] }
      expect(got.messages[0]?.content.text).toBe('from a')
    } finally {
      console.error = original
    }
    expect(errors).toEqual(['emcp: mount: prompts hello is served by a and b: the first keeps it'])
  })
})

describe('mount: claims', () => {
  it('a claim-bound argument of a part is filled from the caller token through the mount, and stays out of ArgsOf', async () => {
    const mine = emcp({
      name: 'mine',
      description: 'My orders.',
      input: { type: 'object', properties: { tenant: { type: 'string' }, limit: { type: 'integer' } }, required: ['tenant', 'limit'] },
      claims: { tenant: 'tenant' },
    })
    const orders = mcpServer([mine], { name: 'orders', version: '1' }).implement({ mine: ({ tenant, limit }) => `${limit} of ${tenant}` })
    const w = mount([mounted(orders, 'orders')], { name: 'w', version: '1' })
    const s = newSession()
    s.identity = { subject: 'u', roles: [], claims: { tenant: 'acme' } }
    const out = await w.dispatch({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'orders_mine', arguments: { limit: 2 } } }, s)()
    expect(JSON.stringify(out)).toContain('2 of acme')
    const args: Parameters<ReturnType<typeof inMemoryClient<(typeof w.tools)[number]>>['call']>[1] = { limit: 2 }
    expect(args).toEqual({ limit: 2 })
    await expect(inMemoryClient(w).call('orders_mine', { limit: 2 })).rejects.toMatchObject({ code: -32003 })
  })
})
