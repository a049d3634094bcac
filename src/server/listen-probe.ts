/**
 * The server's request middleware as a judge of `subscriptions/listen` streams (2026-07-28):
 * a middleware that refuses some callers `resources/read` or `resources/subscribe` of a URI
 * (by role, by tenant) refuses them that URI's updates on a listen stream too. When a stream
 * opens, each URI of its `resourceSubscriptions` goes through the request middleware as two
 * probes, a `resources/read` and a `resources/subscribe` of `{ uri }` marked with
 * `_meta["emcp/probe"]: true`, which nothing behind the middleware answers (nothing is read);
 * a URI either probe is refused (or whose probe throws) is held back.
 *
 * @example
 * import { probeScreen } from './listen-probe.js'
 * const steps: never[] = []
 * const screen = probeScreen(() => steps) // a Feature['screen'] for listen(hub, capabilities, [screen])
 */
import * as E from 'fp-ts/lib/Either.js'
import { rpcError, type Request } from '../protocol/jsonrpc.js'
import { all, isThenable, map, type Eventually } from '../util/eventually.js'
import type { Feature, Screen } from './feature.js'
import { runRequest, type Outcome, type RequestStep } from './middleware.js'
import type { Session } from './session.js'

// ---------------------------------------------------------------------------------------
// model

/** The `_meta` key that marks a probe, for a middleware that would rather not count it. */
export const probeKey = 'emcp/probe'

/** The most resource URIs one `subscriptions/listen` stream may name. */
export const maxListenResourceUris = 1000

// ---------------------------------------------------------------------------------------
// functions

/** The screen of the request middleware `steps()` gives now (read when each stream opens: `server.use` may add more). */
export const probeScreen =
  (steps: () => ReadonlyArray<RequestStep>): NonNullable<Feature['screen']> =>
  (filter, session) => {
    const uris = [...new Set(filter.resourceSubscriptions ?? [])]
    if (uris.length > maxListenResourceUris)
      return E.left(rpcError('InvalidParams', `subscriptions/listen: resourceSubscriptions names ${uris.length} URIs; at most ${maxListenResourceUris} per stream (open another stream for more)`))
    const chain = steps()
    if (chain.length === 0 || uris.length === 0) return E.right(everything)
    const allowed = (uri: string): Eventually<string | undefined> =>
      map(all(['resources/read', 'resources/subscribe'].map((method) => passes(chain, method, uri, session))), (oks) => (oks.every(Boolean) ? uri : undefined))
    return map(all(uris.map(allowed)), (ok) => {
      const heard = new Set(ok.filter((u): u is string => u !== undefined))
      return E.right<never, Screen>((method, params) => method !== 'notifications/resources/updated' || (typeof params?.uri === 'string' && heard.has(params.uri)))
    })
  }

// ---------------------------------------------------------------------------------------
// internals

const everything: Screen = () => true

/** Whether the middleware lets a probe of `method` on `uri` through; a throw or a rejection is a refusal. */
const passes = (chain: ReadonlyArray<RequestStep>, method: string, uri: string, session: Session): Eventually<boolean> => {
  const req: Request = { kind: 'request', id: `${probeKey}:${method}`, method, params: { uri, _meta: { [probeKey]: true } } }
  try {
    const out = runRequest(chain, req, session, (): Outcome => E.right({}))
    return isThenable(out) ? (out as Promise<Outcome>).then(E.isRight, () => false) : E.isRight(out)
  } catch {
    return false
  }
}
