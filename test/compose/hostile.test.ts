import { describe, expect, it } from 'vitest'
import { emcp, mcpServer, mount, mounted, newSession, prompt, prompts, resource, resources, type Session } from '../../src/index.js'

const echo = emcp({ name: 'echo', description: 'Echo.', input: { type: 'object', properties: { text: { type: 'string' }, who: { type: 'string' } }, required: ['text', 'who'] } })
const part = mcpServer([echo], { name: 'part', version: '1' }, {
  features: [prompts([prompt({ name: 'p', description: 'P.', get: () => 'p' })]), resources([resource({ uri: 'part://r', name: 'r', read: () => 'r' })])],
}).implement({ echo: ({ text, who }) => `${who}: ${text}` })
const whole = mount([mounted(part, 'ns', { tools: { echo: { hide: { who: 'server' } } } })], { name: 'whole', version: '1' })

const ask = async (method: string, params: unknown, session: Session = newSession()) => {
  const out = await whole.dispatchText(JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }), session)()
  return JSON.parse((out as { value: string }).value) as { result?: { isError?: boolean; content?: { text: string }[] }; error?: { code: number; message: string } }
}

describe('mount: hostile requests', () => {
  it('a megabyte tool name is an unknown tool, its name clipped in the message', async () => {
    const r = await ask('tools/call', { name: 'x'.repeat(1 << 20), arguments: {} })
    expect(r.error?.code).toBe(-32602)
    expect(r.error?.message.length).toBeLessThan(300)
  })

  it('a name that is not a string, arguments that are not an object: -32602 from the whole or the part, nothing run', async () => {
    expect((await ask('tools/call', { name: 42 })).error).toMatchObject({ code: -32602, message: 'tools/call: params.name must be a string' })
    expect((await ask('tools/call', { name: 'ns_echo', arguments: [1, 2] })).error).toMatchObject({ code: -32602, message: 'tools/call: params.arguments must be an object' })
    expect((await ask('prompts/get', { name: { deep: true } })).error?.code).toBe(-32602)
    expect((await ask('resources/read', { uri: ['part://r'] })).error?.code).toBe(-32602)
  })

  it('a hidden argument sent by the client does not reach the handler', async () => {
    expect((await ask('tools/call', { name: 'ns_echo', arguments: { text: 'hi', who: 'root' } })).result?.content?.[0]?.text).toBe('server: hi')
  })

  it('a cursor the merged list did not hand out is -32602, not echoed whole', async () => {
    for (const method of ['tools/list', 'prompts/list', 'resources/list', 'resources/templates/list']) {
      const r = await ask(method, { cursor: 'y'.repeat(100_000) })
      expect(r.error?.code).toBe(-32602)
      expect(r.error?.message.length).toBeLessThan(400)
    }
  })

  it('params nested past maxDepth are refused before the mount reads them', async () => {
    let deep: unknown = 'x'
    for (let i = 0; i < 2000; i++) deep = [deep]
    expect((await ask('tools/call', { name: 'ns_echo', arguments: { text: deep } })).error?.code).toBe(-32602)
  })

  it('completion of a prompt no part owns is -32602 naming it, as for a server alone, and so is a bad ref', async () => {
    const none = await ask('completion/complete', { ref: { type: 'ref/prompt', name: 'nope' }, argument: { name: 'a', value: '' } })
    expect(none.error).toEqual({ code: -32602, message: 'completion/complete: no prompt named nope' })
    expect((await ask('completion/complete', { ref: { type: 'ref/bogus' }, argument: { name: 'a', value: '' } })).error?.code).toBe(-32602)
  })
})
