/**
 * The era step: a parsed message whose `_meta` names 2026-07-28 goes to that era's handler
 * (each POST stands alone there, whatever `MCP-Session-Id` says); a request whose header
 * names a revision the body does not bear out gets 400; everything else is 2025-11-25 traffic
 * and goes on down the chain. Installed only when the server serves 2026-07-28. With
 * `slots`, each `subscriptions/listen` stream takes one of the transport's stream slots.
 *
 * @example
 * import { modern } from './modern.js'
 * const step = modern(server, { keepAliveMs: 15_000 })
 */
import type { AnyTool } from '../../contract/emcp.js'
import { allEras, isSupportedVersion, versionsOf } from '../../protocol/versions.js'
import type { Server } from '../../server/server.js'
import type { HttpMiddleware } from './model.js'
import { claimsModern, envelopeMissing, modernPost } from './modern-post.js'
import type { StreamLimits } from './stream-slots.js'

// ---------------------------------------------------------------------------------------
// constructors

/** The 2026-07-28 step of `server`, with its open streams' `close`. */
export const modern = <U extends AnyTool>(typed: Server<U>, options: { readonly keepAliveMs?: number } & Partial<StreamLimits>): HttpMiddleware & { readonly close: () => void } => {
  const server = typed as unknown as Server
  const eras = server.options.eras ?? allEras
  const serves2025 = eras.includes('2025-11-25')
  const supported = versionsOf(eras)
  const limits = options.slots === undefined || options.clientOf === undefined ? undefined : { slots: options.slots, clientOf: options.clientOf }
  const post = modernPost(server, options.keepAliveMs ?? 15_000, limits)
  const step: HttpMiddleware = (req, next) => {
    if (claimsModern(req.message, serves2025)) {
      // handed over, and let go here: a listen stream lives as long as its client likes, and must not keep its body alive
      const message = req.message
      req.message = undefined
      return post(req, message, req.identity)
    }
    const version = req.header('mcp-protocol-version')
    if (version !== undefined && !isSupportedVersion(version)) return Promise.resolve(envelopeMissing(req.message, version, supported))
    return next(req)
  }
  return Object.assign(step, { close: post.close })
}
