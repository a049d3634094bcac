/**
 * Tasks belong to the principal that created them, on every replica: two servers behind
 * `oauth()` (real tokens from a scripted issuer, real sockets, Node's `http` client and
 * `fetch`) over one shared store (memory; Redis and PostgreSQL when EMCP_TEST_REDIS_URL /
 * EMCP_TEST_DATABASE_URL are set). Alice's task asks "delete all data?"; Bob, with his own
 * valid token and her task id, gets from tasks/get, tasks/update and tasks/cancel exactly the
 * answer an id that never existed gets, on either replica, and nothing of hers runs, ends or
 * changes; his subscriptions/listen stream never hears her notifications/tasks. Alice, on
 * either replica, still reads, answers and hears her task.
 */
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { emcp, mcpServer, tasks, type Server, type SharedStore } from '../../../src/index.js'
import { oauth } from '../../../src/auth/index.js'
import { serveHttp, type RunningHttp } from '../../../src/transport/http.js'
import { issuerWithTokens, type Issuer } from '../../support/issuer.js'
import { modernClient, type Via } from '../../support/modern-client.js'
import { onReplicaBackends } from '../../support/replica-backends.js'

const audience = 'http://127.0.0.1/owner-test/mcp'
const purge = emcp({ name: 'purge', description: 'Deletes all data, once the user confirms.', input: { type: 'object' }, taskSupport: 'required' })
const slow = emcp({ name: 'slow', description: 'Runs until cancelled.', input: { type: 'object' }, taskSupport: 'required' })
const noop = emcp({ name: 'noop', description: 'Does nothing.', input: { type: 'object' } })

/** Who purged (the subject of the caller whose task ran), and which slow tasks were aborted. */
const purged: string[] = []

/** One replica: its own server and tasks feature over the shared store. */
const replica = (store: SharedStore): Server =>
  mcpServer([purge, slow, noop], { name: 'owner', version: '1' }, { store, features: [tasks({ ttlMs: 600_000 })] }).implement({
    purge: async (_args, ctx) => {
      // a wait on something else first: the call becomes a task, and the question its inputRequests
      await new Promise((resolve) => setImmediate(resolve))
      const r = await ctx.elicit({ message: 'Delete all data?', requestedSchema: { type: 'object', properties: { sure: { type: 'boolean' } }, required: ['sure'] } })
      if (r.action !== 'accept') return 'kept'
      purged.push(String(ctx.session.identity?.subject))
      return 'purged'
    },
    slow: (_args, ctx) => new Promise<string>((_resolve, reject) => ctx.signal.addEventListener('abort', () => reject(new Error('cancelled')), { once: true })),
    noop: () => 'ok',
  }) as unknown as Server

let iss: Issuer
let tokens: Record<'alice' | 'bob', string>
beforeAll(async () => {
  ;({ iss, tokens } = await issuerWithTokens({ alice: { sub: 'alice', aud: audience, scope: 'data' }, bob: { sub: 'bob', aud: audience, scope: 'data' } }))
})
afterAll(() => iss.close())

/** An answer with the task id in its message made generic, to compare with another id's. */
const shape = (r: { status: number; body: any }, taskId: string) => ({
  status: r.status,
  error: r.body?.error === undefined ? undefined : { ...r.body.error, message: String(r.body.error.message).replaceAll(taskId, 'ID') },
  result: r.body?.result,
})

