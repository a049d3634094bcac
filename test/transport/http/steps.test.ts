/**
 * Unit tests of the HTTP chain's steps, one `describe` per step, each driven with a real
 * request object (the shape every adapter builds) and a `next` that records what reached it.
 */
import { describe, expect, it } from 'vitest'
import { emcp, mcpServer } from '../../../src/index.js'
import { bearer } from '../../../src/transport/http/auth.js'
import { body } from '../../../src/transport/http/body.js'
import { compose } from '../../../src/transport/http/compose.js'
import { cors } from '../../../src/transport/http/cors.js'
import { endpoint } from '../../../src/transport/http/endpoint.js'
import { guards } from '../../../src/transport/http/guards.js'
import type { HttpHandler, HttpReply, HttpRequest } from '../../../src/transport/http/model.js'
import { modern } from '../../../src/transport/http/modern.js'
import { negotiate } from '../../../src/transport/http/negotiate.js'
import { replyOf } from '../../../src/transport/http/reply.js'
import * as O from 'fp-ts/lib/Option.js'

// ---------------------------------------------------------------------------------------
// helpers

/** A request as an adapter builds it. */
const request = (init: { method?: string; path?: string; headers?: Record<string, string>; body?: string } = {}): HttpRequest & { reads: number } => {
  const headers = { host: '127.0.0.1:3000', 'content-type': 'application/json', ...init.headers }
  const text = init.body ?? '{"jsonrpc":"2.0","id":1,"method":"ping"}'
  const req = {
    method: init.method ?? 'POST',
    path: init.path ?? '/mcp',
    header: (name: string): string | undefined => headers[name as keyof typeof headers],
    reads: 0,
    readBody: async (limit: number) => {
      req.reads++
      return Buffer.byteLength(text) > limit ? ('too-large' as const) : { text }
    },
    identity: undefined,
    message: undefined as unknown,
  }
  return req
}

const ok: HttpReply = { status: 200, headers: { 'content-type': 'text/plain' }, body: 'next' }

/** A `next` that records the requests it saw. */
const recorder = (): HttpHandler & { seen: HttpRequest[] } => {
  const seen: HttpRequest[] = []
  return Object.assign(async (req: HttpRequest) => (seen.push(req), ok), { seen })
}

const error = (r: HttpReply): { code: number; message: string } => JSON.parse(r.body as string).error

// ---------------------------------------------------------------------------------------
// tests

describe('compose', () => {
  it('runs the steps in order, each able to change the reply on its way back', async () => {
    const order: string[] = []
    const handle = compose(
      [
        async (req, next) => (order.push('a'), { ...(await next(req)), headers: { a: '1' } }),
        (req, next) => (order.push('b'), next(req)),
      ],
      async () => (order.push('end'), ok),
      () => ({ status: 500, headers: {}, body: '' }),
    )
    expect(await handle(request())).toEqual({ ...ok, headers: { a: '1' } })
    expect(order).toEqual(['a', 'b', 'end'])
  })

  it('stops at a step that answers: later steps and the end never run', async () => {
    const end = recorder()
    const handle = compose([async () => ({ status: 418, headers: {}, body: 'tea' })], end, () => ok)
    expect((await handle(request())).status).toBe(418)
    expect(end.seen).toEqual([])
  })

  it('answers a step that throws, or rejects, through its one error exit', async () => {
    const onError = (e: unknown): HttpReply => ({ status: 500, headers: {}, body: String(e) })
    const throws = compose([() => { throw new Error('sync') }], recorder(), onError)
    const rejects = compose([], async () => Promise.reject(new Error('async')), onError)
    expect(await throws(request())).toEqual({ status: 500, headers: {}, body: 'Error: sync' })
    expect(await rejects(request())).toEqual({ status: 500, headers: {}, body: 'Error: async' })
  })
})

