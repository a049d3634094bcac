import { describe, expect, it } from 'vitest'
import * as O from 'fp-ts/lib/Option.js'
import {
  emcp,
  encode,
  inMemoryClient,
  mcpServer,
  newSession,
  prompt,
  prompts,
  resources,
  resourceTemplate,
  type AnyPrompt,
  type FeatureFactory,
  type Reply,
} from '../../src/index.js'
import { wired } from '../support/wired.js'

const noop = emcp({ name: 'noop', description: 'Does nothing.', input: { type: 'object' } })
const serve = (...features: FeatureFactory[]) =>
  mcpServer([noop], { name: 'prompts', version: '1' }, { features }).implement({ noop: () => 'ok' })

const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg=='

const review = prompt({
  name: 'review',
  title: 'Code review',
  description: 'Review a piece of code.',
  arguments: { code: { description: 'The code', required: true }, focus: { title: 'Focus', description: 'What to look at' } },
  get: ({ code, focus }) => `Review${focus === undefined ? '' : ` for ${focus}`}:\n${code}`,
  complete: {
    focus: (value) => ['performance', 'security', 'style'].filter((f) => f.startsWith(value)),
    code: async (_value, { arguments: a }) => ({ values: [`// focus: ${a.focus ?? 'none'}`], total: 1 }),
  },
})
const everything = prompt({
  name: 'everything',
  description: 'Every content kind.',
  get: async () => [
    { role: 'user', content: { type: 'text', text: 'hi' } },
    { role: 'assistant', content: { type: 'image', data: png, mimeType: 'image/png' } },
    { role: 'user', content: { type: 'audio', data: 'UklGRg==', mimeType: 'audio/wav' } },
    { role: 'user', content: { type: 'resource_link', uri: 'docs://readme', name: 'readme' } },
    { role: 'user', content: { type: 'resource', resource: { uri: 'docs://readme', mimeType: 'text/markdown', text: '# Hello' } } },
  ],
})
const one = prompt({ name: 'one', get: () => ({ role: 'assistant', content: { type: 'text', text: 'Sure.' } }) })
const whole = prompt({
  name: 'whole',
  description: 'ignored when the result has its own',
  get: () => ({ description: 'own', messages: [{ role: 'user', content: { type: 'text', text: 'x' } }], _meta: { v: 1 } }),
})

describe('prompts: prompts/list', () => {
  const client = inMemoryClient(serve(prompts([review, everything, one])))

  it('lists the prompts on the wire, arguments in declaration order, without functions', async () => {
    expect(await client.request('prompts/list')).toEqual({
      prompts: [
        {
          name: 'review',
          title: 'Code review',
          description: 'Review a piece of code.',
          arguments: [
            { name: 'code', description: 'The code', required: true },
            { name: 'focus', title: 'Focus', description: 'What to look at' },
          ],
        },
        { name: 'everything', description: 'Every content kind.' },
        { name: 'one' },
      ],
    })
  })

  it('pages with cursors, and refuses a cursor it did not hand out with -32602', async () => {
    const paged = inMemoryClient(serve(prompts([review, everything, one], { pageSize: 2 })))
    const first = (await paged.request('prompts/list')) as { prompts: Array<{ name: string }>; nextCursor: string }
    expect(first.prompts.map((p) => p.name)).toEqual(['review', 'everything'])
    const second = (await paged.request('prompts/list', { cursor: first.nextCursor })) as { prompts: Array<{ name: string }>; nextCursor?: string }
    expect(second).toEqual({ prompts: [{ name: 'one' }] })
    await expect(paged.request('prompts/list', { cursor: 'bm9wZQ' })).rejects.toMatchObject({ code: -32602 })
  })
})

