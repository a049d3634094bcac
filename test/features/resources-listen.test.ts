/**
 * `subscriptions/listen` honours resource authorization: a server behind `oauth()` (real
 * tokens from a scripted issuer, real sockets, Node's `http` client and `fetch`) serves a
 * public resource and scoped ones (a static resource and a template). Bob's token lacks the
 * scope: `resources/read` refuses him (-32003, 403; `resources/subscribe`, a 2025-11-25
 * method, checks the same scopes), and his listen stream never
 * carries their `notifications/resources/updated`, while Alice's, with the scope, carries
 * every one. Both streams are acknowledged alike: a held-back URI looks like one that never
 * changes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as E from 'fp-ts/lib/Either.js'
import { emcp, mcpServer, resource, resources, resourceTemplate, rpcError, type Middleware, type Server } from '../../src/index.js'
import { oauth } from '../../src/auth/index.js'
import { serveHttp, type RunningHttp } from '../../src/transport/http.js'
import { issuerWithTokens, type Issuer } from '../support/issuer.js'
import { modernClient, type Via } from '../support/modern-client.js'

const audience = 'http://127.0.0.1/resources-listen/mcp'
const PUBLIC = 'docs://public'
const SECRET = 'docs://secret'
const PAYROLL = 'docs://payroll/2026'
const BOARD = 'docs://board'

const docs = resources(
  [
    resource({ uri: PUBLIC, name: 'public', read: () => 'for everyone' }),
    resource({ uri: BOARD, name: 'board', read: () => 'minutes' }),
    resource({ uri: SECRET, name: 'secret', read: () => 'for the board', scopes: ['docs:secret'] }),
    resourceTemplate({ uriTemplate: 'docs://payroll/{year}', name: 'payroll', read: ({ year }) => `payroll ${year}`, scopes: ['docs:secret'] }),
  ],
  { subscribe: true },
)
const noop = emcp({ name: 'noop', description: 'Does nothing.', input: { type: 'object' } })
// the board's minutes are for admins: a request middleware refuses the others, as docs/auth.md shows
const adminsOnly: Middleware = {
  request: (req, next) =>
    (req.method === 'resources/read' || req.method === 'resources/subscribe') && req.params?.uri === BOARD && !(req.session.identity?.roles ?? []).includes('admin')
      ? E.left(rpcError('Forbidden', 'the board is for admins'))
      : next(),
}
const server = mcpServer([noop], { name: 'docs', version: '1' }, { features: [docs], middleware: [adminsOnly] }).implement({ noop: () => 'ok' }) as unknown as Server

let iss: Issuer
let http: RunningHttp
let tokens: Record<'alice' | 'bob', string>
beforeAll(async () => {
  ;({ iss, tokens } = await issuerWithTokens({
    alice: { sub: 'alice', aud: audience, scope: 'docs:secret', roles: ['admin'] },
    bob: { sub: 'bob', aud: audience, scope: 'docs:public' },
  }))
  http = await serveHttp(server, { port: 0, handleSignals: false, auth: oauth({ issuer: iss.issuer, audience }) })
})
afterAll(async () => {
  await http.close()
  await iss.close()
})

const caps = {}
const updated = (uri: string) => (m: any) => m.method === 'notifications/resources/updated' && m.params?.uri === uri
const acknowledged = (m: any) => m.method === 'notifications/subscriptions/acknowledged'

describe('subscriptions/listen and resource authorization', () => {
  for (const via of ['http', 'fetch'] as const satisfies ReadonlyArray<Via>) {
    it(`a caller refused resources/read hears no update of the resource through listen (${via})`, async () => {
      const bob = modernClient(http.url, via, tokens.bob, caps)
      const alice = modernClient(http.url, via, tokens.alice, caps)
      for (const uri of [SECRET, PAYROLL, BOARD]) {
        const read = await bob.rpc('resources/read', { uri })
        expect(read.body.error).toMatchObject({ code: -32003 })
        expect((await alice.rpc('resources/read', { uri })).body.result.contents[0].uri).toBe(uri)
      }
      const filter = { resourceSubscriptions: [SECRET, PAYROLL, BOARD, PUBLIC] }
      const streams = { alice: await alice.listen(filter), bob: await bob.listen(filter) }
      for (const s of [streams.alice, streams.bob]) {
        expect(s.status).toBe(200)
        expect((await s.until(acknowledged)).find(acknowledged).params.notifications).toEqual(filter)
      }
      docs.updated(SECRET)
      docs.updated(PAYROLL)
      docs.updated(BOARD)
      // one server hands each notification to every stream at once: once Alice heard the
      // refused updates, the public one follows them on Bob's stream too
      await streams.alice.until(updated(BOARD))
      docs.updated(PUBLIC)
      const [heardByAlice, heardByBob] = await Promise.all([streams.alice.until(updated(PUBLIC)), streams.bob.until(updated(PUBLIC))])
      streams.alice.close()
      streams.bob.close()
      const uris = (seen: any[] | undefined) => (seen ?? []).filter((m) => m.method === 'notifications/resources/updated').map((m) => m.params.uri)
      expect(uris(heardByAlice)).toEqual([SECRET, PAYROLL, BOARD, PUBLIC])
      expect(uris(heardByBob)).toEqual([PUBLIC])
    })
  }

  it('a stream names at most 1000 resource URIs: past it, -32602 naming the limit (distinct URIs count)', async () => {
    const bob = modernClient(http.url, 'http', tokens.bob, caps)
    const many = Array.from({ length: 1001 }, (_, i) => `docs://public/${i}`)
    const refused = await bob.rpc('subscriptions/listen', { notifications: { resourceSubscriptions: many } })
    expect(refused.body.error).toMatchObject({ code: -32602, message: expect.stringContaining('at most 1000 per stream') })
    const stream = await bob.listen({ resourceSubscriptions: [...many.slice(0, 1000), ...many.slice(0, 1000)] })
    expect((await stream.until(acknowledged)).find(acknowledged)).toBeDefined()
    stream.close()
  })
})
