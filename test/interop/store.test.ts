/**
 * The `npm start` demo with the official SDK client (1.32.2): the calculator still at /mcp,
 * and the PGlite-backed store at /store/mcp, whose `place_order` needs the role `customer`
 * that the demo bearer token gives.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { demoToken } from '../../examples/store.js'
import { example, spawnListening, stop, type Listening } from './children.js'

const connect = async (url: string, token?: string): Promise<Client> => {
  const client = new Client({ name: 'emcp-store-interop', version: '0.0.0' })
  const headers: Record<string, string> = token === undefined ? {} : { authorization: `Bearer ${token}` }
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }))
  return client
}

describe('interop: npm start (calculator and PGlite store on one port) with the official SDK client', () => {
  let demo: Listening
  let base: string
  const clients: Client[] = []

  beforeAll(async () => {
    // PGlite takes a few seconds to start on a busy machine
    demo = await spawnListening(example('start'), (port) => ['--port', String(port)], () => ({}), 60_000)
    base = demo.url.replace(/\/mcp$/, '')
  }, 90_000)
  afterAll(async () => {
    for (const c of clients) await c.close().catch(() => undefined)
    await stop(demo.child, demo.exited)
  })

  it('prints both URLs and the demo token', () => {
    expect(demo.output()).toContain(`${base}/store/mcp`)
    expect(demo.output()).toContain(demoToken)
  })

  it('still serves the calculator at /mcp', async () => {
    const calc = await connect(`${base}/mcp`)
    clients.push(calc)
    expect((await calc.callTool({ name: 'add', arguments: { a: 2, b: 3 } })).structuredContent).toEqual({ sum: 5 })
  })

  it('a customer lists the store’s tools and places an order', async () => {
    const shop = await connect(`${base}/store/mcp`, demoToken)
    clients.push(shop)
    const { tools } = await shop.listTools()
    expect(tools.map((t) => t.name).sort()).toEqual(['list_products', 'my_orders', 'place_order'])
    const products = await shop.callTool({ name: 'list_products', arguments: {} })
    const rows = (products.structuredContent as { rows: { id: number; name: string; price: string; stock: number }[] }).rows
    const teapot = rows.find((p) => p.name === 'teapot')
    expect(teapot).toEqual({ id: 2, name: 'teapot', price: '29.90', stock: 5 })
    const order = await shop.callTool({ name: 'place_order', arguments: { product_id: 2, quantity: 2 } })
    expect(order.isError).toBeFalsy()
    expect(order.structuredContent).toMatchObject({ product_id: 2, quantity: 2, customer: 'demo-customer', total: '59.80' })
    const mine = await shop.callTool({ name: 'my_orders', arguments: {} })
    expect((mine.structuredContent as { rows: unknown[] }).rows).toHaveLength(1)
    const after = await shop.callTool({ name: 'list_products', arguments: { max_price: '30' } })
    expect((after.structuredContent as { rows: { id: number; stock: number }[] }).rows.find((p) => p.id === 2)?.stock).toBe(3)
    const tooMany = await shop.callTool({ name: 'place_order', arguments: { product_id: 2, quantity: 99 } })
    expect(tooMany).toMatchObject({ isError: true, content: [{ type: 'text', text: 'PostgreSQL error P0001: only 3 left of teapot\nHINT: order fewer' }] })
  })

  it('an anonymous client does not see place_order, and calling it is refused', async () => {
    const anon = await connect(`${base}/store/mcp`)
    clients.push(anon)
    expect((await anon.listTools()).tools.map((t) => t.name)).toEqual(['list_products'])
    await expect(anon.callTool({ name: 'place_order', arguments: { product_id: 1 } })).rejects.toThrow(/Forbidden: an anonymous caller may not call tool place_order/)
  })

  it('a forged token is refused with 401', async () => {
    await expect(connect(`${base}/store/mcp`, 'forged')).rejects.toThrow()
  })
})
