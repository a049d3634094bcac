/**
 * The upstream's prompts, resources, resource templates and completions, relayed as one
 * feature: each request is passed on (its cursor, arguments and URI as given) and the
 * upstream's answer comes back as it was, so that lists keep the upstream's pages and order
 * and a read keeps its exact contents. Subscriptions are kept per downstream session and
 * passed on once per URI; the upstream's `resources/updated` reaches the sessions subscribed,
 * its `list_changed` every session. Requests that need the client's input on the way
 * (elicitation inside `prompts/get`) run with a context, like a tool call.
 *
 * @example
 * import { relayFeature } from './relay.js'
 * // mcpServer(tools, info, { features: [relayFeature(up, routes, upstreamCapabilities)] })
 */
import * as E from 'fp-ts/lib/Either.js'
import type { Client, McpSubscription } from '@modelcontextprotocol/client'
import type { Completion, Feature, FeatureFactory, MethodHandler } from '../../server/feature.js'
import { errorCodes, rpcError, type Params, type Request, type RpcError, type RpcErrorTag } from '../../protocol/jsonrpc.js'
import { runWithContext } from '../../server/context.js'
import type { Hub } from '../../server/hub.js'
import type { Session } from '../../server/session.js'
import { subscriptionsOf } from '../../features/resource-subscriptions.js'
import { isObject } from '../../util/json-object.js'
import { clip } from '../../util/clip.js'
import type { Routes } from './routes.js'
import { reasonOf, UpstreamDown, type Upstream } from './upstream.js'
import { withOwnMeta, withUpstreamMeta } from './meta.js'
import { limitFailure } from '../../client/bounds.js'

// ---------------------------------------------------------------------------------------
// model

/** The relay feature, and how the proxy tells its clients what the upstream said changed. */
export interface Relay extends FeatureFactory {
  /** The upstream's `notifications/resources/updated` for `uri`: to the sessions subscribed to it. */
  readonly updated: (uri: string) => void
  /** The upstream's `list_changed` of prompts or resources: to every session. */
  readonly listChanged: (what: 'prompts' | 'resources') => void
}

// ---------------------------------------------------------------------------------------
// constructors

