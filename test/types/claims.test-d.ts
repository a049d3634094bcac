/**
 * Type tests of claim-bound arguments (src/contract/claims.ts, `emcp`'s `claims`): the handler
 * gets them typed from the schema, a caller (the typed client, `ArgsOf`) may not send them,
 * and a claim naming no property of the input schema does not compile.
 */
import * as t from 'io-ts'
import { expectAssignable, expectError, expectNotAssignable, expectType } from 'tsd'
import { emcp, inMemoryClient, mcpServer, type AnyTool, type ArgsOf, type InputOf } from 'emcp'

const orders = emcp({
  name: 'orders',
  description: 'The caller’s orders.',
  input: {
    type: 'object',
    properties: { userId: { type: 'string' }, tenant: { type: 'integer' }, limit: { type: 'integer', default: 10 } },
    required: ['userId', 'tenant'],
    additionalProperties: false,
  },
  claims: { userId: 'sub', tenant: ['org', 'id'] },
})
expectType<'userId' | 'tenant'>(orders._C)
expectAssignable<AnyTool>(orders)

// the handler's arguments keep them, typed from the schema
expectType<{ userId: string; tenant: number; limit: number }>({} as InputOf<typeof orders>)
const server = mcpServer([orders], { name: 'o', version: '1' }).implement({
  orders: ({ userId, tenant, limit }) => {
    expectType<string>(userId)
    expectType<number>(tenant)
    return `${userId} ${tenant} ${limit}`
  },
})

// a caller's arguments leave them out, and may not carry them
expectAssignable<ArgsOf<typeof orders>>({})
expectAssignable<ArgsOf<typeof orders>>({ limit: 3 })
expectNotAssignable<ArgsOf<typeof orders>>({ userId: 'mallory' })
const client = inMemoryClient(server)
void client.call('orders', { limit: 1 })
expectError(client.call('orders', { userId: 'mallory' }))

// an open schema (an index signature) still refuses them to callers
const open = emcp({ name: 'open', input: { type: 'object', properties: { owner: { type: 'string' }, q: { type: 'string' } }, required: ['owner'] }, claims: { owner: 'sub' } })
expectAssignable<ArgsOf<typeof open>>({ q: 'x', other: 1 })
expectNotAssignable<ArgsOf<typeof open>>({ q: 'x', owner: 'mallory' })

// io-ts contracts too
const codec = emcp({ name: 'codec', input: t.type({ owner: t.string, n: t.number }), claims: { owner: 'sub' } })
expectType<{ owner: string; n: number }>({} as InputOf<typeof codec>)
expectAssignable<ArgsOf<typeof codec>>({ n: 1 })
expectNotAssignable<ArgsOf<typeof codec>>({ n: 1, owner: 'x' })

// without claims, nothing changes
const plain = emcp({ name: 'plain', input: { type: 'object', properties: { a: { type: 'string' } }, required: ['a'], additionalProperties: false } })
expectType<never>(plain._C)
expectType<{ a: string }>({} as ArgsOf<typeof plain>)

// a claim naming no property of the input schema does not compile
// message: /claim-bound argument 'nope' is not a property of the input schema/
expectError(emcp({ name: 'bad', input: { type: 'object', properties: { userId: { type: 'string' } } }, claims: { nope: 'sub' } }))
// message: /claim-bound argument 'owner' is not a property of the input schema/
expectError(emcp({ name: 'bad', input: t.type({ n: t.number }), claims: { owner: 'sub' } }))
// a claim is a name or a non-empty path of names
expectError(emcp({ name: 'bad', input: { type: 'object', properties: { a: { type: 'string' } } }, claims: { a: 42 } }))
expectError(emcp({ name: 'bad', input: { type: 'object', properties: { a: { type: 'string' } } }, claims: { a: [] } }))
