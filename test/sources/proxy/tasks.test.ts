/**
 * The tasks extension through emcp/proxy, over real sockets: an emcp upstream with `tasks()`
 * on 127.0.0.1, a proxy of it served over HTTP behind `oauth()` (real tokens of a scripted
 * issuer), and raw 2026-07-28 requests (Node's `http` client) from Alice and Bob. The proxy
 * declares the extension; a call that becomes a task upstream comes back as the upstream's
 * `CreateTaskResult` (its id: the upstream's store holds it); tasks/get follows it to its
 * result, tasks/update answers the question the upstream asked under its own key, tasks/cancel
 * aborts the upstream's handler, and a listen stream hears its notifications/tasks. Bob,
 * with Alice's task id, gets the unknown-task answer and changes nothing; ids are bounded, and
 * a client that did not declare the extension is refused as by emcp's own tasks. Last, the same
 * through a stdio upstream (a child process): a task asks, is answered, and is heard to end.
 */
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { emcp, mcpServer, tasks, type Server, type TaskStatus } from '../../../src/index.js'
import { oauth } from '../../../src/auth/index.js'
import { serveHttp, type RunningHttp } from '../../../src/transport/http.js'
import { proxy, type ProxyServer } from '../../../src/sources/proxy/index.js'
import { issuerWithTokens, type Issuer } from '../../support/issuer.js'
import { modernClient } from '../../support/modern-client.js'

const tasksExt = 'io.modelcontextprotocol/tasks'
const audience = 'http://127.0.0.1/proxy-tasks/mcp'

const report = emcp({
  name: 'report',
  description: 'Works until released, then reports its label.',
  input: { type: 'object', properties: { label: { type: 'string' } }, required: ['label'] },
  output: { type: 'object', properties: { label: { type: 'string' } }, required: ['label'] },
  taskSupport: 'optional',
})
const purge = emcp({ name: 'purge', description: 'Deletes all data, once the user confirms.', input: { type: 'object' }, taskSupport: 'required' })
const hold = emcp({ name: 'hold', description: 'Runs until cancelled.', input: { type: 'object' }, taskSupport: 'required' })

let release: () => void = () => undefined
let started: () => void = () => undefined
const aborted: string[] = []
const upstreamTasks = tasks({ ttlMs: 600_000, pollIntervalMs: 50 })
const upstreamServer = mcpServer([report, purge, hold], { name: 'task-upstream', version: '1' }, { features: [upstreamTasks] }).implement({
  report: async ({ label }) => {
    const gate = new Promise<void>((resolve) => (release = resolve))
    started()
    await gate
    return { label }
  },
  purge: async (_args, ctx) => {
    // a wait on something else first: the call becomes a task, and the question its inputRequests
    await new Promise((resolve) => setImmediate(resolve))
    const r = await ctx.elicit({ message: 'Delete all data?', requestedSchema: { type: 'object', properties: { sure: { type: 'boolean' } }, required: ['sure'] } })
    return r.action === 'accept' && r.content.sure === true ? 'purged' : 'kept'
  },
  hold: (_args, ctx) => new Promise<string>((_resolve, reject) => ctx.signal.addEventListener('abort', () => (aborted.push('hold'), reject(new Error('cancelled'))), { once: true })),
}) as unknown as Server

/** Resolves once the upstream's task `taskId` has status `status` (told by its store, not polled). */
const upstreamStatus = (taskId: string, status: TaskStatus): Promise<void> =>
  new Promise((resolve) => {
    if (upstreamTasks.store.get(taskId)?.status === status) return resolve()
    const stop = upstreamTasks.store.onChange((t) => {
      if (t.taskId === taskId && t.status === status) {
        stop()
        resolve()
      }
    })
  })

let iss: Issuer
let tokens: Record<'alice' | 'bob', string>
let upstream: RunningHttp
let proxied: ProxyServer
let front: RunningHttp

beforeAll(async () => {
  ;({ iss, tokens } = await issuerWithTokens({ alice: { sub: 'alice', aud: audience }, bob: { sub: 'bob', aud: audience } }))
  upstream = await serveHttp(upstreamServer, { port: 0, host: '127.0.0.1', handleSignals: false })
  proxied = await proxy({ url: upstream.url })
  front = await serveHttp(proxied, { port: 0, host: '127.0.0.1', handleSignals: false, auth: oauth({ issuer: iss.issuer, audience }) })
})

