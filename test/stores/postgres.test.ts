/**
 * The PostgreSQL store against a real PostgreSQL server: the shared conformance suite (every
 * store in a schema of its own, so each starts empty), the migration run twice and at once,
 * a bus message too large for a NOTIFY payload, and the listening connection cut under it.
 * `.ci/run` starts the server (.ci/postgres) and sets EMCP_TEST_DATABASE_URL.
 */
import { randomUUID } from 'node:crypto'
import { afterAll, describe, expect, it, vi } from 'vitest'
import type { BusMessage } from '../../src/index.js'
import { postgres } from '../../src/sources/postgres/database.js'
import { postgresStore } from '../../src/stores/postgres.js'
import { storeConformance } from './conformance.js'

const url = process.env.EMCP_TEST_DATABASE_URL
if (url === undefined) console.warn('postgres store tests SKIPPED: set EMCP_TEST_DATABASE_URL (.ci/postgres start prints one; .ci/run does it)')

const schemas: string[] = []
const freshSchema = (): string => {
  const name = `emcp_test_${randomUUID().replace(/-/g, '').slice(0, 16)}`
  schemas.push(name)
  return name
}

// first in this file: pg warns of a query sent while another runs only once a process
describe.runIf(url !== undefined)('postgres store: its listening connection', () => {
  it('subscribes to many channels at once without sending a query while another runs on its listening connection', async () => {
    const store = await postgresStore({ url: url as string, schema: freshSchema() })
    const warnings: string[] = []
    const onWarning = (w: Error): void => void warnings.push(w.message)
    process.on('warning', onWarning)
    try {
      const heard: string[] = []
      const names = ['emcp:w1', 'emcp:w2', 'emcp:w3', 'emcp:w4', 'emcp:w5']
      await Promise.all(names.map((n) => store.bus.subscribe(n, (m) => heard.push(`${n}=${String(m)}`))))
      for (const n of names) await store.bus.publish(n, 'x')
      await vi.waitFor(() => expect(heard).toHaveLength(names.length), { timeout: 10_000, interval: 20 })
      // a warning is emitted on the next tick: by now every one would have been
      await new Promise((r) => setImmediate(r))
      expect(warnings.filter((w) => /already executing a query/.test(w))).toEqual([])
    } finally {
      process.off('warning', onWarning)
      await store.close()
    }
  })
})

describe.runIf(url !== undefined)('postgres store', () => {
  afterAll(async () => {
    const db = await postgres(url as string)
    for (const name of schemas) await db.query(`drop schema if exists "${name}" cascade`)
    await db.close()
  })

  storeConformance('postgres', (limits) => postgresStore({ url: url as string, schema: freshSchema(), events: limits }))

  it('migrates idempotently, and two replicas starting together do not trip over each other', async () => {
    const schema = freshSchema()
    const [a, b] = await Promise.all([postgresStore({ url: url as string, schema }), postgresStore({ url: url as string, schema })])
    const again = await postgresStore({ url: url as string, schema })
    await a.tasks.put({ taskId: 't', status: 'working', createdAt: 'c', lastUpdatedAt: 'u', ttlMs: null }, null)
    expect(await b.tasks.get('t')).toMatchObject({ taskId: 't' })
    expect(await again.tasks.get('t')).toMatchObject({ taskId: 't' })
    await Promise.all([a.close(), b.close(), again.close()])
  })

  it('carries a bus message larger than a NOTIFY payload whole, to every replica', async () => {
    const schema = freshSchema()
    const a = await postgresStore({ url: url as string, schema })
    const b = await postgresStore({ url: url as string, schema })
    try {
      const heard: BusMessage[] = []
      await b.bus.subscribe('emcp:big', (m) => heard.push(m))
      const big = { text: 'x'.repeat(100_000), list: [1, 2, 3] }
      await a.bus.publish('emcp:big', big)
      await a.bus.publish('emcp:big', 'small')
      await vi.waitFor(() => expect(heard).toHaveLength(2), { timeout: 10_000, interval: 20 })
      expect(heard).toContainEqual(big)
      expect(heard).toContain('small')
    } finally {
      await Promise.all([a.close(), b.close()])
    }
  })

  it('listens again by itself when its listening connection is cut', async () => {
    const schema = freshSchema()
    const store = await postgresStore({ url: url as string, schema })
    const admin = await postgres(url as string)
    try {
      const heard: BusMessage[] = []
      await store.bus.subscribe('emcp:cut', (m) => heard.push(m))
      // the store's listening connection (named so that operators can tell it apart): cut
      const cut = await admin.query(`select pg_terminate_backend(pid) as done from pg_stat_activity where application_name = 'emcp-store-listener'`)
      expect(cut.rows.length).toBeGreaterThan(0)
      await vi.waitFor(
        async () => {
          await store.bus.publish('emcp:cut', 'after')
          expect(heard).toContain('after')
        },
        { timeout: 15_000, interval: 100 },
      )
    } finally {
      await store.close()
      await admin.close()
    }
  })
})
