/**
 * The 2025-11-25 adapter's own methods: `initialize` (version negotiation; the session
 * remembers the client and joins the hub), `logging/setLevel` and `ping`, which 2026-07-28
 * does not have; and the answer a server pinned to 2026-07-28 gives to a request that names
 * no revision in its `_meta`. The dispatcher serves the shared methods to both eras.
 *
 * @example
 * import { hub, newSession } from 'emcp'
 * import { initializeWith } from './legacy.js'
 * const initialize = initializeWith({ capabilities: { tools: {} }, serverInfo: { name: 's', version: '1' }, instructions: undefined, hub: hub() })
 * initialize({ kind: 'request', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18' } }, newSession())
 * // Right({ protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 's', version: '1' } })
 */
import * as E from 'fp-ts/lib/Either.js'
import type { MethodHandler } from '../../server/feature.js'
import type { Hub } from '../../server/hub.js'
import { isObject } from '../../util/json-object.js'
import { rpcError, type Request, type RpcError } from '../jsonrpc.js'
import { logLevels, type LogLevel, type Session } from '../../server/session.js'
import { negotiate, versionsOf, type Era } from '../versions.js'

/** Methods only the 2025-11-25 family has (the last two belong to the resources feature). */
export const legacyOnlyMethods: ReadonlySet<string> = new Set(['initialize', 'ping', 'logging/setLevel', 'resources/subscribe', 'resources/unsubscribe'])

/** `initialize` for a server: negotiates the revision, remembers the client, joins the hub. */
export const initializeWith =
  (server: { readonly capabilities: unknown; readonly serverInfo: unknown; readonly instructions: string | undefined; readonly hub: Hub }): MethodHandler =>
  (req: Request, session: Session): E.Either<RpcError, unknown> => {
    const p = req.params
    if (p === undefined || typeof p.protocolVersion !== 'string')
      return E.left(rpcError('InvalidParams', 'initialize: params.protocolVersion must be a string'))
    if (session.clientCapabilities !== undefined)
      return E.left(rpcError('InvalidRequest', 'Invalid Request: this session is already initialized'))
    session.protocolVersion = negotiate(p.protocolVersion)
    session.clientInfo = isObject(p.clientInfo) ? (p.clientInfo as Session['clientInfo']) : undefined
    session.clientCapabilities = isObject(p.capabilities) ? p.capabilities : {}
    server.hub.add(session)
    const result: Record<string, unknown> = { protocolVersion: session.protocolVersion, capabilities: server.capabilities, serverInfo: server.serverInfo }
    if (server.instructions !== undefined) result.instructions = server.instructions
    return E.right(result)
  }

/** `logging/setLevel`: the least severe level the client wants from now on. */
export const setLevel: MethodHandler = (req, session) => {
  const level = req.params?.level
  if (!(logLevels as ReadonlyArray<unknown>).includes(level))
    return E.left(rpcError('InvalidParams', `logging/setLevel: params.level must be one of ${logLevels.join(', ')}`))
  session.logLevel = level as LogLevel
  return E.right({})
}

/**
 * A request that names no revision, at a server that serves 2026-07-28 only: `initialize`
 * gets the versions it does speak (a legacy client can show nothing else), anything else -32602.
 */
export const refuseLegacy = (eras: ReadonlyArray<Era>, req: Request): E.Either<RpcError, never> => {
  const supported = versionsOf(eras)
  return req.method === 'initialize'
    ? E.left(
        rpcError('UnsupportedProtocolVersion', `Unsupported protocol version: this server speaks ${supported.join(', ')} only, without initialize`, {
          supported,
          requested: req.params?.protocolVersion ?? null,
        }),
      )
    : E.left(rpcError('InvalidParams', `Invalid params: _meta["io.modelcontextprotocol/protocolVersion"] is required (this server speaks ${supported.join(', ')})`))
}
