/**
 * input_required (2026-07-28 multi round-trip requests) through the public dispatcher: the
 * handler API for elicitation, sampling and roots answers a 2026 client with
 * `resultType: "input_required"` and a signed `requestState`, and the retry carrying
 * `inputResponses` resumes the work, on this server value or on another with the same key.
 */
import { describe, expect, it } from 'vitest'
import * as O from 'fp-ts/lib/Option.js'
import { emcp, encode, mcpServer, newSession, outbound, prompt, prompts, resource, resources, type Server, type ServerOptions, type Session } from '../../../src/index.js'

const V = '2026-07-28'
const allCaps = { elicitation: { form: {} }, sampling: {}, roots: {} }
const envelope = (caps: object = allCaps) => ({ 'io.modelcontextprotocol/protocolVersion': V, 'io.modelcontextprotocol/clientCapabilities': caps })

const trip = emcp({
  name: 'trip',
  description: 'Asks the user for a name, then the model for a motto, then lists roots.',
  input: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  output: { type: 'object', properties: { line: { type: 'string' } }, required: ['line'] },
})
const both = emcp({ name: 'both', description: 'Asks two things at once.', input: { type: 'object' } })
const polite = emcp({ name: 'polite', description: 'Asks if it can, carries on if not.', input: { type: 'object' } })

let runs = 0
const serverWith = (options: ServerOptions = {}): Server =>
  mcpServer([trip, both, polite], { name: 'mrtr', version: '1.0.0' }, {
    requestState: { key: 'a test key of enough length' },
    features: [
      prompts([
        prompt({
          name: 'hello',
          description: 'Greets whoever the user says.',
          get: async (_args, ctx) => {
            const r = await ctx.elicit({ message: 'Who?', requestedSchema: { type: 'object', properties: { who: { type: 'string' } }, required: ['who'] } })
            return `Hello ${r.action === 'accept' ? r.content.who : 'nobody'}`
          },
        }),
      ]),
      resources([
        resource({
          uri: 'app://secret',
          name: 'secret',
          read: async (ctx) => {
            const r = await ctx.elicit({ message: 'Password?', requestedSchema: { type: 'object', properties: { pw: { type: 'string' } }, required: ['pw'] } })
            return r.action === 'accept' && r.content.pw === 'open' ? 'the secret' : 'nothing'
          },
        }),
      ]),
    ],
    ...options,
  }).implement({
    trip: async ({ city }, ctx) => {
      runs++
      const name = await ctx.elicit({ message: 'Your name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } })
      if (name.action !== 'accept') return { line: 'no name' }
      const motto = await ctx.sample({ messages: [{ role: 'user', content: { type: 'text', text: `A motto for ${city}` } }], maxTokens: 20 })
      const roots = await ctx.roots()
      const block = Array.isArray(motto.content) ? motto.content[0] : motto.content
      const text = block !== undefined && 'text' in block ? block.text : ''
      return { line: `${name.content.name} in ${city}: ${text} (${roots.length} roots)` }
    },
    both: async (_args, ctx) => {
      const [roots, answer] = await Promise.all([ctx.roots(), ctx.elicit({ message: 'OK?', requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } } })])
      return `${roots.map((r) => r.uri).join(',')} ${answer.action}`
    },
    polite: async (_args, ctx) => {
      try {
        await ctx.roots()
        return 'had roots'
      } catch (e) {
        return `carried on: ${(e as Error).message}`
      }
    },
  }) as unknown as Server

let id = 1
const call = async (server: Server, method: string, params: Record<string, unknown>, caps: object = allCaps, session: Session = newSession()) => {
  const out = await server.dispatch({ jsonrpc: '2.0', id: id++, method, params: { ...params, _meta: envelope(caps) } }, session)()
  if (O.isNone(out)) throw new Error('no answer')
  return JSON.parse(encode(out.value)) as { result?: any; error?: { code: number; message: string; data?: any } }
}

const accept = (content: object) => ({ action: 'accept', content })
const motto = { role: 'assistant', content: { type: 'text', text: 'Always forward' }, model: 'm-1' }

