/**
 * JSON-RPC 2.0 as MCP uses it: the message shapes, the one table that maps error tags to
 * codes, and `decode`, which turns any parsed JSON into a message or an error as data.
 *
 * @example
 * import { decode, parse } from 'emcp'
 * const m = parse('{"jsonrpc":"2.0","id":1,"method":"ping"}')  // Right(unknown)
 * const msg = m._tag === 'Right' ? decode(m.right) : m          // Right({ kind: 'request', ... })
 */
import * as E from 'fp-ts/lib/Either.js'
import { isObject } from '../util/json-object.js'

// ---------------------------------------------------------------------------------------
// model

/** A request id: a string or an integer (MCP forbids null). */
export type RequestId = string | number

/** The parameters of a request or notification: MCP always uses an object. */
export type Params = { readonly [key: string]: unknown }

/** A request: has an id and expects exactly one response. */
export interface Request {
  readonly kind: 'request'
  readonly id: RequestId
  readonly method: string
  readonly params: Params | undefined
}

/** A notification: no id, never answered. */
export interface Notification {
  readonly kind: 'notification'
  readonly method: string
  readonly params: Params | undefined
}

/** A response from the peer (to a request we sent). */
export interface Response {
  readonly kind: 'response'
  readonly id: RequestId
  readonly result?: unknown
  readonly error?: RpcErrorObject
}

/** Any message a peer can send. */
export type Message = Request | Notification | Response

/** The `error` member of a JSON-RPC error response. */
export interface RpcErrorObject {
  readonly code: number
  readonly message: string
  readonly data?: unknown
}

/** A JSON-RPC response as it goes on the wire. */
export type Outgoing =
  | { readonly jsonrpc: '2.0'; readonly id: RequestId; readonly result: unknown }
  | { readonly jsonrpc: '2.0'; readonly id: RequestId | null; readonly error: RpcErrorObject }

/** What the server sends back for one message: a response, or an array for a batch. */
export type Reply = Outgoing | ReadonlyArray<Outgoing>

/** Every protocol-level failure emcp can report, as data. */
export type RpcErrorTag =
  | 'ParseError'
  | 'InvalidRequest'
  | 'MethodNotFound'
  | 'InvalidParams'
  | 'UnknownTool'
  | 'InvalidCursor'
  | 'InternalError'
  | 'ResourceNotFound'
  | 'Refused'
  | 'Forbidden'
  | 'InsufficientScope'
  | 'RequestTimeout'
  | 'HeaderMismatch'
  | 'MissingRequiredClientCapability'
  | 'UnsupportedProtocolVersion'
  | 'UnknownTask'
  | 'StoreUnavailable'

/** A protocol-level failure: a tag, a readable message, and optional data for the client. */
export interface RpcError {
  readonly _tag: RpcErrorTag
  readonly message: string
  readonly data?: unknown
}

/** The one table from error tags to JSON-RPC codes. */
export const errorCodes: { readonly [K in RpcErrorTag]: number } = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  UnknownTool: -32602,
  InvalidCursor: -32602,
  InternalError: -32603,
  // MCP 2025-11-25: resources/read of a uri the server does not have
  ResourceNotFound: -32002,
  // an HTTP-level refusal (bad header, wrong method) before any message was read
  Refused: -32000,
  // tools/call of a tool the caller's identity may not use (ServerOptions.authorize)
  Forbidden: -32003,
  // tools/call of a tool whose contract declares scopes the caller's token does not grant;
  // data: { error: 'insufficient_scope', scope: [...] } (HTTP answers 403 with a Bearer challenge)
  InsufficientScope: -32003,
  // a call that ran past the server's callTimeoutMs (the code the SDKs use for timeouts)
  RequestTimeout: -32001,
  // MCP 2026-07-28: HTTP headers that do not match the body (or are missing)
  HeaderMismatch: -32020,
  // MCP 2026-07-28: the request needs a capability the client did not declare in its _meta
  // (the tasks extension names it for tasks/* and for tools that run only as tasks)
  MissingRequiredClientCapability: -32021,
  // MCP 2026-07-28: a revision in _meta the server does not speak; data lists the supported ones
  UnsupportedProtocolVersion: -32022,
  // io.modelcontextprotocol/tasks: tasks/get, tasks/update or tasks/cancel of an unknown task
  UnknownTask: -32602,
  // the shared store (sessions, tasks, events of replicas) failed or did not answer in time;
  // HTTP answers 503, so that a client or load balancer tries again
  StoreUnavailable: -32004,
}

