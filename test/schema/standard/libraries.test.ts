/**
 * valibot (through @valibot/to-json-schema), arktype and TypeBox tools through the in-memory
 * client, in both eras; and what a hostile client or a misbehaving schema can do to the
 * Standard Schema path: a huge value quoted by a library's message, thousands of issues, a
 * `validate` that throws or rejects. Each ends as an invalid-arguments result, bounded.
 */
import { Type } from '@sinclair/typebox'
import { toStandardJsonSchema } from '@valibot/to-json-schema'
import { type } from 'arktype'
import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { emcp, inMemoryClient, mcpServer } from '../../../src/index.js'
import type { StandardSchemaV1 } from '../../../src/schema/standard/spec.js'

const eras = ['2025-11-25', '2026-07-28'] as const

describe('valibot', () => {
  const post = emcp({
    name: 'post',
    description: 'Post.',
    input: toStandardJsonSchema(v.object({ title: v.pipe(v.string(), v.minLength(1, 'a title, please')), tags: v.optional(v.array(v.string()), []) })),
    output: toStandardJsonSchema(v.object({ id: v.number(), title: v.string() })),
  })
  const server = mcpServer([post], { name: 'v', version: '1' }).implement({ post: ({ title, tags }) => ({ id: tags.length, title }) })

  it.each(eras)('validates with valibot (%s): its messages and defaults', async (era) => {
    const c = inMemoryClient(server, { protocolVersion: era })
    expect((await c.callResult('post', { title: 42 } as never)).content).toEqual([{ type: 'text', text: 'Invalid arguments for tool post: /title: Invalid type: Expected string but received 42' }])
    expect((await c.callResult('post', { title: '' })).content).toEqual([{ type: 'text', text: 'Invalid arguments for tool post: /title: a title, please' }])
    await expect(c.call('post', { title: 'Hello' })).resolves.toEqual({ id: 0, title: 'Hello' })
    expect((await c.list())[0]?.inputSchema).toMatchObject({ type: 'object', properties: { title: { type: 'string', minLength: 1 } }, required: ['title'] })
  })
})

describe('arktype', () => {
  const greet = emcp({ name: 'greet', description: 'Greet.', input: type({ name: 'string', 'age?': 'number.integer >= 0' }), output: type({ hello: 'string' }) })
  const server = mcpServer([greet], { name: 'a', version: '1' }).implement({ greet: ({ name, age }) => ({ hello: `${name}${age === undefined ? '' : ` ${age}`}` }) })

  it.each(eras)('validates with arktype (%s)', async (era) => {
    const c = inMemoryClient(server, { protocolVersion: era })
    expect((await c.callResult('greet', { name: 'x', age: 1.5 })).content).toEqual([{ type: 'text', text: 'Invalid arguments for tool greet: /age: age must be an integer (was 1.5)' }])
    await expect(c.call('greet', { name: 'Ada', age: 36 })).resolves.toEqual({ hello: 'Ada 36' })
  })

  it('refuses a result arktype refuses', async () => {
    const s = mcpServer([greet], { name: 'a', version: '1' }).implement({ greet: () => ({ hello: 7 }) as never })
    expect(JSON.stringify((await inMemoryClient(s).callResult('greet', { name: 'x' })).content)).toContain('returned a result that does not match its output schema: /hello: hello must be a string (was a number)')
  })
})

describe('TypeBox', () => {
  it('is a JSON Schema literal: listed as written, validated by emcp', async () => {
    const input = Type.Object({ q: Type.String({ minLength: 1 }), n: Type.Optional(Type.Integer()) })
    const search = emcp({ name: 'search', description: 'Search.', input, output: Type.Object({ hits: Type.Array(Type.String()) }) })
    const s = mcpServer([search], { name: 't', version: '1' }).implement({ search: ({ q, n }) => ({ hits: [q.repeat(n ?? 1)] }) })
    const c = inMemoryClient(s)
    // as the wire carries it (TypeBox's own marks are symbol keys, which JSON leaves out)
    expect(JSON.parse(JSON.stringify((await c.list())[0]?.inputSchema))).toEqual({ type: 'object', properties: { q: { type: 'string', minLength: 1 }, n: { type: 'integer' } }, required: ['q'] })
    expect((await c.callResult('search', { q: '' })).content).toEqual([{ type: 'text', text: 'Invalid arguments for tool search: /q: must NOT have fewer than 1 characters' }])
    await expect(c.call('search', { q: 'ab', n: 2 })).resolves.toEqual({ hits: ['abab'] })
  })
})

