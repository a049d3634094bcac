/**
 * The official SDK client (@modelcontextprotocol/sdk 1.x) drives the built conformance
 * server (examples/everything.ts) over stdio and over stateful Streamable HTTP, with the
 * same suite for both: resources (list, templates, read as text, blob and template,
 * unknown URIs, subscriptions), prompts (list, get with and without arguments, errors,
 * every content kind) and completion (prompt arguments, template variables).
 *
 * What a child process cannot be made to do runs in process over stateful HTTP:
 * `notifications/resources/updated` and `list_changed` (the server calls
 * `conformanceResources.updated` / `add`), and cancelling a call that waits on ctx.signal.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import {
  LoggingMessageNotificationSchema,
  McpError,
  ResourceListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema,
  type LoggingMessageNotification,
} from '@modelcontextprotocol/sdk/types.js'
import { emcp, mcpServer, resource } from '../../src/index.js'
import { serveHttp } from '../../src/transport/http.js'
import { conformanceResources, everything, testImageBase64 } from '../../examples/everything.js'
import { proxy } from '../../src/sources/proxy/index.js'
import { connectHttp, connectStdio, emcpBin, example, spawnListening, stop, texts, until, type Connection, type Listening } from './children.js'

// ---------------------------------------------------------------------------------------
// helpers


/** Every request the tests make gives up after 5 s. */
const bounded = { timeout: 15_000 } as const

/** The McpError a request fails with (anything else, or success, fails the test). */
const failure = async (request: Promise<unknown>): Promise<McpError> => {
  try {
    await request
  } catch (e) {
    if (e instanceof McpError) return e
    throw e
  }
  throw new Error('expected the request to fail with an McpError')
}

/** The first eight bytes of every PNG file. */
const pngSignature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]

/** Retries a lost stream once, soon, so that nothing outlives the test. */
const reconnectionOptions = { initialReconnectionDelay: 50, maxReconnectionDelay: 100, reconnectionDelayGrowFactor: 1, maxRetries: 1 }

/** A fetch that counts the standalone GET streams the server accepted. */
const countingGets = (opened: { count: number }) => async (url: string | URL, init?: RequestInit): Promise<Response> => {
  const res = await fetch(url, init)
  if ((init?.method ?? 'GET') === 'GET' && res.status === 200) opened.count++
  return res
}

// ---------------------------------------------------------------------------------------
// the conformance server as a child process, over each transport

/** A connection whose dispose also stops the upstream the proxy fronts. */
const alsoStopping = async (c: Connection, upstream: Listening): Promise<Connection> => ({
  ...c,
  dispose: async () => {
    await c.dispose()
    await stop(upstream.child, upstream.exited, 'SIGKILL')
  },
})

const transports = [
  { name: 'stdio', http: false, connect: (): Promise<Connection> => connectStdio(example('everything'), ['--stdio']) },
  {
    name: 'stateful Streamable HTTP',
    http: true,
    connect: (): Promise<Connection> => connectHttp(example('everything'), () => [], (port) => ({ PORT: String(port) })),
  },
  // the same suite through `emcp proxy`: a stdio front on an HTTP upstream, an HTTP front on a stdio upstream
  {
    name: 'emcp proxy <url> --stdio',
    http: false,
    connect: async (): Promise<Connection> => {
      const upstream = await spawnListening(example('everything'), () => [], (port) => ({ PORT: String(port) }))
      return alsoStopping(await connectStdio(emcpBin, ['proxy', upstream.url, '--stdio']), upstream)
    },
  },
  {
    name: 'emcp proxy --http -- <command>',
    http: true,
    connect: (): Promise<Connection> => connectHttp(emcpBin, (port) => ['proxy', '--http', '--port', String(port), '--', process.execPath, example('everything'), '--stdio']),
  },
] as const

