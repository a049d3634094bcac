import { describe, expect, it } from 'vitest'
import { emcp, inMemoryClient, mcpServer, newSession, outbound, tasks, tasksExtension, toolError, type ServerMessage, type TasksOptions } from '../../../src/index.js'
import { wired } from '../../support/wired.js'
import { isAck, meta, send, sleep, waitFor } from './support.js'

const greet = emcp({
  name: 'greet',
  description: 'Greets.',
  input: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
})
const slow = emcp({
  name: 'slow',
  description: 'Waits, then answers.',
  input: { type: 'object', properties: { ms: { type: 'number' } }, required: ['ms'] },
  taskSupport: 'optional',
})
const onlyTask = emcp({ name: 'only_task', description: 'Runs only as a task.', input: { type: 'object' }, taskSupport: 'required' })
const failing = emcp({ name: 'failing', description: 'Fails as a tool.', input: { type: 'object' }, taskSupport: 'optional' })
const broken = emcp({ name: 'broken', description: 'Fails at the protocol level.', input: { type: 'object' }, taskSupport: 'optional' })
const confirm = emcp({
  name: 'confirm',
  description: 'Asks, then answers.',
  input: { type: 'object' },
  output: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
  taskSupport: 'optional',
})

const serve = (options: TasksOptions = {}) => {
  const aborted: unknown[] = []
  const server = mcpServer([greet, slow, onlyTask, failing, broken, confirm], { name: 't', version: '1' }, { features: [tasks(options)] }).implement({
    greet: ({ name }) => `Hello, ${name}!`,
    slow: async ({ ms }, ctx) => {
      ctx.signal.addEventListener('abort', () => aborted.push(ctx.signal.reason))
      await sleep(ms)
      return `waited ${ms}`
    },
    only_task: async () => {
      await sleep(5)
      return 'done as a task'
    },
    failing: async () => {
      await sleep(5)
      return toolError('it went wrong')
    },
    broken: async () => {
      await sleep(5)
      return { content: [], _meta: { n: 1n } }
    },
    confirm: async (_args, ctx) => {
      await sleep(5)
      const a = await ctx.elicit({ message: 'Sure?', requestedSchema: { type: 'object', properties: { sure: { type: 'boolean' } }, required: ['sure'] } })
      return { ok: a.action === 'accept' && a.content.sure }
    },
  })
  return { server, aborted }
}

describe('tasks extension: capability', () => {
  it('advertises io.modelcontextprotocol/tasks under capabilities.extensions (never a capabilities.tasks slot)', async () => {
    const { server } = serve()
    const { request } = await wired(server)
    const r = (await request('ping')) as { result: unknown }
    expect(r.result).toEqual({})
    const init = await server.dispatch(
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } } },
      newSession(),
    )()
    const caps = init._tag === 'Some' && 'result' in init.value ? (init.value.result as { capabilities: Record<string, unknown> }).capabilities : {}
    expect(caps.extensions).toEqual({ [tasksExtension]: {} })
    expect(caps).not.toHaveProperty('tasks')
  })

  it('refuses, at build time, a tool that runs only as a task on a server without tasks()', () => {
    expect(() => mcpServer([onlyTask], { name: 'x', version: '1' }).implement({ only_task: () => 'x' })).toThrow(/only_task run only as tasks/)
    const s = mcpServer([greet], { name: 'x', version: '1' }).implement({ greet: () => 'x' })
    expect(() => s.addTool(onlyTask, () => 'x')).toThrow(/only as a task/)
  })
})