describe('a client\'s output type: the output schema\'s output', () => {
  it('gets what the output schema gives (a transform applied on the way out)', async () => {
    const t = emcp({ name: 'stamp', description: 'Stamp.', input: z.object({}), output: z.object({ at: z.string(), n: z.number().default(1) }) })
    const s = mcpServer([t], { name: 'z', version: '1' }).implement({ stamp: () => ({ at: 'now' }) })
    await expect(inMemoryClient(s).call('stamp', {})).resolves.toEqual({ at: 'now', n: 1 })
  })
})

describe('hostile input and misbehaving schemas on the Standard Schema path', () => {
  const one = (input: StandardSchemaV1) => {
    const t = emcp({ name: 'one', description: 'One.', input: input as StandardSchemaV1<object> })
    return inMemoryClient(mcpServer([t], { name: 'h', version: '1' }).implement({ one: () => 'ran' }))
  }
  const jsonForm = { input: () => ({ type: 'object' }), output: () => ({ type: 'object' }) }

  it('clips a library message that quotes a 1 MB value', async () => {
    const c = one(toStandardJsonSchema(v.object({ n: v.number() })))
    const text = ((await c.callResult('one', { n: 'x'.repeat(1_000_000) })).content[0] as { text: string }).text
    expect(text.startsWith('Invalid arguments for tool one: /n: Invalid type: Expected number but received "xxx')).toBe(true)
    expect(text.length).toBeLessThan(1_000)
  })

  it('names 20 of 100 000 issues and counts the rest', async () => {
    const c = one(z.object({ xs: z.array(z.number()) }))
    const text = ((await c.callResult('one', { xs: Array.from({ length: 100_000 }, () => 'a') })).content[0] as { text: string }).text
    expect(text).toMatch(/^Invalid arguments for tool one: \/xs\/0: Invalid input: expected number, received string; .*; and 99980 more$/)
  })

  it('turns a validate that throws, or rejects, into invalid arguments', async () => {
    const throwing = { '~standard': { version: 1, vendor: 'odd', jsonSchema: jsonForm, validate: () => { throw new Error('boom') } } } as const
    expect((await one(throwing as never).callResult('one', {})).content).toEqual([{ type: 'text', text: 'Invalid arguments for tool one: (root): the schema failed: boom' }])
    const rejecting = { '~standard': { version: 1, vendor: 'odd', jsonSchema: jsonForm, validate: () => Promise.reject(new Error('later')) } } as const
    expect((await one(rejecting as never).callResult('one', {})).content).toEqual([{ type: 'text', text: 'Invalid arguments for tool one: (root): the schema failed: later' }])
    const pathOfObjects = { '~standard': { version: 1, vendor: 'odd', jsonSchema: jsonForm, validate: () => ({ issues: [{ message: 'bad', path: [{ key: 'a/b' }, 0, Symbol('s')] }] }) } } as const
    expect((await one(pathOfObjects as never).callResult('one', {})).content).toEqual([{ type: 'text', text: 'Invalid arguments for tool one: /a~1b/0/Symbol(s): bad' }])
  })

  it('answers a result whose listed schema the validator cannot compile with that reason, not as a success', async () => {
    const odd = { '~standard': { version: 1, vendor: 'odd', validate: (u: unknown) => ({ value: u }), jsonSchema: { input: () => ({ type: 'object' }), output: () => ({ type: 'object', properties: { a: { type: 'string', pattern: '(' } } }) } } }
    const t = emcp({ name: 'odd', description: 'Odd.', input: z.object({}), output: odd as StandardSchemaV1<{ a: string }> })
    const r = await inMemoryClient(mcpServer([t], { name: 'h', version: '1' }).implement({ odd: () => ({ a: 'x' }) })).callResult('odd', {})
    expect(r.isError).toBe(true)
    expect((r.content[0] as { text: string }).text).toMatch(/^Tool odd returned a result that does not match its output schema: \(root\): the listed output schema cannot be checked: /)
  })

  it('refuses a converter that gives no object, and a root that is not an object', () => {
    const notObject = { '~standard': { version: 1, vendor: 'odd', validate: () => ({ value: 1 }), jsonSchema: { input: () => 'x', output: () => 'x' } } }
    expect(() => emcp({ name: 'bad', input: notObject as never })).toThrow('emcp: tool bad: the input schema (odd): its library gave string rather than a JSON Schema object')
    expect(() => emcp({ name: 'str', input: z.string() as never })).toThrow('emcp: tool str: the input schema must describe an object (type "object"), not "string"')
  })
})
