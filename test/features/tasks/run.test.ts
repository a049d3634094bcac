import { describe, expect, it } from 'vitest'
import * as O from 'fp-ts/lib/Option.js'
import { emcp, encode, mcpServer, newSession, outbound, taskStore, tasks, type ServerMessage } from '../../../src/index.js'
import { isAck, meta, send, sleep, waitFor } from './support.js'

const job = emcp({ name: 'job', description: 'A job.', input: { type: 'object' }, taskSupport: 'optional' })
const mustTask = emcp({ name: 'must_task', description: 'Only as a task.', input: { type: 'object' }, taskSupport: 'required' })

type JobHandler = Parameters<ReturnType<typeof mcpServer<[typeof job, typeof mustTask]>>['implement']>[0]['job']

const serve = (handler: JobHandler, options: Parameters<typeof tasks>[0] = {}) => {
  const feature = tasks(options)
  const server = mcpServer([job, mustTask], { name: 'r', version: '1' }, { features: [feature] }).implement({
    job: handler,
    must_task: async () => {
      await sleep(50)
      return 'done'
    },
  })
  return { server, store: feature.store }
}

describe('tasks/run: inline or task', () => {
  it('answers a handler that settles without waiting inline, task support or not', async () => {
    const { server, store } = serve(() => 'at once')
    const r = await send(server, 'tools/call', { name: 'job', arguments: {} })
    expect(r.result).toMatchObject({ resultType: 'complete', content: [{ type: 'text', text: 'at once' }] })
    expect(store.size()).toBe(0)
  })

  it('asks before the handoff the call’s own way (input_required, answered by a retry), and answers inline when nothing else waits', async () => {
    let runs = 0
    const { server, store } = serve((_a, ctx) => {
      runs++
      return ctx.elicit({ message: 'Go?', requestedSchema: { type: 'object', properties: { go: { type: 'boolean' } } } }).then((a) => `go=${String(a.content?.go)}`)
    })
    const first = await send(server, 'tools/call', { name: 'job', arguments: {} })
    expect(first.result).toMatchObject({ resultType: 'input_required', requestState: expect.any(String) })
    expect(first.result).not.toHaveProperty('taskId')
    const [key, question] = Object.entries(first.result.inputRequests)[0] as [string, { method: string; params: { message: string } }]
    expect(question).toMatchObject({ method: 'elicitation/create', params: { message: 'Go?' } })
    const retry = await send(server, 'tools/call', {
      name: 'job',
      arguments: {},
      inputResponses: { [key]: { action: 'accept', content: { go: true } } },
      requestState: first.result.requestState,
    })
    expect(retry.result).toMatchObject({ resultType: 'complete', content: [{ type: 'text', text: 'go=true' }] })
    expect(runs).toBe(2)
    expect(store.size()).toBe(0)
  })

  it('gathers input first, then goes on as a task: the retry answers with CreateTaskResult (no requestState), whose result carries the answer', async () => {
    const { server } = serve(async (_a, ctx) => {
      const a = await ctx.elicit({ message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } })
      await sleep(20)
      return `Hello, ${a.content?.name}!`
    })
    const first = await send(server, 'tools/call', { name: 'job', arguments: {} })
    expect(first.result.resultType).toBe('input_required')
    const key = Object.keys(first.result.inputRequests)[0] as string
    const second = await send(server, 'tools/call', {
      name: 'job',
      arguments: {},
      inputResponses: { [key]: { action: 'accept', content: { name: 'Alice' } } },
      requestState: first.result.requestState,
    })
    expect(second.result).toMatchObject({ resultType: 'task', taskId: expect.any(String), status: 'working' })
    expect(second.result).not.toHaveProperty('requestState')
    expect(second.result).not.toHaveProperty('inputRequests')
    expect((await waitFor(server, second.result.taskId, 'completed')).result.content[0].text).toBe('Hello, Alice!')
  })

  it('asks through the task once handed off: the task goes input_required and tasks/update answers', async () => {
    const { server } = serve(async (_a, ctx) => {
      await sleep(5)
      const a = await ctx.elicit({ message: 'Go?', requestedSchema: { type: 'object', properties: { go: { type: 'boolean' } } } })
      return `go=${String(a.content?.go)}`
    })
    const r = await send(server, 'tools/call', { name: 'job', arguments: {} })
    expect(r.result).toMatchObject({ resultType: 'task', status: 'working' })
    const t = await waitFor(server, r.result.taskId, 'input_required')
    expect(Object.values(t.inputRequests)).toEqual([{ method: 'elicitation/create', params: expect.objectContaining({ message: 'Go?' }) }])
    await send(server, 'tasks/update', { taskId: r.result.taskId, inputResponses: { [Object.keys(t.inputRequests)[0] as string]: { action: 'accept', content: { go: true } } } })
    expect((await waitFor(server, r.result.taskId, 'completed')).result.content[0].text).toBe('go=true')
  })

  it('keeps the answers of parallel questions apart (partial fulfilment leaves the other pending)', async () => {
    const { server } = serve(async (_a, ctx) => {
      await sleep(5)
      const form = { type: 'object', properties: { v: { type: 'string' } } } as const
      const [a, b] = await Promise.all([ctx.elicit({ message: 'a', requestedSchema: form }), ctx.elicit({ message: 'b', requestedSchema: form })])
      return `${a.content?.v}/${b.content?.v}`
    })
    const r = await send(server, 'tools/call', { name: 'job', arguments: {} })
    let t = await waitFor(server, r.result.taskId, 'input_required')
    for (let i = 0; i < 100 && Object.keys(t.inputRequests ?? {}).length < 2; i++) {
      await sleep(5)
      t = (await send(server, 'tasks/get', { taskId: r.result.taskId })).result
    }
    const [k1, k2] = Object.keys(t.inputRequests) as [string, string]
    expect(t.inputRequests[k1].params.message).toBe('a')
    await send(server, 'tasks/update', { taskId: r.result.taskId, inputResponses: { [k2]: { action: 'accept', content: { v: 'B' } } } })
    const between = (await send(server, 'tasks/get', { taskId: r.result.taskId })).result
    expect(between.status).toBe('input_required')
    expect(Object.keys(between.inputRequests)).toEqual([k1])
    await send(server, 'tasks/update', { taskId: r.result.taskId, inputResponses: { [k1]: { action: 'accept', content: { v: 'A' } } } })
    expect((await waitFor(server, r.result.taskId, 'completed')).result.content[0].text).toBe('A/B')
  })

  it('turns a progress message of a task into its statusMessage', async () => {
    const { server } = serve(async (_a, ctx) => {
      await sleep(5)
      ctx.progress(1, 2, 'half way')
      await sleep(200)
      return 'done'
    })
    const r = await send(server, 'tools/call', { name: 'job', arguments: {} }, { ...meta({}), progressToken: 'p1' })
    let t = (await send(server, 'tasks/get', { taskId: r.result.taskId })).result
    for (let i = 0; i < 50 && t.statusMessage === undefined; i++) {
      await sleep(5)
      t = (await send(server, 'tasks/get', { taskId: r.result.taskId })).result
    }
    expect(t).toMatchObject({ status: 'working', statusMessage: 'half way' })
  })

  it('before the handoff, the call is an ordinary one: its notifications go to the caller’s channel, notifications/cancelled aborts it', async () => {
    let reason: unknown
    const { server, store } = serve(
      async (_a, ctx) => {
        ctx.log('info', 'started')
        await new Promise((resolve) => ctx.signal.addEventListener('abort', resolve))
        reason = ctx.signal.reason
        return 'never'
      },
      { immediateMs: 60_000 },
    )
    const sent: ServerMessage[] = []
    const session = newSession('2025-11-25', outbound((m) => sent.push(m)))
    const answered = server.dispatch(
      { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'job', arguments: {}, _meta: { ...meta(), 'io.modelcontextprotocol/logLevel': 'info' } } },
      session,
    )()
    await sleep(5)
    expect(sent).toEqual([{ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'started' } }])
    await server.dispatch({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 7, reason: 'changed my mind' } }, session)()
    expect(reason).toBe('changed my mind')
    // a cancelled request gets no answer, and no task is made for it
    expect(O.isNone(await answered)).toBe(true)
    expect(store.size()).toBe(0)
  })
})