describe('tasks extension: dispatch', () => {
  it('answers a tool without task support inline, with no task fields, even given a legacy `task` param', async () => {
    const { server } = serve()
    const r = await send(server, 'tools/call', { name: 'greet', arguments: { name: 'W' }, task: { ttl: 60000, pollInterval: 100 } })
    expect(r.result).toMatchObject({ resultType: 'complete', content: [{ type: 'text', text: 'Hello, W!' }] })
  })

  it('hands a waiting call off to a task: a flat CreateTaskResult (resultType "task", taskId, status, timestamps, ttlMs, pollIntervalMs)', async () => {
    const { server } = serve({ ttlMs: 60_000, pollIntervalMs: 100 })
    const r = await send(server, 'tools/call', { name: 'slow', arguments: { ms: 30 } })
    expect(r.result).toEqual({
      _meta: { 'io.modelcontextprotocol/serverInfo': { name: 't', version: '1' } },
      resultType: 'task',
      taskId: expect.any(String),
      status: 'working',
      createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}/),
      lastUpdatedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      ttlMs: 60_000,
      pollIntervalMs: 100,
    })
    // strong consistency: tasks/get right after the CreateTaskResult resolves
    const now = await send(server, 'tasks/get', { taskId: r.result.taskId })
    expect(now.result).toMatchObject({ resultType: 'complete', taskId: r.result.taskId, status: 'working' })
    const done = await waitFor(server, r.result.taskId, 'completed')
    expect(done).toMatchObject({ resultType: 'complete', status: 'completed', result: { content: [{ type: 'text', text: 'waited 30' }] } })
    expect(done).not.toHaveProperty('requestState')
    expect(done.result._meta?.['io.modelcontextprotocol/related-task']).toBeUndefined()
  })

  it('answers inline when the handler settles within immediateMs (the immediate-result shortcut)', async () => {
    const { server } = serve({ immediateMs: 2000 })
    const r = await send(server, 'tools/call', { name: 'slow', arguments: { ms: 10 } })
    expect(r.result).toMatchObject({ resultType: 'complete', content: [{ type: 'text', text: 'waited 10' }] })
  })

  it('answers inline for a client that did not declare the extension on this request', async () => {
    const { server } = serve()
    const r = await send(server, 'tools/call', { name: 'slow', arguments: { ms: 5 } }, meta({}, false))
    expect(r.result).toMatchObject({ resultType: 'complete', content: [{ type: 'text', text: 'waited 5' }] })
  })

  it('honours a per-request opt-in: the extension declared in this request’s _meta makes a task', async () => {
    const { server } = serve()
    const r = await send(server, 'tools/call', { name: 'slow', arguments: { ms: 5 } }, meta({}, true))
    expect(r.result.resultType).toBe('task')
  })

  it('MUST return -32021 with requiredCapabilities for a task-only tool when the client did not declare the extension', async () => {
    const { server } = serve()
    const r = await send(server, 'tools/call', { name: 'only_task', arguments: {} }, meta({}, false))
    expect(r.error).toMatchObject({ code: -32021, data: { requiredCapabilities: { extensions: { [tasksExtension]: {} } } } })
  })

  it('does not apply to 2025-11-25 conversations: no tasks, tasks/* and task-only tools are method-not-found', async () => {
    const { server } = serve()
    const c = inMemoryClient(server, { capabilities: { extensions: { [tasksExtension]: {} } } })
    expect(await c.callResult('slow', { ms: 5 })).toEqual({ content: [{ type: 'text', text: 'waited 5' }] })
    await expect(c.request('tasks/get', { taskId: 'x' })).rejects.toMatchObject({ code: -32601 })
    await expect(c.callResult('only_task', {})).rejects.toMatchObject({ code: -32601 })
  })

  it.each(['tasks/get', 'tasks/update', 'tasks/cancel'])('MUST reject %s with -32021 when the request does not declare the extension', async (method) => {
    const { server } = serve()
    const r = await send(server, method, { taskId: 'gate-test', inputResponses: {} }, meta({}, false))
    expect(r.error).toMatchObject({ code: -32021, data: { requiredCapabilities: { extensions: { [tasksExtension]: {} } } } })
  })

  it.each(['tasks/get', 'tasks/update', 'tasks/cancel'])('%s of an unknown taskId is -32602', async (method) => {
    const { server } = serve()
    expect((await send(server, method, { taskId: 'nonexistent-12345', inputResponses: {} })).error?.code).toBe(-32602)
    expect((await send(server, method, {})).error).toMatchObject({ code: -32602, message: expect.stringMatching(/taskId must be a string/) })
  })

  it.each(['tasks/result', 'tasks/list'])('%s (removed) is -32601', async (method) => {
    const { server } = serve()
    expect((await send(server, method, { taskId: 'x' })).error?.code).toBe(-32601)
  })
})

