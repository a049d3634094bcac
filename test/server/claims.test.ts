import { describe, expect, it } from 'vitest'
import * as t from 'io-ts'
import { emcp, mcpServer, runtimeTool, type Identity, type Session } from '../../src/index.js'
import { sendTo, sessionOf } from '../support/dispatch.js'

// claim-bound arguments, at the dispatcher: what every transport sees
const orders = emcp({
  name: 'orders',
  description: 'The caller’s orders.',
  input: {
    type: 'object',
    properties: { userId: { type: 'string', minLength: 1 }, tenant: { type: 'integer' }, limit: { type: 'integer', default: 10 } },
    required: ['userId', 'tenant'],
    additionalProperties: false,
  },
  output: { type: 'object', properties: { who: { type: 'string' }, tenant: { type: 'integer' }, limit: { type: 'integer' } }, required: ['who', 'tenant', 'limit'] },
  claims: { userId: 'sub', tenant: ['org', 'id'] },
})
const open = emcp({ name: 'open', description: 'Anyone.', input: { type: 'object', properties: { x: { type: 'string' } } } })
const seen: unknown[] = []
const server = mcpServer([orders, open], { name: 'claims', version: '1' }, {
  middleware: [{ toolCall: (info, next) => (seen.push(info.arguments), next(info.arguments)) }],
}).implement({
  orders: ({ userId, tenant, limit }) => ({ who: userId, tenant, limit }),
  open: () => 'open',
})

const send = sendTo(server)
const caller = (claims: Identity['claims']): Session => sessionOf({ subject: 'alice', roles: [], claims })
const alice = (): Session => caller({ sub: 'alice', org: { id: 7, name: 'acme' } })

