/**
 * The playground's MCP client: a small one over fetch and server-sent events, for both eras.
 * 2025-11-25: `initialize`, a session id, a GET stream for what the server sends of its own
 * (elicitation, logs, list changes), and the POST streams of calls (progress). 2026-07-28:
 * no session; each request names its revision and capabilities in `_meta`, and an
 * `input_required` result is answered and the request sent again with its `requestState`;
 * list changes come on a `subscriptions/listen` stream.
 *
 * @example
 * const c = new McpClient('/mcp', '2025-11-25', '', { notified: console.log, elicit: async () => ({ action: 'cancel' }) })
 * await c.connect(); const tools = await c.request('tools/list', {})
 */
import { sseMessages } from './sse.js'

/** The two eras the playground speaks. */
export type Era = '2025-11-25' | '2026-07-28'

/** What the page does with what the server sends of its own accord. */
export interface ClientEvents {
  /** A notification: progress, a log message, a list change. */
  readonly notified: (method: string, params: Record<string, unknown>) => void
  /** An elicitation (a request in 2025, an input request in 2026): the user's answer. */
  readonly elicit: (params: Record<string, unknown>) => Promise<Record<string, unknown>>
}

/** Options of one request. */
export interface RequestOptions {
  /** Ask for progress notifications under this token. */
  readonly progressToken?: string
  /** Extra headers (2026-07-28 `Mcp-Param-*`). */
  readonly headers?: Readonly<Record<string, string>>
}

type Json = Record<string, unknown>
const isObject = (u: unknown): u is Json => typeof u === 'object' && u !== null && !Array.isArray(u)
/** What the page can do: elicitation forms, and MCP Apps (the `io.modelcontextprotocol/ui` extension, its HTML profile). */
const capabilities = { elicitation: { form: {} }, extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } } }
/** The most `input_required` rounds one request may take before the page gives up. */
const maxRounds = 16

/** A JSON-RPC error answered by the server. */
export class RpcError extends Error {
  constructor(readonly code: number, message: string) {
    super(`${message} (${code})`)
  }
}

/** A connection to one MCP endpoint in one era. */
export class McpClient {
  private sessionId: string | undefined
  private nextId = 1
  private readonly stop = new AbortController()

  constructor(
    private readonly endpoint: string,
    readonly era: Era,
    private readonly token: string,
    private readonly events: ClientEvents,
  ) {}

  /** Opens the conversation: `initialize` (2025) or `server/discover` (2026); returns its result. */
  async connect(): Promise<Json> {
    if (this.era === '2026-07-28') {
      const discovered = await this.request('server/discover', {})
      void this.subscribe()
      return discovered
    }
    const init = await this.request('initialize', {
      protocolVersion: '2025-11-25',
      capabilities,
      clientInfo: { name: 'emcp-playground', version: '1' },
    })
    await this.post({ jsonrpc: '2.0', method: 'notifications/initialized' })
    void this.listen()
    return init
  }

  /** Sends a request and returns its result; notifications and server requests met on the way go to the page. */
  async request(method: string, params: Json, options: RequestOptions = {}): Promise<Json> {
    let current = params
    for (let round = 0; round < maxRounds; round++) {
      const result = await this.once(method, current, options)
      if (this.era !== '2026-07-28' || result.resultType !== 'input_required') return result
      current = { ...params, inputResponses: await this.answer(result.inputRequests), ...(typeof result.requestState === 'string' ? { requestState: result.requestState } : {}) }
    }
    throw new Error(`the server asked for input more than ${maxRounds} times`)
  }

  /** Ends the session (DELETE) and the GET stream. */
  close(): void {
    this.stop.abort()
    if (this.sessionId !== undefined)
      void fetch(this.endpoint, { method: 'DELETE', headers: this.headers({}) }).catch(() => {})
  }

  private async once(method: string, params: Json, options: RequestOptions): Promise<Json> {
    const id = this.nextId++
    const body = { jsonrpc: '2.0', id, method, params: this.withMeta(method, params, options) }
    const extra: Record<string, string> = { ...options.headers }
    if (this.era === '2026-07-28') {
      extra['mcp-method'] = method
      const name = method === 'resources/read' ? params.uri : method === 'tools/call' || method === 'prompts/get' ? params.name : undefined
      if (typeof name === 'string') extra['mcp-name'] = headerValue(name)
    }
    const response = await this.post(body, extra)
    if (method === 'initialize') this.sessionId = response.headers.get('mcp-session-id') ?? undefined
    for await (const message of this.messagesOf(response)) {
      if (isObject(message) && message.id === id && !('method' in message)) return resultOf(message)
      await this.handle(message)
    }
    throw new Error(`no answer to ${method} (HTTP ${response.status})`)
  }

