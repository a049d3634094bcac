/**
 * The shared store goes down under replica processes, and comes back: two everything
 * processes on a Redis, then on a PostgreSQL, that this test starts for itself (so that it
 * can stop them), driven over HTTP as clients drive them.
 *
 * While the store is down, what needs it (a 2025-11-25 initialize, a request for a session the
 * replica does not hold, a tasks/get of a task another replica runs) is answered 503 with
 * -32004 and a message that names what failed, within the store call's bound (no request
 * hangs); a stateless 2026-07-28 call that needs no shared state is answered as usual. When
 * the store is back on the same address, the replicas use it again by themselves: no restart.
 */
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { existsSync, readdirSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { example, freePort, root, stop, texts, type Listening } from './children.js'
import { namespace, post2026, spawnReplica } from './replica-cluster.js'

/** A store server this test may stop and start again on the same address. */
interface Own {
  readonly url: string
  readonly down: () => Promise<void>
  readonly up: () => Promise<void>
  readonly dispose: () => Promise<void>
}

/** A redis-server of this test's own, without persistence. */
const ownRedis = async (): Promise<Own> => {
  const port = await freePort()
  let child: ChildProcess | undefined
  const up = (): Promise<void> =>
    new Promise((resolve, reject) => {
      const c = spawn('redis-server', ['--bind', '127.0.0.1', '--port', String(port), '--save', '', '--appendonly', 'no'], { stdio: ['ignore', 'pipe', 'ignore'] })
      child = c
      let out = ''
      c.stdout?.on('data', (d: Buffer) => {
        out += d.toString()
        if (out.includes('Ready to accept connections')) resolve()
      })
      c.once('error', reject)
      c.once('exit', (code) => reject(new Error(`redis-server exited with ${code}: ${out.slice(-500)}`)))
    })
  const down = (): Promise<void> =>
    new Promise((resolve) => {
      const c = child
      if (c === undefined || c.exitCode !== null || c.signalCode !== null) return resolve()
      c.once('exit', () => resolve())
      c.kill('SIGKILL')
    })
  await up()
  return { url: `redis://127.0.0.1:${port}`, up, down, dispose: down }
}

const pgBin = (): string | undefined => {
  const base = '/usr/lib/postgresql'
  if (!existsSync(base)) return undefined
  const bin = readdirSync(base).sort((a, b) => Number(b) - Number(a)).map((v) => `${base}/${v}/bin`).find((d) => existsSync(`${d}/pg_ctl`))
  return bin
}

/** A PostgreSQL server of this test's own (.ci/postgres), stopped and started with pg_ctl on the same port. */
const ownPostgres = async (): Promise<Own> => {
  const line = execFileSync(`${root}.ci/postgres`, ['start'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim().split('\n').pop() as string
  const [dir, url] = line.split(' ') as [string, string]
  const port = new URL(url).port
  const ctl = (args: string): void => void execFileSync('su', ['postgres', '-s', '/bin/sh', '-c', `${pgBin() as string}/pg_ctl -D ${dir}/data ${args}`], { stdio: 'ignore' })
  return {
    url,
    down: async () => ctl('-m immediate -w stop'),
    up: async () => ctl(`-l ${dir}/log -w -o "-c listen_addresses=127.0.0.1 -c port=${port} -c unix_socket_directories=${dir} -c fsync=off" start`),
    dispose: async () => void execFileSync(`${root}.ci/postgres`, ['stop', dir], { stdio: 'ignore' }),
  }
}

const canRedis = spawnSync('redis-server', ['--version']).status === 0
const canPostgres = pgBin() !== undefined && spawnSync('id', ['-un'], { encoding: 'utf8' }).stdout.trim() === 'root'
if (!canRedis) console.warn('store-down tests on redis SKIPPED: no redis-server (.ci/redis installs it)')
if (!canPostgres) console.warn('store-down tests on postgres SKIPPED: needs PostgreSQL binaries and root to run pg_ctl as postgres (.ci/postgres installs them)')

const initialize = (url: string) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'store-down', version: '1' } } }),
    // far past the store call's bound (5 s): a request that hangs fails the test here
    signal: AbortSignal.timeout(20_000),
  })

const ping = (url: string, sessionId: string) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' }),
    signal: AbortSignal.timeout(20_000),
  })

const storeDown = /^Service Unavailable: the shared store failed \(.+\): .+; try again later$/

