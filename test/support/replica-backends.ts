/**
 * The backends replica tests run on: one memory store shared by both servers, always; two
 * Redis store values on one server when `EMCP_TEST_REDIS_URL` is set; two PostgreSQL store
 * values on one database (a fresh schema, dropped after) when `EMCP_TEST_DATABASE_URL` is set.
 * A backend without its URL is skipped with a warning naming what was skipped.
 *
 * @example
 * import { onReplicaBackends } from '../support/replica-backends.js'
 * onReplicaBackends('replica stream tests', (name, makeStores, cleanUp) => describe(name, () => { ... }))
 */
import { randomUUID } from 'node:crypto'
import { memoryStore, type SharedStore } from '../../src/index.js'
import { postgres } from '../../src/sources/postgres/database.js'
import { postgresStore } from '../../src/stores/postgres.js'
import { redisStore } from '../../src/stores/redis.js'

/** Defines a suite for one backend: its name, how to make the two replicas' stores, what to drop after. */
export type ReplicaSuite = (name: string, makeStores: () => Promise<[SharedStore, SharedStore]>, cleanUp?: () => Promise<void>) => void

/** Calls `suite` for every backend this run can reach; `what` names the tests in the skip warnings. */
export const onReplicaBackends = (what: string, suite: ReplicaSuite): void => {
  suite('one memory store', async () => {
    const s = memoryStore()
    return [s, s]
  })

  const redisUrl = process.env.EMCP_TEST_REDIS_URL
  if (redisUrl !== undefined) {
    const prefix = `emcp-test:${randomUUID()}:`
    suite('two Redis store values', async () => [await redisStore({ url: redisUrl, prefix }), await redisStore({ url: redisUrl, prefix })])
  } else console.warn(`${what} on Redis SKIPPED: set EMCP_TEST_REDIS_URL`)

  const databaseUrl = process.env.EMCP_TEST_DATABASE_URL
  if (databaseUrl !== undefined) {
    const schema = `emcp_test_${randomUUID().replace(/-/g, '').slice(0, 16)}`
    suite(
      'two PostgreSQL store values',
      async () => {
        // the first creates the schema; the second finds it
        const first = await postgresStore({ url: databaseUrl, schema })
        return [first, await postgresStore({ url: databaseUrl, schema })]
      },
      async () => {
        const db = await postgres(databaseUrl)
        await db.query(`drop schema if exists "${schema}" cascade`)
        await db.close()
      },
    )
  } else console.warn(`${what} on PostgreSQL SKIPPED: set EMCP_TEST_DATABASE_URL`)
}
