import { describe, expect, it } from 'vitest'
import { fromManifest } from '../../../src/sources/manifest/index.js'
import { sendTo, sessionOf } from '../../support/dispatch.js'

// a manifest entry may bind arguments to token claims with the contract's own field, `claims`
const manifest = {
  tools: [
    {
      name: 'mine',
      description: "The caller's things.",
      inputSchema: { type: 'object', properties: { owner: { type: 'string' }, q: { type: 'string' } }, required: ['owner'] },
      claims: { owner: 'sub' },
    },
  ],
} as const

describe('manifest: claims', () => {
  it('takes a claim-bound argument out of the listed schema and fills it from the token', async () => {
    const server = fromManifest(manifest, { mine: ({ owner, q }) => `${owner}: ${String(q)}` })
    const send = sendTo(server)
    const alice = sessionOf({ subject: 'alice', roles: [], claims: { sub: 'alice' } })
    const tools = ((await send(alice, 'tools/list', {})).result as { tools: { inputSchema: object; claims?: unknown }[] }).tools
    expect(tools[0]?.inputSchema).toEqual({ type: 'object', properties: { q: { type: 'string' } } })
    expect(tools[0]).not.toHaveProperty('claims')
    expect((await send(alice, 'tools/call', { name: 'mine', arguments: { q: 'x' } })).result).toEqual({ content: [{ type: 'text', text: 'alice: x' }] })
    expect((await send(sessionOf(undefined), 'tools/call', { name: 'mine', arguments: { q: 'x' } })).error).toMatchObject({ code: -32003 })
  })
})
