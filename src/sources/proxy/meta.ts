/**
 * The `_meta` of what crosses the proxy: the protocol's own keys (`io.modelcontextprotocol/…`,
 * written per era and per hop) are dropped on the way, and a 2026-07-28 upstream is told, per
 * request, what it would otherwise learn from an `initialize` the proxy's client never sent.
 *
 * @example
 * import { withOwnMeta } from './meta.js'
 * withOwnMeta({ content: [], _meta: { 'io.modelcontextprotocol/serverInfo': {}, trace: 'x' } }) // { content: [], _meta: { trace: 'x' } }
 */
import type { Client } from '@modelcontextprotocol/client'
import type { ToolContext } from '../../server/context.js'
import type { Params } from '../../protocol/jsonrpc.js'
import { isObject } from '../../util/json-object.js'
import { declaresTasks, tasksExtension } from '../../features/tasks/extension.js'

// ---------------------------------------------------------------------------------------
// functions

// the spec's per-request keys (2026-07-28), as the SDK client names them
const LOG_LEVEL_META_KEY = 'io.modelcontextprotocol/logLevel'
const CLIENT_CAPABILITIES_META_KEY = 'io.modelcontextprotocol/clientCapabilities'

/** `o` with only the `_meta` keys that are not the protocol's own (`io.modelcontextprotocol/…`, written per era and per hop). */
export const withOwnMeta = (o: Params): Params => {
  const { _meta, ...rest } = o
  if (!isObject(_meta)) return rest
  const meta = Object.fromEntries(Object.entries(_meta).filter(([k]) => !k.startsWith('io.modelcontextprotocol/')))
  return Object.keys(meta).length === 0 ? rest : { ...rest, _meta: meta }
}

/**
 * The `_meta` a 2026-07-28 upstream reads per request: every log level (the downstream
 * client's own level filters them at the proxy, ctx.log), and the capabilities of the client
 * the proxy serves, of those the proxy relays (elicitation, sampling, roots, the tasks
 * extension), so that the upstream asks only what that client can answer, and makes a task
 * only of a call whose client can take one.
 */
export const upstreamMeta = (client: Client, ctx: Pick<ToolContext, 'session'>): { _meta?: { [key: string]: unknown } } => {
  if (client.getProtocolEra() !== 'modern') return {}
  const declared = ctx.session.clientCapabilities ?? {}
  const relayed: { [key: string]: unknown } = Object.fromEntries(['elicitation', 'sampling', 'roots'].filter((k) => declared[k] !== undefined).map((k) => [k, declared[k]]))
  // the tasks extension is per request: the upstream may make a task only of a call whose client can take one
  if (relaysTasks(client) && declaresTasks(ctx.session)) relayed.extensions = { [tasksExtension]: (declared.extensions as { [key: string]: unknown })[tasksExtension] }
  return { _meta: { [LOG_LEVEL_META_KEY]: 'debug', [CLIENT_CAPABILITIES_META_KEY]: relayed } }
}

/** True when the upstream, reached the 2026-07-28 way, declares the tasks extension: the proxy then relays it. */
export const relaysTasks = (client: Client): boolean => {
  const extensions = client.getServerCapabilities()?.extensions
  return client.getProtocolEra() === 'modern' && isObject(extensions) && isObject(extensions[tasksExtension])
}

/** `params` with the upstream's per-request `_meta` added to its own. */
export const withUpstreamMeta = (params: Params, client: Client, ctx: Pick<ToolContext, 'session'>): Params => {
  const extra = upstreamMeta(client, ctx)._meta
  if (extra === undefined) return params
  return { ...params, _meta: { ...(isObject(params._meta) ? params._meta : {}), ...extra } }
}
