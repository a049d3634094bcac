import { PassThrough } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { emcp, mcpServer, type Identity } from '../../../src/index.js'
import { startStdio } from '../../../src/transport/stdio.js'

const whoami = emcp({ name: 'whoami', description: 'The caller.', input: { type: 'object' } })
const admin = emcp({ name: 'admin', description: 'Admins only.', input: { type: 'object' } })
const server = mcpServer([whoami, admin], { name: 'stdio-id', version: '1' }, {
  authorize: (tool, session) => tool.name !== 'admin' || (session.identity?.roles.includes('admin') ?? false),
}).implement({ whoami: (_a, ctx) => ctx.session.identity?.subject ?? 'anonymous', admin: () => 'ok' })

/** Sends the lines, ends the input, and collects the answers. */
const exchange = async (identity: Identity | undefined, lines: ReadonlyArray<object>): Promise<any[]> => {
  const input = new PassThrough()
  const output = new PassThrough()
  let text = ''
  output.on('data', (c: Buffer) => (text += c.toString()))
  const running = startStdio(server, { input, output, identity, handleSignals: false, redirectConsole: false })
  for (const l of lines) input.write(`${JSON.stringify(l)}\n`)
  input.end()
  await running.done
  return text.trim().split('\n').map((l) => JSON.parse(l))
}

describe('stdio: the identity the process vouches for', () => {
  const lines = [
    { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'whoami', arguments: {} } },
  ]
  it('is anonymous by default: authorize hides what needs a role', async () => {
    const [list, who] = await exchange(undefined, lines)
    expect(list.result.tools.map((t: { name: string }) => t.name)).toEqual(['whoami'])
    expect(who.result.content[0].text).toBe('anonymous')
  })
  it('carries the given identity to authorize and to handlers', async () => {
    const [list, who] = await exchange({ subject: 'local-admin', roles: ['admin'] }, lines)
    expect(list.result.tools.map((t: { name: string }) => t.name)).toEqual(['whoami', 'admin'])
    expect(who.result.content[0].text).toBe('local-admin')
  })
})