describe('tasks/run: a full store', () => {
  it('answers an optional tool inline when no task can be made', async () => {
    const store = taskStore({ maxTasks: 1 })
    // the first call holds the one task there is room for until the test lets it go
    let release: () => void = () => undefined
    const held = new Promise<void>((resolve) => (release = resolve))
    let calls = 0
    const { server } = serve(async () => {
      if (++calls === 1) await held
      else await sleep(20)
      return 'inline after all'
    }, { store })
    const first = await send(server, 'tools/call', { name: 'job', arguments: {} })
    expect(first.result.resultType).toBe('task')
    const second = await send(server, 'tools/call', { name: 'job', arguments: {} })
    expect(second.result).toMatchObject({ resultType: 'complete', content: [{ type: 'text', text: 'inline after all' }] })
    release()
  })

  it('refuses a task-only tool when no task can be made', async () => {
    const store = taskStore({ maxTasks: 1 })
    const { server } = serve(async () => {
      await sleep(1000)
      return 'x'
    }, { store })
    expect((await send(server, 'tools/call', { name: 'job', arguments: {} })).result.resultType).toBe('task')
    const r = await send(server, 'tools/call', { name: 'must_task', arguments: {} })
    expect(r.error).toMatchObject({ code: -32603, message: expect.stringMatching(/maxTasks 1/) })
  })

  it('a call that could not become a task asks the call’s own way (input_required)', async () => {
    const store = taskStore({ maxTasks: 1 })
    const { server } = serve(async (_a, ctx) => {
      await sleep(5)
      const roots = await ctx.roots()
      return `${roots.length} roots`
    }, { store })
    expect((await send(server, 'tools/call', { name: 'job', arguments: {} }, meta({ roots: {} }))).result.resultType).toBe('task')
    const r = await send(server, 'tools/call', { name: 'job', arguments: {} }, meta({ roots: {} }))
    expect(r.result).toMatchObject({ resultType: 'input_required', inputRequests: { 'input-0': { method: 'roots/list' } } })
  })
})

describe('tasks/run: wire', () => {
  it('serialises CreateTaskResult and tasks/get answers as plain JSON-RPC results', async () => {
    const { server } = serve(async () => {
      await sleep(5)
      return 'ok'
    })
    const out = await server.dispatch({ jsonrpc: '2.0', id: 'a', method: 'tools/call', params: { name: 'job', arguments: {}, _meta: meta() } }, newSession())()
    expect(O.isSome(out) && JSON.parse(encode(out.value))).toMatchObject({ jsonrpc: '2.0', id: 'a', result: { resultType: 'task' } })
  })
})
