/**
 * Raw shapes of Standard Schemas (`{ name: z.string() }`, as the official SDK's `registerPrompt`
 * and `elicitInput` users write them, libraries mixed) in the slots beside a tool's: prompt
 * arguments and `ctx.elicit` forms. Over HTTP to the official clients of both eras (1.x:
 * 2025-11-25 over a session; 2.x: 2026-07-28, whose elicitation goes through input_required),
 * and through inMemoryClient (2026-07-28; its 2025-11-25 has no channel for server-to-client
 * requests, and test/features/prompt-schemas.test.ts covers its prompts in both eras). The listed arguments and the form sent are derived
 * from each property's own JSON Schema; each property validates through its own library,
 * its issues at its path; a form MCP cannot carry is refused at the call, naming the property.
 */
import { describe, expect, it } from 'vitest'
import { toStandardJsonSchema } from '@valibot/to-json-schema'
import { type } from 'arktype'
import * as v from 'valibot'
import { z } from 'zod'
import { emcp, mcpServer, prompt, prompts } from '../../src/index.js'
import { digitsArg, elicitUser, inMemoryDriver, servedSlotClients, textArg, withDriver, type SlotClient } from '../support/slot-drivers.js'

const tone = type("'dry' | 'warm'")
const brief = prompt({
  name: 'brief',
  description: 'Brief someone on a topic (a raw shape).',
  arguments: {
    topic: textArg(3, 'topic too short', 'What to brief on'),
    words: digitsArg('words must be digits'),
    tone,
    lang: toStandardJsonSchema(v.optional(v.picklist(['en', 'fr']))),
  },
  get: ({ topic, words, tone: t, lang }) => `Brief on ${topic} in ${words === undefined ? 'few' : String(words + 1)} words, ${t}, ${lang ?? 'any'}`,
})

const profile = {
  name: z.string().min(2, 'name too short').describe('Your name'),
  age: z.number().int().default(30),
  pro: type('boolean'),
  plan: toStandardJsonSchema(v.optional(v.picklist(['free', 'team']))),
}

const signup = emcp({ name: 'signup', description: 'Signs someone up, asking for their profile (a raw shape).', input: { type: 'object' } })
const nested = emcp({ name: 'nested', description: 'Asks for a shape MCP cannot carry.', input: { type: 'object' } })
const mixed = emcp({ name: 'mixed', description: 'Asks with a shape mixing schemas and JSON Schema.', input: { type: 'object' } })
const style = emcp({ name: 'style', description: 'Asks for a style: fields a library writes in ways MCP forms do not.', input: { type: 'object' } })
const confirm = emcp({ name: 'confirm', description: 'Asks for a confirmation (the empty shape).', input: { type: 'object' } })

const server = mcpServer([signup, nested, mixed, style, confirm], { name: 'shape-slots', version: '1.0.0' }, { features: [prompts([brief])] }).implement({
  signup: async (_args, ctx) => {
    const r = await ctx.elicit({ message: 'Your profile?', requestedSchema: profile })
    // typed property by property: age a number (defaulted), pro a boolean, plan optional
    return r.action === 'accept' ? `${r.content.name}, ${r.content.age.toFixed(0)}, ${r.content.pro ? 'pro' : 'basic'}, ${r.content.plan ?? 'no plan'}` : r.action
  },
  nested: async (_args, ctx) => (await ctx.elicit({ message: 'Address?', requestedSchema: { name: z.string(), address: z.object({ city: z.string() }) } })).action,
  mixed: async (_args, ctx) => (await ctx.elicit({ message: 'Mixed?', requestedSchema: { name: z.string(), age: { type: 'number' } } as never })).action,
  style: async (_args, ctx) => {
    // arktype writes 'dry' | 'warm' as an anyOf of constants, valibot a picklist as an enum without a type, zod a uuid with a format MCP has not
    const r = await ctx.elicit({ message: 'Style?', requestedSchema: { tone, size: toStandardJsonSchema(v.picklist(['s', 'm'])), ref: z.string().uuid().optional() } })
    return r.action === 'accept' ? `${r.content.tone} ${r.content.size} ${r.content.ref ?? '-'}` : r.action
  },
  confirm: async (_args, ctx) => {
    const r = await ctx.elicit({ message: 'Sure?', requestedSchema: {} })
    return r.action === 'accept' ? `confirmed ${JSON.stringify(r.content)}` : r.action
  },
})

/** The user answering the forms: what they were asked, what they answer. */
const user = elicitUser()
const { clients: served } = servedSlotClients(server, ['shapes-1', 'shapes-2'], user.elicit)
const clients: readonly SlotClient[] = [...served, ['inMemoryClient (2026-07-28)', async () => inMemoryDriver(server, '2026-07-28', user.elicit)]]

const requestedProfile = {
  type: 'object',
  properties: {
    name: { type: 'string', minLength: 2, description: 'Your name' },
    age: { type: 'integer', default: 30 },
    pro: { type: 'boolean' },
    plan: { enum: ['free', 'team'] },
  },
  required: ['name', 'pro'],
}