afterAll(async () => {
  await front?.close()
  await proxied?.close()
  await upstream?.close()
  await iss?.close()
})

const alice = () => modernClient(front.url, 'http', tokens.alice)
const bob = () => modernClient(front.url, 'http', tokens.bob)

/** Calls `name` as Alice and returns the task the call became. */
const taskOf = async (name: string, args: object = {}): Promise<{ taskId: string; [key: string]: unknown }> => {
  const r = await alice().rpc('tools/call', { name, arguments: args })
  expect(r.body.result).toMatchObject({ resultType: 'task', taskId: expect.any(String) })
  return r.body.result
}

describe('the tasks extension through the proxy', () => {
  it('is declared by the proxy as the upstream declares it', async () => {
    const r = await alice().rpc('server/discover', {})
    expect(r.body.result.capabilities.extensions).toEqual({ [tasksExt]: {} })
  })

  it('a call that becomes a task upstream is answered with the upstream’s task, which tasks/get follows to its result', async () => {
    const task = await taskOf('report', { label: 'q3' })
    // the upstream's task, as it came: its id, its status and its bounds
    expect(upstreamTasks.store.get(task.taskId)?.status).toBe('working')
    expect(task).toMatchObject({ status: 'working', ttlMs: 600_000, pollIntervalMs: 50, createdAt: expect.any(String), lastUpdatedAt: expect.any(String) })
    expect(Object.keys(task).sort()).toEqual(['_meta', 'createdAt', 'lastUpdatedAt', 'pollIntervalMs', 'resultType', 'status', 'taskId', 'ttlMs'])
    expect((await alice().rpc('tasks/get', { taskId: task.taskId })).body.result).toMatchObject({ resultType: 'complete', taskId: task.taskId, status: 'working' })
    release()
    await upstreamStatus(task.taskId, 'completed')
    const done = (await alice().rpc('tasks/get', { taskId: task.taskId })).body.result
    expect(done).toMatchObject({ resultType: 'complete', status: 'completed', ttlMs: 600_000, result: { structuredContent: { label: 'q3' } } })
  })

  it('a question asked inside the task: tasks/get shows it under the upstream’s key, tasks/update answers it', async () => {
    const task = await taskOf('purge')
    await upstreamStatus(task.taskId, 'input_required')
    const asked = (await alice().rpc('tasks/get', { taskId: task.taskId })).body.result
    expect(asked).toMatchObject({ status: 'input_required', inputRequests: { 'input-1': { method: 'elicitation/create', params: { message: 'Delete all data?' } } } })
    const ack = await alice().rpc('tasks/update', { taskId: task.taskId, inputResponses: { 'input-1': { action: 'accept', content: { sure: true } } } })
    expect(ack.body.result).toMatchObject({ resultType: 'complete' })
    await upstreamStatus(task.taskId, 'completed')
    expect((await alice().rpc('tasks/get', { taskId: task.taskId })).body.result.result.content).toEqual([{ type: 'text', text: 'purged' }])
  })

  it('tasks/cancel reaches the upstream, whose handler is aborted', async () => {
    const task = await taskOf('hold')
    expect((await alice().rpc('tasks/cancel', { taskId: task.taskId })).body.result).toMatchObject({ resultType: 'complete' })
    await upstreamStatus(task.taskId, 'cancelled')
    expect(aborted).toContain('hold')
    expect((await alice().rpc('tasks/get', { taskId: task.taskId })).body.result.status).toBe('cancelled')
  })

  it('a listen stream naming the task hears the upstream’s notifications/tasks', async () => {
    const task = await taskOf('report', { label: 'heard' })
    const stream = await alice().listen({ taskIds: [task.taskId] })
    try {
      await stream.until((m) => m.method === 'notifications/subscriptions/acknowledged')
      release()
      const seen = await stream.until((m) => m.method === 'notifications/tasks' && m.params.status === 'completed')
      const last = seen.find((m) => m.method === 'notifications/tasks' && m.params.status === 'completed')
      expect(last.params).toMatchObject({ taskId: task.taskId, result: { structuredContent: { label: 'heard' } } })
    } finally {
      stream.close()
    }
  })

  it('Bob, with Alice’s task id, gets the unknown-task answer, and her task goes on', async () => {
    const task = await taskOf('hold')
    const never = 'f'.repeat(36)
    for (const [method, extra] of [['tasks/get', {}], ['tasks/update', { inputResponses: {} }], ['tasks/cancel', {}]] as const) {
      const hers = await bob().rpc(method, { taskId: task.taskId, ...extra })
      const unknown = await bob().rpc(method, { taskId: never, ...extra })
      expect(hers.body.error).toEqual({ ...unknown.body.error, message: unknown.body.error.message.replace(never, task.taskId) })
      expect(hers.body.error).toMatchObject({ code: -32602, message: `${method}: no task "${task.taskId}" (unknown, or expired)` })
    }
    expect(upstreamTasks.store.get(task.taskId)?.status).toBe('working')
    await alice().rpc('tasks/cancel', { taskId: task.taskId })
    await upstreamStatus(task.taskId, 'cancelled')
  })

  it('bounds and refusals: a long id is an unknown one, undeclared clients get -32021, tasks/result is not served', async () => {
    const long = await alice().rpc('tasks/get', { taskId: 'x'.repeat(4000) })
    expect(long.body.error.code).toBe(-32602)
    expect(long.body.error.message.length).toBeLessThan(300)
    const bare = modernClient(front.url, 'http', tokens.alice, { elicitation: { form: {} } })
    expect((await bare.rpc('tasks/get', { taskId: 'any' })).body.error).toMatchObject({ code: -32021, data: { requiredCapabilities: { extensions: { [tasksExt]: {} } } } })
    // a tool that runs only as a task: the upstream's refusal, -32021, for a client that cannot take one
    expect((await bare.rpc('tools/call', { name: 'hold', arguments: {} })).body.error).toMatchObject({ code: -32021 })
    expect((await alice().rpc('tasks/result', { taskId: 'any' })).body.error.code).toBe(-32601)
  })

  it('a client that did not declare the extension is answered inline, the upstream asked without it', async () => {
    const bare = modernClient(front.url, 'http', tokens.alice, { elicitation: { form: {} } })
    const began = new Promise<void>((resolve) => (started = resolve))
    const answer = bare.rpc('tools/call', { name: 'report', arguments: { label: 'inline' } })
    await began
    release()
    expect((await answer).body.result).toMatchObject({ resultType: 'complete', structuredContent: { label: 'inline' } })
  })
})

