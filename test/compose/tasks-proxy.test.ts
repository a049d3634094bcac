/**
 * The tasks of a proxy part through a mount, over a real socket: an emcp upstream with
 * `tasks()` on 127.0.0.1, proxied, mounted under `up` beside a plain part, and raw 2026-07-28
 * requests to the whole from Alice and Bob. The whole declares the extension; a call becomes
 * the upstream's task, polls to its result through the whole, a listen stream of the whole
 * hears it end (the proxy part listens upstream), tasks/cancel aborts the upstream's handler,
 * and Bob, with Alice's ids, gets the unknown-task answer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { emcp, mcpServer, mount, mounted, tasks, tasksExtension, type Server } from '../../src/index.js'
import { serveHttp, type RunningHttp } from '../../src/transport/http.js'
import { proxy, type ProxyServer } from '../../src/sources/proxy/index.js'
import { send } from '../features/tasks/support.js'
import { as, ended, listenOf } from './tasks-support.js'
import { modernClient } from '../support/modern-client.js'

const report = emcp({ name: 'report', description: 'Works until released.', input: { type: 'object' }, taskSupport: 'optional' })
const hold = emcp({ name: 'hold', description: 'Runs until cancelled.', input: { type: 'object' }, taskSupport: 'required' })
const quick = emcp({ name: 'quick', description: 'Answers at once.', input: { type: 'object' } })

let release: () => void = () => undefined
const aborted: string[] = []
let stopped: () => void = () => undefined
const upstreamServer = mcpServer([report, hold], { name: 'task-upstream', version: '1' }, { features: [tasks({ ttlMs: 600_000, pollIntervalMs: 50 })] }).implement({
  report: () => new Promise<string>((resolve) => (release = () => resolve('reported'))),
  hold: (_args, ctx) =>
    new Promise<string>((_resolve, reject) =>
      ctx.signal.addEventListener('abort', () => (aborted.push('hold'), stopped(), reject(new Error('cancelled'))), { once: true }),
    ),
})

let upstream: RunningHttp
let proxied: ProxyServer
let whole: Server
let front: RunningHttp

beforeAll(async () => {
  upstream = await serveHttp(upstreamServer, { port: 0, host: '127.0.0.1', handleSignals: false })
  proxied = await proxy({ url: upstream.url })
  whole = mount([mounted(proxied, 'up'), mcpServer([quick], { name: 'plain', version: '1' }).implement({ quick: () => 'now' })], { name: 'whole', version: '1' })
  front = await serveHttp(whole, { port: 0, host: '127.0.0.1', handleSignals: false })
})

afterAll(async () => {
  await front?.close()
  await proxied?.close()
  await upstream?.close()
})

describe('mount: the tasks of a proxy part', () => {
  it('the whole declares the extension the proxy relays', async () => {
    const d = await send(whole, 'server/discover')
    expect(d.result?.capabilities?.extensions?.[tasksExtension]).toEqual({})
  })

  it('a task polls to its result through the whole, and a listen stream of the whole hears it end', async () => {
    const created = await as(whole, 'alice', 'tools/call', { name: 'up_report', arguments: {} })
    expect(created.result).toMatchObject({ resultType: 'task', taskId: expect.any(String) })
    const taskId = created.result.taskId as string
    const heard = listenOf(whole, 'alice', [taskId])
    const bobHeard = listenOf(whole, 'bob', [taskId])
    await heard.until((m) => m.method === 'notifications/subscriptions/acknowledged')
    await bobHeard.until((m) => m.method === 'notifications/subscriptions/acknowledged')
    expect((await as(whole, 'bob', 'tasks/get', { taskId })).error?.code).toBe(-32602)
    release()
    await heard.until((m) => m.method === 'notifications/tasks' && m.params?.taskId === taskId && m.params?.status === 'completed')
    const done = await ended(whole, 'alice', taskId)
    expect(done.result).toMatchObject({ taskId, status: 'completed', result: { content: [{ type: 'text', text: 'reported' }] } })
    expect(bobHeard.heard.filter((m: any) => m.method === 'notifications/tasks')).toEqual([])
    heard.end()
    bobHeard.end()
  })

  it('tasks/cancel through the whole aborts the upstream handler; Bob cannot', async () => {
    const created = await as(whole, 'alice', 'tools/call', { name: 'up_hold', arguments: {} })
    const taskId = created.result.taskId as string
    expect((await as(whole, 'bob', 'tasks/cancel', { taskId })).error?.code).toBe(-32602)
    expect(aborted).toEqual([])
    const gone = new Promise<void>((resolve) => (stopped = resolve))
    expect((await as(whole, 'alice', 'tasks/cancel', { taskId })).result?.resultType).toBe('complete')
    await gone
    expect(aborted).toEqual(['hold'])
    expect((await ended(whole, 'alice', taskId, 'cancelled')).result?.status).toBe('cancelled')
  })

  it('the whole served over HTTP: Mcp-Name routed tasks/get, and an SSE listen stream, from a client of both transports', async () => {
    for (const via of ['http', 'fetch'] as const) {
      const c = modernClient(front.url, via)
      const created = await c.rpc('tools/call', { name: 'up_report', arguments: {} })
      expect(created.body.result).toMatchObject({ resultType: 'task', taskId: expect.any(String) })
      const taskId = created.body.result.taskId as string
      const stream = await c.listen({ taskIds: [taskId] })
      expect(stream.status).toBe(200)
      expect((await c.rpc('tasks/get', { taskId })).body.result).toMatchObject({ taskId, status: 'working' })
      release()
      await stream.until((m) => m.method === 'notifications/tasks' && m.params?.status === 'completed')
      stream.close()
      expect((await c.rpc('tasks/get', { taskId })).body.result).toMatchObject({ status: 'completed', result: { content: [{ type: 'text', text: 'reported' }] } })
    }
  })
})
