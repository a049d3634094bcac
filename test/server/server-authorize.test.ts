import { describe, expect, it } from 'vitest'
import * as O from 'fp-ts/lib/Option.js'
import { emcp, errorCodes, mcpServer, newSession, type Identity, type Session } from '../../src/index.js'

// a public tool and one for admins only, decided from the session's identity
const hello = emcp({ name: 'hello', description: 'Say hello.', input: { type: 'object' } })
const purge = emcp({ name: 'purge', description: 'Delete everything.', input: { type: 'object' } })
const server = mcpServer([hello, purge], { name: 'authz', version: '1' }, {
  authorize: (tool, session) => tool.name !== 'purge' || (session.identity?.roles.includes('admin') ?? false),
}).implement({ hello: () => 'hi', purge: () => 'purged' })

const as = (identity: Identity | undefined): Session => {
  const s = newSession()
  s.identity = identity
  return s
}
const send = async (session: Session, method: string, params: object): Promise<Record<string, unknown>> => {
  const out = await server.dispatch({ jsonrpc: '2.0', id: 1, method, params }, session)()
  if (O.isNone(out)) throw new Error('no answer')
  return JSON.parse(JSON.stringify(out.value)) as Record<string, unknown>
}
const names = async (session: Session): Promise<string[]> =>
  ((await send(session, 'tools/list', {})).result as { tools: { name: string }[] }).tools.map((t) => t.name)

describe('server: authorize (per-session tool visibility)', () => {
  it('leaves a refused tool out of that caller’s tools/list, and only that caller’s', async () => {
    expect(await names(as(undefined))).toEqual(['hello'])
    expect(await names(as({ subject: 'bob', roles: ['viewer'] }))).toEqual(['hello'])
    expect(await names(as({ subject: 'ann', roles: ['admin'] }))).toEqual(['hello', 'purge'])
  })

  it('refuses a call of a refused tool with a clear -32003 error, and runs it for an allowed caller', async () => {
    const refused = await send(as({ subject: 'bob', roles: ['viewer'] }), 'tools/call', { name: 'purge', arguments: {} })
    expect(refused.error).toEqual({ code: errorCodes.Forbidden, message: 'Forbidden: bob may not call tool purge' })
    const anonymous = await send(as(undefined), 'tools/call', { name: 'purge', arguments: {} })
    expect((anonymous.error as { message: string }).message).toBe('Forbidden: an anonymous caller may not call tool purge')
    const allowed = await send(as({ subject: 'ann', roles: ['admin'] }), 'tools/call', { name: 'purge', arguments: {} })
    expect(allowed.result).toEqual({ content: [{ type: 'text', text: 'purged' }] })
  })

  it('applies to tools added at run time', async () => {
    const extra = emcp({ name: 'purge_more', description: 'Delete more.', input: { type: 'object' } })
    server.addTool(extra, () => 'more')
    try {
      // the predicate above lets everyone but a named tool through: the new tool is public
      expect(await names(as(undefined))).toEqual(['hello', 'purge_more'])
    } finally {
      server.removeTool('purge_more')
    }
  })
})