for (const [backend, can, make] of [['redis', canRedis, ownRedis], ['postgres', canPostgres, ownPostgres]] as const) {
  describe.runIf(can)(`two everything processes on a ${backend} that goes down and comes back`, () => {
    let own: Own
    const replicas: Listening[] = []
    beforeAll(async () => {
      own = await make()
      const ns = namespace()
      for (let i = 0; i < 2; i++) replicas.push(await spawnReplica(own.url, ns))
    }, 180_000)
    afterAll(async () => {
      await Promise.all(replicas.map((r) => stop(r.child, r.exited, 'SIGKILL')))
      await own?.dispose()
    })

    it('while down: 503 with -32004 for what needs the store, within its bound; stateless 2026 calls go on; back: served again without a restart', async () => {
      const [a, b] = replicas as [Listening, Listening]
      // a session opened on A by the official client, while the store is up
      const client = new Client({ name: 'store-down', version: '0.0.0' })
      const transport = new StreamableHTTPClientTransport(new URL(a.url))
      await client.connect(transport)
      const sessionId = transport.sessionId as string
      expect((await ping(b.url, sessionId)).status).toBe(200)
      const store = { up: true }
      try {
        await own.down()
        store.up = false
        // what needs the store: a new session, a session B would read from the store
        const init = await initialize(b.url)
        expect(init.status).toBe(503)
        expect(init.headers.get('retry-after')).toBe('1')
        expect((await init.json()).error).toMatchObject({ code: -32004, message: expect.stringMatching(storeDown) })
        const other = await ping(a.url, 'a-session-no-replica-holds')
        expect(other.status).toBe(503)
        const task = await post2026(b.url, 'tasks/get', { taskId: 'a-task-of-another-replica' }, 'a-task-of-another-replica')
        expect(task.status).toBe(503)
        expect(task.body.error).toMatchObject({ code: -32004, message: expect.stringMatching(/tasks\/get: read the task/) })
        // a stateless 2026-07-28 call needs nothing shared: answered
        const greeted = await post2026(a.url, 'tools/call', { name: 'greet', arguments: { name: 'Ada' } }, 'greet')
        expect(greeted.status).toBe(200)
        expect(texts(greeted.body.result.content)).toEqual(['Hello, Ada!'])

        await own.up()
        store.up = true
        // back on the same address: the replicas reconnect by themselves; a client retries (Retry-After: 1) until served
        let status = 0
        let sid: string | null = null
        for (let i = 0; i < 60 && status !== 200; i++) {
          if (i > 0) await new Promise((r) => setTimeout(r, 500))
          const r = await initialize(b.url)
          status = r.status
          sid = r.headers.get('mcp-session-id')
          await r.body?.cancel()
        }
        expect(status).toBe(200)
        // the new session, opened on B, is served on A through the store
        expect((await ping(a.url, sid as string)).status).toBe(200)
      } finally {
        await client.close().catch(() => undefined)
        if (!store.up) await own.up().catch(() => undefined)
      }
    }, 180_000)
  })
}

describe('a replica process with a bad store or key setting stops at start with one line, exit 1, and nothing secret', () => {
  const start = (env: Record<string, string>) => spawnSync(process.execPath, [example('everything')], { cwd: root, env: { ...process.env, PORT: '0', ...env }, encoding: 'utf8', timeout: 60_000 })

  it('EMCP_REQUEST_STATE_KEYS with an empty item', () => {
    const r = start({ EMCP_REQUEST_STATE_KEYS: 'first key sixteen bytes+,,older key sixteen bytes+' })
    expect(r.status).toBe(1)
    expect(r.stderr.trim()).toBe('everything: emcp: EMCP_REQUEST_STATE_KEYS: item 2 of 3 is empty (two commas in a row, or a comma at an end): put the missing key back or remove the comma')
    expect(r.stderr).not.toContain('sixteen')
  })

  it('EMCP_STORE of a scheme no backend serves', () => {
    const r = start({ EMCP_STORE: 'mysql://user:secret@db/x' })
    expect(r.status).toBe(1)
    expect(r.stderr.trim()).toMatch(/^everything: EMCP_STORE must be a redis:\/\/, rediss:\/\/, postgres:\/\/ or postgresql:\/\/ URL/)
    expect(r.stderr).not.toContain('secret')
  })
})
