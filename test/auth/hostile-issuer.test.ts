import { request } from 'node:http'
import { gzipSync } from 'node:zlib'
import * as E from 'fp-ts/lib/Either.js'
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest'
import { emcp, mcpServer } from 'emcp'
import { serveHttp, type RunningHttp } from 'emcp/http'
import { oauth, type OAuthOptions } from 'emcp/oauth'
import { startIssuer, startKeyedIssuer, type Issuer, type Key } from '../support/issuer.js'

// the identity provider as a hostile or broken network peer: a real HTTP server on 127.0.0.1
// whose answers the test scripts (500s, garbage, endless or stalled bodies); the verifier and
// the HTTP server under test are the real ones

const resource = 'http://127.0.0.1:9/mcp'
const add = emcp({ name: 'add', description: 'Adds.', input: { type: 'object', properties: { a: { type: 'number' } } }, scopes: ['calc:read'] })
const clear = emcp({ name: 'clear', description: 'Clears.', input: { type: 'object' }, scopes: ['calc:write'] })
const server = mcpServer([add, clear], { name: 'calc', version: '1' }).implement({ add: ({ a }) => String(a), clear: () => 'cleared' })

let iss: Issuer
let key: Key
const running: RunningHttp[] = []
beforeAll(async () => {
  ;({ iss, key } = await startKeyedIssuer())
})
afterEach(async () => {
  iss.routes.clear()
  await Promise.all(running.splice(0).map((r) => r.close()))
})
afterAll(() => iss.close())

/** serveHttp behind oauth() for the test issuer, with `o` on top. */
const serve = async (o: Partial<OAuthOptions> = {}): Promise<string> => {
  const r = await serveHttp(server, { port: 0, auth: oauth({ issuer: iss.issuer, audience: resource, ...o }) })
  running.push(r)
  return r.url
}

/** What a client sees of an answer. */
interface Seen {
  readonly status: number
  readonly retryAfter: string | undefined
  readonly challenge: string | undefined
}

const mcpHeaders = (bearer: string, extra: Record<string, string> = {}): Record<string, string> => ({
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2025-11-25',
  authorization: `Bearer ${bearer}`,
  ...extra,
})
const ping = '{"jsonrpc":"2.0","id":1,"method":"ping"}'
const call = (name: string): string => JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name, arguments: {} } })

/** A POST with fetch. */
const viaFetch = async (url: string, bearer: string, body = ping): Promise<Seen> => {
  const r = await fetch(url, { method: 'POST', headers: mcpHeaders(bearer), body })
  await r.arrayBuffer()
  return { status: r.status, retryAfter: r.headers.get('retry-after') ?? undefined, challenge: r.headers.get('www-authenticate') ?? undefined }
}

/** The same POST with Node's http client. */
const viaNode = (url: string, bearer: string, body = ping): Promise<Seen> =>
  new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: mcpHeaders(bearer), agent: false }, (res) => {
      res.resume()
      res.on('end', () => {
        const h = (name: string): string | undefined => (typeof res.headers[name] === 'string' ? (res.headers[name] as string) : undefined)
        resolve({ status: res.statusCode ?? 0, retryAfter: h('retry-after'), challenge: h('www-authenticate') })
      })
    })
    req.on('error', reject)
    req.end(body)
  })

/** A 503 that tells the client when to come back, within `maxSec`. */
const expectUnavailable = (seen: Seen, maxSec: number): void => {
  expect(seen.status).toBe(503)
  expect(seen.retryAfter).toMatch(/^[1-9]\d*$/)
  expect(Number(seen.retryAfter)).toBeLessThanOrEqual(maxSec)
}