describe('guards', () => {
  const step = guards({})
  it('passes loopback hosts and origins', async () => {
    const next = recorder()
    expect(await step(request({ headers: { host: 'localhost:3000', origin: 'http://127.0.0.1:5173' } }), next)).toBe(ok)
    expect(next.seen).toHaveLength(1)
  })
  it('refuses another host, a missing host, and another origin with 403, quoting them clipped', async () => {
    const next = recorder()
    const host = await step(request({ headers: { host: 'evil.example' } }), next)
    expect(host.status).toBe(403)
    expect(error(host).message).toBe('Forbidden: host "evil.example" is not allowed')
    const long = await step(request({ headers: { origin: `http://${'a'.repeat(5000)}.example` } }), next)
    expect(long.status).toBe(403)
    expect(error(long).message.length).toBeLessThan(250)
    const none = request()
    const noHost = { ...none, header: (n: string) => (n === 'host' ? undefined : none.header(n)) }
    expect((await step(noHost, next)).status).toBe(403)
    expect(next.seen).toEqual([])
  })
})

describe('cors', () => {
  const step = cors({}, 'POST, OPTIONS')
  it('answers a preflight with 204, the methods and the allowed origin', async () => {
    const r = await step(request({ method: 'OPTIONS', headers: { origin: 'http://localhost:8080' } }), recorder())
    expect(r.status).toBe(204)
    expect(r.headers).toMatchObject({ 'access-control-allow-methods': 'POST, OPTIONS', 'access-control-allow-origin': 'http://localhost:8080', vary: 'origin' })
  })
  it('names an allowed origin in the answer, and no other', async () => {
    const named = await step(request({ headers: { origin: 'http://localhost:8080' } }), recorder())
    expect(named.headers['access-control-allow-origin']).toBe('http://localhost:8080')
    expect(named.body).toBe('next')
    const other = await step(request({ headers: { origin: 'https://evil.example' } }), recorder())
    expect(other.headers['access-control-allow-origin']).toBeUndefined()
  })
})

describe('endpoint', () => {
  it('passes its path, with or without a query string, and refuses others with 404', async () => {
    const step = endpoint('/mcp')
    expect(await step(request({ path: '/mcp' }), recorder())).toBe(ok)
    const other = await step(request({ path: '/' }), recorder())
    expect(other.status).toBe(404)
    expect(error(other).message).toBe('Not Found: the MCP endpoint is /mcp')
  })
})

describe('auth (bearer)', () => {
  const step = bearer({ verify: (t) => (t === 'good' ? { subject: 'alice', roles: ['admin'] } : undefined), required: true, realm: 'r' })
  it('puts the identity on the request for the steps after it', async () => {
    const next = recorder()
    await step(request({ headers: { authorization: 'Bearer good' } }), next)
    expect(next.seen[0]?.identity).toEqual({ subject: 'alice', roles: ['admin'] })
  })
  it.each([
    [undefined, 'Bearer realm="r"'],
    ['Bearer bad', 'Bearer realm="r", error="invalid_token"'],
    ['Basic abc', 'Bearer realm="r", error="invalid_request"'],
  ])('answers %s with 401 and the challenge %s, before the body is read', async (authorization, challenge) => {
    const req = request({ headers: authorization === undefined ? {} : { authorization } })
    const r = await step(req, recorder())
    expect(r.status).toBe(401)
    expect(r.headers['www-authenticate']).toBe(challenge)
    expect(req.reads).toBe(0)
  })
})

describe('negotiate', () => {
  const step = negotiate({ methods: 'POST', cors: true, modern: false })
  it.each([
    [{ method: 'GET' }, 405],
    [{ headers: { accept: 'text/html' } }, 406],
    [{ headers: { accept: 'application/json;q=0, */*' } }, 406],
    [{ headers: { 'content-type': 'text/plain' } }, 415],
    [{ headers: { 'mcp-protocol-version': '2026-07-28' } }, 400],
    [{ headers: { 'mcp-protocol-version': '1999-01-01' } }, 400],
  ])('refuses %j with %i', async (init, status) => {
    const r = await step(request(init), recorder())
    expect(r.status).toBe(status)
  })
  it('names the methods allowed with a 405', async () => {
    const r = await step(request({ method: 'PUT' }), recorder())
    expect(r.headers.allow).toBe('POST, OPTIONS')
  })
  it('lets a 2026-07-28 header through when that era is served', async () => {
    const next = recorder()
    await negotiate({ methods: 'POST', cors: false, modern: true })(request({ headers: { 'mcp-protocol-version': '2026-07-28' } }), next)
    expect(next.seen).toHaveLength(1)
  })
})