describe.each(clients)('raw shapes in prompts and forms, %s', (_, open) => {
  it("lists a shape's properties as the prompt's arguments, and gets it with each property's output", withDriver(open, async (c) => {
    expect(await c.listPrompts()).toEqual([
      {
        name: 'brief',
        description: 'Brief someone on a topic (a raw shape).',
        arguments: [{ name: 'topic', description: 'What to brief on', required: true }, { name: 'words' }, { name: 'tone', required: true }, { name: 'lang' }],
      },
    ])
    expect(await c.getPrompt('brief', { topic: 'cats', words: '99', tone: 'dry', lang: 'fr' })).toBe('Brief on cats in 100 words, dry, fr')
    expect(await c.getPrompt('brief', { topic: 'cats', tone: 'warm' })).toBe('Brief on cats in few words, warm, any')
  }))

  it("refuses arguments a property's library refuses, with its message at its path, and names missing and unknown ones", withDriver(open, async (c) => {
    await expect(c.getPrompt('brief', { topic: 'ab', words: 'many', tone: 'dry' })).rejects.toThrow(
      /prompt brief: invalid arguments: .*\/topic: topic too short.*\/words: words must be digits/,
    )
    await expect(c.getPrompt('brief', { topic: 'cats', tone: 'loud' })).rejects.toThrow(/prompt brief: invalid arguments: \/tone: /)
    await expect(c.getPrompt('brief', { topic: 'cats', tone: 'dry', lang: 'de' })).rejects.toThrow(/prompt brief: invalid arguments: \/lang: /)
    await expect(c.getPrompt('brief', { subject: 'cats' })).rejects.toThrow(/prompt brief: missing required arguments "topic", "tone"; unknown argument "subject"/)
  }))

  it("sends the shape as MCP's flat form, and gives the handler each property's output", withDriver(open, async (c) => {
    user.asked.length = 0
    user.answer = { action: 'accept', content: { name: 'Ada', pro: true, plan: 'team' } }
    expect(await c.call('signup')).toEqual({ text: 'Ada, 30, pro, team' })
    user.answer = { action: 'accept', content: { name: 'Lin', age: 41, pro: false } }
    expect(await c.call('signup')).toEqual({ text: 'Lin, 41, basic, no plan' })
    expect(user.asked).toHaveLength(2)
    expect(user.asked[0]?.message).toBe('Your profile?')
    expect(user.asked[0]?.requestedSchema).toMatchObject(requestedProfile)
    expect(Object.keys(user.asked[0]?.requestedSchema as object).sort()).toEqual(['properties', 'required', 'type'])
    expect(JSON.stringify(user.asked)).not.toMatch(/~standard|_zod|\$schema|additionalProperties/)
  }))

  it("refuses an answer a property's library refuses, with its message at its path; decline passes through", withDriver(open, async (c) => {
    user.answer = { action: 'accept', content: { name: 'A', pro: 'yes' } }
    const r = await c.call('signup')
    expect(r.isError).toBe(true)
    expect(r.text).toMatch(/does not match the requested form: .*\/name: name too short.*\/pro: /)
    user.answer = { action: 'accept', content: { name: 'Ada', pro: true, extra: 1 } }
    expect((await c.call('signup')).text).toMatch(/does not match the requested form: \/extra: is not a known property/)
    user.answer = { action: 'decline' }
    expect(await c.call('signup')).toEqual({ text: 'decline' })
  }))

  it('refuses a shape MCP cannot carry and a mixed one, naming the property, and sends nothing', withDriver(open, async (c) => {
    user.asked.length = 0
    const n = await c.call('nested')
    expect(n.isError).toBe(true)
    expect(n.text).toMatch(/ctx\.elicit form "Address\?": the shape: property "address" must be a string, number, integer or boolean/)
    const m = await c.call('mixed')
    expect(m.isError).toBe(true)
    expect(m.text).toMatch(/ctx\.elicit form "Mixed\?": the shape's property "age" is not a schema: a raw shape has a Standard Schema as every value/)
    expect(user.asked).toHaveLength(0)
  }))

  it("spells every field as MCP's restricted form schema does: a type on each, enums for constants, only MCP's formats", withDriver(open, async (c) => {
    user.asked.length = 0
    user.answer = { action: 'accept', content: { tone: 'dry', size: 'm' } }
    expect(await c.call('style')).toEqual({ text: 'dry m -' })
    const properties = (user.asked[0]?.requestedSchema as { properties: Record<string, Record<string, unknown>> }).properties
    expect(properties.tone).toEqual({ type: 'string', enum: ['dry', 'warm'] })
    expect(properties.size).toEqual({ type: 'string', enum: ['s', 'm'] })
    expect(properties.ref).toMatchObject({ type: 'string' })
    expect(properties.ref).not.toHaveProperty('format')
    for (const field of Object.values(properties)) expect(['string', 'number', 'integer', 'boolean', 'array']).toContain(field.type)
    user.answer = { action: 'accept', content: { tone: 'loud', size: 'm', ref: 'not-a-uuid' } }
    expect((await c.call('style')).text).toMatch(/does not match the requested form: \/tone: .*\/ref: /)
  }))

  it('asks with the empty form for the empty shape', withDriver(open, async (c) => {
    user.asked.length = 0
    user.answer = { action: 'accept', content: {} }
    expect(await c.call('confirm')).toEqual({ text: 'confirmed {}' })
    expect(user.asked[0]?.requestedSchema).toEqual({ type: 'object', properties: {} })
  }))
})