describe.each(transports)('everything example over $name, official SDK client: resources, prompts, completion', ({ http, connect }) => {
  let c: Connection
  let client: Client

  beforeAll(async () => {
    c = await connect()
    client = c.client
  })

  afterAll(async () => {
    await c?.dispose()
  })

  it('declares resources (subscribe, listChanged), prompts (listChanged) and completions', () => {
    expect(client.getServerVersion()).toMatchObject({ name: 'emcp-everything', version: '1.0.0' })
    expect(client.getServerCapabilities()).toMatchObject({
      tools: {},
      resources: { subscribe: true, listChanged: true },
      prompts: { listChanged: true },
      completions: {},
    })
    if (http) expect((client.transport as StreamableHTTPClientTransport).sessionId).toMatch(/^[\x21-\x7e]+$/)
  })

  // -------------------------------------------------------------------------------------
  // resources

  it('resources/list: the three static resources, with names, descriptions and MIME types', async () => {
    const { resources, nextCursor } = await client.listResources(undefined, bounded)
    expect(nextCursor).toBeUndefined()
    expect(resources).toEqual([
      { uri: 'test://static-text', name: 'static-text', description: 'A static text resource for testing.', mimeType: 'text/plain' },
      {
        uri: 'test://static-binary',
        name: 'static-binary',
        description: 'A static binary resource (a 1x1 PNG) for testing.',
        mimeType: 'image/png',
      },
      { uri: 'test://watched-resource', name: 'watched-resource', description: 'A resource clients may subscribe to.', mimeType: 'text/plain' },
    ])
  })

  it('resources/templates/list: test://template/{id}/data', async () => {
    const { resourceTemplates, nextCursor } = await client.listResourceTemplates(undefined, bounded)
    expect(nextCursor).toBeUndefined()
    expect(resourceTemplates).toEqual([
      {
        uriTemplate: 'test://template/{id}/data',
        name: 'template-data',
        description: 'Data for an id, from a URI template.',
        mimeType: 'application/json',
      },
    ])
  })

  it('resources/read: a text resource', async () => {
    const { contents } = await client.readResource({ uri: 'test://static-text' }, bounded)
    expect(contents).toEqual([{ uri: 'test://static-text', mimeType: 'text/plain', text: 'This is the content of the static text resource.' }])
  })

  it('resources/read: a binary resource is a base64 blob of a PNG', async () => {
    const { contents } = await client.readResource({ uri: 'test://static-binary' }, bounded)
    expect(contents).toHaveLength(1)
    const first = contents[0]!
    expect(first).toMatchObject({ uri: 'test://static-binary', mimeType: 'image/png' })
    expect('text' in first).toBe(false)
    const blob = 'blob' in first ? first.blob : ''
    expect(blob).toBe(testImageBase64)
    expect([...Buffer.from(blob, 'base64').subarray(0, 8)]).toEqual(pngSignature)
  })

  it('resources/read: a URI the template matches is read with its variable', async () => {
    const { contents } = await client.readResource({ uri: 'test://template/123/data' }, bounded)
    expect(contents).toHaveLength(1)
    const first = contents[0]!
    expect(first).toMatchObject({ uri: 'test://template/123/data', mimeType: 'application/json' })
    const text = 'text' in first ? first.text : ''
    expect(JSON.parse(text)).toEqual({ id: '123', templateTest: true, data: 'Data for ID: 123' })
  })

  it('resources/read: an unknown URI is McpError -32002 with the URI as data', async () => {
    const e = await failure(client.readResource({ uri: 'test://no-such-resource' }, bounded))
    expect(e.code).toBe(-32002)
    expect(e.message).toMatch(/Resource not found/)
    expect(e.data).toEqual({ uri: 'test://no-such-resource' })
    // a URI the template does not match either
    expect((await failure(client.readResource({ uri: 'test://template/123' }, bounded))).code).toBe(-32002)
  })

  it('resources/subscribe and resources/unsubscribe succeed; subscribing to an unknown URI is -32002', async () => {
    await expect(client.subscribeResource({ uri: 'test://watched-resource' }, bounded)).resolves.toEqual({})
    await expect(client.unsubscribeResource({ uri: 'test://watched-resource' }, bounded)).resolves.toEqual({})
    const e = await failure(client.subscribeResource({ uri: 'test://nowhere' }, bounded))
    expect(e.code).toBe(-32002)
    expect(e.data).toEqual({ uri: 'test://nowhere' })
  })

  // -------------------------------------------------------------------------------------
  // prompts

  it('prompts/list: five prompts with names, descriptions and arguments', async () => {
    const { prompts, nextCursor } = await client.listPrompts(undefined, bounded)
    expect(nextCursor).toBeUndefined()
    expect(prompts).toEqual([
      { name: 'test_simple_prompt', description: 'A simple prompt without arguments.' },
      {
        name: 'test_prompt_with_arguments',
        description: 'A prompt with two required arguments.',
        arguments: [
          { name: 'arg1', description: 'First test argument', required: true },
          { name: 'arg2', description: 'Second test argument', required: true },
        ],
      },
      {
        name: 'test_prompt_with_embedded_resource',
        description: 'A prompt that embeds a resource.',
        arguments: [{ name: 'resourceUri', description: 'The URI of the resource to embed', required: true }],
      },
      { name: 'test_input_required_result_prompt', description: 'A prompt that asks the user for its context first (conformance: input-required-result-non-tool-request).' },
      { name: 'test_prompt_with_image', description: 'A prompt with an image.' },
    ])
  })

  it('prompts/get: a simple prompt is one user text message, with the prompt’s description', async () => {
    const r = await client.getPrompt({ name: 'test_simple_prompt' }, bounded)
    expect(r).toEqual({
      description: 'A simple prompt without arguments.',
      messages: [{ role: 'user', content: { type: 'text', text: 'This is a simple prompt for testing.' } }],
    })
  })

  it('prompts/get: the arguments reach the text', async () => {
    const r = await client.getPrompt({ name: 'test_prompt_with_arguments', arguments: { arg1: 'first', arg2: 'second' } }, bounded)
    expect(r.messages).toHaveLength(1)
    expect(r.messages[0]?.role).toBe('user')
    const text = texts([r.messages[0]?.content])[0] ?? ''
    expect(text).toContain('first')
    expect(text).toContain('second')
    expect(text).toBe("Prompt with arguments: arg1='first', arg2='second'")
  })

  it('prompts/get: a missing required argument is McpError -32602 naming it', async () => {
    const e = await failure(client.getPrompt({ name: 'test_prompt_with_arguments', arguments: { arg1: 'only one' } }, bounded))
    expect(e.code).toBe(-32602)
    expect(e.message).toMatch(/missing required argument "arg2"/)
    expect(e.data).toEqual({ name: 'test_prompt_with_arguments', missing: ['arg2'] })
    // no arguments at all: both are named
    const none = await failure(client.getPrompt({ name: 'test_prompt_with_arguments' }, bounded))
    expect(none.code).toBe(-32602)
    expect(none.data).toEqual({ name: 'test_prompt_with_arguments', missing: ['arg1', 'arg2'] })
  })

  it('prompts/get: an unknown prompt is McpError -32602 naming it', async () => {
    const e = await failure(client.getPrompt({ name: 'no_such_prompt' }, bounded))
    expect(e.code).toBe(-32602)
    expect(e.message).toMatch(/Unknown prompt: no_such_prompt/)
    expect(e.data).toEqual({ name: 'no_such_prompt' })
  })

  it('prompts/get: an embedded resource block carries the URI it was given', async () => {
    const r = await client.getPrompt({ name: 'test_prompt_with_embedded_resource', arguments: { resourceUri: 'test://example-resource' } }, bounded)
    expect(r.messages).toEqual([
      {
        role: 'user',
        content: {
          type: 'resource',
          resource: { uri: 'test://example-resource', mimeType: 'text/plain', text: 'Embedded resource content for testing.' },
        },
      },
      { role: 'user', content: { type: 'text', text: 'Please process the embedded resource above.' } },
    ])
  })

  it('prompts/get: an image block is the base64 PNG with its MIME type', async () => {
    const r = await client.getPrompt({ name: 'test_prompt_with_image' }, bounded)
    expect(r.messages).toEqual([
      { role: 'user', content: { type: 'image', data: testImageBase64, mimeType: 'image/png' } },
      { role: 'user', content: { type: 'text', text: 'Please analyze the image above.' } },
    ])
    const image = r.messages[0]?.content
    const data = image?.type === 'image' ? image.data : ''
    expect([...Buffer.from(data, 'base64').subarray(0, 8)]).toEqual(pngSignature)
  })

  // -------------------------------------------------------------------------------------
  // completion

  it('completion/complete: a prompt argument', async () => {
    const r = await client.complete({ ref: { type: 'ref/prompt', name: 'test_prompt_with_arguments' }, argument: { name: 'arg1', value: 'test' } }, bounded)
    expect(r.completion.values).toContain('testValue1')
    expect(r.completion.values).toEqual(['testValue1', 'testValue2'])
    const narrowed = await client.complete(
      { ref: { type: 'ref/prompt', name: 'test_prompt_with_arguments' }, argument: { name: 'arg1', value: 'testValue2' } },
      bounded,
    )
    expect(narrowed.completion.values).toEqual(['testValue2'])
  })

  it('completion/complete: a variable of a resource template', async () => {
    const ref = { type: 'ref/resource', uri: 'test://template/{id}/data' } as const
    const r = await client.complete({ ref, argument: { name: 'id', value: '1' } }, bounded)
    expect(r.completion.values).toEqual(['123'])
    const all = await client.complete({ ref, argument: { name: 'id', value: '' } }, bounded)
    expect(all.completion.values).toEqual(['123', '456', '789'])
  })

  it('completion/complete: an argument without a completer has no values; an unknown reference is -32602', async () => {
    const r = await client.complete({ ref: { type: 'ref/prompt', name: 'test_prompt_with_arguments' }, argument: { name: 'arg2', value: 'x' } }, bounded)
    expect(r.completion.values).toEqual([])
    const e = await failure(client.complete({ ref: { type: 'ref/prompt', name: 'no_such_prompt' }, argument: { name: 'a', value: '' } }, bounded))
    expect(e.code).toBe(-32602)
    const t = await failure(client.complete({ ref: { type: 'ref/resource', uri: 'test://nothing/{x}' }, argument: { name: 'x', value: '' } }, bounded))
    expect(t.code).toBe(-32602)
  })

  it('the server still answers after the errors above', async () => {
    await expect(client.ping(bounded)).resolves.toEqual({})
    const r = await client.callTool({ name: 'test_simple_text', arguments: {} }, undefined, bounded)
    expect(texts(r.content)).toEqual(['This is a simple text response for testing.'])
  })
})

