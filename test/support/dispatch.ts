/** Driving a server's dispatcher as a given caller, for the authorization tests. */
import * as O from 'fp-ts/lib/Option.js'
import { newSession, type AnyTool, type Identity, type Server, type Session } from '../../src/index.js'

/** A fresh session whose caller is `identity` (undefined: anonymous). */
export const sessionOf = (identity: Identity | undefined): Session => {
  const s = newSession()
  s.identity = identity
  return s
}

/** The answer of `server` to one request in `session`, as JSON data. */
export const sendTo =
  <U extends AnyTool>(server: Server<U>) =>
  async (session: Session, method: string, params: object): Promise<Record<string, unknown>> => {
    const out = await server.dispatch({ jsonrpc: '2.0', id: 1, method, params }, session)()
    if (O.isNone(out)) throw new Error('no answer')
    return JSON.parse(JSON.stringify(out.value)) as Record<string, unknown>
  }
