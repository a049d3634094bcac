/**
 * A server's router: a request goes to its era (the 2026-07-28 adapter when its `_meta` says
 * so, else the 2025-11-25 way), both ending in the method table under the request middleware
 * and the deadline. The 2026-07-28 adapter and its request states are made on the first
 * request of that era. Internal to server.ts.
 *
 * @example
 * import * as E from 'fp-ts/lib/Either.js'
 * import { routerOf } from './router.js'
 * import { hub } from './hub.js'
 * import { memoryStore } from '../stores/memory.js'
 * const methods = new Map([['ping', () => E.right({})]])
 * const { route } = routerOf({}, { serverInfo: {}, capabilities: {}, hub: hub(), methods, chain: { request: [] }, store: memoryStore(), screens: [] })
 */
import type * as E from 'fp-ts/lib/Either.js'
import { unknownMethod } from './assembly.js'
import type { Request } from '../protocol/jsonrpc.js'
import { isThenable } from '../util/eventually.js'
import type { Answer, Feature, MethodHandler } from './feature.js'
import type { Hub } from './hub.js'
import { probeScreen } from './listen-probe.js'
import type { SharedStore } from '../stores/store.js'
import { questionsAsData } from '../protocol/2026-07-28/input-required.js'
import { claimsOf, modernAdapter, type ModernAdapter } from '../protocol/2026-07-28/modern.js'
import { requestStates, type RequestStateOptions } from '../protocol/2026-07-28/request-state.js'
import { listen } from '../protocol/2026-07-28/subscriptions.js'
import { refuseLegacy } from '../protocol/2025-11-25/legacy.js'
import { allEras } from '../protocol/versions.js'
import { deadline, defaultCallTimeoutMs } from './deadline.js'
import { runRequest, type RequestStep } from './middleware.js'
import type { ServerOptions } from './server.js'
import type { Session } from './session.js'

/** What the era router needs from the server. */
export interface RouterParts {
  readonly serverInfo: unknown
  readonly capabilities: { readonly [key: string]: unknown }
  readonly hub: Hub
  readonly methods: ReadonlyMap<string, MethodHandler>
  readonly chain: { readonly request: ReadonlyArray<RequestStep> }
  readonly store: SharedStore
  /** The features' screens of `subscriptions/listen` streams. */
  readonly screens: ReadonlyArray<NonNullable<Feature['screen']>>
}

/**
 * Routes a request to its era: the 2026-07-28 adapter when its `_meta` says so, else the
 * 2025-11-25 way; both end in the method table, under the request middleware and the deadline.
 */
export const routerOf = (options: ServerOptions, { serverInfo, capabilities, hub, methods, chain, store, screens }: RouterParts): Routes => {
  const settle = deadline(options.callTimeoutMs ?? defaultCallTimeoutMs)
  /** The method table; here, below the era adapters, so that a timeout's answer is shaped like any other. */
  const answer = (req: Request, session: Session): Answer => {
    const handler = methods.get(req.method)
    if (handler === undefined) return unknownMethod(req)
    const out = handler(req, session)
    return isThenable(out) ? settle(out as Promise<E.Either<never, unknown>>, req, session) : out
  }
  /** The request middleware around an era's answer; questions to the client reach it as data. */
  const around = (req: Request, session: Session, inner: () => Answer): Answer =>
    chain.request.length === 0 ? inner() : runRequest(chain.request, req, session, () => questionsAsData(inner))
  const eras = options.eras ?? allEras
  const serves2025 = eras.includes('2025-11-25')
  const claims = eras.includes('2026-07-28') ? claimsOf(eras) : undefined
  // keys given are checked now, as the server is built; a server without any signs with a random key, made with its states
  const keys = stateKeys(options.requestState, store)
  const given = keys === undefined ? undefined : requestStates(keys)
  // the adapter is made on the first request it claims: a server spoken to the 2025 way never needs it
  let modern: ModernAdapter | undefined
  const modernOf = (): ModernAdapter =>
    (modern ??= modernAdapter({
      serverInfo,
      instructions: options.instructions,
      capabilities,
      eras,
      cache: options.cache ?? {},
      states: given ?? requestStates(),
      around,
      answer,
      // the features screen what a stream hears; the request middleware judges its resource URIs as it would their reads
      listen: listen(hub, capabilities, [...screens, probeScreen(() => chain.request)]),
    }))
  const inner = (req: Request, session: Session): Answer => (chain.request.length === 0 ? answer(req, session) : around(req, session, () => answer(req, session)))
  const route = (req: Request, session: Session): Answer =>
    claims?.(req) === true ? modernOf().respond(req, session) : !serves2025 ? refuseLegacy(eras, req) : inner(req, session)
  // `inner` for a request known to be a tools/call: the same steps without the method lookup
  // (a mount hands each call of a part's tool here)
  const call = methods.get('tools/call') as MethodHandler
  const toolCall = (req: Request, session: Session): Answer => {
    if (chain.request.length > 0) return inner(req, session)
    const out = call(req, session)
    return isThenable(out) ? settle(out as Promise<E.Either<never, unknown>>, req, session) : out
  }
  return { route, inner, toolCall }
}

/** A server's ways in: by era (`route`), and below the eras (`inner`: the method table under the request middleware; `toolCall`: its tools/call). */
export interface Routes {
  readonly route: (req: Request, session: Session) => Answer
  readonly inner: (req: Request, session: Session) => Answer
  readonly toolCall: (req: Request, session: Session) => Answer
}

/** The server's own request-state keys when it has any, else the shared store's. */
const stateKeys = (own: RequestStateOptions | undefined, store: SharedStore): RequestStateOptions | undefined =>
  own?.key !== undefined || own?.keys !== undefined || store.requestStateKeys === undefined ? own : { ...own, keys: store.requestStateKeys }
