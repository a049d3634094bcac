/**
 * The server card at `/.well-known/mcp/server-card.json` (the draft of SEP-2127): who the
 * server is and where its Streamable HTTP endpoint is, for clients that discover servers by
 * domain before connecting. Readable from any origin, like other well-known documents; the
 * endpoint URL is the one the request reached (its Host), unless one is given.
 *
 * @example
 * import { serverCardRoute } from './server-card.js'
 * const step = serverCardRoute({ name: 'calc', version: '1.0.0' }, { endpoint: '/mcp', name: 'io.github.ada/calc' })
 */
import type { ServerInfo } from '../../server/server.js'
import { registryName, serverCard } from '../../server/server-card.js'
import type { HttpMiddleware } from './model.js'
import { refuse } from './reply.js'

/** Options of `serveHttp({ serverCard })`. */
export interface ServerCardOptions {
  /** The registry name (`io.github.owner/name`); default: the request's host reversed, then the server's name. */
  readonly name?: string
  /** The public endpoint URL (behind a proxy); default: `http://<Host><path>` of the request. */
  readonly url?: string
}

/** Where the card is served. */
export const serverCardPath = '/.well-known/mcp/server-card.json'

/** The step answering GET and HEAD of the card's path; other paths go on. */
export const serverCardRoute = (info: ServerInfo, setup: ServerCardOptions & { readonly endpoint: string }): HttpMiddleware => {
  if (setup.name !== undefined && !registryName.test(setup.name)) throw new TypeError(`serverCard.name must be namespace/name in reverse-DNS form (io.github.owner/name), not ${JSON.stringify(setup.name)}`)
  if (setup.url !== undefined) new URL(setup.url) // throws on a malformed URL, when the server starts
  const slug = info.name.replace(/[^a-zA-Z0-9._-]+/g, '-') || 'server'
  return (req, next) => {
    if (req.path !== serverCardPath) return next(req)
    if (req.method !== 'GET' && req.method !== 'HEAD') return Promise.resolve(refuse(405, 'Method Not Allowed: GET this document', { allow: 'GET, HEAD' }))
    const host = (req.header('host') ?? 'localhost').replace(/[^a-zA-Z0-9.:[\]-]/g, '')
    const url = setup.url ?? `http://${host}${setup.endpoint}`
    const hostname = new URL(url).hostname.replace(/^\[|\]$/g, '').replace(/[^a-zA-Z0-9.-]/g, '-')
    const name = setup.name ?? `${hostname.split('.').reverse().join('.')}/${slug}`
    const body = JSON.stringify(serverCard(info, name, url))
    const headers = { 'content-type': 'application/json', 'access-control-allow-origin': '*', 'cache-control': 'max-age=300' }
    return Promise.resolve({ status: 200, headers, body: req.method === 'HEAD' ? '' : body })
  }
}
