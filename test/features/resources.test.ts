import { describe, expect, it } from 'vitest'
import * as O from 'fp-ts/lib/Option.js'
import {
  emcp,
  encode,
  inMemoryClient,
  mcpServer,
  newSession,
  resource,
  resources,
  resourceTemplate,
  type FeatureFactory,
  type Reply,
} from '../../src/index.js'
import { wired } from '../support/wired.js'

const noop = emcp({ name: 'noop', description: 'Does nothing.', input: { type: 'object' } })
const serve = (...features: FeatureFactory[]) =>
  mcpServer([noop], { name: 'res', version: '1' }, { features }).implement({ noop: () => 'ok' })

const readme = resource({ uri: 'docs://readme', name: 'readme', title: 'Read me', mimeType: 'text/markdown', read: () => '# Hello' })
const logo = resource({ uri: 'docs://logo.png', name: 'logo', mimeType: 'image/png', size: 4, read: () => new Uint8Array([0x89, 0x50, 0x4e, 0x47]) })
const page = resourceTemplate({
  uriTemplate: 'docs://pages/{slug}{?rev}',
  name: 'page',
  description: 'A page of the manual.',
  mimeType: 'text/plain',
  read: ({ slug, rev }, ctx) => `${slug}@${rev ?? 'head'} (${ctx.uri})`,
  list: () => [{ uri: 'docs://pages/intro', name: 'intro' }, { uri: 'docs://pages/setup', name: 'setup', mimeType: 'text/markdown' }],
  complete: {
    slug: (value) => ['intro', 'install', 'setup'].filter((s) => s.startsWith(value)),
    rev: async (_value, { arguments: a }) => ({ values: a.slug === 'intro' ? ['1', '2'] : ['1'], total: 9, hasMore: true }),
  },
})
const file = resourceTemplate({
  uriTemplate: 'file:///{+path}',
  name: 'file',
  read: ({ path }) => [
    { uri: `file:///${path}`, mimeType: 'text/plain', text: 'body' },
    { uri: `file:///${path}.sig`, blob: 'AAE=' },
  ],
})

describe('resources: resources/list and resources/templates/list', () => {
  const server = serve(resources([readme, logo, page, file]))

  it('lists the static resources, then what templates list (with the template’s MIME type)', async () => {
    expect(await inMemoryClient(server).request('resources/list')).toEqual({
      resources: [
        { uri: 'docs://readme', name: 'readme', title: 'Read me', mimeType: 'text/markdown' },
        { uri: 'docs://logo.png', name: 'logo', mimeType: 'image/png', size: 4 },
        { uri: 'docs://pages/intro', name: 'intro', mimeType: 'text/plain' },
        { uri: 'docs://pages/setup', name: 'setup', mimeType: 'text/markdown' },
      ],
    })
  })

  it('lists the templates on the wire, without their functions', async () => {
    expect(await inMemoryClient(server).request('resources/templates/list')).toEqual({
      resourceTemplates: [
        { uriTemplate: 'docs://pages/{slug}{?rev}', name: 'page', description: 'A page of the manual.', mimeType: 'text/plain' },
        { uriTemplate: 'file:///{+path}', name: 'file' },
      ],
    })
  })

  it('pages both lists with cursors, and refuses a cursor it did not hand out with -32602', async () => {
    const paged = serve(resources([readme, logo, page, file], { pageSize: 3 }))
    const client = inMemoryClient(paged)
    const first = (await client.request('resources/list')) as { resources: Array<{ uri: string }>; nextCursor: string }
    expect(first.resources.map((r) => r.uri)).toEqual(['docs://readme', 'docs://logo.png', 'docs://pages/intro'])
    const second = (await client.request('resources/list', { cursor: first.nextCursor })) as { resources: Array<{ uri: string }>; nextCursor?: string }
    expect(second.resources.map((r) => r.uri)).toEqual(['docs://pages/setup'])
    expect(second.nextCursor).toBeUndefined()
    const templates = (await client.request('resources/templates/list')) as { resourceTemplates: unknown[]; nextCursor?: string }
    expect(templates.resourceTemplates).toHaveLength(2)
    expect(templates.nextCursor).toBeUndefined()
    await expect(client.request('resources/list', { cursor: 'nope' })).rejects.toMatchObject({ code: -32602 })
    await expect(client.request('resources/templates/list', { cursor: first.nextCursor })).rejects.toMatchObject({ code: -32602 })
    await expect(client.request('resources/list', { cursor: 7 })).rejects.toMatchObject({ code: -32602 })
  })

  it('serves precomputed pages when no template lists its resources', async () => {
    const client = inMemoryClient(serve(resources([readme, file], { pageSize: 1 })))
    const first = (await client.request('resources/list')) as { resources: Array<{ uri: string }>; nextCursor?: string }
    expect(first).toEqual({ resources: [{ uri: 'docs://readme', name: 'readme', title: 'Read me', mimeType: 'text/markdown' }] })
  })

  it('refuses a page size that is not a positive integer', () => {
    expect(() => resources([readme], { pageSize: 0 })).toThrow(TypeError)
  })
})

