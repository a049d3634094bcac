/**
 * Hostile HTTP clients for the stall tests, over real sockets with Node's `http` client:
 * a `subscriptions/listen` POST padded to a size, held open; a POST that declares a length
 * and sends a few bytes of it; a plain POST read to its end. Each client has its own agent
 * (its own connection) and may bind a loopback address of its own.
 */
import { Agent, request, type ClientRequest, type IncomingMessage } from 'node:http'
import { afterEach } from 'vitest'
import { emcp, mcpServer } from '../../../src/index.js'
import { serveHttp, type RunningHttp, type ServeHttpOptions } from '../../../src/transport/http.js'

export const V26 = '2026-07-28'
export const meta26 = { 'io.modelcontextprotocol/protocolVersion': V26, 'io.modelcontextprotocol/clientCapabilities': {} }

/** A server with one quick tool, `echo`, serving both eras. */
export const echoServer = () => {
  const echo = emcp({ name: 'echo', description: 'Echo.', input: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } })
  return mcpServer([echo], { name: 'stalls', version: '1' }).implement({ echo: ({ text }) => text })
}

/**
 * Serves `echoServer` and keeps clients to close, all ended after each test of the calling file
 * (call it once at the file's top level): `serve` starts a server on a free port, `hold` keeps
 * clients open until the test ends.
 */
export const closedAfterEach = () => {
  let running: RunningHttp | undefined
  const open: Array<{ close: () => void }> = []
  afterEach(async () => {
    for (const o of open.splice(0)) o.close()
    await running?.close()
    running = undefined
  })
  return {
    serve: async (options: ServeHttpOptions = {}): Promise<RunningHttp> => (running = await serveHttp(echoServer(), { port: 0, handleSignals: false, ...options })),
    hold: (...held: ReadonlyArray<{ close: () => void }>): void => void open.push(...held),
  }
}

/** An answer read to its end. */
export interface Answer {
  readonly status: number
  readonly headers: IncomingMessage['headers']
  readonly text: string
}

/** A held stream: resolved once its head and first bytes came; `close` ends it. */
export interface Held {
  readonly status: number
  readonly first: string
  readonly close: () => void
}

const headers26 = (method: string, extra: Record<string, string> = {}) => ({
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': V26,
  'mcp-method': method,
  ...extra,
})

/** A 2026-07-28 `subscriptions/listen` padded to about `size` bytes, from `localAddress`; resolves once its first event came. */
export const listen = (url: string, localAddress: string, size: number, extra: Record<string, string> = {}): Promise<Held> => {
  const base = { jsonrpc: '2.0', id: 'l', method: 'subscriptions/listen', params: { _meta: meta26, notifications: { toolsListChanged: true }, pad: '' } }
  const pad = 'p'.repeat(Math.max(0, size - JSON.stringify(base).length))
  const text = JSON.stringify({ ...base, params: { ...base.params, pad } })
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', agent: new Agent(), localAddress, headers: headers26('subscriptions/listen', extra) }, (res) => {
      res.setEncoding('utf8')
      let first = ''
      const onData = (c: string): void => {
        first += c
        res.off('data', onData)
        res.resume()
        resolve({ status: res.statusCode ?? 0, first, close: () => req.destroy() })
      }
      // a refusal has no events: its whole text is its first bytes
      if (res.statusCode !== 200) {
        res.on('data', (c: string) => (first += c))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, first, close: () => req.destroy() }))
      } else res.on('data', onData)
    })
    req.on('error', reject)
    req.end(text)
  })
}

/** A POST that declares `declared` bytes and sends `sent` of them; `answer` settles if the server answers, `close` ends it. */
export const slowBody = (url: string, localAddress: string, declared: number, sent = 1) => {
  let req: ClientRequest | undefined
  const answer = new Promise<Answer>((resolve, reject) => {
    req = request(
      url,
      { method: 'POST', agent: new Agent(), localAddress, headers: { ...headers26('tools/call', { 'mcp-name': 'echo' }), 'content-length': String(declared) } },
      (res) => readAll(res).then(resolve, reject),
    )
    req.on('error', reject)
    req.write('{'.padEnd(sent, ' '))
  })
  answer.catch(() => undefined)
  return { answer, close: () => req?.destroy() }
}

/** A 2026-07-28 `tools/call` of `echo` with Node's `http` client, from `localAddress`. */
export const callEcho = (url: string, localAddress: string, text: string, init: { readonly headers?: Record<string, string> } = {}): Promise<Answer> =>
  new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', agent: new Agent(), localAddress, headers: headers26('tools/call', { 'mcp-name': 'echo', ...init.headers }) }, (res) => readAll(res).then(resolve, reject))
    req.on('error', reject)
    req.end(JSON.stringify(echoCall(text)))
  })

/** The body of a 2026-07-28 `tools/call` of `echo`. */
export const echoCall = (text: string) => ({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: { text }, _meta: meta26 } })

/** The same call with `fetch`. */
export const fetchEcho = (url: string, text: string): Promise<Response> =>
  fetch(url, { method: 'POST', headers: headers26('tools/call', { 'mcp-name': 'echo' }), body: JSON.stringify(echoCall(text)) })

/** An answer's text, read to its end. */
export const readAll = (res: IncomingMessage): Promise<Answer> =>
  new Promise((resolve, reject) => {
    let text = ''
    res.setEncoding('utf8').on('data', (c: string) => (text += c))
    res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }))
    res.on('error', reject)
  })

/** Whether a promise has settled, seen after the events queued so far. */
export const settled = async (p: Promise<unknown>): Promise<boolean> => {
  let done = false
  void p.then(
    () => (done = true),
    () => (done = true),
  )
  await new Promise((resolve) => setImmediate(resolve))
  return done
}