// ---------------------------------------------------------------------------------------
// the conformance server in process: what only the server side can trigger, served directly
// and through a proxy (emcp/proxy) in the same process

/** An in-process server served over stateful HTTP on 127.0.0.1, and how to stop it. */
interface Front {
  readonly url: string
  readonly close: () => Promise<void>
}

const sessions = { sessions: true, port: 0, host: '127.0.0.1' } as const

const fronts = [
  {
    name: 'directly',
    serve: async (server: Parameters<typeof serveHttp>[0]): Promise<Front> => {
      const running = await serveHttp(server, sessions)
      return { url: running.url, close: () => running.close() }
    },
  },
  {
    name: 'through emcp/proxy',
    serve: async (server: Parameters<typeof serveHttp>[0]): Promise<Front> => {
      const upstream = await serveHttp(server, sessions)
      // asked as 2025-11-25: its notifications/cancelled carries the client's reason (a
      // 2026-07-28 upstream over HTTP hears the call's stream close instead)
      const proxied = await proxy({ url: upstream.url }, { prefer: '2025-11-25' })
      const front = await serveHttp(proxied, sessions)
      return {
        url: front.url,
        close: async () => {
          await front.close()
          await proxied.close()
          await upstream.close()
        },
      }
    },
  },
] as const

describe.each(fronts)('everything in process over stateful Streamable HTTP $name, official SDK client: resource notifications', ({ serve }) => {
  /** A client on the in-process server, and what it received. */
  interface Watcher {
    readonly client: Client
    readonly updated: string[]
    listChanged: number
    readonly gets: { count: number }
  }

  const added = resource({ uri: 'test://added-later', name: 'added-later', mimeType: 'text/plain', read: () => 'Added at run time.' })
  let running: Front
  const watchers: Watcher[] = []

  const watch = async (): Promise<Watcher> => {
    const client = new Client({ name: 'emcp-interop-features', version: '0.0.0' })
    const w: Watcher = { client, updated: [], listChanged: 0, gets: { count: 0 } }
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
      w.updated.push(n.params.uri)
    })
    client.setNotificationHandler(ResourceListChangedNotificationSchema, () => {
      w.listChanged++
    })
    const transport = new StreamableHTTPClientTransport(new URL(running.url), { fetch: countingGets(w.gets), reconnectionOptions })
    await client.connect(transport)
    watchers.push(w)
    // what the server sends on its own travels on the GET stream: wait until it is open
    await until(() => w.gets.count > 0, 'the standalone GET stream')
    return w
  }

  let a: Watcher
  let b: Watcher

  beforeAll(async () => {
    running = await serve(everything)
    a = await watch()
    b = await watch()
  })

  afterAll(async () => {
    conformanceResources.remove(added.uri)
    for (const w of watchers) await w.client.close().catch(() => {})
    await running?.close()
  })

  it('serves on 127.0.0.1', () => {
    expect(running.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/)
  })

  it('notifications/resources/updated reaches the sessions subscribed to that URI, and only those', async () => {
    await a.client.subscribeResource({ uri: 'test://watched-resource' }, bounded)
    await b.client.subscribeResource({ uri: 'test://static-text' }, bounded)
    conformanceResources.updated('test://watched-resource')
    conformanceResources.updated('test://static-text')
    await until(() => a.updated.length >= 1, 'notifications/resources/updated for test://watched-resource')
    // both travel on the same GET stream, in order: had b been sent the first, it would be here
    await until(() => b.updated.length >= 1, 'notifications/resources/updated for test://static-text')
    expect(a.updated).toEqual(['test://watched-resource'])
    expect(b.updated).toEqual(['test://static-text'])
    // the resource read after the notification is the current one
    const { contents } = await a.client.readResource({ uri: 'test://watched-resource' }, bounded)
    expect(texts(contents)).toEqual(['Watched resource content.'])
  })

  it('after resources/unsubscribe, updates of that URI no longer arrive', async () => {
    a.updated.length = 0
    b.updated.length = 0
    await a.client.unsubscribeResource({ uri: 'test://watched-resource' }, bounded)
    await a.client.subscribeResource({ uri: 'test://static-text' }, bounded)
    conformanceResources.updated('test://watched-resource')
    conformanceResources.updated('test://static-text')
    // the second one arriving means the first would have arrived before it
    await until(() => a.updated.length >= 1 && b.updated.length >= 1, 'notifications/resources/updated for test://static-text')
    expect(a.updated).toEqual(['test://static-text'])
    expect(b.updated).toEqual(['test://static-text'])
  })

  it('notifications/resources/list_changed reaches every session after add, and the new resource is listed and read', async () => {
    const before = watchers.map((w) => w.listChanged)
    conformanceResources.add(added)
    await until(() => watchers.every((w, i) => w.listChanged > before[i]!), 'notifications/resources/list_changed')
    const { resources } = await a.client.listResources(undefined, bounded)
    expect(resources.map((r) => r.uri)).toEqual(['test://static-text', 'test://static-binary', 'test://watched-resource', 'test://added-later'])
    const { contents } = await b.client.readResource({ uri: 'test://added-later' }, bounded)
    expect(contents).toEqual([{ uri: 'test://added-later', mimeType: 'text/plain', text: 'Added at run time.' }])
  })

  it('and after remove: list_changed again, and the resource is gone (-32002)', async () => {
    const before = watchers.map((w) => w.listChanged)
    expect(conformanceResources.remove(added.uri)).toBe(true)
    await until(() => watchers.every((w, i) => w.listChanged > before[i]!), 'notifications/resources/list_changed')
    const { resources } = await a.client.listResources(undefined, bounded)
    expect(resources.map((r) => r.uri)).toEqual(['test://static-text', 'test://static-binary', 'test://watched-resource'])
    expect((await failure(b.client.readResource({ uri: 'test://added-later' }, bounded))).code).toBe(-32002)
  })
})

