import { describe, expect, it } from 'vitest'
import { emcp, errorCodes, mcpServer, type Session } from '../../src/index.js'
import { sendTo, sessionOf } from '../support/dispatch.js'

// a public tool and one for admins only, decided from the session's identity
const hello = emcp({ name: 'hello', description: 'Say hello.', input: { type: 'object' } })
const purge = emcp({ name: 'purge', description: 'Delete everything.', input: { type: 'object' } })
const server = mcpServer([hello, purge], { name: 'authz', version: '1' }, {
  authorize: (tool, session) => tool.name !== 'purge' || (session.identity?.roles.includes('admin') ?? false),
}).implement({ hello: () => 'hi', purge: () => 'purged' })

const as = sessionOf
const send = sendTo(server)
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