describe('server: claim-bound arguments', () => {
  it('leaves them out of the listed input schema, required included', async () => {
    const tools = ((await send(alice(), 'tools/list', {})).result as { tools: { name: string; inputSchema: object }[] }).tools
    expect(tools[0]).toEqual({
      name: 'orders',
      description: 'The caller’s orders.',
      inputSchema: { type: 'object', properties: { limit: { type: 'integer', default: 10 } }, additionalProperties: false },
      outputSchema: expect.any(Object),
    })
    expect(orders.inputSchema).not.toHaveProperty('properties.userId')
    expect(orders.wholeInputSchema).toHaveProperty('properties.userId')
  })

  it('fills them from the token’s claims, a path into nested claims too, before middleware and handler', async () => {
    seen.length = 0
    const r = await send(alice(), 'tools/call', { name: 'orders', arguments: { limit: 3 } })
    expect(r.result).toMatchObject({ structuredContent: { who: 'alice', tenant: 7, limit: 3 } })
    expect(seen).toEqual([{ limit: 3, userId: 'alice', tenant: 7 }])
    expect((await send(alice(), 'tools/call', { name: 'orders' })).result).toMatchObject({ structuredContent: { who: 'alice', tenant: 7, limit: 10 } })
  })

  it('refuses a client-sent value as an invalid argument (isError), even one equal to the claim', async () => {
    for (const args of [{ userId: 'mallory' }, { userId: 'alice' }, { tenant: 7, limit: 1 }]) {
      const r = (await send(alice(), 'tools/call', { name: 'orders', arguments: args })).result as { isError: boolean; content: { text: string }[] }
      expect(r.isError).toBe(true)
      expect(r.content[0]?.text).toMatch(/^Invalid arguments for tool orders: (userId|tenant): filled from the caller's token; do not send it$/)
    }
  })

  it('refuses with -32003 a call without a token, without the claim, or with a claim the schema refuses', async () => {
    const anonymous = await send(sessionOf(undefined), 'tools/call', { name: 'orders', arguments: {} })
    expect(anonymous.error).toEqual({
      code: -32003,
      message: 'Forbidden: tool orders takes userId from the token claim sub, and the call carries no token',
      data: { argument: 'userId', claim: 'sub' },
    })
    const noOrg = await send(caller({ sub: 'alice' }), 'tools/call', { name: 'orders', arguments: {} })
    expect(noOrg.error).toEqual({
      code: -32003,
      message: 'Forbidden: tool orders takes tenant from the token claim org.id, which the caller’s token does not have',
      data: { argument: 'tenant', claim: ['org', 'id'] },
    })
    expect((await send(caller({ sub: 'alice', org: 7 }), 'tools/call', { name: 'orders', arguments: {} })).error).toMatchObject({ code: -32003, data: { argument: 'tenant' } })
    const wrongType = await send(caller({ sub: 'alice', org: { id: '7' } }), 'tools/call', { name: 'orders', arguments: {} })
    expect(wrongType.error).toMatchObject({ code: -32003, message: expect.stringMatching(/^Forbidden: tool orders takes tenant from the token claim org\.id, which does not fit the argument’s schema: .*tenant.*integer/) })
    expect((await send(caller({ sub: '', org: { id: 1 } }), 'tools/call', { name: 'orders', arguments: {} })).error).toMatchObject({ code: -32003, data: { argument: 'userId' } })
    // an inherited property is no claim
    expect((await send(caller({ org: { id: 1 } }), 'tools/call', { name: 'orders', arguments: {} })).error).toMatchObject({ code: -32003, data: { argument: 'userId' } })
  })

  it('leaves tools without claims alone', async () => {
    expect((await send(sessionOf(undefined), 'tools/call', { name: 'open', arguments: { x: 'y' } })).result).toEqual({ content: [{ type: 'text', text: 'open' }] })
  })

  it('takes claims on io-ts contracts and on tools built at run time', async () => {
    const codec = emcp({ name: 'codec', input: t.type({ owner: t.string, n: t.number }), claims: { owner: 'sub' } })
    const runtime = runtimeTool({ name: 'runtime', input: JSON.parse('{"type":"object","properties":{"owner":{"type":"string"}},"required":["owner"]}'), claims: { owner: 'sub' } })
    expect(codec.inputSchema).toEqual({ type: 'object', properties: { n: { type: 'number' } }, required: ['n'] })
    expect(runtime.inputSchema).toEqual({ type: 'object', properties: {} })
    const s1 = mcpServer([codec], { name: 'c', version: '1' }).implement({ codec: ({ owner, n }) => `${owner} ${n}` })
    const s2 = mcpServer([runtime], { name: 'r', version: '1' }).implement({ runtime: (a) => `${String(a.owner)}` })
    expect((await sendTo(s1)(alice(), 'tools/call', { name: 'codec', arguments: { n: 2 } })).result).toEqual({ content: [{ type: 'text', text: 'alice 2' }] })
    expect((await sendTo(s2)(alice(), 'tools/call', { name: 'runtime', arguments: {} })).result).toEqual({ content: [{ type: 'text', text: 'alice' }] })
  })

  it('refuses a declaration naming no input property, or a claim that is not a name or a short path, where the tool is defined', () => {
    const input = { type: 'object', properties: { a: { type: 'string' } } } as const
    const define = (claims: unknown) => () => runtimeTool({ name: 'bad', input, claims: claims as never })
    expect(define({ nope: 'sub' })).toThrow('emcp: tool bad: claims: "nope" is not a property of the input schema')
    expect(define({ a: '' })).toThrow(/emcp: tool bad: claims: the claim of "a" must be a claim name or a path of 1 to 8 names/)
    expect(define({ a: [] })).toThrow(/path of 1 to 8/)
    expect(define({ a: Array(9).fill('x') })).toThrow(/path of 1 to 8/)
    expect(define({ a: 3 })).toThrow(/path of 1 to 8/)
    expect(define({})).toThrow('emcp: tool bad: claims: names no argument')
    expect(define(['a'])).toThrow(/claims: must be an object/)
    expect(() => runtimeTool({ name: 'bad', input: { type: 'object' }, claims: { a: 'sub' } })).toThrow(/"a" is not a property/)
  })
})