describe('prompts: prompts/get', () => {
  const client = inMemoryClient(serve(prompts([review, everything, one, whole])))

  it('turns a string into one user text message, with the prompt’s description', async () => {
    expect(await client.request('prompts/get', { name: 'review', arguments: { code: 'x = 1', focus: 'style' } })).toEqual({
      description: 'Review a piece of code.',
      messages: [{ role: 'user', content: { type: 'text', text: 'Review for style:\nx = 1' } }],
    })
    expect(await client.request('prompts/get', { name: 'review', arguments: { code: 'y' } })).toMatchObject({
      messages: [{ content: { text: 'Review:\ny' } }],
    })
  })

  it('carries every content kind: text, image, audio, resource link, embedded resource', async () => {
    const r = (await client.request('prompts/get', { name: 'everything' })) as { messages: Array<{ role: string; content: { type: string } }> }
    expect(r.messages.map((m) => `${m.role}:${m.content.type}`)).toEqual([
      'user:text',
      'assistant:image',
      'user:audio',
      'user:resource_link',
      'user:resource',
    ])
  })

  it('accepts one message, and a whole result as it is', async () => {
    expect(await client.request('prompts/get', { name: 'one', arguments: {} })).toEqual({
      messages: [{ role: 'assistant', content: { type: 'text', text: 'Sure.' } }],
    })
    expect(await client.request('prompts/get', { name: 'whole' })).toEqual({
      description: 'own',
      messages: [{ role: 'user', content: { type: 'text', text: 'x' } }],
      _meta: { v: 1 },
    })
  })

  it('refuses an unknown prompt with -32602', async () => {
    await expect(client.request('prompts/get', { name: 'nope' })).rejects.toMatchObject({ code: -32602, message: 'Unknown prompt: nope', data: { name: 'nope' } })
    await expect(client.request('prompts/get', {})).rejects.toMatchObject({ code: -32602 })
  })

  it('refuses a missing required argument and an unknown one with -32602, naming each', async () => {
    await expect(client.request('prompts/get', { name: 'review', arguments: { focus: 'style' } })).rejects.toMatchObject({
      code: -32602,
      message: 'prompts/get: prompt review: missing required argument "code"',
      data: { name: 'review', missing: ['code'] },
    })
    await expect(client.request('prompts/get', { name: 'review', arguments: { code: 'x', lang: 'py', tone: 'kind' } })).rejects.toMatchObject({
      code: -32602,
      message: 'prompts/get: prompt review: unknown arguments "lang", "tone"',
      data: { unknown: ['lang', 'tone'] },
    })
    await expect(client.request('prompts/get', { name: 'review', arguments: { code: 7 } })).rejects.toMatchObject({
      code: -32602,
      data: { notStrings: ['code'] },
    })
    await expect(client.request('prompts/get', { name: 'review', arguments: ['x'] })).rejects.toMatchObject({ code: -32602 })
  })

  it('names at most 20 unknown arguments, each clipped, however many long keys a client sends', async () => {
    const args = Object.fromEntries(Array.from({ length: 2000 }, (_, i) => [`k${i}${'x'.repeat(1000)}`, 'v']))
    const refused = (await client.request('prompts/get', { name: 'review', arguments: { code: 'x', ...args } }).then(
      () => undefined,
      (e: unknown) => e,
    )) as { code: number; message: string; data: { unknown: string[] } }
    expect(refused.code).toBe(-32602)
    expect(refused.message).toMatch(/^prompts\/get: prompt review: unknown arguments "k0x+… \(1002 characters\)", .* and 1980 more$/)
    expect(refused.message.length).toBeLessThan(4000)
    expect(refused.data.unknown).toHaveLength(20)
    expect(JSON.stringify(refused.data).length).toBeLessThan(4000)
  })

  it('answers a get that fails or returns something other than messages with -32603', async () => {
    const broken = prompt({ name: 'broken', get: () => { throw new Error('no words') } })
    const odd = prompt({ name: 'odd', get: () => [{ role: 'system', content: { type: 'text', text: 'x' } }] as never })
    const c = inMemoryClient(serve(prompts([broken, odd])))
    await expect(c.request('prompts/get', { name: 'broken' })).rejects.toMatchObject({ code: -32603, message: expect.stringContaining('no words') })
    await expect(c.request('prompts/get', { name: 'odd' })).rejects.toMatchObject({ code: -32603, message: expect.stringContaining('prompt odd') })
  })

  it('gives get the handler context (request id, session, log)', async () => {
    const seen: unknown[] = []
    const look = prompt({
      name: 'look',
      get: (_args, ctx) => {
        seen.push(ctx.requestId)
        ctx.log('info', 'building')
        return 'x'
      },
    })
    const server = serve(prompts([look]))
    const { sent, session } = await wired(server)
    await server.dispatch({ jsonrpc: '2.0', id: 'g1', method: 'prompts/get', params: { name: 'look' } }, session)()
    expect(seen).toEqual(['g1'])
    expect(sent).toEqual([{ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'building' } }])
  })
})

