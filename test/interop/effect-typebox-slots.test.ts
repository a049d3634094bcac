/**
 * effect's Schema and TypeBox in the slots beside a tool's: prompt arguments and `ctx.elicit`
 * forms, over HTTP to the official clients of both eras (1.x: 2025-11-25 over a session;
 * 2.x: 2026-07-28, whose elicitation goes through input_required). effect validates through its
 * Standard Schema (its messages, its optional keys; `Schema.optional`'s "or null" is a field left
 * out); TypeBox is a JSON Schema literal, checked by the JSON Schema validator (its defaults
 * filled in). The prompt's listed arguments and the form sent are derived from each.
 */
import { describe, expect, it } from 'vitest'
import { Type } from '@sinclair/typebox'
import { Schema } from 'effect'
import { emcp, mcpServer, prompt, prompts } from '../../src/index.js'
import { elicitUser, servedSlotClients, withDriver } from '../support/slot-drivers.js'

/** An effect schema in the two Standard forms a slot takes. */
const standard = <S extends Schema.Top & Schema.ConstraintDecoder<unknown>>(s: S) => Schema.toStandardJSONSchemaV1(Schema.toStandardSchemaV1(s))

const brief = prompt({
  name: 'brief',
  description: 'Brief someone on a topic (effect arguments).',
  arguments: standard(Schema.Struct({ topic: Schema.String.check(Schema.isMinLength(3)), tone: Schema.optionalKey(Schema.Literals(['dry', 'warm'])) })),
  get: ({ topic, tone }) => `Brief on ${topic}${tone === undefined ? '' : `, ${tone}`}`,
})
const find = prompt({
  name: 'find',
  description: 'Find something (TypeBox arguments).',
  arguments: Type.Object({ q: Type.String({ minLength: 2, description: 'What to find' }), lang: Type.Optional(Type.String({ default: 'en' })) }),
  get: ({ q, lang }) => `Find ${q} in ${String(lang)}`,
})

const effectForm = standard(Schema.Struct({ name: Schema.String.check(Schema.isMinLength(2)), age: Schema.optionalKey(Schema.Finite), note: Schema.optional(Schema.String) }))
const typeboxForm = Type.Object({ city: Type.String({ minLength: 2 }), nights: Type.Optional(Type.Integer({ minimum: 1, default: 1 })) })

const askEffect = emcp({ name: 'ask_effect', description: 'Asks for a profile (effect form).', input: { type: 'object' } })
const askTypebox = emcp({ name: 'ask_typebox', description: 'Asks for a stay (TypeBox form).', input: { type: 'object' } })

const server = mcpServer([askEffect, askTypebox], { name: 'effect-typebox', version: '1.0.0' }, { features: [prompts([brief, find])] }).implement({
  ask_effect: async (_args, ctx) => {
    const r = await ctx.elicit({ message: 'Profile?', requestedSchema: effectForm })
    // typed by effect's output: age a number when given
    return r.action === 'accept' ? `${r.content.name}${r.content.age === undefined ? '' : ` ${r.content.age.toFixed(0)}`}` : r.action
  },
  ask_typebox: async (_args, ctx) => {
    const r = await ctx.elicit({ message: 'Stay?', requestedSchema: typeboxForm })
    return r.action === 'accept' ? `${r.content.city} x${String(r.content.nights)}` : r.action
  },
})

/** The user answering the forms: what they were asked, what they answer. */
const user = elicitUser()
const { clients } = servedSlotClients(server, ['slots-1', 'slots-2'], user.elicit)

describe.each(clients)('effect Schema and TypeBox in prompts and forms, %s', (_, open) => {
  it('lists the arguments each schema stands for, and gets the prompt with the library checking them', withDriver(open, async (c) => {
    expect(await c.listPrompts()).toEqual([
      { name: 'brief', description: 'Brief someone on a topic (effect arguments).', arguments: [{ name: 'topic', required: true }, { name: 'tone' }] },
      { name: 'find', description: 'Find something (TypeBox arguments).', arguments: [{ name: 'q', description: 'What to find', required: true }, { name: 'lang' }] },
    ])
    expect(await c.getPrompt('brief', { topic: 'cats', tone: 'dry' })).toBe('Brief on cats, dry')
    // TypeBox's default filled in by the JSON Schema validator
    expect(await c.getPrompt('find', { q: 'tea' })).toBe('Find tea in en')
  }))

  it("refuses arguments the library refuses, with the library's message and path", withDriver(open, async (c) => {
    await expect(c.getPrompt('brief', { topic: 'ab' })).rejects.toThrow(/prompt brief: invalid arguments: \/topic: Expected a value with a length of at least 3/)
    await expect(c.getPrompt('brief', { topic: 'cats', tone: 'loud' })).rejects.toThrow(/\/tone: Expected "dry" \| "warm"/)
    await expect(c.getPrompt('find', { q: 'x' })).rejects.toThrow(/prompt find: invalid arguments: \/q: /)
  }))

  it("sends each form as flat JSON Schema and gives the handler the library's output", withDriver(open, async (c) => {
    user.asked.length = 0
    user.answer = { action: 'accept', content: { name: 'Ada', age: 36 } }
    expect(await c.call('ask_effect')).toEqual({ text: 'Ada 36' })
    user.answer = { action: 'accept', content: { city: 'Oslo' } }
    expect(await c.call('ask_typebox')).toEqual({ text: 'Oslo x1' })
    // as effect writes it (its own minLength figure), the optional keys plain, `Schema.optional`'s null left out
    expect(user.asked[0]?.requestedSchema).toMatchObject({ type: 'object', properties: { name: { type: 'string' }, age: { type: 'number' }, note: { type: 'string' } }, required: ['name'] })
    expect(Object.keys((user.asked[0]?.requestedSchema as { properties: object }).properties)).toEqual(['name', 'age', 'note'])
    expect(user.asked[1]?.requestedSchema).toMatchObject({ type: 'object', properties: { city: { type: 'string', minLength: 2 }, nights: { type: 'integer', minimum: 1, default: 1 } }, required: ['city'] })
    expect(JSON.stringify(user.asked)).not.toMatch(/~standard|\$schema|anyOf/)
  }))

  it("refuses an answer the library refuses, with the library's message", withDriver(open, async (c) => {
    user.answer = { action: 'accept', content: { name: 'A' } }
    const e = await c.call('ask_effect')
    expect(e.isError).toBe(true)
    expect(e.text).toMatch(/does not match the requested form: \/name: Expected a value with a length of at least 2/)
    user.answer = { action: 'accept', content: { city: 'Oslo', nights: 0 } }
    const t = await c.call('ask_typebox')
    expect(t.isError).toBe(true)
    expect(t.text).toMatch(/does not match the requested form: \/nights: /)
    user.answer = { action: 'decline' }
    expect(await c.call('ask_typebox')).toEqual({ text: 'decline' })
  }))
})
