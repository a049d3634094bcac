import { describe, expect, it } from 'vitest'
import { emcp, mcpServer, type Session } from '../../src/index.js'
import { sendTo, sessionOf } from '../support/dispatch.js'

// per-tool scopes, at the dispatcher: what every transport sees
const read = emcp({ name: 'read', description: 'Reads.', input: { type: 'object' }, scopes: ['docs:read'] })
const write = emcp({ name: 'write', description: 'Writes.', input: { type: 'object' }, scopes: ['docs:read', 'docs:write'] })
const open = emcp({ name: 'open', description: 'Anyone.', input: { type: 'object' } })
const server = mcpServer([read, write, open], { name: 'scopes', version: '1' }, {
  authorize: (tool, session) => tool.name !== 'write' || session.identity?.subject !== 'mallory',
}).implement({ read: () => 'r', write: () => 'w', open: () => 'o' })

const as = sessionOf
const send = sendTo(server)
const names = async (session: Session): Promise<string[]> => ((await send(session, 'tools/list', {})).result as { tools: { name: string }[] }).tools.map((t) => t.name)

describe('server: per-tool scopes', () => {
  it('lists only the tools whose scopes the caller holds, all of them; scopes are not listed', async () => {
    expect(await names(as(undefined))).toEqual(['open'])
    expect(await names(as({ subject: 'a', roles: [], scopes: ['docs:write'] }))).toEqual(['open'])
    expect(await names(as({ subject: 'a', roles: [], scopes: ['docs:read'] }))).toEqual(['read', 'open'])
    expect(await names(as({ subject: 'a', roles: [], scopes: ['docs:read', 'docs:write'] }))).toEqual(['read', 'write', 'open'])
    const listed = (await send(as({ subject: 'a', roles: [], scopes: ['docs:read'] }), 'tools/list', {})).result as { tools: object[] }
    expect(listed.tools[0]).not.toHaveProperty('scopes')
  })

  it('refuses a call without the scopes with -32003 naming the missing ones, and its data the tool’s scopes', async () => {
    const r = await send(as({ subject: 'a', roles: [], scopes: ['docs:read'] }), 'tools/call', { name: 'write', arguments: {} })
    expect(r.error).toEqual({ code: -32003, message: 'Forbidden: tool write needs the scope docs:write', data: { error: 'insufficient_scope', scope: ['docs:read', 'docs:write'] } })
    const anonymous = await send(as(undefined), 'tools/call', { name: 'read', arguments: {} })
    expect(anonymous.error).toMatchObject({ code: -32003, data: { error: 'insufficient_scope', scope: ['docs:read'] } })
    expect((await send(as({ subject: 'a', roles: [], scopes: ['docs:read', 'docs:write'] }), 'tools/call', { name: 'write', arguments: {} })).result).toMatchObject({ content: [{ text: 'w' }] })
  })

  it('holds beside authorize: both must agree', async () => {
    const mallory = as({ subject: 'mallory', roles: [], scopes: ['docs:read', 'docs:write'] })
    expect(await names(mallory)).toEqual(['read', 'open'])
    expect((await send(mallory, 'tools/call', { name: 'write', arguments: {} })).error).toMatchObject({ code: -32003 })
  })
})
