/**
 * What the playground accepts from an MCP App's frame, checked before anything else reads
 * it: every message is hostile. A message is at most `maxMessageBytes` of JSON (a value
 * that does not serialize, such as a cyclic one, is refused), is JSON-RPC 2.0 (a request
 * with a string or number id, a notification, or an answer to one of the page's requests),
 * and names a method of the allow-lists below. The rest is refused with a reason, which the
 * page logs, and answered with a JSON-RPC error when it has an id.
 *
 * @example
 * const checked = checkAppMessage(event.data)
 * if (checked.kind === 'refused') log('warning', checked.reason)
 */

type Json = Record<string, unknown>
const isObject = (u: unknown): u is Json => typeof u === 'object' && u !== null && !Array.isArray(u)

/** The largest message accepted from an app, as JSON text. */
export const maxMessageBytes = 1024 * 1024

/** The requests an app may send: the extension's lifecycle and UI requests, and the MCP subset it proxies. */
export const appRequests = ['ui/initialize', 'ping', 'tools/call', 'resources/read', 'ui/open-link', 'ui/message', 'ui/update-model-context', 'ui/request-display-mode'] as const

/** The notifications an app may send. */
export const appNotifications = ['ui/notifications/initialized', 'ui/notifications/size-changed', 'ui/notifications/sandbox-proxy-ready', 'notifications/message', 'ui/notifications/request-teardown'] as const

/** A request id as JSON-RPC has it. */
export type RpcId = string | number

/** A message from an app, checked. */
export type AppMessage =
  | { readonly kind: 'request'; readonly id: RpcId; readonly method: (typeof appRequests)[number]; readonly params: Json }
  | { readonly kind: 'notification'; readonly method: (typeof appNotifications)[number]; readonly params: Json }
  | { readonly kind: 'answer'; readonly id: RpcId; readonly result?: Json; readonly error?: Json }
  | { readonly kind: 'refused'; readonly reason: string; readonly code: number; readonly id?: RpcId }

const isId = (u: unknown): u is RpcId => (typeof u === 'string' && u.length <= 128) || (typeof u === 'number' && Number.isSafeInteger(u))

/** The size of `data` as JSON, or undefined when it does not serialize (cycles, depth, BigInt). */
const jsonSize = (data: unknown): number | undefined => {
  try {
    const text = JSON.stringify(data)
    return typeof text === 'string' ? text.length : undefined
  } catch {
    return undefined
  }
}

/** Checks one message from an app's frame. */
export const checkAppMessage = (data: unknown): AppMessage => {
  const size = jsonSize(data)
  if (size === undefined) return { kind: 'refused', code: -32700, reason: 'not JSON' }
  if (size > maxMessageBytes) return { kind: 'refused', code: -32600, reason: `larger than ${maxMessageBytes} bytes` }
  if (!isObject(data) || data.jsonrpc !== '2.0') return { kind: 'refused', code: -32600, reason: 'not a JSON-RPC 2.0 message' }
  const id = data.id
  if (id !== undefined && !isId(id)) return { kind: 'refused', code: -32600, reason: 'its id is neither a string nor an integer' }
  if (data.method === undefined) {
    if (id === undefined) return { kind: 'refused', code: -32600, reason: 'neither a request, a notification nor an answer' }
    if (isObject(data.result) === isObject(data.error)) return { kind: 'refused', code: -32600, reason: 'an answer needs a result object or an error object', id }
    return isObject(data.result) ? { kind: 'answer', id, result: data.result } : { kind: 'answer', id, error: data.error as Json }
  }
  if (typeof data.method !== 'string' || data.method.length > 128) return { kind: 'refused', code: -32600, reason: 'its method is not a short string', ...(id === undefined ? {} : { id }) }
  const shown = JSON.stringify(data.method)
  if (data.params !== undefined && !isObject(data.params)) return { kind: 'refused', code: -32602, reason: `${shown}: params must be an object`, ...(id === undefined ? {} : { id }) }
  const params = isObject(data.params) ? data.params : {}
  if (id === undefined) {
    const method = appNotifications.find((m) => m === data.method)
    return method === undefined ? { kind: 'refused', code: -32601, reason: `notification ${shown} is not one an app may send` } : { kind: 'notification', method, params }
  }
  const method = appRequests.find((m) => m === data.method)
  return method === undefined ? { kind: 'refused', code: -32601, reason: `method ${shown} is not one the playground answers for apps`, id } : { kind: 'request', id, method, params }
}