/** The feature relaying what the upstream declares of prompts, resources and completions. */
export const relayFeature = (up: Upstream, r: Routes, upstreamCapabilities: { readonly [key: string]: unknown }): Relay => {
  const hubs: Hub[] = []
  // subscriptions are recorded on the session (so that replicas share them); the upstream gets each URI once
  const subs = subscriptionsOf(() => undefined)
  const { subscription, screen } = subscriptionRelay(up, subs)
  const has = (key: string): boolean => isObject(upstreamCapabilities[key])
  const subscribes = has('resources') && (upstreamCapabilities.resources as { subscribe?: unknown }).subscribe === true

  // the context outside the relay: a 2026-07-28 attempt that ends to ask the client is the front's, not an upstream failure
  // each bounded in time (limits.requestTimeoutMs), and cancelled upstream with the downstream request
  const pass = (call: (c: Client, params: Params, options: { timeout: number; signal: AbortSignal }) => Promise<unknown>): MethodHandler => (req, session) =>
    runWithContext(req, session, async (ctx) => {
      const answer = await relayed(up, req.method, () =>
        r.within(ctx, async () => {
          const c = await up.client()
          return call(c, withUpstreamMeta(forwarded(req.params), c, ctx), { timeout: up.limits.requestTimeoutMs, signal: ctx.signal })
        }),
      )
      // a question the client could not be asked: the protocol's error (-32021), as for a tool
      const missing = r.missing(ctx)
      if (missing !== undefined) throw missing
      return answer
    })

  const methods: { [method: string]: MethodHandler } = {}
  if (has('prompts')) {
    methods['prompts/list'] = pass((c, p, o) => c.listPrompts(p, o))
    methods['prompts/get'] = pass((c, p, o) => c.getPrompt(p as never, o))
  }
  if (has('resources')) {
    methods['resources/list'] = pass((c, p, o) => c.listResources(p, o))
    methods['resources/templates/list'] = pass((c, p, o) => c.listResourceTemplates(p, o))
    methods['resources/read'] = pass((c, p, o) => c.readResource(p as never, o))
    if (subscribes) {
      methods['resources/subscribe'] = subscription(true)
      methods['resources/unsubscribe'] = subscription(false)
    }
  }
  const complete: Feature['complete'] | undefined = has('completions')
    ? async (request) => {
        const answer = await relayed(up, 'completion/complete', async () => (await up.client()).complete(request as never, { timeout: up.limits.requestTimeoutMs }))
        return E.isLeft(answer) ? answer.left : ((answer.right as { completion: Completion }).completion ?? { values: [] })
      }
    : undefined

  const capabilities = {
    ...(has('prompts') ? { prompts: { listChanged: true } } : {}),
    ...(has('resources') ? { resources: { listChanged: true, ...(subscribes ? { subscribe: true } : {}) } } : {}),
  }
  const factory: FeatureFactory = (hub) => {
    hubs.push(hub)
    return { capabilities, methods, ...(complete === undefined ? {} : { complete }), ...(subscribes ? { screen } : {}), release: (s) => subs.release(s) }
  }
  return Object.assign(factory, {
    updated: (uri: string) => {
      for (const h of hubs) h.broadcast('notifications/resources/updated', { uri }, (s) => subs.has(s, uri))
    },
    listChanged: (what: 'prompts' | 'resources') => {
      for (const h of hubs) h.broadcast(`notifications/${what}/list_changed`)
    },
  })
}

/**
 * Subscriptions relayed: `resources/subscribe` and `unsubscribe` of each session recorded in
 * `subs`, the upstream subscribed once per URI (counted), and the URIs a 2026-07-28 client's
 * `subscriptions/listen` names subscribed upstream as its stream opens (`screen`).
 */
const subscriptionRelay = (up: Upstream, subs: ReturnType<typeof subscriptionsOf>) => {
  const upstreamSubscribed = new Map<string, number>()
  const subscription = (on: boolean): MethodHandler => async (req: Request, session: Session) => {
    const uri = req.params?.uri
    const wasSubscribed = typeof uri === 'string' && subs.has(session, uri)
    const local = subs.method(on)(req, session)
    if (E.isLeft(local) || typeof uri !== 'string' || wasSubscribed === on) return local
    const count = (upstreamSubscribed.get(uri) ?? 0) + (on ? 1 : -1)
    if (count > 0) upstreamSubscribed.set(uri, count)
    else upstreamSubscribed.delete(uri)
    if ((on && count === 1) || (!on && count === 0))
      return relayed(up, req.method, async () => {
        const c = await up.client()
        // a 2026-07-28 upstream has no resources/subscribe to refuse an unknown URI: a read finds it out (-32002, as from a 2025 one)
        if (on && c.getProtocolEra() === 'modern') await c.readResource({ uri }, { cacheMode: 'bypass' })
        await upstreamSubscription(c, uri, on)
        return {}
      })
    return local
  }

  // a 2026-07-28 upstream has no resources/subscribe: one subscriptions/listen stream per URI instead
  const streams = new Map<string, McpSubscription>()
  const upstreamSubscription = async (c: Client, uri: string, on: boolean): Promise<void> => {
    if (c.getProtocolEra() !== 'modern') {
      await (on ? c.subscribeResource({ uri }) : c.unsubscribeResource({ uri }))
      return
    }
    if (on) streams.set(uri, await c.listen({ resourceSubscriptions: [uri] }))
    else {
      await streams.get(uri)?.close()
      streams.delete(uri)
    }
  }

  // a 2026-07-28 client subscribes by opening subscriptions/listen: the URIs it names are subscribed upstream once each
  const listened = new Set<string>()
  const screen: Feature['screen'] = async (filter) => {
    for (const uri of filter.resourceSubscriptions ?? []) {
      if (listened.has(uri) || upstreamSubscribed.has(uri) || listened.size >= maxListened) continue
      listened.add(uri)
      const answer = await relayed(up, 'subscriptions/listen', async () => upstreamSubscription(await up.client(), uri, true))
      if (E.isLeft(answer)) {
        listened.delete(uri)
        return answer
      }
    }
    return E.right(() => true)
  }
  return { subscription, screen }
}

