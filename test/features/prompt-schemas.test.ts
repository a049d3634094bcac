/**
 * Prompt arguments given as a Standard Schema (zod, valibot, arktype): `prompts/list` shows
 * the named string arguments derived from the object schema, `prompts/get` validates them
 * through the library (its transforms and messages), in both eras, and a schema that is not
 * an object of strings is refused when the prompt is made, naming the prompt and the property.
 */
import { describe, expect, it } from 'vitest'
import { toStandardJsonSchema } from '@valibot/to-json-schema'
import { type } from 'arktype'
import * as v from 'valibot'
import { z } from 'zod'
import { emcp, inMemoryClient, mcpServer, prompt, prompts, type FeatureFactory } from '../../src/index.js'
import { digitsArg, textArg } from '../support/slot-drivers.js'

const noop = emcp({ name: 'noop', description: 'Does nothing.', input: { type: 'object' } })
const serve = (...features: FeatureFactory[]) =>
  mcpServer([noop], { name: 'prompts', version: '1' }, { features }).implement({ noop: () => 'ok' })

const review = prompt({
  name: 'review',
  description: 'Review code (zod).',
  arguments: z.object({
    code: z.string().min(1).describe('The code'),
    focus: z.enum(['speed', 'style']).optional(),
    lines: z.string().regex(/^\d+$/, 'lines must be digits').transform(Number).optional(),
  }),
  get: ({ code, focus, lines }) => `Review ${lines === undefined ? 'all' : `${lines + 1}`} of ${code}${focus === undefined ? '' : ` for ${focus}`}`,
  complete: { focus: (value) => ['speed', 'style'].filter((f) => f.startsWith(value)) },
})
const title = prompt({
  name: 'title',
  arguments: toStandardJsonSchema(v.object({ topic: v.pipe(v.string(), v.title('Topic'), v.minLength(3, 'too short a topic')) })),
  get: ({ topic }) => `Title for ${topic}`,
})
const greet = prompt({
  name: 'greet',
  arguments: type({ name: 'string', 'mood?': "'glad' | 'sad'" }),
  get: ({ name, mood }) => `Hello ${name}${mood === undefined ? '' : ` (${mood})`}`,
})

const text = (r: unknown): string => (r as { messages: Array<{ content: { text: string } }> }).messages[0]?.content.text ?? ''

describe.each(['2025-11-25', '2026-07-28'])('prompt arguments from a Standard Schema (%s)', (protocolVersion) => {
  const client = inMemoryClient(serve(prompts([review, title, greet])), { protocolVersion })

  it('lists the string properties as named arguments, with description, title and required', async () => {
    expect(((await client.request('prompts/list')) as { prompts: unknown }).prompts).toEqual([
        {
          name: 'review',
          description: 'Review code (zod).',
          arguments: [{ name: 'code', description: 'The code', required: true }, { name: 'focus' }, { name: 'lines' }],
        },
        { name: 'title', arguments: [{ name: 'topic', title: 'Topic', required: true }] },
        { name: 'greet', arguments: [{ name: 'name', required: true }, { name: 'mood' }] },
      ],
    )
  })

  it('gives get the library output (transforms applied)', async () => {
    expect(text(await client.request('prompts/get', { name: 'review', arguments: { code: 'x', lines: '41', focus: 'style' } }))).toBe('Review 42 of x for style')
    expect(text(await client.request('prompts/get', { name: 'title', arguments: { topic: 'cats' } }))).toBe('Title for cats')
    expect(text(await client.request('prompts/get', { name: 'greet', arguments: { name: 'Ann', mood: 'glad' } }))).toBe('Hello Ann (glad)')
  })

  it("refuses arguments the library refuses with -32602 and the library's own message", async () => {
    await expect(client.request('prompts/get', { name: 'review', arguments: { code: 'x', lines: 'many' } })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining('/lines: lines must be digits'),
      data: { name: 'review', issues: [{ path: '/lines', message: 'lines must be digits' }] },
    })
    await expect(client.request('prompts/get', { name: 'title', arguments: { topic: 'ab' } })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining('too short a topic'),
    })
    await expect(client.request('prompts/get', { name: 'greet', arguments: { name: 'Ann', mood: 'cross' } })).rejects.toMatchObject({ code: -32602 })
  })

  it('still names a missing required argument and an unknown one, before the library runs', async () => {
    await expect(client.request('prompts/get', { name: 'review', arguments: { extra: 'x' } })).rejects.toMatchObject({
      code: -32602,
      data: { name: 'review', missing: ['code'], unknown: ['extra'] },
    })
  })

  it("completes an argument named by the schema's properties", async () => {
    expect(await client.request('completion/complete', { ref: { type: 'ref/prompt', name: 'review' }, argument: { name: 'focus', value: 's' } })).toMatchObject({
      completion: { values: ['speed', 'style'] },
    })
  })
})

