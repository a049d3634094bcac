/**
 * `ctx.elicit` with a Standard Schema form (zod): the client is sent the flat JSON Schema zod
 * writes, the answer is checked by zod (its defaults applied, its messages on refusal), and
 * a form MCP cannot ask for (a nested object) is refused naming the property, before anything
 * is sent. Over HTTP to the official clients of both eras (1.x: 2025-11-25 over a session,
 * 2.x: 2026-07-28 through input_required), and through inMemoryClient (2026-07-28).
 */
import { describe, expect, it } from 'vitest'
import * as v from 'valibot'
import { toStandardJsonSchema } from '@valibot/to-json-schema'
import { z } from 'zod'
import { emcp, mcpServer } from '../../src/index.js'
import { postText } from '../support/http-post.js'
import { elicitUser, inMemoryDriver, servedSlotClients, withDriver, type SlotClient } from '../support/slot-drivers.js'

const profile = z.object({ name: z.string().min(2, 'name too short'), age: z.number().int().default(30), plan: z.enum(['free', 'pro']).optional() })

const signup = emcp({ name: 'signup', description: 'Signs someone up, asking for their profile.', input: { type: 'object' } })
const nested = emcp({ name: 'nested', description: 'Asks for a form MCP cannot carry.', input: { type: 'object' } })
const topic = emcp({ name: 'topic', description: 'Asks for a topic (valibot).', input: { type: 'object' } })

const server = mcpServer([signup, nested, topic], { name: 'elicit-schemas', version: '1.0.0' }).implement({
  signup: async (_args, ctx) => {
    const r = await ctx.elicit({ message: 'Your profile?', requestedSchema: profile })
    // typed by zod's output: age is a number, defaulted
    return r.action === 'accept' ? `${r.content.name}, ${r.content.age.toFixed(0)}${r.content.plan === undefined ? '' : `, ${r.content.plan}`}` : r.action
  },
  nested: async (_args, ctx) => {
    const r = await ctx.elicit({ message: 'Address?', requestedSchema: z.object({ address: z.object({ city: z.string() }) }) })
    return r.action
  },
  topic: async (_args, ctx) => {
    const r = await ctx.elicit({ message: 'Topic?', requestedSchema: toStandardJsonSchema(v.object({ topic: v.pipe(v.string(), v.minLength(3, 'too short a topic')) })) })
    return r.action === 'accept' ? r.content.topic.toUpperCase() : r.action
  },
})

const requestedProfile = {
  type: 'object',
  properties: { name: { type: 'string', minLength: 2 }, age: { type: 'integer', default: 30 }, plan: { type: 'string', enum: ['free', 'pro'] } },
  required: ['name'],
}

/** The user answering the forms: what they were asked, what they answer. */
const user = elicitUser()
const { url, clients: served } = servedSlotClients(server, ['elicit-1', 'elicit-2'], user.elicit)
const clients: readonly SlotClient[] = [...served, ['inMemoryClient (2026-07-28)', async () => inMemoryDriver(server, '2026-07-28', user.elicit)]]

describe.each(clients)('ctx.elicit with a Standard Schema form, %s', (_, open) => {
  it("sends the flat JSON Schema the library writes, and gives the handler the library's output", withDriver(open, async (c) => {
    user.asked.length = 0
    user.answer = { action: 'accept', content: { name: 'Ada', plan: 'pro' } }
    expect(await c.call('signup')).toEqual({ text: 'Ada, 30, pro' })
    expect(user.asked).toHaveLength(1)
    expect(user.asked[0]?.message).toBe('Your profile?')
    expect(user.asked[0]?.requestedSchema).toMatchObject(requestedProfile)
    expect(JSON.stringify(user.asked[0]?.requestedSchema)).not.toMatch(/~standard|_zod|\$schema/)
    user.answer = { action: 'accept', content: { topic: 'cats' } }
    expect(await c.call('topic')).toEqual({ text: 'CATS' })
  }))

  it("refuses an answer the library refuses, with the library's message", withDriver(open, async (c) => {
    user.answer = { action: 'accept', content: { name: 'A' } }
    const r = await c.call('signup')
    expect(r.isError).toBe(true)
    expect(r.text).toMatch(/does not match the requested form: \/name: name too short/)
    user.answer = { action: 'accept', content: { topic: 'ab' } }
    expect((await c.call('topic')).text).toMatch(/\/topic: too short a topic/)
    user.answer = { action: 'decline' }
    expect(await c.call('signup')).toEqual({ text: 'decline' })
  }))

  it('refuses a form MCP cannot carry, naming the property, and sends nothing', withDriver(open, async (c) => {
    user.asked.length = 0
    const r = await c.call('nested')
    expect(r.isError).toBe(true)
    expect(r.text).toMatch(/ctx\.elicit form "Address\?": the schema \(zod\): property "address" must be a string, number, integer or boolean/)
    expect(user.asked).toHaveLength(0)
  }))
})

describe('ctx.elicit with a Standard Schema form, Node http client (2026-07-28)', () => {
  const meta = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientInfo': { name: 'node-http', version: '1' },
    'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
  }
  /** One JSON-RPC request through node:http. */
  const post = (body: { readonly method: string; readonly params: { readonly name: string; readonly [key: string]: unknown }; readonly [key: string]: unknown }): Promise<{ status: number; text: string }> => {
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': body.method, 'mcp-name': body.params.name }
    return postText(url(), headers, JSON.stringify(body))
  }

  it("asks with zod's flat JSON Schema in input_required, and answers the retry with zod's output", async () => {
    const first = await post({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'signup', arguments: {}, _meta: meta } })
    expect(first, first.text).toMatchObject({ status: 200 })
    const r = (JSON.parse(first.text) as { result: { resultType: string; requestState?: string; inputRequests: Record<string, { method: string; params: { requestedSchema: unknown } }> } }).result
    expect(r.resultType).toBe('input_required')
    const [key, question] = Object.entries(r.inputRequests)[0]!
    expect(question.method).toBe('elicitation/create')
    expect(question.params.requestedSchema).toMatchObject(requestedProfile)
    const retry = await post({
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'signup', arguments: {}, _meta: meta, inputResponses: { [key]: { action: 'accept', content: { name: 'Lin' } } }, ...(r.requestState === undefined ? {} : { requestState: r.requestState }) },
    })
    expect(retry.text).toContain('"text":"Lin, 30"')
  })
})
