import { describe, expect, it } from 'vitest'
import { emcp, inMemoryClient, mcpServer, mount, mounted, newSession, type ListedTool } from '../../src/index.js'

const calls: unknown[] = []
const charge = emcp({
  name: 'charge',
  title: 'Charge',
  description: 'Charge an amount.',
  input: {
    type: 'object',
    properties: { cents: { type: 'integer' }, currency: { type: 'string' }, tenant: { type: 'string' }, note: { type: 'string' } },
    required: ['cents', 'currency', 'tenant', 'note'],
    additionalProperties: false,
  },
  output: { type: 'object', properties: { receipt: { type: 'string' }, audit: { type: 'string' } }, required: ['receipt', 'audit'] },
  annotations: { destructiveHint: true },
})
const billing = mcpServer([charge], { name: 'billing', version: '1' }).implement({
  charge: (args) => {
    calls.push(args)
    return { receipt: `r-${args.cents}-${args.currency}-${args.tenant}-${args.note}`, audit: 'secret' }
  },
})

const shop = mount(
  [
    mounted(billing, 'billing', {
      tools: {
        charge: {
          name: 'pay',
          title: 'Pay',
          description: 'Pay for the basket.',
          annotations: { destructiveHint: false, idempotentHint: true },
          hide: { currency: 'EUR', tenant: (ctx) => String(ctx.claims.tenant ?? 'none') },
          defaults: { note: 'no note' },
          pick: ['receipt'],
        },
      },
    }),
  ],
  { name: 'shop', version: '1' },
)

describe('transforms', () => {
  it('lists the transformed tool: new name, meta, no hidden argument, the default, the narrowed output schema', async () => {
    for (const protocolVersion of ['2025-11-25', '2026-07-28']) {
      const [t] = (await inMemoryClient(shop, { protocolVersion }).list()) as ListedTool[]
      expect(t).toMatchObject({ name: 'billing_pay', title: 'Pay', description: 'Pay for the basket.', annotations: { destructiveHint: false, idempotentHint: true } })
      expect(t?.inputSchema).toEqual({
        type: 'object',
        properties: { cents: { type: 'integer' }, note: { type: 'string', default: 'no note' } },
        required: ['cents'],
        additionalProperties: false,
      })
      expect(t?.outputSchema).toEqual({ type: 'object', properties: { receipt: { type: 'string' } }, required: ['receipt'] })
    }
    expect(shop.tools.map((t) => t.name)).toEqual(['billing_pay'])
  })

  it('runs the original handler with hidden values (a constant and a claim) and the default filled; the result is narrowed', async () => {
    calls.length = 0
    const s = newSession()
    s.identity = { subject: 'ada', roles: [], claims: { tenant: 'acme' } }
    const out = await shop.dispatch({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'billing_pay', arguments: { cents: 5 } } }, s)()
    const result = (out as { value: { result: { structuredContent: unknown; content: { text: string }[] } } }).value.result
    expect(result.structuredContent).toEqual({ receipt: 'r-5-EUR-acme-no note' })
    expect(JSON.parse(result.content[0]!.text)).toEqual({ receipt: 'r-5-EUR-acme-no note' })
    expect(calls).toEqual([{ cents: 5, currency: 'EUR', tenant: 'acme', note: 'no note' }])
  })

  it('a client cannot set a hidden argument: the fixed value wins', async () => {
    calls.length = 0
    const r = await inMemoryClient(shop).call('billing_pay', { cents: 2, note: 'x', currency: 'USD' } as never)
    expect(r).toEqual({ receipt: 'r-2-EUR-none-x' })
  })

  it('the part still checks the arguments it gets: a bad one is an isError result from the part', async () => {
    const r = await inMemoryClient(shop).callResult('billing_pay', { cents: 'five' } as never)
    expect(r.isError).toBe(true)
  })

  it('refuses a transform of a tool, argument or result the part does not have', () => {
    const info = { name: 'w', version: '1' }
    expect(() => mount([mounted(billing, 'b', { tools: { nope: {} } } as never)] as never, info)).toThrow('billing (as b) has no tool nope to transform')
    expect(() => mount([mounted(billing, 'b', { tools: { charge: { hide: { nope: 1 } } } } as never)] as never, info)).toThrow('has no argument nope to hide or default')
    expect(() => mount([mounted(billing, 'b', { tools: { charge: { name: 'bad name' } } })], info)).toThrow('tool charge of billing (as b): invalid tool name "bad name"')
  })
})
