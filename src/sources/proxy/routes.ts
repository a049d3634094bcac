/**
 * What the upstream asks or says in the middle of a request (elicitation, sampling, roots,
 * logging), relayed to the downstream client whose request it serves. The SDK client hands
 * these to one handler per method, without saying which of our requests they belong to; the
 * request's own context is found instead through `AsyncLocalStorage`: an HTTP upstream's
 * answer stream (and a 2026-07-28 `input_required` round) is read inside the call that sent
 * the request, so the store still holds that call's context. A stdio upstream reads its pipe
 * outside any call; there the request goes to the latest call still running, which is the
 * right one whenever calls do not overlap.
 *
 * @example
 * import { routes } from './routes.js'
 * const r = routes()
 * // await r.within(ctx, () => client.callTool(...)); r.current() is ctx meanwhile
 */
import { AsyncLocalStorage } from 'node:async_hooks'
import type { Client } from '@modelcontextprotocol/client'
import type { ElicitSchema, SamplingRequest, ToolContext } from '../../server/context.js'
import { logLevels, type LogLevel } from '../../server/session.js'
import type { Hub } from '../../server/hub.js'
import { isObject } from '../../util/json-object.js'
import { MissingClientCapability } from '../../protocol/2026-07-28/input-required.js'

// ---------------------------------------------------------------------------------------
// model

/** The contexts of the requests being relayed now. */
export interface Routes {
  /** Runs `f` as part of the request whose context is `ctx`. */
  readonly within: <A>(ctx: ToolContext, f: () => Promise<A>) => Promise<A>
  /** The context of the request an upstream message belongs to, if any is running. */
  readonly current: () => ToolContext | undefined
  /**
   * What the downstream client could not be asked during `ctx`'s request for want of a
   * capability it did not declare: the request then fails as the protocol says (-32021),
   * whatever the upstream made of the refusal.
   */
  readonly missing: (ctx: ToolContext) => MissingClientCapability | undefined
  /** Records that `ctx`'s client lacks a capability the upstream asked for. */
  readonly note: (ctx: ToolContext, e: MissingClientCapability) => void
}

// ---------------------------------------------------------------------------------------
// constructors

/** An empty set of routes. */
export const routes = (): Routes => {
  const store = new AsyncLocalStorage<ToolContext>()
  const running: ToolContext[] = []
  const missed = new WeakMap<ToolContext, MissingClientCapability>()
  return {
    missing: (ctx) => missed.get(ctx),
    note: (ctx, e) => void missed.set(ctx, e),
    within: async (ctx, f) => {
      running.push(ctx)
      try {
        return await store.run(ctx, f)
      } finally {
        running.splice(running.lastIndexOf(ctx), 1)
      }
    },
    current: () => store.getStore() ?? running[running.length - 1],
  }
}

// ---------------------------------------------------------------------------------------
// functions

/**
 * Answers the upstream's requests to the client (elicitation, sampling, roots) by asking the
 * downstream client of the running request, and passes its log messages on (to that client,
 * else to every connected one). An upstream request outside any relayed request is refused.
 */
export const relayToClient = (client: Client, r: Routes, hub: Hub): void => {
  const caller = (what: string): ToolContext => {
    const ctx = r.current()
    if (ctx === undefined) throw new Error(`${what}: no request of a client is being relayed now, so nobody can be asked`)
    return ctx
  }
  const asking = async <A>(ctx: ToolContext, ask: () => Promise<A>): Promise<A> => {
    try {
      return await ask()
    } catch (e) {
      if (e instanceof MissingClientCapability) r.note(ctx, e)
      throw e
    }
  }
  // a 2026-07-28 upstream names each question (its inputRequests key, the id the SDK gives the request): the front's round keeps that key
  const keyOf = (id: unknown): { key?: string } => (client.getProtocolEra() === 'modern' && typeof id === 'string' ? { key: id } : {})
  client.setRequestHandler('elicitation/create', async (req, sdk) => {
    const ctx = caller('elicitation/create')
    const p = req.params as { readonly mode?: string; readonly message: string; readonly url?: string; readonly elicitationId?: string; readonly requestedSchema?: unknown }
    const key = keyOf(sdk.mcpReq.id)
    if (p.mode === 'url') return asking(ctx, () => ctx.elicitUrl({ message: p.message, url: String(p.url), elicitationId: String(p.elicitationId) }, key))
    // the downstream client checks the schema; emcp passes it as the upstream wrote it
    return (await asking(ctx, () => ctx.elicit({ message: p.message, requestedSchema: p.requestedSchema as ElicitSchema }, key))) as { action: 'accept' | 'decline' | 'cancel' }
  })
  client.setRequestHandler('sampling/createMessage', async (req, sdk) => {
    const ctx = caller('sampling/createMessage')
    return (await asking(ctx, () => ctx.sample(req.params as unknown as SamplingRequest, keyOf(sdk.mcpReq.id)))) as never
  })
  client.setRequestHandler('roots/list', async (_req, sdk) => {
    const ctx = caller('roots/list')
    return { roots: [...(await asking(ctx, () => ctx.roots(keyOf(sdk.mcpReq.id))))] } as never
  })
  client.setNotificationHandler('notifications/message', (n) => {
    const { level, data, logger } = n.params
    const ctx = r.current()
    if (ctx !== undefined) ctx.log(level as LogLevel, data, logger)
    // outside any request: to every session whose log level lets it through
    else hub.broadcast('notifications/message', isObject(n.params) ? n.params : {}, (s) => logLevels.indexOf(level as LogLevel) >= logLevels.indexOf(s.logLevel ?? 'debug'))
  })
}