/**
 * A result whose JSON text was computed once (e.g. a `tools/list` page): `encode` splices
 * the text instead of serialising the value again.
 */
export class RawJson<A = unknown> {
  /** The JSON text of `value`. */
  readonly text: string
  constructor(readonly value: A) {
    this.text = JSON.stringify(value)
  }
  /** Serialises as the value wherever it is nested (a plain stringify keeps V8's fast path, a replacer would not). */
  toJSON(): A {
    return this.value
  }
}

/**
 * A tool result whose one text block is the JSON text of its structured content, as a tool
 * with an output schema answers (MCP asks for both): `encode` writes that text in the
 * structured content's place rather than serialising the value a second time (the whole
 * result's `JSON.stringify` was the largest single cost of a call). It reads as any result
 * does; one changed after it was made (a member added, another block, other structured
 * content) is serialised as usual. Middleware is handed a plain copy (middleware.ts), so a
 * value it edits in place is never spliced from the text made before.
 */
export class StructuredResult {
  readonly content: ReadonlyArray<{ readonly type: 'text'; readonly text: string }>
  readonly structuredContent: unknown
  readonly #text: string
  readonly #value: unknown
  /** `text` must be `JSON.stringify(value)`. */
  constructor(text: string, value: unknown) {
    this.content = [{ type: 'text', text }]
    this.structuredContent = value
    this.#text = text
    this.#value = value
  }
  /** The JSON text of this result when it is still as it was made, else undefined. */
  json(): string | undefined {
    const block = this.content.length === 1 ? this.content[0] : undefined
    if (block === undefined || block.type !== 'text' || block.text !== this.#text || this.structuredContent !== this.#value || typeof this.#text !== 'string') return undefined
    if (!onlyKeys(this, 'content', 'structuredContent') || !onlyKeys(block, 'type', 'text')) return undefined
    return `{"content":[{"type":"text","text":${JSON.stringify(this.#text)}}],"structuredContent":${this.#text}}`
  }
}

/** True when `o` has no enumerable key but `a` and `b` (without allocating a key array). */
const onlyKeys = (o: object, a: string, b: string): boolean => {
  for (const key in o) if (key !== a && key !== b) return false
  return true
}

// ---------------------------------------------------------------------------------------
// constructors

/** Builds an `RpcError`. */
export const rpcError = (tag: RpcErrorTag, message: string, data?: unknown): RpcError =>
  data === undefined ? { _tag: tag, message } : { _tag: tag, message, data }

/** The data of an `InsufficientScope` error: RFC 6750's error name and the scopes the call needs. */
export interface ScopeRefusal {
  readonly error: 'insufficient_scope'
  readonly scope: ReadonlyArray<string>
}

/** A call refused for want of OAuth scopes; an HTTP transport answers it with 403 and a Bearer challenge. */
export const insufficientScope = (message: string, scope: ReadonlyArray<string>): RpcError =>
  rpcError('InsufficientScope', message, { error: 'insufficient_scope', scope } satisfies ScopeRefusal)

/** The scopes an answer refuses the call for (an `insufficientScope` error), or undefined for any other reply. */
export const scopesRefused = (r: Reply): ReadonlyArray<string> | undefined => {
  if (Array.isArray(r) || !('error' in r)) return undefined
  const data = (r as { readonly error: { readonly data?: Partial<ScopeRefusal> } }).error.data
  return data?.error === 'insufficient_scope' && Array.isArray(data.scope) ? data.scope : undefined
}

/** A success response. */
export const success = (id: RequestId, result: unknown): Outgoing => ({ jsonrpc: '2.0', id, result })

/** An error response; `id` is null when the request's id could not be read. */
export const failure = (id: RequestId | null, e: RpcError): Outgoing => ({
  jsonrpc: '2.0',
  id,
  error:
    e.data === undefined
      ? { code: errorCodes[e._tag], message: e.message }
      : { code: errorCodes[e._tag], message: e.message, data: e.data },
})

// ---------------------------------------------------------------------------------------
// functions

/** Parses JSON text; a syntax error becomes a `ParseError`. */
export const parse = (text: string): E.Either<RpcError, unknown> => {
  try {
    return E.right(JSON.parse(text))
  } catch (e) {
    return E.left(parseError(e))
  }
}

/** The `ParseError` for what `JSON.parse` threw. */
export const parseError = (e: unknown): RpcError => rpcError('ParseError', `Parse error: ${e instanceof Error ? e.message : String(e)}`)

/** A message that could not be decoded: the error, and the id to answer with (if any). */
export interface Undecodable {
  readonly error: RpcError
  readonly id: RequestId | null
  /** False when the input looked like a response from the peer: those are never answered. */
  readonly answer: boolean
}

/** True for ids MCP accepts: strings and integers. */
export const isRequestId = (u: unknown): u is RequestId =>
  typeof u === 'string' || (typeof u === 'number' && Number.isSafeInteger(u))

const invalid = (message: string, id: RequestId | null = null, answer = true): Undecodable => ({
  error: rpcError('InvalidRequest', `Invalid Request: ${message}`),
  id,
  answer,
})

/** Decodes a parsed JSON value into a message (see `decodeMessage`). */
export const decode = (u: unknown): E.Either<Undecodable, Message> => {
  const m = decodeMessage(u)
  return isUndecodable(m) ? E.left(m) : E.right(m)
}

/** True for what `decodeMessage` refused (a message always has a `kind`). */
export const isUndecodable = (m: Message | Undecodable): m is Undecodable => !('kind' in m)

/**
 * Decodes a parsed JSON value into a message, without a wrapper (the dispatcher's hot path).
 * Batches (arrays) are refused: MCP removed them in 2025-06-18. A malformed request or notification is answered with -32600 (id null when
 * the id cannot be read); a malformed response is dropped, never answered.
 */
export const decodeMessage = (u: unknown): Message | Undecodable => {
  if (Array.isArray(u))
    return invalid(u.length === 0 ? 'an empty array is not a message' : 'batches (JSON arrays) are not supported at this protocol revision')
  if (!isObject(u)) return invalid('a message must be a JSON object')
  const hasId = 'id' in u
  const id = hasId && isRequestId(u.id) ? u.id : null
  const isResponse = !('method' in u) && hasId && ('result' in u || 'error' in u)
  if (u.jsonrpc !== '2.0') return invalid('"jsonrpc" must be "2.0"', id, !isResponse)
  if ('method' in u) {
    if (typeof u.method !== 'string') return invalid('"method" must be a string', id)
    const params = u.params
    if (params !== undefined && !isObject(params)) return invalid('"params" must be an object', id)
    if (!hasId) return { kind: 'notification', method: u.method, params }
    if (id === null) return invalid('"id" must be a string or an integer')
    return { kind: 'request', id, method: u.method, params }
  }
  if (isResponse) {
    if (id === null) return invalid('"id" must be a string or an integer', null, false)
    const error = u.error
    if ('error' in u) {
      if (!isObject(error) || typeof error.code !== 'number' || typeof error.message !== 'string')
        return invalid('"error" must have a numeric code and a string message', id, false)
      return { kind: 'response', id, error: error as unknown as RpcErrorObject }
    }
    return { kind: 'response', id, result: u.result }
  }
  return invalid('a message needs a "method", or a "result" or "error"', id)
}

/** Serialises a response (or a batch of them), splicing `RawJson` results as they are. */
export const encode = (m: Reply): string => (isBatch(m) ? `[${m.map(encodeOne).join(',')}]` : encodeOne(m))

const isBatch = (m: Reply): m is ReadonlyArray<Outgoing> => Array.isArray(m)

const encodeOne = (m: Outgoing): string => {
  const result = 'result' in m ? m.result : undefined
  if (result instanceof RawJson) return `{"jsonrpc":"2.0","id":${JSON.stringify(m.id)},"result":${result.text}}`
  const json = result instanceof StructuredResult ? result.json() : undefined
  return json === undefined ? JSON.stringify(m) : `{"jsonrpc":"2.0","id":${JSON.stringify(m.id)},"result":${json}}`
}

/** The plain value of a response, with any `RawJson` result unwrapped (for in-process use). */
export const unwrap = (m: Outgoing): Outgoing =>
  'result' in m && m.result instanceof RawJson ? { jsonrpc: '2.0', id: m.id, result: m.result.value } : m
