/** A session for in-process tests whose channel records what the server sends. */
import * as O from 'fp-ts/lib/Option.js'
import { encode, newSession, outbound, type Server, type ServerMessage } from '../../src/index.js'

/** A session initialized at 2025-11-25 (so the hub reaches it), what it was sent, and a way to ask. */
export const wired = async (server: Server, capabilities: Record<string, unknown> = {}) => {
  const sent: ServerMessage[] = []
  // resolved when the server sends its next request to the client (an elicitation, a sampling)
  const waiting: Array<(m: ServerMessage & { readonly id: string | number }) => void> = []
  const session = newSession(
    '2025-11-25',
    outbound((m) => {
      sent.push(m)
      if ('id' in m) waiting.shift()?.(m as ServerMessage & { readonly id: string | number })
    }),
  )
  await server.dispatch(
    { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities, clientInfo: { name: 'c', version: '1' } } },
    session,
  )()
  let id = 1
  /** Sends a request in this session; its answer as read off the wire. */
  const request = async (method: string, params?: Record<string, unknown>): Promise<unknown> => {
    const out = await server.dispatch({ jsonrpc: '2.0', id: id++, method, ...(params === undefined ? {} : { params }) }, session)()
    return O.isSome(out) ? JSON.parse(encode(out.value)) : undefined
  }
  /** The next request the server sends to the client (already sent ones are in `sent`). */
  const asked = (): Promise<ServerMessage & { readonly id: string | number }> => new Promise((resolve) => waiting.push(resolve))
  /** Answers a request of the server as the client would. */
  const answer = async (id: string | number, result: Record<string, unknown>): Promise<void> => {
    await server.dispatch({ jsonrpc: '2.0', id, result }, session)()
  }
  return { sent, session, request, asked, answer }
}