/** The most URIs listen streams may have the proxy subscribe to upstream (kept for the proxy's life). */
const maxListened = 1000

// ---------------------------------------------------------------------------------------
// functions

/** The upstream's JSON-RPC error codes, as emcp's tags (the first tag of each code). */
const tagOfCode = new Map<number, RpcErrorTag>(
  (Object.entries(errorCodes) as Array<[RpcErrorTag, number]>).reverse().map(([tag, code]) => [code, tag]),
)

/**
 * Runs one relayed request: its result as data (`shape`d: by default without the upstream
 * era's fields), the upstream's refusal as the same error
 * (code, message, data), and an upstream that cannot be reached as -32004, which an HTTP
 * front answers with 503 so that clients and balancers try again.
 */
export const relayed = async (up: Upstream, method: string, f: () => Promise<unknown>, shape: (result: unknown) => unknown = withoutEraFields): Promise<E.Either<RpcError, unknown>> => {
  try {
    return E.right(shape(await f()))
  } catch (e) {
    // a limit of the proxy's (time, list pages): the connection is fine, the answer was not
    const limit = limitFailure(e, up.limits, method)
    if (limit !== undefined) return E.left(rpcError(limit.limit === 'requestTimeoutMs' ? 'RequestTimeout' : 'InternalError', limit.message, { limit: limit.limit }))
    const code = (e as { code?: unknown } | null)?.code
    // the downstream request was cancelled (or passed its deadline), and so was the upstream one: the connection is fine
    if (code === 'REQUEST_TIMEOUT') return E.left(rpcError('RequestTimeout', clip(`${method} was cancelled: ${reasonOf(e)}`, 1000)))
    if (typeof code === 'number' && !(e instanceof UpstreamDown)) {
      const data = (e as { data?: unknown }).data
      // a 2026-07-28 upstream says -32602 where 2025-11-25 says -32002: the front says it in its client's era
      const missing = method.startsWith('resources/') && (code === -32002 || code === -32602) && isObject(data) && typeof data.uri === 'string'
      return E.left(rpcError(missing ? 'ResourceNotFound' : (tagOfCode.get(code) ?? 'InternalError'), clip(messageOf(e), 1000), data))
    }
    if (!(e instanceof UpstreamDown)) up.reset(reasonOf(e))
    return E.left(rpcError('StoreUnavailable', clip(`${method}: the upstream MCP server ${up.label} cannot be reached: ${reasonOf(e)}`, 1000)))
  }
}

/** The upstream's own message, without the SDK's `MCP error -32602: ` prefix (the front adds its code again). */
const messageOf = (e: unknown): string => reasonOf(e).replace(/^MCP error -?\d+: /, '')

/** Params as the upstream should see them: without the downstream era's envelope, which the upstream client writes for its own era. */
const forwarded = (params: Params | undefined): Params => {
  if (params === undefined) return {}
  const { inputResponses: _r, requestState: _s, ...rest } = params
  return withOwnMeta(rest)
}

/** A result without the fields of the upstream's era (the front writes those of its client's era). */
export const withoutEraFields = (result: unknown): unknown => {
  if (!isObject(result)) return result
  const { resultType: _t, ttlMs: _ttl, cacheScope: _c, ...rest } = result
  return withOwnMeta(rest)
}