describe('resources: resources/read', () => {
  const server = serve(resources([readme, logo, page, file]))
  const client = inMemoryClient(server)

  it('turns text into text contents with the resource’s MIME type', async () => {
    expect(await client.request('resources/read', { uri: 'docs://readme' })).toEqual({
      contents: [{ uri: 'docs://readme', mimeType: 'text/markdown', text: '# Hello' }],
    })
  })

  it('turns bytes into a base64 blob', async () => {
    expect(await client.request('resources/read', { uri: 'docs://logo.png' })).toEqual({
      contents: [{ uri: 'docs://logo.png', mimeType: 'image/png', blob: 'iVBORw==' }],
    })
  })

  it('reads through a template with the URI’s variables, decoded, and the URI in ctx', async () => {
    expect(await client.request('resources/read', { uri: 'docs://pages/getting%20started?rev=3' })).toEqual({
      contents: [{ uri: 'docs://pages/getting%20started?rev=3', mimeType: 'text/plain', text: 'getting started@3 (docs://pages/getting%20started?rev=3)' }],
    })
    expect(await client.request('resources/read', { uri: 'docs://pages/intro' })).toMatchObject({ contents: [{ text: 'intro@head (docs://pages/intro)' }] })
  })

  it('passes contents through as they are', async () => {
    expect(await client.request('resources/read', { uri: 'file:///etc/hosts' })).toEqual({
      contents: [
        { uri: 'file:///etc/hosts', mimeType: 'text/plain', text: 'body' },
        { uri: 'file:///etc/hosts.sig', blob: 'AAE=' },
      ],
    })
  })

  it('prefers a static resource to a template that also matches', async () => {
    const exact = resource({ uri: 'file:///motd', name: 'motd', read: () => 'exact' })
    const c = inMemoryClient(serve(resources([file, exact])))
    expect(await c.request('resources/read', { uri: 'file:///motd' })).toEqual({ contents: [{ uri: 'file:///motd', text: 'exact' }] })
  })

  it('accepts one contents object, a whole result, and asynchronous reads', async () => {
    const one = resource({ uri: 'x://one', name: 'one', read: async () => ({ uri: 'x://one', blob: 'AA==', mimeType: 'application/octet-stream' }) })
    const whole = resource({ uri: 'x://whole', name: 'whole', read: () => ({ contents: [{ uri: 'x://whole', text: 't' }], _meta: { etag: '1' } }) })
    const c = inMemoryClient(serve(resources([one, whole])))
    expect(await c.request('resources/read', { uri: 'x://one' })).toEqual({ contents: [{ uri: 'x://one', blob: 'AA==', mimeType: 'application/octet-stream' }] })
    expect(await c.request('resources/read', { uri: 'x://whole' })).toEqual({ contents: [{ uri: 'x://whole', text: 't' }], _meta: { etag: '1' } })
  })

  it('answers an unknown URI with -32002 "Resource not found" and the URI as data (MCP 2025-11-25)', async () => {
    await expect(client.request('resources/read', { uri: 'docs://nope' })).rejects.toMatchObject({
      code: -32002,
      message: 'Resource not found',
      data: { uri: 'docs://nope' },
    })
    await expect(client.request('resources/read', { uri: 'docs://pages/a/b' })).rejects.toMatchObject({ code: -32002 })
  })

  it('answers -32002 when a read finds nothing after all (it returns undefined)', async () => {
    const pages: Record<string, string> = { intro: 'Welcome' }
    const wiki = resourceTemplate({ uriTemplate: 'wiki://{slug}', name: 'wiki', read: async ({ slug }) => pages[slug] })
    const c = inMemoryClient(serve(resources([wiki])))
    expect(await c.request('resources/read', { uri: 'wiki://intro' })).toEqual({ contents: [{ uri: 'wiki://intro', text: 'Welcome' }] })
    await expect(c.request('resources/read', { uri: 'wiki://gone' })).rejects.toMatchObject({ code: -32002, data: { uri: 'wiki://gone' } })
  })

  it('refuses a missing uri with -32602', async () => {
    await expect(client.request('resources/read', {})).rejects.toMatchObject({ code: -32602 })
  })

  it('answers a read that fails or returns nonsense with -32603', async () => {
    const broken = resource({ uri: 'x://broken', name: 'broken', read: () => { throw new Error('disk on fire') } })
    const rejects = resource({ uri: 'x://rejects', name: 'rejects', read: () => Promise.reject(new Error('later fire')) })
    const odd = resource({ uri: 'x://odd', name: 'odd', read: () => 42 as unknown as string })
    const c = inMemoryClient(serve(resources([broken, rejects, odd])))
    await expect(c.request('resources/read', { uri: 'x://broken' })).rejects.toMatchObject({ code: -32603, message: expect.stringContaining('disk on fire') })
    await expect(c.request('resources/read', { uri: 'x://rejects' })).rejects.toMatchObject({ code: -32603, message: expect.stringContaining('later fire') })
    await expect(c.request('resources/read', { uri: 'x://odd' })).rejects.toMatchObject({ code: -32603, message: expect.stringContaining('x://odd') })
  })

  it('gives a read the handler context: cancellation aborts its signal and drops the answer', async () => {
    let seen: AbortSignal | undefined
    const slow = resource({
      uri: 'x://slow',
      name: 'slow',
      read: (ctx) =>
        new Promise<string>((resolve) => {
          seen = ctx.signal
          ctx.signal.addEventListener('abort', () => resolve('aborted'))
        }),
    })
    const s = serve(resources([slow]))
    const { session } = await wired(s)
    const pending = s.dispatch({ jsonrpc: '2.0', id: 'r', method: 'resources/read', params: { uri: 'x://slow' } }, session)()
    await new Promise((r) => setTimeout(r, 5))
    expect(session.inFlight.has('r')).toBe(true)
    await s.dispatch({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'r' } }, session)()
    expect(seen?.aborted).toBe(true)
    expect(await pending).toEqual(O.none)
    expect(session.inFlight.has('r')).toBe(false)
  })
})

