/**
 * Replica processes end to end: dist/examples/everything.js started N times with the same
 * EMCP_STORE and EMCP_REQUEST_STATE_KEYS, behind a round-robin HTTP proxy of this test on
 * 127.0.0.1 that passes SSE streams through, once per backend (Redis from EMCP_TEST_REDIS_URL,
 * PostgreSQL from EMCP_TEST_DATABASE_URL; each skipped, loudly, when its URL is absent).
 * The official clients drive it: SDK v2 (2.4.0) on 2026-07-28, SDK v1 (1.32.2) on 2025-11-25.
 * Every event is counted: what the clients heard must be exactly what was caused.
 */
import { describe, expect, it } from 'vitest'
import { Client as Client2026, StreamableHTTPClientTransport as Http2026 } from '@modelcontextprotocol/client'
import { Client as Client2025 } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport as Http2025 } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js'
import { texts, until } from './children.js'
import { backends, cluster, post2026, replicasOf } from './replica-cluster.js'

for (const [name, url] of Object.entries(backends)) {
  if (url === undefined) console.warn(`replica process tests on ${name} SKIPPED: set ${name === 'redis' ? 'EMCP_TEST_REDIS_URL (.ci/redis start)' : 'EMCP_TEST_DATABASE_URL (.ci/postgres start)'}`)
}

/** A 2026 client that answers elicitation forms with `name`, counting the questions. */
const modernClient = (name: string) => {
  const client = new Client2026({ name: 'emcp-replicas-2026', version: '0.0.0' }, { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: 'auto' } })
  const asked: string[] = []
  client.setRequestHandler('elicitation/create', async (req) => {
    asked.push(String((req.params as { message?: unknown }).message))
    return { action: 'accept', content: { name } }
  })
  return { client, asked }
}

/** A POST with a session id straight to one replica, past the proxy: its HTTP status. */
const statusOn = async (url: string, sessionId: string): Promise<number> => {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
  })
  await res.body?.cancel()
  return res.status
}

/** The tests both cluster sizes run: a 2025-11-25 session served by every replica in turn, and a 2026 input_required round trip spread over replicas. */
const sessionTests = (c: ReturnType<typeof cluster>, n: number) => {
  it(`SDK v1 on 2025-11-25: one session served by all ${n} replicas in turn, every progress and log event heard once; DELETE ends it everywhere`, async () => {
    const client = new Client2025({ name: 'emcp-replicas-2025', version: '0.0.0' })
    const transport = new Http2025(new URL(c.url()))
    const logs: string[] = []
    client.setNotificationHandler(LoggingMessageNotificationSchema, (m) => {
      logs.push(String(m.params.data))
    })
    await client.connect(transport)
    const from = c.log().length
    try {
      expect(transport.protocolVersion ?? '2025-11-25').toBe('2025-11-25')
      const sessionId = transport.sessionId as string
      expect(sessionId).toMatch(/./)
      const rounds = 2 * n
      let progress = 0
      for (let i = 0; i < rounds; i++) {
        const result = await client.callTool({ name: 'test_tool_with_progress', arguments: {} }, undefined, { onprogress: () => void progress++ })
        expect(result.isError).not.toBe(true)
        const logged = await client.callTool({ name: 'test_tool_with_logging', arguments: {} })
        expect(texts(logged.content)).toEqual(['Tool with logging executed successfully'])
      }
      // every replica served calls of this one session
      expect(new Set(replicasOf(c.log(), 'tools/call', from))).toEqual(new Set(Array.from({ length: n }, (_, i) => i)))
      // three progress notifications and three log messages a call: none lost, none twice
      expect(progress).toBe(3 * rounds)
      expect(logs).toEqual(Array.from({ length: rounds }, () => ['Tool execution started', 'Tool processing data', 'Tool execution completed']).flat())
      for (const r of c.replicas()) expect(await statusOn(r.url, sessionId)).toBe(200)
      await transport.terminateSession()
      // one replica got the DELETE; none serves the session any more
      for (const r of c.replicas()) expect(await statusOn(r.url, sessionId)).toBe(404)
    } finally {
      await client.close().catch(() => {})
    }
  }, 120_000)

  it('SDK v2 on 2026-07-28: an input_required round trip whose retry lands on another replica', async () => {
    const { client, asked } = modernClient('Ada')
    await client.connect(new Http2026(new URL(c.url())))
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28')
      const from = c.log().length
      const result = await client.callTool({ name: 'test_input_required_result_elicitation', arguments: {} })
      expect(texts(result.content)).toEqual(['Hello, Ada!'])
      expect(asked).toEqual(['What is your name?'])
      const calls = replicasOf(c.log(), 'tools/call', from)
      expect(calls).toHaveLength(2)
      expect(calls[0]).not.toBe(calls[1])
    } finally {
      await client.close().catch(() => {})
    }
  }, 60_000)
}