describe('the tasks extension through a stdio upstream', () => {
  it('a task created by the child, its question answered through the proxy, its end heard on a listen stream', async () => {
    const p = await proxy({ command: process.execPath, args: [fileURLToPath(new URL('./task-upstream.mjs', import.meta.url))] })
    const http = await serveHttp(p, { port: 0, host: '127.0.0.1', handleSignals: false })
    try {
      const client = modernClient(http.url, 'fetch')
      const task = (await client.rpc('tools/call', { name: 'confirm', arguments: {} })).body.result
      expect(task).toMatchObject({ resultType: 'task', status: 'working', ttlMs: 60_000 })
      const stream = await client.listen({ taskIds: [task.taskId] })
      try {
        await stream.until((m) => m.method === 'notifications/subscriptions/acknowledged')
        let asked = (await client.rpc('tasks/get', { taskId: task.taskId })).body.result
        if (asked.status !== 'input_required') asked = (await stream.until((m) => m.params?.status === 'input_required')).find((m) => m.params?.status === 'input_required').params
        const [key] = Object.keys(asked.inputRequests)
        await client.rpc('tasks/update', { taskId: task.taskId, inputResponses: { [key as string]: { action: 'accept', content: { go: true } } } })
        const seen = await stream.until((m) => m.params?.status === 'completed')
        expect(seen.find((m) => m.params?.status === 'completed').params.result.content).toEqual([{ type: 'text', text: 'yes' }])
      } finally {
        stream.close()
      }
    } finally {
      await http.close()
      await p.close()
    }
  })
})
