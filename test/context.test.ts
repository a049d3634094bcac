import { describe, expect, it } from 'vitest'
import { emcp, inMemoryClient, mcpServer, newSession, type ToolContext } from '../src/index.js'

describe('context: what a handler sees', () => {
  it('carries the request id, the request _meta and the session', async () => {
    let seen: ToolContext | undefined
    const look = emcp({ name: 'look', description: 'Records its context.', input: { type: 'object' } })
    const server = mcpServer([look], { name: 'ctx', version: '1' }).implement({
      look: (_args, ctx) => {
        seen = ctx
        return 'ok'
      },
    })
    const session = newSession('2025-06-18')
    await server.dispatch({ jsonrpc: '2.0', id: 'r1', method: 'tools/call', params: { name: 'look', arguments: {}, _meta: { progressToken: 5 } } }, session)()
    expect(seen?.requestId).toBe('r1')
    expect(seen?.meta).toEqual({ progressToken: 5 })
    expect(seen?.session).toBe(session)
    expect(seen?.signal).toBeInstanceOf(AbortSignal)
    expect(seen?.signal.aborted).toBe(false)
  })

  it('gives each call a signal of its own', async () => {
    const signals: AbortSignal[] = []
    const look = emcp({ name: 'look', description: 'Records its signal.', input: { type: 'object' } })
    const server = mcpServer([look], { name: 'ctx', version: '1' }).implement({
      look: (_args, ctx) => {
        signals.push(ctx.signal)
        return 'ok'
      },
    })
    const client = inMemoryClient(server)
    await client.callResult('look', {})
    await client.callResult('look', {})
    expect(signals).toHaveLength(2)
    expect(signals[0]).not.toBe(signals[1])
  })
})