describe('prompts: capabilities, add and remove (notifications/prompts/list_changed)', () => {
  it('declares prompts with listChanged, and completions', async () => {
    const out = await serve(prompts([one])).dispatch(
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } } },
      newSession(),
    )()
    const m = JSON.parse(encode((out as O.Some<Reply>).value)) as { result: { capabilities: Record<string, unknown> } }
    expect(m.result.capabilities).toMatchObject({ prompts: { listChanged: true }, completions: {} })
  })

  it('serves what was added, forgets what was removed, and tells every reachable session', async () => {
    const ps = prompts([one])
    const server = serve(ps)
    const { sent } = await wired(server)
    ps.add(review)
    expect(ps.remove('one')).toBe(true)
    expect(ps.remove('one')).toBe(false)
    const client = inMemoryClient(server)
    expect(await client.request('prompts/list')).toMatchObject({ prompts: [{ name: 'review' }] })
    await expect(client.request('prompts/get', { name: 'one' })).rejects.toMatchObject({ code: -32602 })
    expect(sent.map((m) => m.method)).toEqual(['notifications/prompts/list_changed', 'notifications/prompts/list_changed'])
    expect(ps.list()).toEqual([review])
  })

  it('refuses a name it already serves, at construction and on add', () => {
    const list: ReadonlyArray<AnyPrompt> = [one, one]
    expect(() => prompts(list)).toThrow(/duplicate prompt name: one/)
    expect(() => prompts([one]).add(one)).toThrow(/duplicate prompt name: one/)
    expect(() => prompts([{ name: 'x' } as never])).toThrow(/not a prompt/)
  })
})

describe('prompts: completion/complete for arguments', () => {
  const page = resourceTemplate({ uriTemplate: 'docs://{slug}', name: 'page', read: () => '', complete: { slug: () => ['intro'] } })
  const client = inMemoryClient(serve(prompts([review, one]), resources([page])))
  const complete = (name: string, argument: string, value: string, context?: Record<string, unknown>) =>
    client.request('completion/complete', { ref: { type: 'ref/prompt', name }, argument: { name: argument, value }, ...(context ? { context } : {}) })

  it('answers a ref/prompt through the argument’s completer', async () => {
    expect(await complete('review', 'focus', 's')).toEqual({ completion: { values: ['security', 'style'] } })
  })

  it('passes the arguments already resolved, and a Completion as it is', async () => {
    expect(await complete('review', 'code', '', { arguments: { focus: 'style' } })).toEqual({ completion: { values: ['// focus: style'], total: 1 } })
  })

  it('answers no values for an argument without a completer, -32602 for an unknown prompt', async () => {
    expect(await complete('one', 'x', '')).toEqual({ completion: { values: [] } })
    expect(await complete('review', 'constructor', '')).toEqual({ completion: { values: [] } })
    await expect(complete('nope', 'x', '')).rejects.toMatchObject({ code: -32602 })
  })

  it('leaves ref/resource to the resources feature beside it', async () => {
    expect(await client.request('completion/complete', { ref: { type: 'ref/resource', uri: 'docs://{slug}' }, argument: { name: 'slug', value: '' } })).toEqual({
      completion: { values: ['intro'] },
    })
  })
})

describe('prompts: definitions checked when built', () => {
  it('refuses an empty name, a bad argument declaration, and a completer for no argument', () => {
    expect(() => prompt({ name: '', get: () => '' })).toThrow(/name must be a non-empty string/)
    expect(() => prompt({ name: 'p', arguments: { a: { required: 'yes' as unknown as boolean } }, get: () => '' })).toThrow(/argument a/)
    const complete = { b: () => [] } as unknown as { a: () => string[] }
    expect(() => prompt({ name: 'p', arguments: { a: {} }, get: () => '', complete })).toThrow(/complete names b/)
  })
})