const ownership = (name: string, makeStores: () => Promise<[SharedStore, SharedStore]>, cleanUp: () => Promise<void> = async () => {}) =>
  describe(`tasks belong to their creator (${name})`, () => {
    let stores: [SharedStore, SharedStore]
    let a: Server
    let httpA: RunningHttp
    let httpB: RunningHttp
    beforeAll(async () => {
      stores = await makeStores()
      a = replica(stores[0])
      const auth = oauth({ issuer: iss.issuer, audience })
      httpA = await serveHttp(a, { port: 0, handleSignals: false, auth })
      httpB = await serveHttp(replica(stores[1]), { port: 0, handleSignals: false, auth })
    })
    afterAll(async () => {
      await httpA.close()
      await httpB.close()
      for (const s of new Set(stores)) await s.close()
      await cleanUp()
    })

    for (const via of ['http', 'fetch'] as const satisfies ReadonlyArray<Via>) {
      it(`Bob cannot read, answer or cancel Alice's task on either replica: the unknown-task answer (${via})`, async () => {
        const alice = { a: modernClient(httpA.url, via, tokens.alice), b: modernClient(httpB.url, via, tokens.alice) }
        const bob = { a: modernClient(httpA.url, via, tokens.bob), b: modernClient(httpB.url, via, tokens.bob) }
        const created = await alice.a.rpc('tools/call', { name: 'purge', arguments: {} })
        expect(created.body.result).toMatchObject({ resultType: 'task' })
        const taskId = created.body.result.taskId as string
        let asked: any
        await vi.waitFor(
          async () => {
            asked = (await alice.b.rpc('tasks/get', { taskId })).body.result
            expect(asked?.status).toBe('input_required')
          },
          { timeout: 20_000, interval: 10 },
        )
        const key = Object.keys(asked.inputRequests)[0] as string
        expect(asked.inputRequests[key]).toMatchObject({ method: 'elicitation/create', params: { message: 'Delete all data?' } })
        const yes = { [key]: { action: 'accept', content: { sure: true } } }

        const missing = randomUUID()
        for (const [method, params] of [
          ['tasks/get', {}],
          ['tasks/update', { inputResponses: yes }],
          ['tasks/cancel', {}],
        ] as const) {
          const unknown = shape(await bob.a.rpc(method, { ...params, taskId: missing }), missing)
          expect(unknown.error).toMatchObject({ code: -32602 })
          for (const client of [bob.a, bob.b]) expect(shape(await client.rpc(method, { ...params, taskId }), taskId)).toEqual(unknown)
        }
        // nothing of Bob's reached the task: it still waits for Alice's answer, on both replicas
        expect(purged).toEqual([])
        for (const client of [alice.a, alice.b]) expect((await client.rpc('tasks/get', { taskId })).body.result).toMatchObject({ status: 'input_required', inputRequests: asked.inputRequests })

        // Alice answers on the other replica; her task runs
        expect((await alice.b.rpc('tasks/update', { taskId, inputResponses: yes })).body.result).toMatchObject({ resultType: 'complete' })
        await vi.waitFor(
          async () => expect((await alice.a.rpc('tasks/get', { taskId })).body.result).toMatchObject({ status: 'completed', result: { content: [{ type: 'text', text: 'purged' }] } }),
          { timeout: 20_000, interval: 10 },
        )
        expect(purged).toEqual(['alice'])
        purged.length = 0
        // ended or not, the task stays Alice's
        expect(shape(await bob.b.rpc('tasks/get', { taskId }), taskId)).toEqual(shape(await bob.b.rpc('tasks/get', { taskId: missing }), missing))
      })

      it(`Bob's listen stream never hears Alice's notifications/tasks, on either replica (${via})`, async () => {
        const created = await modernClient(httpA.url, via, tokens.alice).rpc('tools/call', { name: 'slow', arguments: {} })
        const taskId = created.body.result.taskId as string
        const filter = { taskIds: [taskId], toolsListChanged: true }
        const streams = {
          aliceOnA: await modernClient(httpA.url, via, tokens.alice).listen(filter),
          aliceOnB: await modernClient(httpB.url, via, tokens.alice).listen(filter),
          bobOnA: await modernClient(httpA.url, via, tokens.bob).listen(filter),
          bobOnB: await modernClient(httpB.url, via, tokens.bob).listen(filter),
        }
        const acknowledged = (m: any) => m.method === 'notifications/subscriptions/acknowledged'
        for (const s of Object.values(streams)) {
          expect(s.status).toBe(200)
          // the acknowledgement is the one an unknown id gets: the filter as asked
          expect((await s.until(acknowledged)).find(acknowledged).params.notifications).toEqual(filter)
        }
        // the task changes; once Alice heard it on both replicas, the tool list changes: each
        // replica hands a notification to all its streams at once, so by the list_changed on
        // Bob's streams, any notifications/tasks for them would have come before it
        expect((await modernClient(httpA.url, via, tokens.alice).rpc('tasks/cancel', { taskId })).body.result).toMatchObject({ resultType: 'complete' })
        const taskNote = (m: any) => m.method === 'notifications/tasks'
        await Promise.all([streams.aliceOnA.until(taskNote), streams.aliceOnB.until(taskNote)])
        a.disableTool('noop')
        a.enableTool('noop')
        const listChanged = (m: any) => m.method === 'notifications/tools/list_changed'
        const [aliceOnA, aliceOnB, bobOnA, bobOnB] = await Promise.all([streams.aliceOnA, streams.aliceOnB, streams.bobOnA, streams.bobOnB].map((s) => s.until(listChanged)))
        const heard = { aliceOnA: aliceOnA ?? [], aliceOnB: aliceOnB ?? [], bobOnA: bobOnA ?? [], bobOnB: bobOnB ?? [] }
        for (const s of Object.values(streams)) s.close()
        const taskNotes = (seen: any[]) => seen.filter((m) => m.method === 'notifications/tasks')
        for (const seen of [heard.aliceOnA, heard.aliceOnB]) expect(taskNotes(seen)).toEqual([expect.objectContaining({ params: expect.objectContaining({ taskId, status: 'cancelled' }) })])
        expect(taskNotes(heard.bobOnA)).toEqual([])
        expect(taskNotes(heard.bobOnB)).toEqual([])
        // the notification carries no owner
        expect(taskNotes(heard.aliceOnB)[0].params).not.toHaveProperty('owner')
      })
    }

    it('a stream names at most 1000 task ids: past it, -32602 naming the limit', async () => {
      const many = Array.from({ length: 1001 }, () => randomUUID())
      const refused = await modernClient(httpB.url, 'fetch', tokens.bob).rpc('subscriptions/listen', { notifications: { taskIds: many } })
      expect(refused.body.error).toMatchObject({ code: -32602, message: expect.stringContaining('at most 1000 per stream') })
    })

    it('the shared store holds each task with its owner, not the subject in clear', async () => {
      const created = await modernClient(httpA.url, 'fetch', tokens.alice).rpc('tools/call', { name: 'slow', arguments: {} })
      const taskId = created.body.result.taskId as string
      const record = await stores[1].tasks.get(taskId)
      expect(record?.owner).toMatch(/^u:[\w-]{43}$/)
      expect(JSON.stringify(record)).not.toContain('alice')
      await modernClient(httpA.url, 'fetch', tokens.alice).rpc('tasks/cancel', { taskId })
    })
  })

onReplicaBackends('task ownership tests', ownership)