describe('a failing JWKS endpoint', () => {
  test('is fetched once per cool-down, not once per request; valid-looking tokens get 503 with Retry-After, with fetch and Node http', async () => {
    iss.routes.set('/jwks', (_req, res) => void res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":"down"}'))
    // a cool-down far longer than the 50 requests take, however loaded the machine
    const url = await serve({ jwksCooldownMs: 600_000 })
    const token = await iss.sign(key, { sub: 'alice', aud: resource, scope: 'calc:read' })
    const before = iss.hits.get('/jwks') ?? 0
    for (let i = 0; i < 25; i++) {
      expectUnavailable(await viaFetch(url, token), 600)
      expectUnavailable(await viaNode(url, token), 600)
    }
    expect((iss.hits.get('/jwks') ?? 0) - before).toBe(1)
  })

  test('every kind of failure is unavailable, not invalid; keys already held keep working; the next fetch after the cool-down recovers', async () => {
    const auth = oauth({ issuer: iss.issuer, audience: resource, jwksCooldownMs: 0 })
    const broken: ReadonlyArray<[string, number, string]> = [
      ['a 500', 500, '{"error":"down"}'],
      ['a 429', 429, '{"error":"slow down"}'],
      ['not JSON', 200, '<html>maintenance</html>'],
      ['JSON but no key set', 200, '{"keys":"none"}'],
    ]
    const token = await iss.sign(key, { sub: 'alice', aud: resource })
    for (const [what, status, body] of broken) {
      iss.routes.set('/jwks', (_req, res) => void res.writeHead(status, { 'content-type': 'application/json' }).end(body))
      const r = await auth.check(token)
      expect(E.isLeft(r) && r.left.error, what).toBe('temporarily_unavailable')
      expect(E.isLeft(r) && r.left.retryAfterSec, what).toBeGreaterThanOrEqual(1)
    }
    iss.routes.clear()
    expect(await auth.verify(token)).toMatchObject({ subject: 'alice' })
    // the issuer fails again: a key in hand still verifies; a kid never seen may be a rotation, so it is not called invalid
    iss.routes.set('/jwks', (_req, res) => void res.writeHead(500).end())
    expect(await auth.verify(token)).toMatchObject({ subject: 'alice' })
    const rotated = await iss.key('k2')
    const r = await auth.check(await iss.sign(rotated, { sub: 'alice', aud: resource }))
    expect(E.isLeft(r) && r.left.error).toBe('temporarily_unavailable')
  })

  test('a token that names another issuer or resource, or has expired, is refused (401) without a fetch', async () => {
    iss.routes.set('/jwks', (_req, res) => void res.writeHead(500).end())
    const url = await serve()
    const before = iss.hits.get('/jwks') ?? 0
    const now = Math.floor(Date.now() / 1000)
    for (const payload of [{ aud: 'http://127.0.0.1:9/other' }, { iss: 'http://evil.example', aud: resource }, { aud: resource, exp: now - 3600 }]) {
      const token = await iss.sign(key, { sub: 'alice', ...payload })
      expect((await viaFetch(url, token)).status).toBe(401)
      expect((await viaNode(url, token)).status).toBe(401)
    }
    expect((iss.hits.get('/jwks') ?? 0) - before).toBe(0)
  })
})

/** Records unhandled rejections and uncaught exceptions while `run` runs (and a round trip after it). */
const nothingEscapes = async (run: () => Promise<void>): Promise<void> => {
  const escaped: unknown[] = []
  const record = (e: unknown): void => void escaped.push(e)
  process.on('unhandledRejection', record)
  process.on('uncaughtException', record)
  try {
    await run()
  } finally {
    process.off('unhandledRejection', record)
    process.off('uncaughtException', record)
  }
  expect(escaped).toEqual([])
}

describe('answers of the identity provider are bounded in size and time', () => {
  test('an endless JWKS is cut at the size limit (default 1 MiB), not read whole', async () => {
    const total = 128 * 1024 * 1024
    const chunk = Buffer.alloc(64 * 1024, 0x20)
    let written = 0
    iss.routes.set('/jwks', (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.write('{"keys":[')
      const more = (): void => {
        while (written < total && !res.destroyed) {
          written += chunk.length
          if (!res.write(chunk)) return void res.once('drain', more)
        }
        res.end(']}')
      }
      more()
    })
    const auth = oauth({ issuer: iss.issuer, audience: resource })
    const r = await auth.check(await iss.sign(key, { sub: 'alice', aud: resource }))
    expect(r).toMatchObject({ _tag: 'Left', left: { error: 'temporarily_unavailable', description: expect.stringContaining('answered more than 1048576 bytes') } })
    // what the server managed to write before the reader let go: the limit plus the sockets' buffers (a few MiB), far from the 128 MiB offered
    expect(written).toBeLessThan(40 * 1024 * 1024)
  })

  test('a compressed JWKS is bounded by what it inflates to', async () => {
    const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024, 0x20), { level: 9 })
    iss.routes.set('/jwks', (_req, res) => void res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' }).end(bomb))
    const r = await oauth({ issuer: iss.issuer, audience: resource }).check(await iss.sign(key, { sub: 'alice', aud: resource }))
    expect(r).toMatchObject({ _tag: 'Left', left: { error: 'temporarily_unavailable', description: expect.stringContaining('answered more than 1048576 bytes') } })
  })

  test('a metadata answer that stalls mid-body is a 503 at the time limit, and the process lives on', async () => {
    const stalled = await startIssuer()
    try {
      stalled.routes.set('/.well-known/oauth-authorization-server', (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' })
        res.write('{"issuer":"')
      })
      await nothingEscapes(async () => {
        const r = await serveHttp(server, { port: 0, auth: oauth({ issuer: stalled.issuer, audience: resource, timeoutMs: 300 }) })
        running.push(r)
        const token = await stalled.sign(await stalled.key('k'), { sub: 'alice', aud: resource })
        expectUnavailable(await viaFetch(r.url, token), 5)
        expectUnavailable(await viaNode(r.url, token), 5)
      })
    } finally {
      await stalled.close()
    }
  })

  test('a JWKS that stalls mid-body is a 503 at the time limit for every request waiting on it (one fetch), and the process lives on', async () => {
    iss.routes.set('/jwks', (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.write('{"keys":[{"kty":"EC",')
    })
    await nothingEscapes(async () => {
      const url = await serve({ timeoutMs: 300 })
      const token = await iss.sign(key, { sub: 'alice', aud: resource })
      const before = iss.hits.get('/jwks') ?? 0
      const all = await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 === 0 ? viaNode(url, token) : viaFetch(url, token))))
      for (const seen of all) expectUnavailable(seen, 30)
      expect((iss.hits.get('/jwks') ?? 0) - before).toBe(1)
    })
  })
})

describe('the step-up challenge', () => {
  test('names every scope still needed, however long the scopes already held', async () => {
    const url = await serve({ scopesSupported: ['calc:read', 'calc:write'] })
    const held = ['calc:read', ...Array.from({ length: 40 }, (_, i) => `calc:extra-permission-${i}`)]
    const token = await iss.sign(key, { sub: 'alice', aud: resource, scope: held.join(' ') })
    for (const seen of [await viaFetch(url, token, call('clear')), await viaNode(url, token, call('clear'))]) {
      expect(seen.status).toBe(403)
      const scope = /scope="([^"]*)"/.exec(seen.challenge ?? '')?.[1]?.split(' ')
      expect(scope).toContain('calc:write')
      expect(scope).toEqual(expect.arrayContaining(held))
    }
  })
})