describe('tasks extension: results and errors', () => {
  it('a tool error ends the task completed with result.isError (failed is for protocol errors)', async () => {
    const { server } = serve()
    const r = await send(server, 'tools/call', { name: 'failing', arguments: {} })
    const t = await waitFor(server, r.result.taskId, 'completed')
    expect(t).toMatchObject({ status: 'completed', result: { isError: true, content: [{ type: 'text', text: 'it went wrong' }] } })
  })

  it('a protocol-level failure ends the task failed with the JSON-RPC error and no result', async () => {
    const { server } = serve()
    const r = await send(server, 'tools/call', { name: 'broken', arguments: {} })
    const t = await waitFor(server, r.result.taskId, 'failed')
    expect(t.status).toBe('failed')
    expect(t.error).toEqual({ code: -32603, message: expect.stringMatching(/cannot be serialised/) })
    expect(t).not.toHaveProperty('result')
  })

  it('a task-only tool runs as a task for a client that declared the extension', async () => {
    const { server } = serve()
    const r = await send(server, 'tools/call', { name: 'only_task', arguments: {} })
    expect(r.result.resultType).toBe('task')
    expect((await waitFor(server, r.result.taskId, 'completed')).result.content[0].text).toBe('done as a task')
  })
})

describe('tasks extension: cancellation', () => {
  it('tasks/cancel acks with {resultType:"complete"} only, aborts ctx.signal, and the task settles cancelled', async () => {
    const { server, aborted } = serve()
    const r = await send(server, 'tools/call', { name: 'slow', arguments: { ms: 60_000 } })
    const acked = await send(server, 'tasks/cancel', { taskId: r.result.taskId })
    expect(isAck(acked.result)).toBe(true)
    expect(aborted).toEqual(['cancelled by the client'])
    expect((await send(server, 'tasks/get', { taskId: r.result.taskId })).result.status).toBe('cancelled')
  })

  it('tasks/cancel of an ended task returns the same ack and changes nothing (idempotent)', async () => {
    const { server } = serve()
    const r = await send(server, 'tools/call', { name: 'slow', arguments: { ms: 20 } })
    await waitFor(server, r.result.taskId, 'completed')
    expect(isAck((await send(server, 'tasks/cancel', { taskId: r.result.taskId })).result)).toBe(true)
    expect((await send(server, 'tasks/get', { taskId: r.result.taskId })).result.status).toBe('completed')
  })
})

describe('tasks extension: input through tasks/get and tasks/update', () => {
  it('surfaces the handler’s elicitation as inputRequests; tasks/update acks, and the task resumes with the typed answer', async () => {
    const { server } = serve()
    const r = await send(server, 'tools/call', { name: 'confirm', arguments: {} })
    const waiting = await waitFor(server, r.result.taskId, 'input_required')
    expect(waiting.status).toBe('input_required')
    const [key, request] = Object.entries(waiting.inputRequests)[0] as [string, { method: string; params: { message: string } }]
    expect(request).toMatchObject({ method: 'elicitation/create', params: { message: 'Sure?' } })
    // a key never issued is ignored, and still acked
    expect(isAck((await send(server, 'tasks/update', { taskId: r.result.taskId, inputResponses: { 'unknown-key': { ignored: true } } })).result)).toBe(true)
    expect((await send(server, 'tasks/get', { taskId: r.result.taskId })).result.status).toBe('input_required')
    const acked = await send(server, 'tasks/update', { taskId: r.result.taskId, inputResponses: { [key]: { action: 'accept', content: { sure: true } } } })
    expect(isAck(acked.result)).toBe(true)
    const done = await waitFor(server, r.result.taskId, 'completed')
    expect(done.result).toMatchObject({ structuredContent: { ok: true } })
  })

  it('tasks/update needs an inputResponses object', async () => {
    const { server } = serve()
    const r = await send(server, 'tools/call', { name: 'slow', arguments: { ms: 50 } })
    expect((await send(server, 'tasks/update', { taskId: r.result.taskId })).error).toMatchObject({ code: -32602, message: expect.stringMatching(/inputResponses/) })
  })

  it('an answer that does not fit the form ends the task with a tool error, not a hang', async () => {
    const { server } = serve()
    const r = await send(server, 'tools/call', { name: 'confirm', arguments: {} })
    const waiting = await waitFor(server, r.result.taskId, 'input_required')
    const key = Object.keys(waiting.inputRequests)[0] as string
    await send(server, 'tasks/update', { taskId: r.result.taskId, inputResponses: { [key]: { action: 'accept', content: { sure: 'yes' } } } })
    const done = await waitFor(server, r.result.taskId, 'completed')
    expect(done.result.isError).toBe(true)
    expect(done.result.content[0].text).toMatch(/does not match the requested form/)
  })

  it('a task asks only for what the request’s capabilities allow: a question it cannot ask fails the task with -32021', async () => {
    const { server } = serve()
    const r = await send(server, 'tools/call', { name: 'confirm', arguments: {} }, meta({}, true))
    const done = await waitFor(server, r.result.taskId, 'failed')
    expect(done.status).toBe('failed')
    expect(done.error).toMatchObject({ code: -32021, data: { requiredCapabilities: { elicitation: { form: {} } } } })
  })
})

