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
import type { ListedTool } from '../contract/emcp.js'
import type { RpcErrorObject } from '../protocol/jsonrpc.js'
import { isObject } from '../util/json-object.js'
import { outbound, type ServerMessage } from '../server/outbound.js'
import { latestVersion } from '../protocol/versions.js'
import type { Server } from '../server/server.js'
import { newSession } from '../server/session.js'

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

/** A form elicitation, as the server sends it. */
export interface FormRequest {
  readonly message: string
  readonly requestedSchema: { readonly [key: string]: unknown }
}

/** The answer to a form elicitation. */
export type FormAnswer = { readonly action: 'accept'; readonly content: { readonly [name: string]: unknown } } | { readonly action: 'decline' | 'cancel' }

/** What the command line answers when the server asks it something during a call. */
export interface WireOptions {
  /**
   * Answers a form elicitation (an `ask` tool's review of its arguments). Without it the
   * client declares no elicitation.
   */
  readonly elicit?: (request: FormRequest) => Promise<FormAnswer>
  /** Told each log message the server sends (`notifications/message`). */
  readonly log?: (level: string, data: unknown) => void
}

/** Opens a session (initialize, initialized) with the server. */
export const wireClient = async (server: Server, options: WireOptions = {}): Promise<WireClient> => {
  // the server's requests during a call (an elicitation) are answered here, in process
  const answer = async (m: ServerMessage & { readonly id: string | number }): Promise<void> => {
    const reply = (body: object) => server.dispatch({ jsonrpc: '2.0', id: m.id, ...body }, session)()
    const params = m.params ?? {}
    if (m.method !== 'elicitation/create' || options.elicit === undefined || params.mode === 'url') {
      await reply({ error: { code: -32601, message: `emcp call cannot answer ${m.method}` } })
      return
    }
    const message = typeof params.message === 'string' ? params.message : ''
    const requestedSchema = isObject(params.requestedSchema) ? params.requestedSchema : {}
    await reply({ result: await options.elicit({ message, requestedSchema }) })
  }
  const session = newSession(
    undefined,
    outbound((m) => {
      if ('id' in m) void answer(m)
      else if (m.method === 'notifications/message') options.log?.(String(m.params?.level ?? 'info'), m.params?.data)
    }),
  )
  let id = 0
  const request = async (method: string, params: object): Promise<Record<string, unknown>> => {
    const out = await server.dispatchText(JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }), session)()
    const reply = O.isSome(out) ? (JSON.parse(out.value) as { result?: Record<string, unknown>; error?: RpcErrorObject }) : {}
    if (reply.result === undefined) throw new WireError(reply.error ?? { code: -32603, message: `no answer to ${method}` })
    return reply.result
  }
  const capabilities = options.elicit === undefined ? {} : { elicitation: { form: {} } }
  await request('initialize', { protocolVersion: latestVersion, capabilities, clientInfo: { name: 'emcp-cli', version: '0' } })
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
