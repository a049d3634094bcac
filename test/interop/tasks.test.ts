/**
 * The tasks extension over real HTTP: examples/tasks.ts in a child process on 127.0.0.1,
 * driven with 2026-07-28 requests as a client sends them (the MCP-Protocol-Version,
 * Mcp-Method and Mcp-Name headers; capabilities in `_meta`). The task id routes `tasks/*`
 * through `Mcp-Name`, so a mismatch is refused like any header mismatch.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { example, spawnListening, stop, type Listening } from './children.js'

const V = '2026-07-28'
const tasksCaps = { elicitation: {}, extensions: { 'io.modelcontextprotocol/tasks': {} } }
let next = 1

/** One 2026-07-28 POST; `name` is the Mcp-Name header (undefined: none). */
const post = async (url: string, method: string, params: Record<string, unknown>, name?: string, caps: object = tasksCaps) => {
  const res = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': V,
      'mcp-method': method,
      ...(name === undefined ? {} : { 'mcp-name': name }),
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: next++,
      method,
      params: { ...params, _meta: { 'io.modelcontextprotocol/protocolVersion': V, 'io.modelcontextprotocol/clientCapabilities': caps } },
    }),
    signal: AbortSignal.timeout(10_000),
  })
  return { status: res.status, body: (await res.json()) as { result?: any; error?: { code: number; message: string; data?: any } } }
}

let server: Listening
beforeAll(async () => {
  server = await spawnListening(example('tasks'), () => [], (port) => ({ PORT: String(port) }))
})
afterAll(async () => {
  if (server !== undefined) await stop(server.child, server.exited)
})

describe('tasks over HTTP (examples/tasks.ts)', () => {
  it('discovers the extension, runs report as a task, polls it by Mcp-Name to its result', async () => {
    const discovered = await post(server.url, 'server/discover', {})
    expect(discovered.body.result.capabilities.extensions).toEqual({ 'io.modelcontextprotocol/tasks': {} })
    const created = await post(server.url, 'tools/call', { name: 'report', arguments: { days: 1 } }, 'report')
    expect(created.status).toBe(200)
    expect(created.body.result).toMatchObject({ resultType: 'task', status: 'working', ttlMs: 600_000, pollIntervalMs: 500 })
    const taskId = created.body.result.taskId as string
    let task = (await post(server.url, 'tasks/get', { taskId }, taskId)).body.result
    for (let i = 0; i < 100 && task.status === 'working'; i++) {
      await new Promise((r) => setTimeout(r, 50))
      task = (await post(server.url, 'tasks/get', { taskId }, taskId)).body.result
    }
    expect(task).toMatchObject({ resultType: 'complete', status: 'completed', result: { structuredContent: { days: 1, total: 1.5 } } })
  })

  it('refuses tasks/* whose Mcp-Name is missing or names another task (400, -32020)', async () => {
    const created = await post(server.url, 'tools/call', { name: 'report', arguments: { days: 3 } }, 'report')
    const taskId = created.body.result.taskId as string
    const wrong = await post(server.url, 'tasks/get', { taskId }, 'another-task')
    expect(wrong.status).toBe(400)
    expect(wrong.body.error?.code).toBe(-32020)
    const missing = await post(server.url, 'tasks/cancel', { taskId })
    expect(missing.status).toBe(400)
    expect(missing.body.error?.code).toBe(-32020)
    const cancelled = await post(server.url, 'tasks/cancel', { taskId }, taskId)
    expect(cancelled.body.result.resultType).toBe('complete')
    expect((await post(server.url, 'tasks/get', { taskId }, taskId)).body.result.status).toBe('cancelled')
  })

  it('answers purge, a task-only tool, with 400 and -32021 for a client without the extension', async () => {
    const r = await post(server.url, 'tools/call', { name: 'purge', arguments: { before: '2026-01-01' } }, 'purge', { elicitation: {} })
    expect(r.status).toBe(400)
    expect(r.body.error).toMatchObject({ code: -32021, data: { requiredCapabilities: { extensions: { 'io.modelcontextprotocol/tasks': {} } } } })
  })
})
