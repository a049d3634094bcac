/**
 * The DNS-rebinding guards: a request whose Host is not allowed, or whose Origin (when a
 * browser sends one) is not, gets 403 before anything else is looked at. Without them a web
 * page could reach a server on 127.0.0.1 through a name it controls.
 *
 * @example
 * import { guards } from './guards.js'
 * const step = guards({ allowedHosts: ['api.example.com'], allowedOrigins: ['https://ui.example.com'] })
 */
import { shown } from '../../util/clip.js'
import { hostCheck, originCheck, parseHost } from './hosts.js'
import type { HttpMiddleware, HttpOptions } from './model.js'
import { refuse } from './reply.js'

// ---------------------------------------------------------------------------------------
// constructors

/** The Host and Origin checks of `options`. */
export const guards = (options: Pick<HttpOptions, 'allowedHosts' | 'allowedOrigins'>): HttpMiddleware => {
  const hostAllowed = hostCheck(options.allowedHosts)
  const originAllowed = originCheck(options.allowedOrigins)
  return (req, next) => {
    const host = req.header('host')
    if (host === undefined || !hostAllowed(host)) return Promise.resolve(refuse(403, hostRefusal(host)))
    const origin = req.header('origin')
    if (origin !== undefined && !originAllowed(origin)) return Promise.resolve(refuse(403, `Forbidden: origin ${shown(origin)} is not allowed`))
    return next(req)
  }
}

// ---------------------------------------------------------------------------------------
// internals

// a Host that is not even a host (user info, a path, junk after a bracket) is named as such,
// so that whoever reads the 403 does not go looking for it in allowedHosts
const hostRefusal = (host: string | undefined): string =>
  host === undefined
    ? 'Forbidden: the request has no Host header'
    : parseHost(host) === undefined
      ? `Forbidden: host ${shown(host)} is not a valid Host header (a name or address, then an optional :port)`
      : `Forbidden: host ${shown(host)} is not allowed`
