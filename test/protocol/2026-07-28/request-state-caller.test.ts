/**
 * A `requestState` is bound to its caller when authentication is on: a server behind
 * `oauth()` (real tokens from a scripted issuer, real sockets, Node's `http` client and
 * `fetch`) asks Alice to confirm a deletion; Bob, with his own valid token, Alice's state and
 * his own "yes", is refused (-32602) and nothing runs; Alice's retry with her state runs. The
 * state carries a hash of the caller, never the subject in clear.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { emcp, mcpServer, type Server } from '../../../src/index.js'
import { oauth } from '../../../src/auth/index.js'
import { serveHttp, type RunningHttp } from '../../../src/transport/http.js'
import { issuerWithTokens, type Issuer } from '../../support/issuer.js'
import { modernClient, type Via } from '../../support/modern-client.js'

const audience = 'http://127.0.0.1/request-state-caller/mcp'
const drop = emcp({ name: 'drop_all', description: 'Deletes all data, once the user confirms.', input: { type: 'object' } })
/** The subjects whose confirmed deletions ran. */
const dropped: string[] = []
const server = mcpServer([drop], { name: 'rs', version: '1' }, { requestState: { key: 'a request-state key of this test, 16+ bytes' } }).implement({
  drop_all: async (_args, ctx) => {
    const r = await ctx.elicit({ message: 'Delete all data?', requestedSchema: { type: 'object', properties: { sure: { type: 'boolean' } }, required: ['sure'] } })
    if (r.action !== 'accept') return 'kept'
    dropped.push(String(ctx.session.identity?.subject))
    return 'dropped'
  },
}) as unknown as Server

let iss: Issuer
let http: RunningHttp
let tokens: Record<'alice' | 'bob', string>
beforeAll(async () => {
  ;({ iss, tokens } = await issuerWithTokens({ alice: { sub: 'alice', aud: audience }, bob: { sub: 'bob', aud: audience } }))
  http = await serveHttp(server, { port: 0, handleSignals: false, auth: oauth({ issuer: iss.issuer, audience }) })
})
afterAll(async () => {
  await http.close()
  await iss.close()
})

const caps = { elicitation: { form: {} } }

describe('requestState is bound to its caller', () => {
  for (const via of ['http', 'fetch'] as const satisfies ReadonlyArray<Via>) {
    it(`a state minted for Alice is refused to Bob, and still serves Alice (${via})`, async () => {
      const alice = modernClient(http.url, via, tokens.alice, caps)
      const bob = modernClient(http.url, via, tokens.bob, caps)
      const first = await alice.rpc('tools/call', { name: 'drop_all', arguments: {} })
      expect(first.body.result).toMatchObject({ resultType: 'input_required' })
      const { requestState, inputRequests } = first.body.result as { requestState: string; inputRequests: Record<string, unknown> }
      const key = Object.keys(inputRequests)[0] as string
      const yes = { [key]: { action: 'accept', content: { sure: true } } }
      // the caller travels as a hash: the state names no one
      expect(Buffer.from(requestState.split('.')[0] as string, 'base64url').toString('utf8')).not.toContain('alice')

      const stolen = await bob.rpc('tools/call', { name: 'drop_all', arguments: {}, requestState, inputResponses: yes })
      expect(stolen.body.error).toMatchObject({ code: -32602, message: expect.stringContaining('requestState was issued to another caller') })
      expect(dropped).toEqual([])

      const own = await alice.rpc('tools/call', { name: 'drop_all', arguments: {}, requestState, inputResponses: yes })
      expect(own.body.result).toMatchObject({ content: [{ type: 'text', text: 'dropped' }] })
      expect(dropped).toEqual(['alice'])
      dropped.length = 0
    })
  }

  it("Bob's own state serves Bob: the binding is per caller, not per server", async () => {
    const bob = modernClient(http.url, 'http', tokens.bob, caps)
    const first = await bob.rpc('tools/call', { name: 'drop_all', arguments: {} })
    const key = Object.keys(first.body.result.inputRequests)[0] as string
    const retry = await bob.rpc('tools/call', { name: 'drop_all', arguments: {}, requestState: first.body.result.requestState, inputResponses: { [key]: { action: 'decline' } } })
    expect(retry.body.result).toMatchObject({ content: [{ type: 'text', text: 'kept' }] })
  })
})