  private withMeta(method: string, params: Json, options: RequestOptions): Json {
    const meta: Json = isObject(params._meta) ? { ...params._meta } : {}
    if (options.progressToken !== undefined) meta.progressToken = options.progressToken
    if (this.era === '2026-07-28') {
      meta['io.modelcontextprotocol/protocolVersion'] = '2026-07-28'
      meta['io.modelcontextprotocol/clientCapabilities'] = capabilities
      meta['io.modelcontextprotocol/clientInfo'] = { name: 'emcp-playground', version: '1' }
      meta['io.modelcontextprotocol/logLevel'] = 'debug'
    }
    return method === 'initialize' && Object.keys(meta).length === 0 ? params : { ...params, _meta: meta }
  }

  private headers(extra: Readonly<Record<string, string>>): Record<string, string> {
    const h: Record<string, string> = { accept: 'application/json, text/event-stream', ...extra }
    if (this.token !== '') h.authorization = `Bearer ${this.token}`
    if (this.sessionId !== undefined) h['mcp-session-id'] = this.sessionId
    if (this.era === '2026-07-28' || this.sessionId !== undefined) h['mcp-protocol-version'] = this.era
    return h
  }

  private async post(message: Json, extra: Readonly<Record<string, string>> = {}): Promise<Response> {
    const response = await fetch(this.endpoint, {
      method: 'POST',
      headers: { ...this.headers(extra), 'content-type': 'application/json' },
      body: JSON.stringify(message),
      signal: this.stop.signal,
    })
    if (response.status === 401 || response.status === 403) throw new Error(`HTTP ${response.status}: ${response.headers.get('www-authenticate') ?? 'refused'} (check the bearer token)`)
    if (!response.ok && !(response.headers.get('content-type') ?? '').includes('json')) throw new Error(`HTTP ${response.status}`)
    return response
  }

  private async *messagesOf(response: Response): AsyncGenerator<unknown> {
    const type = response.headers.get('content-type') ?? ''
    if (response.status === 202 || response.body === null) return
    if (type.includes('text/event-stream')) yield* sseMessages(response.body)
    else if (type.includes('json')) yield await response.json()
  }

  /** The GET stream of a 2025 session: the server's own requests and notifications. */
  private async listen(): Promise<void> {
    try {
      const response = await fetch(this.endpoint, { headers: { ...this.headers({}), accept: 'text/event-stream' }, signal: this.stop.signal })
      if (!response.ok || response.body === null) return
      for await (const message of sseMessages(response.body)) await this.handle(message)
    } catch {
      // the stream ends when the page reconnects or the server goes: nothing to do
    }
  }

  /** The `subscriptions/listen` stream of 2026-07-28: list changes, as the GET stream brings them in 2025. */
  private async subscribe(): Promise<void> {
    try {
      const notifications = { toolsListChanged: true, promptsListChanged: true, resourcesListChanged: true }
      const body = { jsonrpc: '2.0', id: this.nextId++, method: 'subscriptions/listen', params: this.withMeta('subscriptions/listen', { notifications }, {}) }
      const response = await this.post(body, { 'mcp-method': 'subscriptions/listen' })
      for await (const message of this.messagesOf(response)) await this.handle(message)
    } catch {
      // ends when the page reconnects (the stream is aborted) or the server goes
    }
  }

  /** A message that is not the awaited answer: a notification, or a server request answered with a POST. */
  private async handle(message: unknown): Promise<void> {
    if (!isObject(message) || typeof message.method !== 'string') return
    const params = isObject(message.params) ? message.params : {}
    if (message.id === undefined) return this.events.notified(message.method, params)
    const result = message.method === 'elicitation/create' ? await this.events.elicit(params) : message.method === 'ping' ? {} : undefined
    const reply = result === undefined
      ? { jsonrpc: '2.0', id: message.id, error: { code: -32601, message: `the playground does not answer ${message.method}` } }
      : { jsonrpc: '2.0', id: message.id, result }
    await this.post(reply).catch(() => {})
  }

  /** The answers to a 2026 result's `inputRequests`. */
  private async answer(requests: unknown): Promise<Json> {
    const answers: Json = {}
    if (!isObject(requests)) return answers
    for (const [key, req] of Object.entries(requests)) {
      if (isObject(req) && req.method === 'elicitation/create') answers[key] = await this.events.elicit(isObject(req.params) ? req.params : {})
    }
    return answers
  }
}

/** The result of a response, or its error thrown. */
const resultOf = (message: Json): Json => {
  if (isObject(message.error)) throw new RpcError(Number(message.error.code), String(message.error.message))
  return isObject(message.result) ? message.result : {}
}

/** A header value as 2026-07-28 wants it: plain when printable ASCII, base64 otherwise. */
export const headerValue = (value: string): string => {
  if (/^[\x20-\x7e]*$/.test(value) && value.trim() === value) return value
  const bytes = new TextEncoder().encode(value)
  let binary = ''
  for (const b of bytes) binary += String.fromCharCode(b)
  return `=?base64?${btoa(binary)}?=`
}