describe('prompt arguments from a Standard Schema: refused when made', () => {
  it('refuses a property that is not a string, naming the prompt and the property', () => {
    expect(() => prompt({ name: 'count', arguments: z.object({ text: z.string(), n: z.number() }), get: () => 'x' })).toThrow(
      /emcp: prompt count: the schema \(zod\): property "n" must be a string \(prompt arguments are strings in MCP\)/,
    )
    expect(() => prompt({ name: 'nested', arguments: z.object({ opts: z.object({ a: z.string() }) }), get: () => 'x' })).toThrow(/prompt nested.*property "opts" must be a string/)
  })

  it('refuses a schema that is not an object', () => {
    expect(() => prompt({ name: 'word', arguments: z.string() as never, get: () => 'x' })).toThrow(/emcp: prompt word: the schema \(zod\) must be an object schema/)
  })

  it('refuses a schema with no JSON Schema form, naming the prompt', () => {
    expect(() => prompt({ name: 'bare', arguments: v.object({ a: v.string() }) as never, get: () => 'x' })).toThrow(/emcp: prompt bare: the input schema \(valibot\) has no JSON Schema form/)
  })
})

describe('prompt arguments given as a JSON Schema literal (TypeBox, or by hand)', () => {
  const find = prompt({
    name: 'find',
    arguments: { type: 'object', properties: { q: { type: 'string', minLength: 2, description: 'What to find' }, lang: { type: 'string', default: 'en' } }, required: ['q'] },
    get: ({ q, lang }) => `Find ${q} in ${String(lang)}`,
  })
  // a declaration may still name an argument `type`: its value is an object, a schema's is "object"
  const kind = prompt({ name: 'kind', arguments: { type: { description: 'Which kind', required: true } }, get: ({ type: k }) => `Kind ${k}` })

  it.each(['2025-11-25', '2026-07-28'] as const)('lists the properties as arguments and checks them with the JSON Schema validator, defaults filled (%s)', async (era) => {
    const c = inMemoryClient(serve(prompts([find, kind])), { protocolVersion: era })
    expect(((await c.request('prompts/list')) as { prompts: unknown }).prompts).toEqual([
      { name: 'find', arguments: [{ name: 'q', description: 'What to find', required: true }, { name: 'lang' }] },
      { name: 'kind', arguments: [{ name: 'type', description: 'Which kind', required: true }] },
    ])
    expect(text(await c.request('prompts/get', { name: 'find', arguments: { q: 'tea' } }))).toBe('Find tea in en')
    expect(text(await c.request('prompts/get', { name: 'kind', arguments: { type: 'x' } }))).toBe('Kind x')
    await expect(c.request('prompts/get', { name: 'find', arguments: { q: 'x' } })).rejects.toMatchObject({ code: -32602, message: expect.stringMatching(/^prompts\/get: prompt find: invalid arguments: \/q: /) })
    await expect(c.request('prompts/get', { name: 'find', arguments: {} })).rejects.toMatchObject({ code: -32602 })
  })

  it('refuses, when the prompt is made, a property that is not a string and a key that is not a keyword', () => {
    expect(() => prompt({ name: 'n', arguments: { type: 'object', properties: { n: { type: 'number' } } }, get: () => 'x' })).toThrow(
      /emcp: prompt n: the schema: property "n" must be a string \(prompt arguments are strings in MCP\)/,
    )
    expect(() => prompt({ name: 't', arguments: { type: 'object', properties: { q: { type: 'string', minLenght: 2 } } } as never, get: () => 'x' })).toThrow(
      'emcp: prompt t: the schema: unknown JSON Schema keyword "minLenght" (did you mean "minLength"?) (at /properties/q/minLenght)',
    )
  })
})

// arktype's `.describe` is an overloaded generic: written inline beside `get`, TypeScript infers no arguments; a const keeps them
const mood = type("'glad' | 'sad'").describe('How it feels')