describe('body', () => {
  it('reads and parses the body once, for every step after it', async () => {
    const req = request({ body: '{"jsonrpc":"2.0","id":7,"method":"ping"}' })
    const next = recorder()
    await body({})(req, next)
    expect(req.reads).toBe(1)
    expect(next.seen[0]?.message).toEqual({ jsonrpc: '2.0', id: 7, method: 'ping' })
  })
  it('answers a body over the limit with 413 naming the limit (the adapter reads the rest away, no `Connection: close`), text that is not JSON with 400', async () => {
    const big = await body({ maxBodyBytes: 8 })(request({ body: '{"a":"0123456789"}' }), recorder())
    expect(big.status).toBe(413)
    expect(big.body).toMatch(/8 bytes \(maxBodyBytes\)/)
    expect(big.headers.connection).toBeUndefined()
    const bad = await body({})(request({ body: '{"jsonrpc":' }), recorder())
    expect(bad.status).toBe(400)
    expect(error(bad).code).toBe(-32700)
  })
  it("gives a body's bytes back once it is parsed: a streamed answer still open holds none of them", async () => {
    const step = body({ maxBytesInFlight: 50, maxBytesInFlightPerClient: 0 })
    let finish: () => void = () => {}
    const open = new Promise<void>((resolve) => (finish = resolve))
    const streamed: HttpHandler = async () => ({
      status: 200,
      headers: {},
      body: (async function* () {
        yield 'a'
        await open
      })(),
    })
    const text = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: 'x'.repeat(10) } })
    const first = await step(request({ body: text, headers: { 'content-length': String(text.length) } }), streamed)
    const chunks = (first.body as AsyncIterable<string>)[Symbol.asyncIterator]()
    expect(await chunks.next()).toEqual({ done: false, value: 'a' })
    // a second body of the same size fits beside the first while its stream is still open
    const second = await step(request({ body: text, headers: { 'content-length': String(text.length) } }), recorder())
    expect(second.body).toBe('next')
    finish()
    expect((await chunks.next()).done).toBe(true)
  })
})

describe('the era step (2026-07-28)', () => {
  const add = emcp({ name: 'add', description: 'Add.', input: { type: 'object', properties: { a: { type: 'number' } }, required: ['a'] } })
  const server = mcpServer([add], { name: 'era', version: '1' }).implement({ add: ({ a }) => String(a) })
  const step = modern(server, {})
  it('passes 2025-11-25 traffic on', async () => {
    const req = request()
    req.message = { jsonrpc: '2.0', id: 1, method: 'ping' }
    const next = recorder()
    expect(await step(req, next)).toBe(ok)
  })
  it('refuses a 2026-07-28 header over a body without _meta: 400 with -32602', async () => {
    const req = request({ headers: { 'mcp-protocol-version': '2026-07-28' } })
    req.message = { jsonrpc: '2.0', id: 3, method: 'tools/list' }
    const r = await step(req, recorder())
    expect(r.status).toBe(400)
    expect(JSON.parse(r.body as string)).toMatchObject({ id: 3, error: { code: -32602 } })
  })
})

describe('reply: the status comes from the reply, not its text', () => {
  it('202 for no answer, 400 for an error with no id, 200 for an error with one, and for a batch', () => {
    expect(replyOf(O.none).status).toBe(202)
    const unaddressed = { jsonrpc: '2.0' as const, id: null, error: { code: -32600, message: 'Invalid Request' } }
    expect(replyOf(O.some(unaddressed)).status).toBe(400)
    expect(replyOf(O.some({ ...unaddressed, id: 1 })).status).toBe(200)
    expect(replyOf(O.some([unaddressed])).status).toBe(200)
  })
  it('answers a result JSON cannot carry with an internal error under its id', () => {
    const r = replyOf(O.some({ jsonrpc: '2.0', id: 5, result: { n: 1n } }))
    expect(JSON.parse(r.body as string)).toMatchObject({ id: 5, error: { code: -32603 } })
  })
})
