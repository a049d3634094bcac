/**
 * CORS for browser clients: a preflight (OPTIONS) is answered with the methods and headers a
 * cross-origin request may use, and an answer names the request's origin only when that
 * origin is allowed (even with the rebinding guards off, or any web page could read the
 * server).
 *
 * @example
 * import { cors } from './cors.js'
 * const step = cors({ allowedOrigins: ['https://ui.example.com'] }, 'POST, GET, DELETE, OPTIONS')
 */
import { originCheck } from './hosts.js'
import type { HttpMiddleware, HttpOptions, HttpReply, HttpRequest } from './model.js'

// ---------------------------------------------------------------------------------------
// constructors

/** CORS for the origins `options` allows; `methods` is what a preflight offers. */
export const cors = (options: Pick<HttpOptions, 'allowedOrigins'>, methods: string): HttpMiddleware => {
  const originAllowed = originCheck(options.allowedOrigins)
  return (req, next) => {
    const origin = req.header('origin')
    const named = origin !== undefined && originAllowed(origin)
    if (req.method === 'OPTIONS') {
      const answer = preflight(req, methods)
      return Promise.resolve(named ? withOrigin(answer, origin) : answer)
    }
    return named ? next(req).then((r) => withOrigin(r, origin)) : next(req)
  }
}

// ---------------------------------------------------------------------------------------
// internals

/** Request headers a browser client may send. */
const requestHeaders = 'content-type, accept, authorization, mcp-protocol-version, mcp-session-id, last-event-id, mcp-method, mcp-name'

/** A CORS preflight: which methods and headers a cross-origin request may use. */
const preflight = (req: HttpRequest, methods: string): HttpReply => ({
  status: 204,
  headers: {
    allow: methods,
    'access-control-allow-methods': methods,
    'access-control-allow-headers': req.header('access-control-request-headers') ?? requestHeaders,
    'access-control-max-age': '600',
  },
  body: '',
})

/** Adds the CORS answer headers for an origin that passed the origin check. */
const withOrigin = (r: HttpReply, origin: string): HttpReply => ({
  ...r,
  headers: {
    ...r.headers,
    'access-control-allow-origin': origin,
    'access-control-expose-headers': 'mcp-session-id, mcp-protocol-version',
    vary: 'origin',
  },
})