describe('tasks extension: the tasks example (examples/tasks.ts)', () => {
  it('runs report as a task whose statusMessage follows its progress, and purge through a confirmation', async () => {
    const { server } = await import('../../../examples/tasks.js')
    const r = await send(server, 'tools/call', { name: 'report', arguments: { days: 2 } }, { ...meta({}), progressToken: 'r' })
    expect(r.result).toMatchObject({ resultType: 'task', status: 'working', ttlMs: 600_000, pollIntervalMs: 500 })
    let t = await send(server, 'tasks/get', { taskId: r.result.taskId })
    for (let i = 0; i < 200 && t.result.statusMessage === undefined; i++) {
      await sleep(10)
      t = await send(server, 'tasks/get', { taskId: r.result.taskId })
    }
    expect(t.result.statusMessage).toBe('day 1 of 2')
    const done = await waitFor(server, r.result.taskId, 'completed', 5000)
    expect(done.result.structuredContent).toEqual({ days: 2, total: 4.5 })

    const p = await send(server, 'tools/call', { name: 'purge', arguments: { before: '2026-01-01' } })
    const asking = await waitFor(server, p.result.taskId, 'input_required')
    const key = Object.keys(asking.inputRequests)[0] as string
    expect(asking.inputRequests[key].params.message).toBe('Delete 42 entries older than 2026-01-01?')
    await send(server, 'tasks/update', { taskId: p.result.taskId, inputResponses: { [key]: { action: 'accept', content: { confirm: true } } } })
    expect((await waitFor(server, p.result.taskId, 'completed')).result.content[0].text).toBe('Deleted 42 entries older than 2026-01-01.')
    // and without the extension, purge is refused while report simply answers
    expect((await send(server, 'tools/call', { name: 'purge', arguments: { before: '2026-01-01' } }, meta({}, false))).error?.code).toBe(-32021)
  })
})

describe('tasks extension: status notifications (subscriptions/listen with taskIds)', () => {
  it('sends notifications/tasks, the task as tasks/get shows it, to a stream that asked for its id, tagged with the subscription', async () => {
    const { server } = serve()
    const r = await send(server, 'tools/call', { name: 'slow', arguments: { ms: 30 } })
    const sent: ServerMessage[] = []
    const session = newSession('2025-11-25', outbound((m) => sent.push(m)))
    void server.dispatch({ jsonrpc: '2.0', id: 'listen-1', method: 'subscriptions/listen', params: { notifications: { taskIds: [r.result.taskId] }, _meta: meta() } }, session)()
    await waitFor(server, r.result.taskId, 'completed')
    await sleep(5)
    expect(sent[0]).toMatchObject({ method: 'notifications/subscriptions/acknowledged', params: { notifications: { taskIds: [r.result.taskId] } } })
    const statuses = sent.filter((m) => m.method === 'notifications/tasks')
    expect(statuses.at(-1)).toMatchObject({
      method: 'notifications/tasks',
      params: { taskId: r.result.taskId, status: 'completed', result: { content: [{ type: 'text', text: 'waited 30' }] }, _meta: { 'io.modelcontextprotocol/subscriptionId': 'listen-1' } },
    })
    // another task's changes are not this stream's business
    const other = await send(server, 'tools/call', { name: 'slow', arguments: { ms: 5 } })
    await waitFor(server, other.result.taskId, 'completed')
    expect(sent.filter((m) => m.method === 'notifications/tasks' && (m.params as { taskId?: string }).taskId === other.result.taskId)).toEqual([])
  })

  it('MUST return -32021 for taskIds from a client that did not declare the extension', async () => {
    const { server } = serve()
    const session = newSession('2025-11-25', outbound(() => {}))
    const out = await server.dispatch(
      { jsonrpc: '2.0', id: 2, method: 'subscriptions/listen', params: { notifications: { taskIds: ['x'] }, _meta: meta({}, false) } },
      session,
    )()
    expect(out._tag === 'Some' && out.value).toMatchObject({ error: { code: -32021, data: { requiredCapabilities: { extensions: { [tasksExtension]: {} } } } } })
  })
})
