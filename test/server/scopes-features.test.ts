import { describe, expect, it } from 'vitest'
import { emcp, mcpServer, prompt, prompts, resource, resources, resourceTemplate, type Identity, type Session } from '../../src/index.js'
import { sendTo, sessionOf } from '../support/dispatch.js'

// scopes on prompts, resources and resource templates, at the dispatcher: what every transport sees
const open = prompt({ name: 'open', description: 'Anyone.', get: () => 'open' })
const review = prompt({
  name: 'review',
  description: 'Needs docs:read.',
  arguments: { topic: { required: true } },
  get: ({ topic }) => `review ${topic}`,
  complete: { topic: (v) => ['alpha', 'beta'].filter((t) => t.startsWith(v)) },
  scopes: ['docs:read'],
})
const publicDoc = resource({ uri: 'docs://public', name: 'public', read: () => 'public' })
const secret = resource({ uri: 'docs://secret', name: 'secret', read: () => 'secret', scopes: ['docs:secret'] })
const pages = resourceTemplate({
  uriTemplate: 'docs://pages/{slug}',
  name: 'page',
  read: ({ slug }) => `page ${slug}`,
  list: () => [{ uri: 'docs://pages/intro', name: 'intro' }],
  complete: { slug: (v) => ['intro', 'setup'].filter((s) => s.startsWith(v)) },
  scopes: ['docs:read'],
})
const notes = resourceTemplate({ uriTemplate: 'notes://{id}', name: 'note', read: ({ id }) => `note ${id}` })
const noop = emcp({ name: 'noop', description: 'Does nothing.', input: { type: 'object' } })
const server = mcpServer([noop], { name: 'scoped', version: '1' }, {
  features: [prompts([open, review]), resources([publicDoc, secret, pages, notes], { subscribe: true })],
}).implement({ noop: () => 'ok' })

const send = sendTo(server)
const who = (...scopes: string[]): Session => sessionOf({ subject: 'a', roles: [], scopes } satisfies Identity)
const anonymous = (): Session => sessionOf(undefined)
const result = async (s: Session, method: string, params: object): Promise<Record<string, unknown>> => (await send(s, method, params)).result as Record<string, unknown>
const refusal = (scope: string[]) => ({ code: -32003, data: { error: 'insufficient_scope', scope } })

describe('server: scopes on prompts', () => {
  it('lists only the prompts whose scopes the caller holds; scopes are not listed', async () => {
    const names = async (s: Session) => ((await result(s, 'prompts/list', {})).prompts as { name: string }[]).map((p) => p.name)
    expect(await names(anonymous())).toEqual(['open'])
    expect(await names(who('docs:write'))).toEqual(['open'])
    expect(await names(who('docs:read'))).toEqual(['open', 'review'])
    expect(((await result(who('docs:read'), 'prompts/list', {})).prompts as object[])[1]).not.toHaveProperty('scopes')
  })

  it('refuses prompts/get without the scopes with -32003 insufficient_scope, before checking the arguments', async () => {
    const r = await send(who('docs:write'), 'prompts/get', { name: 'review', arguments: {} })
    expect(r.error).toEqual({ message: 'Forbidden: prompt review needs the scope docs:read', ...refusal(['docs:read']) })
    expect((await send(anonymous(), 'prompts/get', { name: 'review', arguments: { topic: 'x' } })).error).toMatchObject(refusal(['docs:read']))
    expect(await result(who('docs:read'), 'prompts/get', { name: 'review', arguments: { topic: 'x' } })).toMatchObject({ messages: [{ content: { text: 'review x' } }] })
    expect(await result(anonymous(), 'prompts/get', { name: 'open' })).toMatchObject({ messages: [{ content: { text: 'open' } }] })
  })

  it('refuses to complete an argument of a prompt without its scopes', async () => {
    const ask = { ref: { type: 'ref/prompt', name: 'review' }, argument: { name: 'topic', value: 'a' } }
    expect((await send(anonymous(), 'completion/complete', ask)).error).toMatchObject(refusal(['docs:read']))
    expect(await result(who('docs:read'), 'completion/complete', ask)).toEqual({ completion: { values: ['alpha'] } })
  })
})

