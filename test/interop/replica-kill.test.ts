/**
 * Replica processes killed under a client: three everything processes on one store (Redis from
 * EMCP_TEST_REDIS_URL, PostgreSQL from EMCP_TEST_DATABASE_URL) behind the round-robin proxy of
 * replica-cluster.ts, and one of them killed with SIGKILL while a client uses it.
 *
 * - SDK v1 (1.32.2) on 2025-11-25: a session with a GET stream and a streaming call; the GET
 *   stream's replica is killed while the call streams on another; the SDK resumes the GET stream
 *   by itself (its reconnection options) with Last-Event-ID on a live replica, and every
 *   list_changed, progress and log event is heard exactly once.
 * - Tasks (2026-07-28): a task created on A is answered (tasks/update), polled and cancelled
 *   through the others; a finished task's result is read after A is killed and after it is
 *   started again; a task whose replica was killed while it ran is ended by a cancel (cancelled)
 *   or an answer (failed) on another replica, saying why.
 *
 * Every wait is for an event (a notification heard, a status polled as a client polls, a
 * request forwarded), bounded; no sleep waits for something to happen.
 */
import { describe, expect, it } from 'vitest'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { LoggingMessageNotificationSchema, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js'
import { texts, until } from './children.js'
import { backends, cluster, post2026, type Cluster } from './replica-cluster.js'

for (const [name, url] of Object.entries(backends)) {
  if (url === undefined) console.warn(`replica kill tests on ${name} SKIPPED: set ${name === 'redis' ? 'EMCP_TEST_REDIS_URL (.ci/redis start)' : 'EMCP_TEST_DATABASE_URL (.ci/postgres start)'}`)
}

/** Sends harmless requests through the proxy until its next request goes to a replica other than `avoid`. */
const skip = async (c: Cluster, avoid: ReadonlyArray<number>, client: Client): Promise<void> => {
  for (let i = 0; i < c.replicas().length && avoid.includes(c.peek()); i++) await client.ping()
}

/**
 * A tools list change caused by another client (a stateless 2026-07-28 call through the proxy).
 * Not by the session's own calls: a notification a call causes goes on that call's stream on its
 * replica, and again on the GET stream by the replica that holds it (see docs/replicas.md).
 */
const trigger = async (c: Cluster): Promise<void> => {
  const r = await post2026(c.url(), 'tools/call', { name: 'test_trigger_tool_change', arguments: {} }, 'test_trigger_tool_change')
  expect(r.body.result?.isError).not.toBe(true)
}

/** Polls `tasks/get` through the proxy as a client does (bounded) until the task's status is `status`; the task then. */
const pollUntil = async (c: Cluster, taskId: string, status: string): Promise<any> => {
  let task: any
  for (let i = 0; i < 300; i++) {
    task = (await post2026(c.url(), 'tasks/get', { taskId }, taskId)).body.result
    if (task?.status === status) return task
    // the pace a client is told (pollIntervalMs), shortened: this is a client polling, not a wait for time to pass
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error(`task ${taskId} never reached ${status}; last seen ${JSON.stringify(task)}`)
}

/** The replica the proxy sent the last `method` to. */
const lastOn = (c: Cluster, method: string): number => {
  const hit = [...c.log()].reverse().find((l) => l.method === method)
  if (hit === undefined) throw new Error(`no ${method} was forwarded`)
  return hit.replica
}

/** Sends one 2026 request through the proxy, first moving its round robin past `avoid`. */
const postAvoiding = async (c: Cluster, avoid: number, method: string, params: Record<string, unknown>, name: string) => {
  for (let i = 0; i < c.replicas().length && c.peek() === avoid; i++) await post2026(c.url(), 'tasks/get', { taskId: name }, name).catch(() => undefined)
  expect(c.peek()).not.toBe(avoid)
  return post2026(c.url(), method, params, name)
}

for (const [backend, store] of Object.entries(backends)) {
  describe.runIf(store !== undefined)(`three everything processes on ${backend}, one killed under the client`, () => {
    const c = cluster(store as string, 3)

    it('SDK v1: the GET stream of a killed replica is resumed with Last-Event-ID on another, while a call streams on a third; every event heard once', async () => {
      const client = new Client({ name: 'emcp-replica-kill', version: '0.0.0' })
      // the SDK's own resumption: it reconnects a cut GET stream with the last event id it saw
      const transport = new StreamableHTTPClientTransport(new URL(c.url()), {
        reconnectionOptions: { initialReconnectionDelay: 50, maxReconnectionDelay: 500, reconnectionDelayGrowFactor: 1.5, maxRetries: 10 },
      })
      let changed = 0
      const logs: string[] = []
      client.setNotificationHandler(ToolListChangedNotificationSchema, () => void changed++)
      client.setNotificationHandler(LoggingMessageNotificationSchema, (m) => void logs.push(String(m.params.data)))
      client.onerror = () => undefined // the cut stream and the reconnection are reported here
      const from = c.log().length
      await client.connect(transport)
      try {
        // the GET stream the SDK opened after initialization, and its replica
        await until(() => c.log().slice(from).some((l) => l.method === 'GET' && l.status === 200), 'the GET stream', 30_000)
        const g = c.log().slice(from).find((l) => l.method === 'GET' && l.status === 200)?.replica as number
        // list_changed caused by another client, spread over the replicas, reach the GET stream on g
        const before = 3
        for (let i = 0; i < before; i++) await trigger(c)
        await until(() => changed >= before, `${before} tools/list_changed on the GET stream`, 30_000)
        // a call that streams (a progress event, then its answer seconds later), on a replica other than g
        await skip(c, [g], client)
        let progress = 0
        const slow = client.callTool({ name: 'slow_compute', arguments: { seconds: 3, label: 'through the kill' } }, undefined, { onprogress: () => void progress++, timeout: 60_000 })
        await until(() => progress === 1, 'the slow call’s first progress', 30_000)
        expect(lastOn(c, 'tools/call')).not.toBe(g)
        // g dies with the GET stream open
        const cut = c.log().length
        await c.kill(g)
        // the SDK reconnects by itself, with the id of the last event it saw, to a live replica
        await until(() => c.log().slice(cut).some((l) => l.method === 'GET' && l.lastEventId !== undefined && l.status === 200), 'the GET stream resumed with Last-Event-ID', 30_000)
        const resumed = c.log().slice(cut).find((l) => l.method === 'GET' && l.lastEventId !== undefined && l.status === 200)
        expect(resumed?.replica).not.toBe(g)
        // more changes, through every live replica: heard on the resumed stream
        const after = 4
        for (let i = 0; i < after; i++) await trigger(c)
        await until(() => changed >= before + after, `${before + after} tools/list_changed`, 30_000)
        // the call that streamed on s through the kill ends with its answer and its one progress event
        const result = await slow
        expect(texts(result.content)).toEqual(['Computed for 3 s (through the kill)'])
        // progress and log events of calls on the live replicas, counted
        const rounds = 4
        for (let i = 0; i < rounds; i++) {
          await client.callTool({ name: 'test_tool_with_progress', arguments: {} }, undefined, { onprogress: () => void progress++ })
          await client.callTool({ name: 'test_tool_with_logging', arguments: {} })
        }
        // one more change, heard: a duplicate of an earlier one (a replay of what was delivered) would have come before it
        await trigger(c)
        await until(() => changed >= before + after + 1, 'the last tools/list_changed', 30_000)
        // all counts at once: a failure shows every one of them
        expect({ changed, progress, logs }).toEqual({
          changed: before + after + 1,
          progress: 1 + 3 * rounds,
          logs: Array.from({ length: rounds }, () => ['Tool execution started', 'Tool processing data', 'Tool execution completed']).flat(),
        })
      } finally {
        await client.close().catch(() => undefined)
        await c.restart(c.log().slice(from).find((l) => l.method === 'GET' && l.status === 200)?.replica ?? 0)
      }
    }, 180_000)

    it('tasks: one created on A is answered (tasks/update) and polled to its result through the others; its result is read after A is killed, and after A is started again', async () => {
      const created = await post2026(c.url(), 'tools/call', { name: 'confirm_delete', arguments: { filename: 'old.log' } }, 'confirm_delete')
      expect(created.body.result).toMatchObject({ resultType: 'task' })
      const taskId = created.body.result.taskId as string
      const a = lastOn(c, 'tools/call')
      const asking = await pollUntil(c, taskId, 'input_required')
      const [key] = Object.keys(asking.inputRequests)
      expect(asking.inputRequests[key as string]).toMatchObject({ method: 'elicitation/create', params: { message: 'Delete old.log?' } })
      const update = await postAvoiding(c, a, 'tasks/update', { taskId, inputResponses: { [key as string]: { action: 'accept', content: { confirm: true } } } }, taskId)
      expect(update.body.result).toMatchObject({ resultType: 'complete' })
      expect(lastOn(c, 'tasks/update')).not.toBe(a)
      const done = await pollUntil(c, taskId, 'completed')
      expect(texts(done.result.content)).toEqual(['Deleted old.log'])
      // A dies: the result is in the store, read on every other replica
      await c.kill(a)
      for (const [i, r] of c.replicas().entries()) {
        if (i === a) continue
        const res = await post2026(r.url, 'tasks/get', { taskId }, taskId)
        expect(res.body.result).toMatchObject({ taskId, status: 'completed', result: { content: [{ type: 'text', text: 'Deleted old.log' }] } })
      }
      // and on A started again, which has nothing of the task in its memory
      await c.restart(a)
      const again = await post2026((c.replicas()[a] as { url: string }).url, 'tasks/get', { taskId }, taskId)
      expect(again.body.result).toMatchObject({ taskId, status: 'completed', result: { content: [{ text: 'Deleted old.log' }] } })
    }, 180_000)

    it('tasks: a task whose replica was killed while it ran is ended by a cancel on another (cancelled), or by an answer (failed), each saying why', async () => {
      const running = await post2026(c.url(), 'tools/call', { name: 'slow_compute', arguments: { seconds: 600, label: 'orphan' } }, 'slow_compute')
      const runningId = running.body.result.taskId as string
      const a = lastOn(c, 'tools/call')
      // a second task on the same replica, waiting for an answer
      let asking: any
      for (let i = 0; i < c.replicas().length && c.peek() !== a; i++) await post2026(c.url(), 'tasks/get', { taskId: runningId }, runningId)
      asking = await post2026(c.url(), 'tools/call', { name: 'confirm_delete', arguments: { filename: 'orphan.log' } }, 'confirm_delete')
      expect(lastOn(c, 'tools/call')).toBe(a)
      const askingId = asking.body.result.taskId as string
      asking = await pollUntil(c, askingId, 'input_required')
      expect((await pollUntil(c, runningId, 'working')).status).toBe('working')
      await c.kill(a)
      try {
        // the cancel reaches a live replica; no replica runs the task: it is ended there
        const cancelled = await post2026(c.url(), 'tasks/cancel', { taskId: runningId }, runningId)
        expect(cancelled.body.result).toMatchObject({ resultType: 'complete' })
        const seen = (await post2026(c.url(), 'tasks/get', { taskId: runningId }, runningId)).body.result
        expect(seen).toMatchObject({ status: 'cancelled', statusMessage: expect.stringContaining('the server process that ran this task stopped before the task ended') })
        const [key] = Object.keys(asking.inputRequests)
        const answered = await post2026(c.url(), 'tasks/update', { taskId: askingId, inputResponses: { [key as string]: { action: 'accept', content: { confirm: true } } } }, askingId)
        expect(answered.body.result).toMatchObject({ resultType: 'complete' })
        const failed = (await post2026(c.url(), 'tasks/get', { taskId: askingId }, askingId)).body.result
        expect(failed).toMatchObject({ status: 'failed', error: { code: -32603, message: expect.stringContaining('stopped before the task ended; its answers cannot be delivered') } })
        expect(failed.inputRequests).toBeUndefined()
      } finally {
        await c.restart(a)
      }
    }, 180_000)
  })
}