describe('resources: subscriptions (resources/subscribe, notifications/resources/updated)', () => {
  it('declares subscribe and listChanged', async () => {
    const out = await serve(resources([readme], { subscribe: true })).dispatch(
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } } },
      newSession(),
    )()
    const m = JSON.parse(encode((out as O.Some<Reply>).value)) as { result: { capabilities: Record<string, unknown> } }
    expect(m.result.capabilities).toMatchObject({ resources: { subscribe: true, listChanged: true } })
  })

  it('tells only the sessions subscribed to a URI that it changed, until they unsubscribe', async () => {
    const docs = resources([readme, page], { subscribe: true })
    const server = serve(docs)
    const a = await wired(server)
    const b = await wired(server)
    expect(await a.request('resources/subscribe', { uri: 'docs://readme' })).toMatchObject({ result: {} })
    expect(await b.request('resources/subscribe', { uri: 'docs://pages/intro' })).toMatchObject({ result: {} })
    docs.updated('docs://readme')
    docs.updated('docs://pages/intro')
    docs.updated('docs://pages/other')
    expect(a.sent).toEqual([{ jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: 'docs://readme' } }])
    expect(b.sent).toEqual([{ jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: 'docs://pages/intro' } }])
    expect(await a.request('resources/unsubscribe', { uri: 'docs://readme' })).toMatchObject({ result: {} })
    expect(await a.request('resources/unsubscribe', { uri: 'docs://never' })).toMatchObject({ result: {} })
    docs.updated('docs://readme')
    expect(a.sent).toHaveLength(1)
  })

  it('forgets a released session’s subscriptions', async () => {
    const docs = resources([readme], { subscribe: true })
    const server = serve(docs)
    const a = await wired(server)
    await a.request('resources/subscribe', { uri: 'docs://readme' })
    server.release(a.session)
    server.hub.add(a.session) // even if it were reachable again, it subscribed to nothing
    docs.updated('docs://readme')
    expect(a.sent).toEqual([])
  })

  it('refuses to subscribe to a URI it cannot read (-32002) or without a uri (-32602)', async () => {
    const a = await wired(serve(resources([readme], { subscribe: true })))
    expect(await a.request('resources/subscribe', { uri: 'docs://nope' })).toMatchObject({ error: { code: -32002, data: { uri: 'docs://nope' } } })
    expect(await a.request('resources/subscribe', {})).toMatchObject({ error: { code: -32602 } })
  })

  it('without subscribe: declares subscribe false and does not know the methods (-32601)', async () => {
    const docs = resources([readme])
    const a = await wired(serve(docs))
    expect(await a.request('resources/subscribe', { uri: 'docs://readme' })).toMatchObject({ error: { code: -32601 } })
    docs.updated('docs://readme')
    expect(a.sent).toEqual([])
  })
})

