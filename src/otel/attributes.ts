/**
 * What the OpenTelemetry semantic conventions for MCP say a server records about one
 * request, as plain data: the span's name, the attributes known when the request arrives,
 * and those its outcome adds (`error.type`, `rpc.response.status_code`, the span status).
 * No OpenTelemetry import: the middleware (./middleware.ts) hands these to the API.
 *
 * @example
 * import { spanNameOf, requestAttributes } from './attributes.js'
 * spanNameOf('tools/call', { name: 'add', arguments: {} }, false) // 'tools/call add'
 * // requestAttributes(info, hash) // { 'mcp.method.name': 'tools/call', 'gen_ai.tool.name': 'add', … }
 */
import * as E from 'fp-ts/lib/Either.js'
import { clip } from '../util/clip.js'
import { isObject } from '../util/json-object.js'
import { errorCodes, type Params } from '../protocol/jsonrpc.js'
import { modernError } from '../protocol/2026-07-28/modern.js'
import { isModernVersion } from '../protocol/versions.js'
import type { NotificationInfo, Outcome, RequestInfo } from '../server/middleware.js'
import type { Session, TransportName } from '../server/session.js'

// ---------------------------------------------------------------------------------------
// model

/** Attribute values as OpenTelemetry takes them (strings only, here). */
export type Attributes = { [key: string]: string }

/** What an outcome adds to a span and to the duration metric. */
export interface Ending {
  /** `error.type`: the JSON-RPC error code as a string, `tool_error` for an `isError` tool result; absent on success. */
  readonly errorType: string | undefined
  /** `rpc.response.status_code`: the JSON-RPC error code as a string, when the answer is an error. */
  readonly statusCode: string | undefined
  /** The span status description: the JSON-RPC error's message. */
  readonly message: string | undefined
  /** True when the request was answered (not an error): targets named by the client are then known to the server. */
  readonly answered: boolean
}

/** The bucket boundaries the conventions give for `mcp.server.operation.duration`, in seconds. */
export const durationBuckets: ReadonlyArray<number> = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300]

/** The attribute keys, spelled once. */
export const keys = {
  method: 'mcp.method.name',
  tool: 'gen_ai.tool.name',
  prompt: 'gen_ai.prompt.name',
  operation: 'gen_ai.operation.name',
  requestId: 'jsonrpc.request.id',
  session: 'mcp.session.id',
  protocolVersion: 'mcp.protocol.version',
  transport: 'network.transport',
  protocolName: 'network.protocol.name',
  resource: 'mcp.resource.uri',
  errorType: 'error.type',
  statusCode: 'rpc.response.status_code',
} as const

/** The longest tool or prompt name, or resource URI, recorded; a longer one is left out (a clipped name would name nothing). */
export const maxTargetLength = 2048

// ---------------------------------------------------------------------------------------
// functions

/**
 * `{mcp.method.name} {target}`: the tool or prompt name when there is one; the resource URI
 * only when asked for (the conventions keep it out by default: too many distinct names).
 */
export const spanNameOf = (method: string, params: Params | undefined, uriInName: boolean): string => {
  const target = nameOf(method, params) ?? (uriInName ? uriOf(method, params) : undefined)
  const m = clip(method)
  return target === undefined ? m : `${m} ${target}`
}

/** The attributes known when a request arrives (the session's hash comes from `hash`). */
export const requestAttributes = (req: RequestInfo, hash: (s: Session) => string | undefined): Attributes => {
  const a: Attributes = { [keys.method]: clip(req.method), [keys.requestId]: clip(String(req.id)) }
  const name = nameOf(req.method, req.params)
  if (name !== undefined) a[req.method === 'tools/call' ? keys.tool : keys.prompt] = name
  if (req.method === 'tools/call') a[keys.operation] = 'execute_tool'
  const uri = uriOf(req.method, req.params)
  if (uri !== undefined) a[keys.resource] = uri
  return sessionAttributes(a, req.session, hash)
}

/** The attributes of a notification from the client: its method, the session, the transport. */
export const notificationAttributes = (note: NotificationInfo, hash: (s: Session) => string | undefined): Attributes =>
  sessionAttributes({ [keys.method]: clip(note.method) }, note.session, hash)

