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
import { hostCheck, originCheck } from './hosts.js'
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
    if (host === undefined || !hostAllowed(host)) return Promise.resolve(refuse(403, `Forbidden: host ${shown(host ?? '')} is not allowed`))
    const origin = req.header('origin')
    if (origin !== undefined && !originAllowed(origin)) return Promise.resolve(refuse(403, `Forbidden: origin ${shown(origin)} is not allowed`))
    return next(req)
  }
}
