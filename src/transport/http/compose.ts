/**
 * The HTTP chain's spine, in the style of Hono's `compose`: middlewares run in order, each
 * answering or passing the request on with `next`, and one exit maps whatever any step
 * throws into a reply. The links are made once, when the chain is built: a request costs no
 * closure per step.
 *
 * @example
 * import { compose } from './compose.js'
 * const handle = compose(
 *   [(req, next) => (req.method === 'GET' ? Promise.resolve({ status: 405, headers: {}, body: '' }) : next(req))],
 *   async () => ({ status: 200, headers: {}, body: 'ok' }),
 *   (e) => ({ status: 500, headers: {}, body: String(e) }),
 * )
 */
import type { HttpHandler, HttpMiddleware, HttpReply, HttpRequest } from './model.js'

// ---------------------------------------------------------------------------------------
// functions

/**
 * One handler from `middlewares` (outermost first) ending in `end`; a step that throws or
 * rejects is answered by `onError`. A step calls `next` at most once: the chain is a pipe,
 * not a tree (unlike Hono, nothing checks it at run time, for speed; every step here is ours
 * or the user's own route).
 */
export const compose = (
  middlewares: ReadonlyArray<HttpMiddleware>,
  end: HttpHandler,
  onError: (e: unknown, req: HttpRequest) => HttpReply,
): HttpHandler => {
  const first = middlewares.reduceRight<HttpHandler>((next, step) => (req) => step(req, next), end)
  return (req) => {
    try {
      return first(req).then(undefined, (e: unknown) => onError(e, req))
    } catch (e) {
      // a step that throws before it returns a promise
      return Promise.resolve(onError(e, req))
    }
  }
}
