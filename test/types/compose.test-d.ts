/**
 * Type tests of composition (src/compose/): the mounted union renamed into its namespace, a name
 * two parts serve as a compile error that leads with the problem, and transforms whose types
 * follow (a hidden argument gone, a default optional, a rename, a pick).
 */
import { expectAssignable, expectError, expectNotAssignable, expectType } from 'tsd'
import { emcp, inMemoryClient, mcpServer, mount, mounted, type ArgsOf, type ResultOf, type ToolNamed } from 'emcp'

const info = { name: 'w', version: '1' }
const charge = emcp({
  name: 'charge',
  description: 'Charge.',
  input: { type: 'object', properties: { cents: { type: 'integer' }, currency: { type: 'string' }, note: { type: 'string' } }, required: ['cents', 'currency', 'note'], additionalProperties: false },
  output: { type: 'object', properties: { receipt: { type: 'string' }, cents: { type: 'integer' } }, required: ['receipt', 'cents'], additionalProperties: false },
})
const where = emcp({ name: 'where', description: 'Where.', input: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } })
const billing = mcpServer([charge], info).implement({ charge: ({ cents }) => ({ receipt: 'r', cents }) })
const geo = mcpServer([where], info).implement({ where: ({ city }) => city })
const billingCharge = mcpServer([emcp({ name: 'billing_charge', description: 'Clash.', input: { type: 'object' } })], info).implement({ billing_charge: () => 'x' })

// the union of the namespaced unions
const shop = mount([geo, mounted(billing, 'billing')], info)
type Shop = (typeof shop.tools)[number]
expectType<'where' | 'billing_charge'>({} as Shop['name'])
expectType<{ cents: number; currency: string; note: string }>({} as ArgsOf<ToolNamed<Shop, 'billing_charge'>>)
expectType<{ receipt: string; cents: number }>({} as ResultOf<ToolNamed<Shop, 'billing_charge'>>)
const client = inMemoryClient(shop)
expectAssignable<Promise<{ receipt: string; cents: number }>>(client.call('billing_charge', { cents: 1, currency: 'EUR', note: 'n' }))
expectError(client.call('charge', { cents: 1, currency: 'EUR', note: 'n' }))
expectError(client.call('billing_charge', { cents: '1', currency: 'EUR', note: 'n' }))

// a name two parts serve: reported at the part, the problem first
// message: /^Property '"duplicate tool name: billing_charge"' is missing/
expectError(mount([billingCharge, mounted(billing, 'billing')], info))
// message: /duplicate tool name: where/
expectError(mount([geo, geo], info))
// the same server twice under two namespaces is fine
expectType<'a_where' | 'b_where'>({} as (typeof mount extends never ? never : ReturnType<typeof mountTwo>)['tools'][number]['name'])
function mountTwo() {
  return mount([mounted(geo, 'a'), mounted(geo, 'b')], info)
}

// transforms: rename, hide a fixed and a computed argument, a default, a pick
const t = mount(
  [
    mounted(billing, 'billing', {
      tools: { charge: { name: 'pay', hide: { currency: 'EUR', note: (ctx) => ctx.identity?.subject ?? 'anonymous' }, pick: ['receipt'] } },
    }),
  ],
  info,
)
type T = (typeof t.tools)[number]
expectType<'billing_pay'>({} as T['name'])
expectType<{ receipt: string }>({} as ResultOf<T>)
expectAssignable<ArgsOf<T>>({ cents: 1 })
expectNotAssignable<ArgsOf<T>>({ cents: 1, currency: 'EUR' })
const d = mount([mounted(billing, '', { tools: { charge: { defaults: { note: 'none' } } } })], info)
type D = (typeof d.tools)[number]
expectType<'charge'>({} as D['name'])
expectAssignable<ArgsOf<D>>({ cents: 1, currency: 'EUR' })
expectNotAssignable<ArgsOf<D>>({ cents: 1 })

// a transform must name a tool of the part, and arguments and result keys it has, with values of their types
expectError(mounted(billing, 'b', { tools: { refund: { name: 'x' } } }))
expectError(mounted(billing, 'b', { tools: { charge: { hide: { nope: 1 } } } }))
expectError(mounted(billing, 'b', { tools: { charge: { hide: { cents: 'one' } } } }))
expectError(mounted(billing, 'b', { tools: { charge: { pick: ['nope'] } } }))