describe('server: scopes on resources and resource templates', () => {
  it('lists only the resources, templates and template-listed resources the caller may see', async () => {
    const uris = async (s: Session) => ((await result(s, 'resources/list', {})).resources as { uri: string }[]).map((r) => r.uri)
    const templates = async (s: Session) => ((await result(s, 'resources/templates/list', {})).resourceTemplates as { uriTemplate: string }[]).map((t) => t.uriTemplate)
    expect(await uris(anonymous())).toEqual(['docs://public'])
    expect(await uris(who('docs:read'))).toEqual(['docs://public', 'docs://pages/intro'])
    expect(await uris(who('docs:secret'))).toEqual(['docs://public', 'docs://secret'])
    expect(await uris(who('docs:read', 'docs:secret'))).toEqual(['docs://public', 'docs://secret', 'docs://pages/intro'])
    expect(await templates(anonymous())).toEqual(['notes://{id}'])
    expect(await templates(who('docs:read'))).toEqual(['docs://pages/{slug}', 'notes://{id}'])
    const listed = [...((await result(who('docs:read', 'docs:secret'), 'resources/list', {})).resources as object[]), ...((await result(who('docs:read'), 'resources/templates/list', {})).resourceTemplates as object[])]
    for (const r of listed) expect(r).not.toHaveProperty('scopes')
  })

  it('pages a filtered list per caller', async () => {
    const paged = mcpServer([noop], { name: 'paged', version: '1' }, { features: [resources([publicDoc, secret, notes], { pageSize: 1 })] }).implement({ noop: () => 'ok' })
    const first = (await sendTo(paged)(anonymous(), 'resources/list', {})).result as { resources: { uri: string }[]; nextCursor?: string }
    expect(first).toEqual({ resources: [{ uri: 'docs://public', name: 'public' }] })
    const mine = (await sendTo(paged)(who('docs:secret'), 'resources/list', {})).result as { resources: { uri: string }[]; nextCursor?: string }
    expect(mine.resources.map((r) => r.uri)).toEqual(['docs://public'])
    expect(typeof mine.nextCursor).toBe('string')
    const next = (await sendTo(paged)(who('docs:secret'), 'resources/list', { cursor: mine.nextCursor })).result as { resources: { uri: string }[] }
    expect(next.resources.map((r) => r.uri)).toEqual(['docs://secret'])
  })

  it('refuses resources/read of a scoped resource or of a URI a scoped template matches', async () => {
    expect((await send(who('docs:read'), 'resources/read', { uri: 'docs://secret' })).error).toEqual({ message: 'Forbidden: resource docs://secret needs the scope docs:secret', ...refusal(['docs:secret']) })
    expect((await send(anonymous(), 'resources/read', { uri: 'docs://pages/intro' })).error).toMatchObject(refusal(['docs:read']))
    expect(await result(who('docs:read'), 'resources/read', { uri: 'docs://pages/intro' })).toEqual({ contents: [{ uri: 'docs://pages/intro', text: 'page intro' }] })
    expect(await result(who('docs:secret'), 'resources/read', { uri: 'docs://secret' })).toEqual({ contents: [{ uri: 'docs://secret', text: 'secret' }] })
    expect(await result(anonymous(), 'resources/read', { uri: 'notes://1' })).toEqual({ contents: [{ uri: 'notes://1', text: 'note 1' }] })
    expect((await send(anonymous(), 'resources/read', { uri: 'nothing://here' })).error).toMatchObject({ code: -32002 })
  })

  it('refuses resources/subscribe without the scopes, and completion of a scoped template’s variables', async () => {
    expect((await send(anonymous(), 'resources/subscribe', { uri: 'docs://secret' })).error).toMatchObject(refusal(['docs:secret']))
    expect((await send(anonymous(), 'resources/subscribe', { uri: 'docs://pages/x' })).error).toMatchObject(refusal(['docs:read']))
    expect(await result(who('docs:secret'), 'resources/subscribe', { uri: 'docs://secret' })).toEqual({})
    const ask = { ref: { type: 'ref/resource', uri: 'docs://pages/{slug}' }, argument: { name: 'slug', value: 's' } }
    expect((await send(anonymous(), 'completion/complete', ask)).error).toMatchObject(refusal(['docs:read']))
    expect(await result(who('docs:read'), 'completion/complete', ask)).toEqual({ completion: { values: ['setup'] } })
  })

  it('refuses scopes that are not a list of OAuth scope names where they are declared', () => {
    expect(() => resource({ uri: 'a://b', name: 'b', read: () => '', scopes: ['two words'] })).toThrow(/resource a:\/\/b: scopes must be a list of OAuth scope names/)
    expect(() => resourceTemplate({ uriTemplate: 'a://{x}', name: 'x', read: () => '', scopes: 'docs:read' as never })).toThrow(/resource template a:\/\/\{x\}: scopes/)
    expect(() => prompt({ name: 'p', get: () => '', scopes: ['say "hi"'] })).toThrow(/prompt p: scopes/)
    expect(() => prompt({ name: 'p', get: () => '', scopes: [''] })).toThrow(/prompt p: scopes/)
  })

  it('refuses a tool whose scopes are not OAuth scope names when the server is built, naming the tool and its place in the list', () => {
    const spaced = emcp({ name: 'spaced', description: 'A typo in its scopes.', input: { type: 'object' }, scopes: ['calc:read calc:write'] })
    const fine = emcp({ name: 'fine', description: 'Good scopes.', input: { type: 'object' }, scopes: ['calc:read'] })
    expect(() => mcpServer([fine, spaced], { name: 's', version: '1' })).toThrow(
      /invalid tool list: \/1\/scopes tool spaced: scopes must be a list of OAuth scope names .*got \["calc:read calc:write"\]/,
    )
    expect(() => mcpServer([fine], { name: 's', version: '1' })).not.toThrow()
  })
})
