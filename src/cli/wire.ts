/**
 * The command line's client: requests go to the server's text dispatcher as JSON and the
 * answers are read back from JSON, exactly as a client over a transport would see them.
 * Arguments are sent as given (wire values: a geometry as its text), and a server built by
 * another copy of emcp answers the same.
 *
 * @example
 * import { wireClient } from './wire.js'
 * const c = await wireClient(server)
 * const result = await c.request('tools/call', { name: 'add', arguments: { a: 2, b: 3 } })
 */
import * as O from 'fp-ts/lib/Option.js'
import type { ListedTool } from '../emcp.js'
import type { RpcErrorObject } from '../jsonrpc.js'
import { latestVersion } from '../protocol/versions.js'
import type { Server } from '../server.js'
import { newSession } from '../session.js'

/** A JSON-RPC error the server answered. */
export class WireError extends Error {
  constructor(readonly error: RpcErrorObject) {
    super(error.message)
    this.name = 'WireError'
  }
}

/** An initialized session with the server. */
export interface WireClient {
  /** One request; resolves to its result, rejects with a WireError. */
  readonly request: (method: string, params: object) => Promise<Record<string, unknown>>
  /** Every tool listed, page by page. */
  readonly list: () => Promise<ReadonlyArray<ListedTool>>
}

/** Opens a session (initialize, initialized) with the server. */
export const wireClient = async (server: Server): Promise<WireClient> => {
  const session = newSession()
  let id = 0
  const request = async (method: string, params: object): Promise<Record<string, unknown>> => {
    const out = await server.dispatchText(JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }), session)()
    const reply = O.isSome(out) ? (JSON.parse(out.value) as { result?: Record<string, unknown>; error?: RpcErrorObject }) : {}
    if (reply.result === undefined) throw new WireError(reply.error ?? { code: -32603, message: `no answer to ${method}` })
    return reply.result
  }
  await request('initialize', { protocolVersion: latestVersion, capabilities: {}, clientInfo: { name: 'emcp-cli', version: '0' } })
  await server.dispatchText(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }), session)()
  const list = async (): Promise<ReadonlyArray<ListedTool>> => {
    const tools: ListedTool[] = []
    let cursor: unknown
    do {
      const page = await request('tools/list', cursor === undefined ? {} : { cursor })
      tools.push(...(page.tools as ListedTool[]))
      cursor = page.nextCursor
    } while (cursor !== undefined)
    return tools
  }
  return { request, list }
}