// ---------------------------------------------------------------------------------------
// cancellation over stateful HTTP: a tool that waits on ctx.signal, in process

describe.each(fronts)('cancellation over stateful Streamable HTTP in process $name, official SDK client', ({ serve }) => {
  const wait = emcp({
    name: 'wait',
    description: 'Wait `ms` milliseconds unless the call is cancelled first.',
    input: {
      type: 'object',
      properties: { ms: { type: 'integer', minimum: 0, maximum: 10_000 } },
      required: ['ms'],
      additionalProperties: false,
    },
  })
  /** Calls of `wait` that started, and the abort reasons its signal gave. */
  let started = 0
  const aborted: unknown[] = []
  const server = mcpServer([wait], { name: 'cancel-in-process', version: '1' }).implement({
    wait: async ({ ms }, ctx) => {
      started++
      const finished = await new Promise<boolean>((resolve) => {
        if (ctx.signal.aborted) return resolve(false)
        const timer = setTimeout(() => resolve(true), ms)
        ctx.signal.addEventListener(
          'abort',
          () => {
            clearTimeout(timer)
            resolve(false)
          },
          { once: true },
        )
      })
      if (finished) return 'finished'
      aborted.push(ctx.signal.reason)
      ctx.log('notice', 'wait was cancelled', 'wait')
      return 'cancelled'
    },
  })

  let running: Front
  let client: Client
  let transport: StreamableHTTPClientTransport
  const logs: LoggingMessageNotification['params'][] = []
  const clientErrors: Error[] = []

  beforeAll(async () => {
    started = 0
    aborted.length = 0
    running = await serve(server)
    client = new Client({ name: 'emcp-interop-features', version: '0.0.0' })
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
      logs.push(n.params)
    })
    client.onerror = (e) => {
      clientErrors.push(e)
    }
    transport = new StreamableHTTPClientTransport(new URL(running.url), { reconnectionOptions })
    await client.connect(transport)
  })

  afterAll(async () => {
    await client?.close().catch(() => {})
    await running?.close()
  })

  it('aborting the call rejects it at the client, fires ctx.signal with the reason, and the session goes on', async () => {
    await client.setLoggingLevel('debug', bounded)
    const sid = transport.sessionId
    expect(sid).toMatch(/^[\x21-\x7e]+$/)
    const controller = new AbortController()
    const call = client.callTool({ name: 'wait', arguments: { ms: 10_000 } }, undefined, { ...bounded, signal: controller.signal })
    // cancel only once the call runs: a notifications/cancelled that overtook it would be ignored
    await until(() => started === 1, 'the wait tool to start')
    controller.abort('the user gave up')
    const e = await failure(call)
    // the SDK rejects with the reason, wrapped as -32001
    expect(e.code).toBe(-32001)
    expect(e.message).toMatch(/the user gave up/)

    // the handler saw its signal fire, with the reason the client sent
    await until(() => aborted.length === 1, 'ctx.signal to abort')
    expect(aborted).toEqual(['the user gave up'])
    // and its log message, sent after the abort, still reaches the client
    await until(() => logs.some((l) => l.logger === 'wait'), 'the log of the cancelled call')
    expect(logs).toEqual([{ level: 'notice', logger: 'wait', data: 'wait was cancelled' }])

    // the same session answers afterwards
    await expect(client.ping(bounded)).resolves.toEqual({})
    const r = await client.callTool({ name: 'wait', arguments: { ms: 10 } }, undefined, bounded)
    expect(texts(r.content)).toEqual(['finished'])
    expect(transport.sessionId).toBe(sid)
    expect(started).toBe(2)
    expect(aborted).toHaveLength(1)
    // no answer to the cancelled call reached the client (it would be an unknown message id)
    expect(clientErrors.map((x) => x.message)).toEqual([])
  })
})
