/**
 * The endpoint's path: a request for any other path gets 404 (routes added with the `use`
 * option come before this step, and answer their own paths).
 *
 * @example
 * import { endpoint } from './endpoint.js'
 * const step = endpoint('/mcp') // '/mcp?x=1' passes, '/' gets 404
 */
import type { HttpMiddleware } from './model.js'
import { refuse } from './reply.js'

// ---------------------------------------------------------------------------------------
// constructors

/** Passes requests for `path` (whatever their query string) and refuses the rest with 404. */
export const endpoint =
  (path: string): HttpMiddleware =>
  (req, next) =>
    req.path === undefined || req.path === path ? next(req) : Promise.resolve(refuse(404, `Not Found: the MCP endpoint is ${path}`))

// ---------------------------------------------------------------------------------------
// functions

/** The path of a request target, without its query string. */
export const pathOf = (url: string | undefined): string => {
  const u = url ?? '/'
  const q = u.indexOf('?')
  return q === -1 ? u : u.slice(0, q)
}
