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
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js'
import { Client as Client2, StreamableHTTPClientTransport as Transport2 } from '@modelcontextprotocol/client'
import { toStandardJsonSchema } from '@valibot/to-json-schema'
import { type } from 'arktype'
import * as v from 'valibot'
import { z } from 'zod'
import { emcp, inMemoryClient, mcpServer, prompt, prompts } from '../../src/index.js'
import { serveHttp, type RunningHttp } from '../../src/transport/http.js'

const tone = type("'dry' | 'warm'")
const brief = prompt({
  name: 'brief',
  description: 'Brief someone on a topic (a raw shape).',
  arguments: {
    topic: z.string().min(3, 'topic too short').describe('What to brief on'),
    words: z.string().regex(/^\d+$/, 'words must be digits').transform(Number).optional(),
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

/** What the client answers, and what it was asked. */
let answer: { readonly action: 'accept' | 'decline'; readonly content?: Record<string, unknown> } = { action: 'decline' }
const asked: Array<{ readonly message?: unknown; readonly requestedSchema?: unknown }> = []

interface Driver {
  readonly listPrompts: () => Promise<ReadonlyArray<{ readonly name: string; readonly arguments?: unknown }>>
  readonly getPrompt: (name: string, args: Record<string, string>) => Promise<string>
  readonly call: (name: string) => Promise<{ readonly isError?: boolean; readonly text: string }>
  readonly close: () => Promise<void>
}

let running: RunningHttp
beforeAll(async () => {
  running = await serveHttp(server, { port: 0, host: '127.0.0.1', handleSignals: false, sessions: true })
})
afterAll(async () => {
  await running.close()
})

const textOf = (r: { isError?: unknown; content?: unknown }) => ({
  ...(r.isError === true ? { isError: true } : {}),
  text: ((r.content ?? []) as Array<{ text?: string }>).map((b) => b.text ?? '').join('\n'),
})
const promptText = (r: { messages: Array<{ content: { text?: string } }> }) => r.messages.map((m) => m.content.text ?? '').join('\n')

const inMemory = (protocolVersion: string) => async (): Promise<Driver> => {
  const client = inMemoryClient(server, {
    protocolVersion,
    capabilities: { elicitation: { form: {} } },
    answer: (request) => {
      asked.push(request.params as never)
      return answer
    },
  })
  const rpc = async (method: string, params: Record<string, unknown>) => {
    try {
      return await client.request(method, params)
    } catch (e) {
      throw new Error((e as { message?: string }).message)
    }
  }
  return {
    listPrompts: async () => ((await rpc('prompts/list', {})) as { prompts: [] }).prompts,
    getPrompt: async (name, args) => promptText((await rpc('prompts/get', { name, arguments: args })) as never),
    call: async (name) => textOf((await client.callResult(name as 'signup', {})) as never),
    close: async () => {},
  }
}

const clients: ReadonlyArray<readonly [string, () => Promise<Driver>]> = [
  [
    '@modelcontextprotocol/sdk 1.x (2025-11-25)',
    async () => {
      const client = new Client({ name: 'shapes-1', version: '1' }, { capabilities: { elicitation: { form: {} } } })
      client.setRequestHandler(ElicitRequestSchema, async (request) => {
        asked.push(request.params as never)
        return answer as never
      })
      await client.connect(new StreamableHTTPClientTransport(new URL(running.url)))
      return {
        listPrompts: async () => (await client.listPrompts()).prompts,
        getPrompt: async (name, args) => promptText((await client.getPrompt({ name, arguments: args })) as never),
        call: async (name) => textOf((await client.callTool({ name, arguments: {} })) as never),
        close: () => client.close(),
      }
    },
  ],
  [
    '@modelcontextprotocol/client 2.x (2026-07-28)',
    async () => {
      const client = new Client2({ name: 'shapes-2', version: '1' }, { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: 'auto' } })
      client.setRequestHandler('elicitation/create', async (request) => {
        asked.push(request.params as never)
        return answer as never
      })
      await client.connect(new Transport2(new URL(running.url)))
      expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28')
      return {
        listPrompts: async () => (await client.listPrompts()).prompts as never,
        getPrompt: async (name, args) => promptText((await client.getPrompt({ name, arguments: args })) as never),
        call: async (name) => textOf((await client.callTool({ name, arguments: {} })) as never),
        close: () => client.close(),
      }
    },
  ],
  ['inMemoryClient (2026-07-28)', inMemory('2026-07-28')],
]

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
  it("lists a shape's properties as the prompt's arguments, and gets it with each property's output", async () => {
    const c = await open()
    try {
      expect(await c.listPrompts()).toEqual([
        {
          name: 'brief',
          description: 'Brief someone on a topic (a raw shape).',
          arguments: [{ name: 'topic', description: 'What to brief on', required: true }, { name: 'words' }, { name: 'tone', required: true }, { name: 'lang' }],
        },
      ])
      expect(await c.getPrompt('brief', { topic: 'cats', words: '99', tone: 'dry', lang: 'fr' })).toBe('Brief on cats in 100 words, dry, fr')
      expect(await c.getPrompt('brief', { topic: 'cats', tone: 'warm' })).toBe('Brief on cats in few words, warm, any')
    } finally {
      await c.close()
    }
  })

  it("refuses arguments a property's library refuses, with its message at its path, and names missing and unknown ones", async () => {
    const c = await open()
    try {
      await expect(c.getPrompt('brief', { topic: 'ab', words: 'many', tone: 'dry' })).rejects.toThrow(
        /prompt brief: invalid arguments: .*\/topic: topic too short.*\/words: words must be digits/,
      )
      await expect(c.getPrompt('brief', { topic: 'cats', tone: 'loud' })).rejects.toThrow(/prompt brief: invalid arguments: \/tone: /)
      await expect(c.getPrompt('brief', { topic: 'cats', tone: 'dry', lang: 'de' })).rejects.toThrow(/prompt brief: invalid arguments: \/lang: /)
      await expect(c.getPrompt('brief', { subject: 'cats' })).rejects.toThrow(/prompt brief: missing required arguments "topic", "tone"; unknown argument "subject"/)
    } finally {
      await c.close()
    }
  })

  it("sends the shape as MCP's flat form, and gives the handler each property's output", async () => {
    const c = await open()
    try {
      asked.length = 0
      answer = { action: 'accept', content: { name: 'Ada', pro: true, plan: 'team' } }
      expect(await c.call('signup')).toEqual({ text: 'Ada, 30, pro, team' })
      answer = { action: 'accept', content: { name: 'Lin', age: 41, pro: false } }
      expect(await c.call('signup')).toEqual({ text: 'Lin, 41, basic, no plan' })
      expect(asked).toHaveLength(2)
      expect(asked[0]?.message).toBe('Your profile?')
      expect(asked[0]?.requestedSchema).toMatchObject(requestedProfile)
      expect(Object.keys(asked[0]?.requestedSchema as object).sort()).toEqual(['properties', 'required', 'type'])
      expect(JSON.stringify(asked)).not.toMatch(/~standard|_zod|\$schema|additionalProperties/)
    } finally {
      await c.close()
    }
  })

  it("refuses an answer a property's library refuses, with its message at its path; decline passes through", async () => {
    const c = await open()
    try {
      answer = { action: 'accept', content: { name: 'A', pro: 'yes' } }
      const r = await c.call('signup')
      expect(r.isError).toBe(true)
      expect(r.text).toMatch(/does not match the requested form: .*\/name: name too short.*\/pro: /)
      answer = { action: 'accept', content: { name: 'Ada', pro: true, extra: 1 } }
      expect((await c.call('signup')).text).toMatch(/does not match the requested form: \/extra: is not a known property/)
      answer = { action: 'decline' }
      expect(await c.call('signup')).toEqual({ text: 'decline' })
    } finally {
      await c.close()
    }
  })

  it('refuses a shape MCP cannot carry and a mixed one, naming the property, and sends nothing', async () => {
    const c = await open()
    try {
      asked.length = 0
      const n = await c.call('nested')
      expect(n.isError).toBe(true)
      expect(n.text).toMatch(/ctx\.elicit form "Address\?": the shape: property "address" must be a string, number, integer or boolean/)
      const m = await c.call('mixed')
      expect(m.isError).toBe(true)
      expect(m.text).toMatch(/ctx\.elicit form "Mixed\?": the shape's property "age" is not a schema: a raw shape has a Standard Schema as every value/)
      expect(asked).toHaveLength(0)
    } finally {
      await c.close()
    }
  })

  it("spells every field as MCP's restricted form schema does: a type on each, enums for constants, only MCP's formats", async () => {
    const c = await open()
    try {
      asked.length = 0
      answer = { action: 'accept', content: { tone: 'dry', size: 'm' } }
      expect(await c.call('style')).toEqual({ text: 'dry m -' })
      const properties = (asked[0]?.requestedSchema as { properties: Record<string, Record<string, unknown>> }).properties
      expect(properties.tone).toEqual({ type: 'string', enum: ['dry', 'warm'] })
      expect(properties.size).toEqual({ type: 'string', enum: ['s', 'm'] })
      expect(properties.ref).toMatchObject({ type: 'string' })
      expect(properties.ref).not.toHaveProperty('format')
      for (const field of Object.values(properties)) expect(['string', 'number', 'integer', 'boolean', 'array']).toContain(field.type)
      answer = { action: 'accept', content: { tone: 'loud', size: 'm', ref: 'not-a-uuid' } }
      expect((await c.call('style')).text).toMatch(/does not match the requested form: \/tone: .*\/ref: /)
    } finally {
      await c.close()
    }
  })

  it('asks with the empty form for the empty shape', async () => {
    const c = await open()
    try {
      asked.length = 0
      answer = { action: 'accept', content: {} }
      expect(await c.call('confirm')).toEqual({ text: 'confirmed {}' })
      expect(asked[0]?.requestedSchema).toEqual({ type: 'object', properties: {} })
    } finally {
      await c.close()
    }
  })
})