describe('input_required: the handler API in 2026-07-28', () => {
  it('asks through inputRequests and resumes on each retry until the work is complete; no request goes to the client', async () => {
    const server = serverWith()
    const sent: unknown[] = []
    const session = newSession(undefined, outbound((m) => sent.push(m)))
    const params = { name: 'trip', arguments: { city: 'Oslo' } }
    const first = await call(server, 'tools/call', params, allCaps, session)
    expect(first.result.resultType).toBe('input_required')
    expect(first.result.inputRequests).toEqual({
      'input-0': {
        method: 'elicitation/create',
        params: { mode: 'form', message: 'Your name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } },
      },
    })
    expect(typeof first.result.requestState).toBe('string')
    expect(first.result._meta['io.modelcontextprotocol/serverInfo']).toEqual({ name: 'mrtr', version: '1.0.0' })
    // Interim results are not cacheable and carry no caching hints
    expect(first.result.ttlMs).toBeUndefined()

    const second = await call(server, 'tools/call', { ...params, inputResponses: { 'input-0': accept({ name: 'Ada' }) }, requestState: first.result.requestState }, allCaps, session)
    expect(second.result.resultType).toBe('input_required')
    expect(Object.keys(second.result.inputRequests)).toEqual(['input-1'])
    expect(second.result.inputRequests['input-1'].method).toBe('sampling/createMessage')

    const third = await call(server, 'tools/call', { ...params, inputResponses: { 'input-1': motto }, requestState: second.result.requestState }, allCaps, session)
    expect(third.result.inputRequests).toEqual({ 'input-2': { method: 'roots/list', params: {} } })

    const done = await call(server, 'tools/call', { ...params, inputResponses: { 'input-2': { roots: [{ uri: 'file:///a' }] } }, requestState: third.result.requestState }, allCaps, session)
    expect(done.result).toMatchObject({ resultType: 'complete', structuredContent: { line: 'Ada in Oslo: Always forward (1 roots)' } })
    expect(sent).toEqual([])
  })

  it('collects the questions a handler asks in the same turn into one input_required result', async () => {
    const server = serverWith()
    const first = await call(server, 'tools/call', { name: 'both', arguments: {} })
    expect(Object.keys(first.result.inputRequests)).toEqual(['input-0', 'input-1'])
    const done = await call(server, 'tools/call', {
      name: 'both',
      arguments: {},
      inputResponses: { 'input-0': { roots: [{ uri: 'file:///r' }] }, 'input-1': { action: 'decline' } },
      requestState: first.result.requestState,
    })
    expect(done.result.content[0].text).toBe('file:///r decline')
  })

  it('if the client fails to send all the information requested, the server SHOULD respond with a new InputRequiredResult requesting it again', async () => {
    const server = serverWith()
    const first = await call(server, 'tools/call', { name: 'both', arguments: {} })
    const again = await call(server, 'tools/call', {
      name: 'both',
      arguments: {},
      inputResponses: { 'input-0': { roots: [] } },
      requestState: first.result.requestState,
    })
    expect(again.result.resultType).toBe('input_required')
    expect(Object.keys(again.result.inputRequests)).toEqual(['input-1'])
  })

  it('works for prompts/get and resources/read too', async () => {
    const server = serverWith()
    const p = await call(server, 'prompts/get', { name: 'hello' })
    expect(p.result.resultType).toBe('input_required')
    const pDone = await call(server, 'prompts/get', { name: 'hello', inputResponses: { 'input-0': accept({ who: 'Bo' }) }, requestState: p.result.requestState })
    expect(pDone.result.messages[0].content.text).toBe('Hello Bo')
    const r = await call(server, 'resources/read', { uri: 'app://secret' })
    const rDone = await call(server, 'resources/read', { uri: 'app://secret', inputResponses: { 'input-0': accept({ pw: 'open' }) }, requestState: r.result.requestState })
    expect(rDone.result.contents[0].text).toBe('the secret')
  })
})

describe('input_required: requestState is tamper-evident', () => {
  const firstState = async (server: Server) => (await call(server, 'tools/call', { name: 'trip', arguments: { city: 'Oslo' } })).result.requestState as string

  it('servers MUST reject state that fails verification: an altered state is refused with a clear error', async () => {
    const server = serverWith()
    const state = await firstState(server)
    const [body, mac] = state.split('.') as [string, string]
    const payload = JSON.parse(Buffer.from(body, 'base64url').toString())
    const forged = Buffer.from(JSON.stringify({ ...payload, answers: [accept({ name: 'Mallory' })], pending: ['sampling/createMessage'] })).toString('base64url')
    const m = await call(server, 'tools/call', { name: 'trip', arguments: { city: 'Oslo' }, requestState: `${forged}.${mac}` })
    expect(m.error?.code).toBe(-32602)
    expect(m.error?.message).toMatch(/not issued by this server or has been altered/)
    expect((await call(server, 'tools/call', { name: 'trip', arguments: { city: 'Oslo' }, requestState: 'garbage' })).error?.code).toBe(-32602)
  })

  it('refuses a state signed with another key (a foreign server)', async () => {
    const foreign = await firstState(serverWith({ requestState: { key: 'another key, same length or not' } }))
    const m = await call(serverWith(), 'tools/call', { name: 'trip', arguments: { city: 'Oslo' }, requestState: foreign })
    expect(m.error?.message).toMatch(/not issued by this server/)
  })

  it('refuses a state presented on a request that does not match the one it was made for', async () => {
    const server = serverWith()
    const state = await firstState(server)
    const m = await call(server, 'tools/call', { name: 'trip', arguments: { city: 'Rome' }, requestState: state })
    expect(m.error?.message).toMatch(/belongs to another request/)
  })

  it('refuses an expired state', async () => {
    const server = serverWith({ requestState: { key: 'a test key of enough length', ttlMs: 0 } })
    const state = await firstState(server)
    await new Promise((r) => setTimeout(r, 5))
    expect((await call(server, 'tools/call', { name: 'trip', arguments: { city: 'Oslo' }, requestState: state })).error?.message).toMatch(/expired/)
  })

  it('carries what the next step needs: a retry on another server value with the same key succeeds', async () => {
    const state = await firstState(serverWith())
    const other = serverWith()
    const m = await call(other, 'tools/call', { name: 'trip', arguments: { city: 'Oslo' }, inputResponses: { 'input-0': { action: 'cancel' } }, requestState: state })
    expect(m.result).toMatchObject({ resultType: 'complete', structuredContent: { line: 'no name' } })
  })

  it('refuses keys too short to protect anything', () => {
    expect(() => serverWith({ requestState: { key: 'short' } })).toThrow(/16 bytes/)
  })
})

describe('input_required: capabilities', () => {
  it('servers MUST NOT send inputRequests the client has not declared: -32021 naming the missing capability', async () => {
    const m = await call(serverWith(), 'tools/call', { name: 'trip', arguments: { city: 'Oslo' } }, { sampling: {} })
    expect(m.error?.code).toBe(-32021)
    expect(m.error?.data).toEqual({ requiredCapabilities: { elicitation: { form: {} } } })
  })

  it('a handler that catches the refusal carries on', async () => {
    const m = await call(serverWith(), 'tools/call', { name: 'polite', arguments: {} }, {})
    expect(m.result.content[0].text).toMatch(/^carried on: the client did not declare the "roots" capability/)
  })
})

describe('the same handlers in 2025-11-25: real requests to the client', () => {
  it('elicitation, sampling and roots go to the client as requests and the call completes in one round', async () => {
    const server = serverWith()
    const sent: any[] = []
    const session = newSession(undefined, outbound((m) => sent.push(m)))
    await server.dispatch({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: allCaps, clientInfo: { name: 'c', version: '1' } } }, session)()
    runs = 0
    const answers: Record<string, unknown> = { 'elicitation/create': accept({ name: 'Lin' }), 'sampling/createMessage': motto, 'roots/list': { roots: [] } }
    const pending = server.dispatch({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'trip', arguments: { city: 'Kyiv' } } }, session)()
    for (let i = 0; i < 3; i++) {
      await new Promise((r) => setTimeout(r, 5))
      const req = sent[i]
      await server.dispatch({ jsonrpc: '2.0', id: req.id, result: answers[req.method] }, session)()
    }
    const out = O.toUndefined(await pending) as { result: any }
    expect(out.result.structuredContent).toEqual({ line: 'Lin in Kyiv: Always forward (0 roots)' })
    expect(out.result.resultType).toBeUndefined()
    expect(runs).toBe(1)
  })
})

