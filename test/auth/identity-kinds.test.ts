import { request } from 'node:http'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { emcp, mcpServer } from 'emcp'
import { serveHttp, type RunningHttp } from 'emcp/http'
import { oauth } from 'emcp/oauth'
import { startKeyedIssuer, type Issuer, type Key } from '../support/issuer.js'

// users and machine clients are two namespaces: a client registered as "alice" is not the
// user alice, on a stateful server over real sockets (fetch and Node's http client)

const resource = 'http://127.0.0.1:9/mcp'
const who = emcp({ name: 'whoami', description: 'Names the caller.', input: { type: 'object' } })
const server = mcpServer([who], { name: 'who', version: '1' }).implement({ whoami: (_a, ctx) => ctx.session.identity?.subject ?? 'nobody' })

let iss: Issuer
let key: Key
let running: RunningHttp
beforeAll(async () => {
  ;({ iss, key } = await startKeyedIssuer())
  running = await serveHttp(server, { port: 0, sessions: true, auth: oauth({ issuer: iss.issuer, audience: resource }) })
})
afterAll(async () => {
  await running.close()
  await iss.close()
})

const V = '2025-11-25'
const headers = (bearer: string, sid?: string): Record<string, string> => ({
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': V,
  authorization: `Bearer ${bearer}`,
  ...(sid === undefined ? {} : { 'mcp-session-id': sid }),
})
const initialize = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: V, capabilities: {}, clientInfo: { name: 't', version: '1' } } })
const whoami = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'whoami', arguments: {} } })

/** A session opened with `bearer`: its id. */
const open = async (bearer: string): Promise<string> => {
  const r = await fetch(running.url, { method: 'POST', headers: headers(bearer), body: initialize })
  await r.arrayBuffer()
  const sid = r.headers.get('mcp-session-id')
  if (r.status !== 200 || sid === null) throw new Error(`initialize: HTTP ${r.status}`)
  const note = await fetch(running.url, { method: 'POST', headers: headers(bearer, sid), body: '{"jsonrpc":"2.0","method":"notifications/initialized"}' })
  expect(note.status).toBe(202)
  return sid
}

/** The status and text of a POST in session `sid`, with fetch. */
const viaFetch = async (bearer: string, sid: string): Promise<{ status: number; text: string }> => {
  const r = await fetch(running.url, { method: 'POST', headers: headers(bearer, sid), body: whoami })
  return { status: r.status, text: await r.text() }
}

/** The same with Node's http client. */
const viaNode = (bearer: string, sid: string): Promise<{ status: number; text: string }> =>
  new Promise((resolve, reject) => {
    const req = request(running.url, { method: 'POST', headers: headers(bearer, sid), agent: false }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString() }))
    })
    req.on('error', reject)
    req.end(whoami)
  })

describe('one identity namespace per kind', () => {
  test("a client-credentials token of a client named alice is not accepted on the user alice's session", async () => {
    const user = await iss.sign(key, { sub: 'alice', client_id: 'web-app', aud: resource })
    const sid = await open(user)
    const own = await viaNode(user, sid)
    expect(own.status).toBe(200)
    expect(own.text).toContain('"text":"alice"')
    // no sub (the client alone), and sub = client_id (RFC 9068's client credentials): both the machine client alice
    for (const claims of [{ client_id: 'alice' }, { sub: 'alice', client_id: 'alice' }]) {
      const machine = await iss.sign(key, { ...claims, aud: resource })
      for (const r of [await viaFetch(machine, sid), await viaNode(machine, sid)]) {
        expect(r.status).toBe(403)
        expect(r.text).toContain('this session belongs to another caller')
      }
      const itsOwn = await open(machine)
      expect((await viaFetch(machine, itsOwn)).text).toContain('"text":"client:alice"')
    }
  })

  test("a user whose sub reads like a client's subject does not get the client's session either", async () => {
    const machine = await iss.sign(key, { client_id: 'alice', aud: resource })
    const sid = await open(machine)
    for (const sub of ['client:alice', 'user:client:alice']) {
      const user = await iss.sign(key, { sub, client_id: 'web-app', aud: resource })
      for (const r of [await viaFetch(user, sid), await viaNode(user, sid)]) expect(r.status).toBe(403)
      const itsOwn = await open(user)
      expect((await viaNode(user, itsOwn)).text).toContain(`"text":"user:${sub}"`)
    }
  })
})