describe.each(['2025-11-25', '2026-07-28'])('prompt arguments given as a raw shape, libraries mixed (%s)', (protocolVersion) => {
  const plan = prompt({
    name: 'plan',
    description: 'Plan a trip (raw shape).',
    arguments: {
      city: textArg(2, 'city too short', 'Where to'),
      days: digitsArg('days must be digits'),
      pace: toStandardJsonSchema(v.optional(v.picklist(['slow', 'fast']))),
      mood,
    },
    get: ({ city, days, pace, mood }) => `${days === undefined ? 'Some' : String(days * 2)} days in ${city}, ${pace ?? 'any'} pace, ${mood}`,
    complete: { pace: (value) => ['slow', 'fast'].filter((p) => p.startsWith(value)) },
  })
  const client = inMemoryClient(serve(prompts([plan])), { protocolVersion })

  it("lists each property as a named argument: description from its JSON Schema, required unless its schema takes undefined", async () => {
    expect(((await client.request('prompts/list')) as { prompts: unknown }).prompts).toEqual([
      {
        name: 'plan',
        description: 'Plan a trip (raw shape).',
        arguments: [
          { name: 'city', description: 'Where to', required: true },
          { name: 'days' },
          { name: 'pace' },
          { name: 'mood', description: 'How it feels', required: true },
        ],
      },
    ])
  })

  it("gives get each property's output, and refuses with each property's own message at its path", async () => {
    expect(text(await client.request('prompts/get', { name: 'plan', arguments: { city: 'Oslo', days: '3', pace: 'slow', mood: 'glad' } }))).toBe('6 days in Oslo, slow pace, glad')
    expect(text(await client.request('prompts/get', { name: 'plan', arguments: { city: 'Oslo', mood: 'sad' } }))).toBe('Some days in Oslo, any pace, sad')
    await expect(client.request('prompts/get', { name: 'plan', arguments: { city: 'O', days: 'x', mood: 'glad' } })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringMatching(/^prompts\/get: prompt plan: invalid arguments: /),
      data: { name: 'plan', issues: [{ path: '/city', message: 'city too short' }, { path: '/days', message: 'days must be digits' }] },
    })
    await expect(client.request('prompts/get', { name: 'plan', arguments: { city: 'Oslo', pace: 'run', mood: 'glad' } })).rejects.toMatchObject({ code: -32602, data: { issues: [{ path: '/pace' }] } })
    await expect(client.request('prompts/get', { name: 'plan', arguments: { city: 'Oslo', mood: 'cross' } })).rejects.toMatchObject({ code: -32602, data: { issues: [{ path: '/mood' }] } })
  })

  it('names a missing required argument, an unknown one and a non-string one, before any library runs', async () => {
    await expect(client.request('prompts/get', { name: 'plan', arguments: { town: 'x' } })).rejects.toMatchObject({
      code: -32602,
      data: { name: 'plan', missing: ['city', 'mood'], unknown: ['town'] },
    })
    await expect(client.request('prompts/get', { name: 'plan', arguments: { city: 3, mood: 'glad' } })).rejects.toMatchObject({ code: -32602, data: { notStrings: ['city'] } })
  })

  it('completes an argument of the shape', async () => {
    expect(await client.request('completion/complete', { ref: { type: 'ref/prompt', name: 'plan' }, argument: { name: 'pace', value: 'f' } })).toMatchObject({
      completion: { values: ['fast'] },
    })
  })
})

describe('prompt arguments given as a raw shape: refused when made', () => {
  it('refuses an object mixing schemas with declarations, naming the property and saying what to pass', () => {
    expect(() => prompt({ name: 'mixed', arguments: { code: z.string(), note: { description: 'A note' } } as never, get: () => 'x' })).toThrow(
      'emcp: prompt mixed: arguments: property "note" is not a schema: a raw shape has a Standard Schema as every value ({ name: z.string(), count: z.number().optional() }); or declare every argument as { description?, required? }',
    )
    expect(() => prompt({ name: 'odd', arguments: { code: z.string(), n: { '~standard': { version: 0 } } } as never, get: () => 'x' })).toThrow(
      /emcp: prompt odd: arguments: property "n" carries "~standard" but is not a Standard Schema v1/,
    )
  })

  it("takes arktype's .optional() and .default() entries as optional arguments, and refuses any other tuple around a schema", async () => {
    const note = prompt({ name: 'note', arguments: { code: z.string(), mood: type('string').optional(), tone: type('string').default('dry') }, get: ({ code, mood, tone }) => `${code}/${mood ?? '-'}/${tone}` })
    const c = inMemoryClient(serve(prompts([note])))
    expect(((await c.request('prompts/list')) as { prompts: unknown }).prompts).toEqual([{ name: 'note', arguments: [{ name: 'code', required: true }, { name: 'mood' }, { name: 'tone' }] }])
    expect(text(await c.request('prompts/get', { name: 'note', arguments: { code: 'x' } }))).toBe('x/-/dry')
    expect(text(await c.request('prompts/get', { name: 'note', arguments: { code: 'x', mood: 'glad', tone: 'warm' } }))).toBe('x/glad/warm')
    expect(() => prompt({ name: 'tuple', arguments: { code: z.string(), mood: [type('string'), '!'] } as never, get: () => 'x' })).toThrow(
      /emcp: prompt tuple: arguments: property "mood" is a tuple around a schema that is neither arktype's \.optional\(\) \(\[schema, '\?'\]\) nor its \.default\(value\)/,
    )
  })

  it('refuses a property that is not a string, and one with no JSON Schema form, naming the prompt and the property', () => {
    expect(() => prompt({ name: 'count', arguments: { text: z.string(), n: z.number() } as never, get: () => 'x' })).toThrow(
      /^emcp: prompt count: the shape: property "n" must be a string \(prompt arguments are strings in MCP\)/,
    )
    expect(() => prompt({ name: 'bare', arguments: { a: z.string(), b: v.string() }, get: () => 'x' })).toThrow(
      /^emcp: prompt bare: the input shape cannot be written as JSON Schema: property "b" \(valibot\) has no JSON Schema form/,
    )
  })

  it('keeps a declarations object with no schema in it as declarations', () => {
    const p = prompt({ name: 'plain', arguments: { a: { required: true } }, get: ({ a }) => a })
    expect(p.arguments).toEqual({ a: { required: true } })
  })
})