describe('input_required: named questions (RequestOptions.key)', () => {
  const named = emcp({ name: 'named', description: 'Asks under keys of its own.', input: { type: 'object' } })
  const server = mcpServer([named], { name: 'keys', version: '1' }, { requestState: { key: 'a test key of enough length' } }).implement({
    named: async (_a, ctx) => {
      const who = await ctx.elicit({ message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } }, { key: 'user_name' })
      const roots = await ctx.roots()
      return `${who.content?.name ?? '?'} with ${roots.length} roots`
    },
  })
  const call = async (extra: object = {}): Promise<any> => {
    const out = await server.dispatch({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'named', arguments: {}, ...extra, _meta: envelope() } }, newSession())()
    return O.isSome(out) ? JSON.parse(encode(out.value)).result : undefined
  }

  it('shows a question under the key the handler gave it, takes its answer by that key, and numbers the unnamed ones', async () => {
    const first = await call()
    expect(Object.keys(first.inputRequests)).toEqual(['user_name'])
    const second = await call({ requestState: first.requestState, inputResponses: { user_name: { action: 'accept', content: { name: 'Alice' } } } })
    expect(second.resultType).toBe('input_required')
    expect(Object.keys(second.inputRequests)).toEqual(['input-1'])
    const third = await call({ requestState: second.requestState, inputResponses: { 'input-1': { roots: [{ uri: 'file:///a' }] } } })
    expect(third).toMatchObject({ resultType: 'complete', content: [{ type: 'text', text: 'Alice with 1 roots' }] })
  })

  it('servers SHOULD ignore information they do not recognise: answers sent ahead, beside unknown keys, complete the call without a round trip', async () => {
    const done = await call({
      inputResponses: {
        user_name: { action: 'accept', content: { name: 'Bob' } },
        'input-1': { roots: [] },
        unknown_extra_key: { action: 'accept', content: { foo: 'bar' } },
      },
    })
    expect(done).toMatchObject({ resultType: 'complete', content: [{ type: 'text', text: 'Bob with 0 roots' }] })
  })

  it('takes an answer sent ahead and asks, in a state carrying it, for the rest', async () => {
    const first = await call({ inputResponses: { user_name: { action: 'accept', content: { name: 'Cy' } } } })
    expect(first.resultType).toBe('input_required')
    expect(Object.keys(first.inputRequests)).toEqual(['input-1'])
    const done = await call({ requestState: first.requestState, inputResponses: { 'input-1': { roots: [{ uri: 'file:///c' }] } } })
    expect(done).toMatchObject({ resultType: 'complete', content: [{ type: 'text', text: 'Cy with 1 roots' }] })
  })

  it('servers SHOULD validate inputResponses: a malformed answer sent ahead (or null) is not taken, the question is asked', async () => {
    for (const inputResponses of [{ user_name: 12345 }, null, { user_name: { action: 'maybe' } }]) {
      const r = await call({ inputResponses })
      expect(r.resultType).toBe('input_required')
      expect(Object.keys(r.inputRequests)).toEqual(['user_name'])
    }
  })
})

describe('input_required: keys are unique per request', () => {
  it('a name used twice in one attempt gets a suffix, and each answer is taken by its own key', async () => {
    const twice = emcp({ name: 'twice', description: 'Asks two things under one name.', input: { type: 'object' } })
    const server = mcpServer([twice], { name: 'k', version: '1' }).implement({
      twice: async (_a, ctx) => {
        const form = { type: 'object', properties: {} } as const
        const [a, b] = await Promise.all([ctx.elicit({ message: 'One?', requestedSchema: form }, { key: 'q' }), ctx.elicit({ message: 'Two?', requestedSchema: form }, { key: 'q' })])
        return `${a.action} ${b.action}`
      },
    }) as unknown as Server
    const first = await call(server, 'tools/call', { name: 'twice', arguments: {} })
    expect(Object.keys(first.result.inputRequests)).toEqual(['q', 'q-2'])
    const done = await call(server, 'tools/call', {
      name: 'twice',
      arguments: {},
      inputResponses: { q: { action: 'accept', content: {} }, 'q-2': { action: 'decline' } },
      requestState: first.result.requestState,
    })
    expect(done.result.content[0].text).toBe('accept decline')
  })
})
