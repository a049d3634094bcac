/**
 * A 2026-07-28 client for tests, over real sockets with either Node's `http` client or
 * `fetch`: one request (its answer from a JSON or an SSE body), or a `subscriptions/listen`
 * stream read message by message. Headers as a client sends them (MCP-Protocol-Version,
 * Mcp-Method, Mcp-Name for a tool, a resource or a task), capabilities in `_meta`, and a
 * bearer token when given.
 *
 * @example
 * import { modernClient } from '../support/modern-client.js'
 * const alice = modernClient('http://127.0.0.1:3000/mcp', 'http', 'token-of-alice')
 * // const r = await alice.rpc('tasks/get', { taskId })          // { status, body }
 * // const s = await alice.listen({ taskIds: [taskId] }); await s.until((m) => m.method === 'notifications/tasks'); s.close()
 */
import { request as httpRequest, type IncomingMessage } from 'node:http'
import { randomUUID } from 'node:crypto'
import { parseSse } from './sse.js'

/** Which HTTP client carries the requests. */
export type Via = 'fetch' | 'http'

/** The client capabilities these tests declare: form elicitation and the tasks extension. */
export const tasksCaps = { elicitation: { form: {} }, extensions: { 'io.modelcontextprotocol/tasks': {} } }

/** A listen stream: the messages so far, reading on until one passes `done`. */
export interface ListenStream {
  readonly status: number
  readonly seen: any[]
  readonly until: (done: (m: any) => boolean) => Promise<any[]>
  readonly close: () => void
}

/** A response as both clients give it: status, content type, and the body as chunks. */
interface Raw {
  readonly status: number
  readonly type: string
  readonly chunks: AsyncIterable<Uint8Array | string>
  readonly close: () => void
}

const V = '2026-07-28'

/** A client of `url` over `via`, as the bearer of `token` (none: anonymous). */
export const modernClient = (url: string, via: Via, token?: string, caps: object = tasksCaps) => {
  const headersOf = (method: string, params: Record<string, unknown>): Record<string, string> => {
    const name = params.name ?? params.uri ?? params.taskId
    return {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': V,
      'mcp-method': method,
      ...(typeof name === 'string' && method !== 'subscriptions/listen' ? { 'mcp-name': name } : {}),
      ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
    }
  }
  const send = (id: string, method: string, params: Record<string, unknown>): Promise<Raw> => {
    const body = JSON.stringify({ jsonrpc: '2.0', id, method, params: { ...params, _meta: { 'io.modelcontextprotocol/protocolVersion': V, 'io.modelcontextprotocol/clientCapabilities': caps } } })
    return via === 'fetch' ? viaFetch(url, headersOf(method, params), body) : viaHttp(url, headersOf(method, params), body)
  }
  return {
    /** One request and its answer. */
    rpc: async (method: string, params: Record<string, unknown>): Promise<{ status: number; body: any }> => {
      const id = randomUUID()
      const raw = await send(id, method, params)
      let text = ''
      for await (const c of raw.chunks) text += typeof c === 'string' ? c : Buffer.from(c).toString('utf8')
      if (!raw.type.startsWith('text/event-stream')) return { status: raw.status, body: text === '' ? undefined : JSON.parse(text) }
      const answers = parseSse(text).flatMap((e) => (e.data === undefined || e.data === '' ? [] : [JSON.parse(e.data)]))
      return { status: raw.status, body: answers.find((m) => m.id === id) }
    },
    /** Opens a `subscriptions/listen` stream with this filter. */
    listen: async (notifications: object): Promise<ListenStream> => {
      const raw = await send(randomUUID(), 'subscriptions/listen', { notifications })
      const seen: any[] = []
      const it = raw.chunks[Symbol.asyncIterator]()
      let text = ''
      const until = async (done: (m: any) => boolean): Promise<any[]> => {
        while (!seen.some(done)) {
          const { done: ended, value } = await it.next()
          if (ended === true) return seen
          text += typeof value === 'string' ? value : Buffer.from(value).toString('utf8')
          const end = text.lastIndexOf('\n\n')
          if (end === -1) continue
          for (const e of parseSse(text.slice(0, end + 2))) if (e.data !== undefined && e.data !== '') seen.push(JSON.parse(e.data))
          text = text.slice(end + 2)
        }
        return seen
      }
      return { status: raw.status, seen, until, close: raw.close }
    },
  }
}

const viaFetch = async (url: string, headers: Record<string, string>, body: string): Promise<Raw> => {
  const controller = new AbortController()
  const r = await fetch(url, { method: 'POST', headers, body, signal: controller.signal })
  const stream = r.body ?? new ReadableStream<Uint8Array>({ start: (c) => c.close() })
  return { status: r.status, type: r.headers.get('content-type') ?? '', chunks: stream as unknown as AsyncIterable<Uint8Array>, close: () => controller.abort() }
}

const viaHttp = (url: string, headers: Record<string, string>, body: string): Promise<Raw> =>
  new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: 'POST', headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) } }, (res: IncomingMessage) =>
      resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type'] ?? ''), chunks: res, close: () => req.destroy() }),
    )
    req.on('error', reject)
    req.end(body)
  })
