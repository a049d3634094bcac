/**
 * The tasks extension through a mount, by raw 2026-07-28 requests: the whole declares it when
 * a part does; a task a part makes polls to its result through the whole, `tasks/cancel`
 * reaches the part's handler, `tasks/update` answers its question, a listen stream of the
 * whole hears its status; another caller, or an id the whole never handed out, gets the
 * extension's unknown-task answer; and no client is ever handed a task it cannot poll.
 */
import { describe, expect, it } from 'vitest'
import { emcp, inMemoryClient, mcpServer, memoryStore, mount, mounted, tasks, tasksExtension } from '../../src/index.js'
import { meta, send } from '../features/tasks/support.js'
import { as, ended, listenOf } from './tasks-support.js'

const slow = emcp({ name: 'slow', description: 'Waits until released or cancelled.', input: { type: 'object' }, taskSupport: 'optional' })
const ask = emcp({ name: 'ask', description: 'Asks the user, then answers.', input: { type: 'object' }, taskSupport: 'required' })
const quick = emcp({ name: 'quick', description: 'Answers at once.', input: { type: 'object' } })

/** A part with tasks(): `slow` waits on the gate (or its signal), `ask` asks a question after a turn of the event loop. */
const jobsOf = () => {
  let started = (): void => undefined
  const gate = { release: () => undefined as void, aborted: [] as string[], started: new Promise<void>((r) => (started = r)) }
  const server = mcpServer([slow, ask], { name: 'jobs', version: '1' }, { features: [tasks({ ttlMs: 60_000 })] }).implement({
    slow: (_args, ctx) =>
      new Promise<string>((resolve) => {
        gate.release = () => resolve('done')
        started()
        ctx.signal.addEventListener('abort', () => (gate.aborted.push(String(ctx.signal.reason)), resolve('stopped')), { once: true })
      }),
    ask: async (_args, ctx) => {
      await new Promise((r) => setImmediate(r))
      const answer = await ctx.elicit({ message: 'Go on?', requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] } })
      return answer.action === 'accept' ? `ok=${String(answer.content?.ok)}` : answer.action
    },
  })
  return { server, gate }
}
const plainOf = () => mcpServer([quick], { name: 'plain', version: '1' }).implement({ quick: () => 'now' })

const wholeOf = () => {
  const jobs = jobsOf()
  return { ...jobs, whole: mount([mounted(jobs.server, 'jobs'), plainOf()], { name: 'whole', version: '1' }) }
}

