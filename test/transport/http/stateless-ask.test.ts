/**
 * Stateless HTTP cannot carry a server-to-client request, so a handler's `ctx.elicit` fails
 * there; the tool error says how to get a channel: sessions (`serveHttp(server, { sessions:
 * true })`, `emcp serve --http --sessions`). Driven over a real socket, with Node's http
 * client and with fetch.
 */
import { request } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { emcp, mcpServer } from '../../../src/index.js'
import { serveHttp, type RunningHttp } from '../../../src/transport/http.js'

const ask = emcp({ name: 'ask', description: 'Asks the user for a city.', input: { type: 'object' } })
const server = mcpServer([ask], { name: 'stateless-ask', version: '1' }).implement({
  ask: async (_args, ctx) => {
    const r = await ctx.elicit({ message: 'Which city?', requestedSchema: { type: 'object', properties: { city: { type: 'string' } } } })
    return r.action
  },
})

const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'ask', arguments: {} } })
const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' }

/** POSTs the call with Node's http client; the answer's text. */
const post = (url: string): Promise<string> =>
  new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers }, (res) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (c: string) => (text += c))
      res.on('end', () => resolve(text))
    })
    req.on('error', reject)
    req.end(body)
  })

describe('stateless HTTP: a handler that elicits', () => {
  let running: RunningHttp
  beforeAll(async () => {
    running = await serveHttp(server, { port: 0 })
  })
  afterAll(async () => {
    await running.close()
  })

  it('gets a tool error that names --sessions and the sessions option (Node http client and fetch)', async () => {
    const viaFetch = await (await fetch(running.url, { method: 'POST', headers, body })).text()
    for (const text of [await post(running.url), viaFetch]) {
      const result = (JSON.parse(text) as { result: { isError: boolean; content: Array<{ text: string }> } }).result
      expect(result.isError).toBe(true)
      expect(result.content[0]?.text).toBe(
        'elicitation/create needs a transport that can send requests to the client (stdio or stateful HTTP; stateless HTTP cannot): serve with sessions, `serveHttp(server, { sessions: true })` or `emcp serve --http --sessions`',
      )
    }
  })
})