describe('resources: add and remove (notifications/resources/list_changed)', () => {
  it('serves what was added, forgets what was removed, and tells every reachable session', async () => {
    const docs = resources([readme])
    const server = serve(docs)
    const a = await wired(server)
    docs.add(logo)
    docs.add(file)
    expect(await a.request('resources/read', { uri: 'docs://logo.png' })).toMatchObject({ result: { contents: [{ blob: 'iVBORw==' }] } })
    expect(docs.remove('docs://readme')).toBe(true)
    expect(docs.remove('file:///{+path}')).toBe(true)
    expect(docs.remove('docs://readme')).toBe(false)
    expect(await a.request('resources/read', { uri: 'docs://readme' })).toMatchObject({ error: { code: -32002 } })
    expect(await a.request('resources/templates/list')).toEqual({ jsonrpc: '2.0', id: 3, result: { resourceTemplates: [] } })
    expect(await a.request('resources/list')).toMatchObject({ result: { resources: [{ uri: 'docs://logo.png' }] } })
    expect(a.sent.map((m) => m.method)).toEqual(Array(4).fill('notifications/resources/list_changed'))
    expect(docs.list()).toEqual([logo])
  })

  it('sends list_changed on demand, when what a template lists has changed', async () => {
    const docs = resources([page])
    const a = await wired(serve(docs))
    docs.listChanged()
    expect(a.sent).toEqual([{ jsonrpc: '2.0', method: 'notifications/resources/list_changed' }])
  })

  it('refuses to add a URI or template it already serves', () => {
    const docs = resources([readme, file])
    expect(() => docs.add(resource({ uri: 'docs://readme', name: 'again', read: () => '' }))).toThrow(/duplicate resource uri docs:\/\/readme/)
    expect(() => docs.add(file)).toThrow(/duplicate resource template file:\/\/\/\{\+path\}/)
  })

  it('reaches the sessions of every server it is plugged into', async () => {
    const docs = resources([readme], { subscribe: true })
    const one = await wired(serve(docs))
    const two = await wired(serve(docs))
    await one.request('resources/subscribe', { uri: 'docs://readme' })
    await two.request('resources/subscribe', { uri: 'docs://readme' })
    docs.updated('docs://readme')
    expect([one.sent.length, two.sent.length]).toEqual([1, 1])
  })
})

describe('resources: completion/complete for template variables', () => {
  const client = inMemoryClient(serve(resources([readme, page, file])))
  const complete = (uri: string, name: string, value: string, context?: Record<string, unknown>) =>
    client.request('completion/complete', { ref: { type: 'ref/resource', uri }, argument: { name, value }, ...(context ? { context } : {}) })

  it('answers a ref/resource naming a template, through the variable’s completer', async () => {
    expect(await complete('docs://pages/{slug}{?rev}', 'slug', 'in')).toEqual({ completion: { values: ['intro', 'install'] } })
  })

  it('passes the arguments already resolved, and a Completion as it is', async () => {
    expect(await complete('docs://pages/{slug}{?rev}', 'rev', '', { arguments: { slug: 'intro' } })).toEqual({
      completion: { values: ['1', '2'], total: 9, hasMore: true },
    })
  })

  it('answers no values for a variable without a completer, and -32602 for a URI that is no template', async () => {
    expect(await complete('file:///{+path}', 'path', 'a')).toEqual({ completion: { values: [] } })
    expect(await complete('docs://pages/{slug}{?rev}', 'toString', '')).toEqual({ completion: { values: [] } })
    await expect(complete('docs://readme', 'x', '')).rejects.toMatchObject({ code: -32602 })
  })
})

describe('resources: definitions checked when built', () => {
  it('refuses a URI without a scheme, an empty name and a bad template', () => {
    expect(() => resource({ uri: 'readme.md', name: 'r', read: () => '' })).toThrow(/absolute URI/)
    expect(() => resource({ uri: 'x://r', name: '', read: () => '' })).toThrow(/name must be a non-empty string/)
    expect(() => resourceTemplate({ uriTemplate: 'x://{a', name: 't', read: () => '' })).toThrow(/never closed/)
  })

  it('refuses a completer for a variable the template does not have', () => {
    const complete = { nope: () => [] } as unknown as { a: () => string[] }
    expect(() => resourceTemplate({ uriTemplate: 'x://{a}', name: 't', read: () => '', complete })).toThrow(/nope, which is not one of its variables/)
  })

  it('refuses duplicates and things that are not resources in the list', () => {
    expect(() => resources([readme, readme])).toThrow(/duplicate resource uri docs:\/\/readme/)
    expect(() => resources([{ uri: 'x://y' } as never])).toThrow(/neither a resource nor a template/)
  })
})