describe('mount: the tasks extension of a part', () => {
  it('the whole declares the extension when a part does, and not otherwise', async () => {
    const { whole } = wholeOf()
    const d = await send(whole, 'server/discover')
    expect(d.result?.capabilities?.extensions?.[tasksExtension]).toEqual({})
    const bare = await send(mount([plainOf()], { name: 'bare', version: '1' }), 'server/discover')
    expect(bare.result?.capabilities?.extensions?.[tasksExtension]).toBeUndefined()
    // without it, tasks/get is not a method of the whole
    expect((await send(mount([plainOf()], { name: 'bare', version: '1' }), 'tasks/get', { taskId: 'x' })).error?.code).toBe(-32601)
  })

  it('a task made through the whole polls to its result, as its creator', async () => {
    const { whole, gate } = wholeOf()
    const created = await as(whole, 'alice', 'tools/call', { name: 'jobs_slow', arguments: {} })
    expect(created.result).toMatchObject({ resultType: 'task', status: 'working' })
    const taskId = created.result.taskId as string
    expect((await as(whole, 'alice', 'tasks/get', { taskId })).result).toMatchObject({ taskId, status: 'working' })
    gate.release()
    const done = await ended(whole, 'alice', taskId)
    expect(done.result).toMatchObject({ taskId, status: 'completed', result: { content: [{ type: 'text', text: 'done' }] } })
  })

  it('tasks/cancel reaches the part’s handler; tasks/update answers the part’s question', async () => {
    const { whole, gate } = wholeOf()
    const created = await as(whole, 'alice', 'tools/call', { name: 'jobs_slow', arguments: {} })
    const taskId = created.result.taskId as string
    const ack = await as(whole, 'alice', 'tasks/cancel', { taskId })
    expect(ack.result?.resultType).toBe('complete')
    expect((await ended(whole, 'alice', taskId, 'cancelled')).result?.status).toBe('cancelled')
    expect(gate.aborted).toHaveLength(1)

    const asked = await as(whole, 'alice', 'tools/call', { name: 'jobs_ask', arguments: {} })
    const askId = asked.result.taskId as string
    const waiting = await ended(whole, 'alice', askId, 'input_required')
    const [key] = Object.keys(waiting.result.inputRequests)
    expect((await as(whole, 'alice', 'tasks/update', { taskId: askId, inputResponses: { [key!]: { action: 'accept', content: { ok: true } } } })).result?.resultType).toBe('complete')
    expect((await ended(whole, 'alice', askId)).result?.result?.content).toEqual([{ type: 'text', text: 'ok=true' }])
  })

  it('another caller, an id never handed out, and a client without the extension are refused as the extension says', async () => {
    const { whole, gate } = wholeOf()
    const created = await as(whole, 'alice', 'tools/call', { name: 'jobs_slow', arguments: {} })
    const taskId = created.result.taskId as string
    for (const method of ['tasks/get', 'tasks/update', 'tasks/cancel']) {
      const bob = await as(whole, 'bob', method, { taskId, inputResponses: {} })
      const never = await as(whole, 'bob', method, { taskId: 'no-such-task', inputResponses: {} })
      expect(bob.error).toMatchObject({ code: -32602 })
      expect(bob.error?.message).toBe(never.error?.message.replace('no-such-task', taskId))
    }
    expect(gate.aborted).toHaveLength(0)
    expect((await as(whole, 'alice', 'tasks/get', { taskId })).result?.status).toBe('working')
    const undeclared = await send(whole, 'tasks/get', { taskId }, meta({}, false))
    expect(undeclared.error?.code).toBe(-32021)
    expect((await as(whole, 'alice', 'tasks/get', { taskId: 42 })).error?.code).toBe(-32602)
    gate.release()
  })

  it('a listen stream of the whole hears the status of the caller’s task, and not of another’s', async () => {
    const { whole, gate } = wholeOf()
    const created = await as(whole, 'alice', 'tools/call', { name: 'jobs_slow', arguments: {} })
    const taskId = created.result.taskId as string
    const alice = listenOf(whole, 'alice', [taskId])
    const bob = listenOf(whole, 'bob', [taskId])
    await alice.until((m) => m.method === 'notifications/subscriptions/acknowledged')
    await bob.until((m) => m.method === 'notifications/subscriptions/acknowledged')
    gate.release()
    await alice.until((m) => m.method === 'notifications/tasks' && m.params?.status === 'completed')
    expect(alice.heard.find((m: any) => m.method === 'notifications/tasks')).toMatchObject({ params: { taskId } })
    expect(bob.heard.filter((m: any) => m.method === 'notifications/tasks')).toEqual([])
    alice.end()
    bob.end()
  })

  it('replicas of the whole over a shared store: a task made through one polls and cancels through the other', async () => {
    const store = memoryStore()
    const replicaOf = () => {
      const gate = { release: () => undefined as void, aborted: [] as string[] }
      const jobs = mcpServer([slow], { name: 'jobs', version: '1' }, { store, features: [tasks()] }).implement({
        slow: (_args, ctx) =>
          new Promise<string>((resolve) => {
            gate.release = () => resolve('done')
            ctx.signal.addEventListener('abort', () => (gate.aborted.push('aborted'), resolve('stopped')), { once: true })
          }),
      })
      return { gate, whole: mount([mounted(jobs, 'jobs'), plainOf()], { name: 'whole', version: '1' }) }
    }
    const a = replicaOf()
    const b = replicaOf()
    const created = await as(a.whole, 'alice', 'tools/call', { name: 'jobs_slow', arguments: {} })
    const taskId = created.result.taskId as string
    expect((await as(b.whole, 'alice', 'tasks/get', { taskId })).result).toMatchObject({ taskId, status: 'working' })
    expect((await as(b.whole, 'bob', 'tasks/get', { taskId })).error?.code).toBe(-32602)
    expect((await as(b.whole, 'alice', 'tasks/cancel', { taskId })).result?.resultType).toBe('complete')
    expect((await ended(a.whole, 'alice', taskId, 'cancelled')).result?.status).toBe('cancelled')
    expect(a.gate.aborted).toEqual(['aborted'])
  })

  it('two parts with tasks: each task goes to the part that made it', async () => {
    const a = jobsOf()
    const b = jobsOf()
    const whole = mount([mounted(a.server, 'a'), mounted(b.server, 'b')], { name: 'whole', version: '1' })
    expect((await send(whole, 'server/discover')).result?.capabilities?.extensions).toEqual({ [tasksExtension]: {} })
    const ta = (await as(whole, 'alice', 'tools/call', { name: 'a_slow', arguments: {} })).result.taskId as string
    const tb = (await as(whole, 'alice', 'tools/call', { name: 'b_slow', arguments: {} })).result.taskId as string
    expect((await as(whole, 'alice', 'tasks/cancel', { taskId: tb })).result?.resultType).toBe('complete')
    expect((await ended(whole, 'alice', tb, 'cancelled')).result?.status).toBe('cancelled')
    expect([a.gate.aborted.length, b.gate.aborted.length]).toEqual([0, 1])
    a.gate.release()
    expect((await ended(whole, 'alice', ta)).result?.result?.content).toEqual([{ type: 'text', text: 'done' }])
  })

  it('mounts nest: a task of a part of a part polls and cancels through the outer whole', async () => {
    const { whole: inner, gate } = wholeOf()
    const outer = mount([mounted(inner, 'eu')], { name: 'outer', version: '1' })
    expect((await send(outer, 'server/discover')).result?.capabilities?.extensions?.[tasksExtension]).toEqual({})
    const created = await as(outer, 'alice', 'tools/call', { name: 'eu_jobs_slow', arguments: {} })
    const taskId = created.result.taskId as string
    expect((await as(outer, 'alice', 'tasks/get', { taskId })).result).toMatchObject({ taskId, status: 'working' })
    expect((await as(outer, 'bob', 'tasks/get', { taskId })).error?.code).toBe(-32602)
    expect((await as(outer, 'alice', 'tasks/cancel', { taskId })).result?.resultType).toBe('complete')
    expect((await ended(outer, 'alice', taskId, 'cancelled')).result?.status).toBe('cancelled')
    expect(gate.aborted).toHaveLength(1)
  })

  it('a 2025-11-25 conversation through the whole gets inline answers, and tasks/* is not a method for it', async () => {
    const { whole, gate } = wholeOf()
    const c = inMemoryClient(whole, { protocolVersion: '2025-11-25', capabilities: { extensions: { [tasksExtension]: {} } } })
    const answer = c.callResult('jobs_slow', {})
    await gate.started
    gate.release()
    await expect(answer).resolves.toMatchObject({ content: [{ type: 'text', text: 'done' }] })
    await expect(c.request('tasks/get', { taskId: 'x' })).rejects.toMatchObject({ code: -32601 })
  })

  it('hostile task ids: a megabyte id, a number, an id list past the bound, each a clear -32602', async () => {
    const { whole } = wholeOf()
    const huge = 'x'.repeat(1_000_000)
    const r = await as(whole, 'alice', 'tasks/get', { taskId: huge })
    expect(r.error?.code).toBe(-32602)
    expect(r.error!.message.length).toBeLessThan(1_000)
    expect((await as(whole, 'alice', 'tasks/cancel', { taskId: { $ne: 1 } })).error?.message).toBe('tasks/cancel: params.taskId must be a string')
    const many = listenOf(whole, 'alice', Array.from({ length: 1001 }, (_, i) => `t${i}`))
    const refused = await many.answered
    expect(JSON.stringify(refused)).toContain('at most 1000 per stream')
  })

  it('a part that does not carry the extension is called as if the client had not declared it', async () => {
    const { whole } = wholeOf()
    const r = await send(whole, 'tools/call', { name: 'quick', arguments: {} })
    expect(r.result).toMatchObject({ resultType: 'complete', content: [{ type: 'text', text: 'now' }] })
    // a client without the extension gets the part's inline answer
    const { gate, whole: w2 } = wholeOf()
    const inline = send(w2, 'tools/call', { name: 'jobs_slow', arguments: {} }, meta({}, false))
    await gate.started
    gate.release()
    expect((await inline).result).toMatchObject({ resultType: 'complete', content: [{ type: 'text', text: 'done' }] })
  })
})
