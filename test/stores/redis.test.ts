/**
 * The Redis store against a real Redis server: the shared conformance suite (every store a
 * fresh key prefix, so each starts empty), then what only a network store must show: it
 * fails fast while the server is down, reconnects and re-subscribes by itself, and says
 * clearly when it cannot connect at all. `.ci/run` starts the server (.ci/redis) and sets
 * EMCP_TEST_REDIS_URL; the fault tests start their own `redis-server` so that they can kill it.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { createServer } from 'node:net'
import { afterAll, describe, expect, it, vi } from 'vitest'
import type { BusMessage, SessionRecord } from '../../src/index.js'
import { redisStore } from '../../src/stores/redis.js'
import { storeConformance } from './conformance.js'

const url = process.env.EMCP_TEST_REDIS_URL
const hasServerBinary = spawnSync('redis-server', ['--version']).status === 0
if (url === undefined) console.warn('redis store tests SKIPPED: set EMCP_TEST_REDIS_URL (.ci/redis start prints one; .ci/run does it)')

describe.runIf(url !== undefined)('redis store', () => {
  storeConformance('redis', (limits) => redisStore({ url: url as string, prefix: `emcp-test:${randomUUID()}:`, events: limits }))
})

const record = (id: string): SessionRecord => ({
  id,
  owner: `o-${id}`,
  protocolVersion: '2025-11-25',
  clientInfo: { name: 'c', version: '1' },
  clientCapabilities: {},
  initialized: true,
  identity: undefined,
  logLevel: undefined,
  subscriptions: [],
})

/** A free port on 127.0.0.1. */
const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const s = createServer()
    s.once('error', reject)
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number }
      s.close(() => resolve(port))
    })
  })

/** A redis-server of this test's own on `port`, ready when it resolves. */
const startRedis = (port: number): Promise<ChildProcess> =>
  new Promise((resolve, reject) => {
    const child = spawn('redis-server', ['--bind', '127.0.0.1', '--port', String(port), '--save', '', '--appendonly', 'no'], { stdio: ['ignore', 'pipe', 'inherit'] })
    let out = ''
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString()
      if (out.includes('Ready to accept connections')) resolve(child)
    })
    child.once('error', reject)
    child.once('exit', (code) => reject(new Error(`redis-server exited with ${code}: ${out.slice(-500)}`)))
  })

const stopRedis = (child: ChildProcess): Promise<void> =>
  new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve()
    child.once('exit', () => resolve())
    child.kill('SIGKILL')
  })

describe.runIf(hasServerBinary)('redis store: faults', () => {
  const children: ChildProcess[] = []
  afterAll(async () => {
    for (const c of children) await stopRedis(c)
  })

  it('refuses at once while Redis is down, then reconnects and re-subscribes by itself', async () => {
    const port = await freePort()
    const first = await startRedis(port)
    children.push(first)
    const store = await redisStore({ url: `redis://127.0.0.1:${port}`, prefix: 'faults:' })
    try {
      const heard: BusMessage[] = []
      await store.bus.subscribe('emcp:x', (m) => heard.push(m))
      await store.sessions.put(record('a'), 60_000)
      await store.bus.publish('emcp:x', 'before')
      await vi.waitFor(() => expect(heard).toEqual(['before']), { timeout: 10_000, interval: 10 })

      await stopRedis(first)
      // no queueing while disconnected: a call fails instead of waiting for a server that may never come back
      await vi.waitFor(async () => expect(await store.sessions.get('a').then(() => 'answered', (e: unknown) => String(e))).not.toBe('answered'), { timeout: 10_000, interval: 20 })

      const second = await startRedis(port)
      children.push(second)
      // back by itself (the data went with the old server: this one keeps nothing on disk)
      await vi.waitFor(async () => expect(await store.sessions.get('a')).toBeUndefined(), { timeout: 15_000, interval: 50 })
      await store.sessions.put(record('b'), 60_000)
      expect(await store.sessions.get('b')).toEqual(record('b'))
      // the subscription came back with the connection
      await vi.waitFor(
        async () => {
          await store.bus.publish('emcp:x', 'after')
          expect(heard).toContain('after')
        },
        { timeout: 15_000, interval: 100 },
      )
    } finally {
      await store.close()
    }
  })

  it('says which server it could not reach, without its password, within the connect timeout', async () => {
    const port = await freePort()
    await expect(redisStore({ url: `redis://user:secret@127.0.0.1:${port}`, connectTimeoutMs: 1000 })).rejects.toThrow(
      new RegExp(`^cannot reach Redis at redis://user:\\*\\*\\*@127\\.0\\.0\\.1:${port}`),
    )
  })
})
