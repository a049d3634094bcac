/**
 * What a POST must say of itself before its body is read: the method (405 otherwise, naming
 * the methods allowed), an Accept that admits JSON (406; in a session, SSE alone passes: the
 * stateful end answers tool calls on a stream and refuses the rest), a JSON Content-Type (415), and an
 * `MCP-Protocol-Version` this server knows (400). A 2026-07-28 header passes when that era
 * is served; the era step decides on it once the body is parsed.
 *
 * @example
 * import { negotiate } from './negotiate.js'
 * const step = negotiate({ methods: 'POST', cors: true, modern: true })
 */
import { shown } from '../../util/clip.js'
import { isSupportedVersion, supportedVersions } from '../../protocol/versions.js'
import type { HttpMiddleware } from './model.js'
import { refuse } from './reply.js'

// ---------------------------------------------------------------------------------------
// constructors

/** The checks of a POST's head; `methods` is what the endpoint accepts, `modern` whether 2026-07-28 is served. */
export const negotiate = (endpoint: { readonly methods: string; readonly cors: boolean; readonly modern: boolean }): HttpMiddleware => {
  const allow = endpoint.cors ? `${endpoint.methods}, OPTIONS` : endpoint.methods
  const accepts = endpoint.methods === 'POST' ? 'POST only' : 'POST, GET and DELETE'
  return (req, next) => {
    if (req.method !== 'POST') return Promise.resolve(refuse(405, `Method Not Allowed: this endpoint accepts ${accepts}`, { allow }))
    const accept = req.header('accept')
    if (accept !== undefined && !acceptsJson(accept) && !(endpoint.methods !== 'POST' && req.header('mcp-session-id') !== undefined && acceptsEventStream(accept)))
      return Promise.resolve(refuse(406, 'Not Acceptable: the Accept header must allow application/json'))
    const type = req.header('content-type')
    if (type === undefined || !isJsonType(type)) return Promise.resolve(refuse(415, 'Unsupported Media Type: Content-Type must be application/json'))
    const version = req.header('mcp-protocol-version')
    if (!endpoint.modern && version !== undefined && !isSupportedVersion(version))
      return Promise.resolve(refuse(400, `Bad Request: unsupported MCP-Protocol-Version ${shown(version)} (supported: ${supportedVersions.join(', ')})`))
    return next(req)
  }
}

// ---------------------------------------------------------------------------------------
// functions

/** True when an Accept header admits JSON; `application/json;q=0` refuses it whatever wildcards say. */
export const acceptsJson = (accept: string): boolean => {
  // a client sends the same Accept on every request: the last answer is kept (one entry, so a client varying it costs only the parse)
  if (accept === last.accept) return last.admitted
  const admitted = parseAccept(accept)
  last.accept = accept
  last.admitted = admitted
  return admitted
}

const last: { accept: string | undefined; admitted: boolean } = { accept: undefined, admitted: false }

/** True when an Accept header (absent: no) admits an SSE stream, `text/event-stream`. */
export const acceptsEventStream = (accept: string | undefined): boolean => {
  if (accept === undefined) return false
  // the same Accept on every request, as for acceptsJson: the last answer is kept
  if (accept !== lastStream.accept) {
    lastStream.accept = accept
    lastStream.admitted = /text\/event-stream/i.test(accept)
  }
  return lastStream.admitted
}

const lastStream: { accept: string | undefined; admitted: boolean } = { accept: undefined, admitted: false }

const parseAccept = (accept: string): boolean => {
  let admitted = false
  for (const part of accept.split(',')) {
    const [range = '', ...params] = part.split(';')
    const type = range.trim().toLowerCase()
    const refused = params.some((p) => /^\s*q\s*=\s*0(\.0{0,3})?\s*$/i.test(p))
    if (type === 'application/json' && refused) return false
    if (!refused && (type === 'application/json' || type === 'application/*' || type === '*/*')) admitted = true
  }
  return admitted
}

const isJsonType = (type: string): boolean => (type.split(';')[0] ?? '').trim().toLowerCase() === 'application/json'