/** A notification's metric attributes: the span's, less the session, with `_OTHER` for a method no client of the spec sends. */
export const notificationMetricAttributes = (span: Attributes, protocolVersion: string): Attributes => {
  const a: Attributes = { ...span, [keys.protocolVersion]: protocolVersion }
  delete a[keys.session]
  if (!clientNotifications.has(a[keys.method] ?? '')) a[keys.method] = '_OTHER'
  return a
}

/** What an outcome says: an error's code and message, or `tool_error` for a tool result with `isError`. */
export const endingOf = (out: Outcome, session: Readonly<Session>): Ending => {
  if (E.isLeft(out)) {
    // the code the client sees (a 2026-07-28 answer maps some errors)
    const wire = isModernVersion(session.protocolVersion) ? modernError(out.left) : out.left
    const code = String(errorCodes[wire._tag])
    return { errorType: code, statusCode: code, message: out.left.message, answered: false }
  }
  const r = out.right
  const failed = isObject(r) && r.isError === true
  return { errorType: failed ? 'tool_error' : undefined, statusCode: undefined, message: undefined, answered: true }
}

/**
 * The duration metric's attributes: the span's, less those of one request (its id, its
 * session, the resource URI, which the conventions make opt-in there), with a target named
 * by the client only once the server answered (an unknown name would grow the series
 * without bound), and `_OTHER` for a method the server does not have.
 */
export const metricAttributes = (span: Attributes, ending: Ending, protocolVersion: string): Attributes => {
  const a: Attributes = { ...span, [keys.protocolVersion]: protocolVersion }
  delete a[keys.requestId]
  delete a[keys.session]
  delete a[keys.resource]
  if (!ending.answered) {
    delete a[keys.tool]
    delete a[keys.prompt]
  }
  if (ending.statusCode === String(errorCodes.MethodNotFound)) a[keys.method] = '_OTHER'
  if (ending.errorType !== undefined) a[keys.errorType] = ending.errorType
  if (ending.statusCode !== undefined) a[keys.statusCode] = ending.statusCode
  return a
}

// ---------------------------------------------------------------------------------------
// internals

/** The tool or prompt a request names, when it is a string of a sane length. */
const nameOf = (method: string, params: Params | undefined): string | undefined => {
  if (method !== 'tools/call' && method !== 'prompts/get') return undefined
  const name = params?.name
  return typeof name === 'string' && name.length > 0 && name.length <= maxTargetLength ? name : undefined
}

/** The methods whose `params.uri` names a resource (the conventions list them). */
const uriMethods: ReadonlySet<string> = new Set(['resources/read', 'resources/subscribe', 'resources/unsubscribe'])

const uriOf = (method: string, params: Params | undefined): string | undefined => {
  if (!uriMethods.has(method)) return undefined
  const uri = params?.uri
  return typeof uri === 'string' && uri.length <= maxTargetLength ? uri : undefined
}

/** The notifications a client sends a server in either era; any other method is `_OTHER` in the metric (its series must stay bounded). */
const clientNotifications: ReadonlySet<string> = new Set([
  'notifications/initialized',
  'notifications/cancelled',
  'notifications/progress',
  'notifications/roots/list_changed',
  'notifications/tasks/status',
])

/** Adds the session's hashed id and the transport's attributes to `a`. */
const sessionAttributes = (a: Attributes, session: Readonly<Session>, hash: (s: Session) => string | undefined): Attributes => {
  const id = hash(session)
  if (id !== undefined) a[keys.session] = id
  transportAttributes(a, session.transport)
  return a
}

/** `network.transport` as the conventions say (`pipe` for stdio, `tcp` for HTTP); nothing for the in-process client. */
const transportAttributes = (a: Attributes, transport: TransportName | undefined): void => {
  if (transport === 'stdio') a[keys.transport] = 'pipe'
  else if (transport === 'http') {
    a[keys.transport] = 'tcp'
    a[keys.protocolName] = 'http'
  }
}
