/**
 * JSON documents served beside the endpoint, to anyone and before authentication: the
 * Protected Resource Metadata (RFC 9728) that tells a client where to get a token. GET and
 * HEAD answer the document (readable from any origin, as RFC 9728 clients in browsers need);
 * other methods get 405. Other paths go on down the chain.
 *
 * @example
 * import { documents } from './documents.js'
 * const step = documents([{ path: '/.well-known/oauth-protected-resource/mcp', body: { resource: 'https://mcp.example.com/mcp' } }])
 */
import type { HttpMiddleware } from './model.js'
import { refuse } from './reply.js'

// ---------------------------------------------------------------------------------------
// constructors

/** The step that answers requests for `docs`' paths with their bodies. */
export const documents = (docs: ReadonlyArray<{ readonly path: string; readonly body: unknown }>): HttpMiddleware => {
  const byPath = new Map(docs.map((d) => [d.path, JSON.stringify(d.body)]))
  return (req, next) => {
    const text = req.path === undefined ? undefined : byPath.get(req.path)
    if (text === undefined) return next(req)
    if (req.method !== 'GET' && req.method !== 'HEAD') return Promise.resolve(refuse(405, 'Method Not Allowed: GET this document', { allow: 'GET, HEAD' }))
    const headers = { 'content-type': 'application/json', 'access-control-allow-origin': '*', 'cache-control': 'max-age=300' }
    return Promise.resolve({ status: 200, headers, body: req.method === 'HEAD' ? '' : text })
  }
}