for (const [backend, store] of Object.entries(backends)) {
  describe.runIf(store !== undefined)(`three everything processes on ${backend} behind a round-robin proxy`, () => {
    const c = cluster(store as string, 3)
    sessionTests(c, 3)

    it('SDK v2: a subscriptions/listen stream hears every tools list_changed caused through the other replicas, once each', async () => {
      const listener = modernClient('L').client
      const actor = modernClient('A').client
      await listener.connect(new Http2026(new URL(c.url())))
      await actor.connect(new Http2026(new URL(c.url())))
      let changed = 0
      listener.setNotificationHandler('notifications/tools/list_changed', () => {
        changed++
      })
      try {
        const from = c.log().length
        const sub = await listener.listen({ toolsListChanged: true })
        const listenedOn = replicasOf(c.log(), 'subscriptions/listen', from)
        expect(listenedOn).toHaveLength(1)
        const triggers = 4
        for (let i = 0; i < triggers; i++) await actor.callTool({ name: 'test_trigger_tool_change', arguments: {} })
        const causedOn = replicasOf(c.log(), 'tools/call', from)
        // the changes were made on the other replicas too, not only the listener's
        expect(causedOn.some((r) => r !== listenedOn[0])).toBe(true)
        await until(() => changed >= triggers, `${triggers} notifications/tools/list_changed`, 30_000)
        // one more change, heard: a duplicate of an earlier one would have come before it
        await actor.callTool({ name: 'test_trigger_tool_change', arguments: {} })
        await until(() => changed >= triggers + 1, 'the last notifications/tools/list_changed', 30_000)
        await sub.close()
        expect(changed).toBe(triggers + 1)
      } finally {
        await listener.close().catch(() => {})
        await actor.close().catch(() => {})
      }
    }, 120_000)

    it('tasks (2026-07-28): one created on a replica is polled to its result, another cancelled, through the other replicas', async () => {
      const from = c.log().length
      const done = await post2026(c.url(), 'tools/call', { name: 'slow_compute', arguments: { seconds: 0.3, label: 'spread' } }, 'slow_compute')
      expect(done.body.result).toMatchObject({ resultType: 'task', status: 'working' })
      const doneId = done.body.result.taskId as string
      let task = (await post2026(c.url(), 'tasks/get', { taskId: doneId }, doneId)).body.result
      // polled as a client polls (pollIntervalMs 200), bounded
      for (let i = 0; i < 150 && task.status === 'working'; i++) {
        await new Promise((r) => setTimeout(r, 100))
        task = (await post2026(c.url(), 'tasks/get', { taskId: doneId }, doneId)).body.result
      }
      expect(task).toMatchObject({ resultType: 'complete', status: 'completed' })
      expect(JSON.stringify(task.result.content)).toContain('spread')
      const long = await post2026(c.url(), 'tools/call', { name: 'slow_compute', arguments: { seconds: 60, label: 'never' } }, 'slow_compute')
      const longId = long.body.result.taskId as string
      expect((await post2026(c.url(), 'tasks/get', { taskId: longId }, longId)).body.result.status).toBe('working')
      const cancelled = await post2026(c.url(), 'tasks/cancel', { taskId: longId }, longId)
      expect(cancelled.body.result?.resultType).toBe('complete')
      let status = ''
      for (let i = 0; i < 150 && status !== 'cancelled'; i++) {
        if (i > 0) await new Promise((r) => setTimeout(r, 100))
        status = (await post2026(c.url(), 'tasks/get', { taskId: longId }, longId)).body.result.status as string
      }
      expect(status).toBe('cancelled')
      // the gets and the cancel went to replicas other than the ones that created the tasks
      const calls = replicasOf(c.log(), 'tools/call', from)
      const others = [...replicasOf(c.log(), 'tasks/get', from), ...replicasOf(c.log(), 'tasks/cancel', from)]
      expect(calls).toHaveLength(2)
      expect(others.some((r) => r !== calls[0])).toBe(true)
      expect(others.some((r) => r !== calls[1])).toBe(true)
    }, 60_000)
  })

  describe.runIf(store !== undefined)(`two everything processes on ${backend}, different ports, one client in turn`, () => {
    const c = cluster(store as string, 2)
    sessionTests(c, 2)
  })
}
