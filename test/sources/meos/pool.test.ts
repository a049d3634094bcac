/**
 * Crash isolation in the real libmeos: a MEOS call that calls exit(1) (`tbool_in` of
 * 't@notadate', from PostgreSQL's timestamp parser) or crashes (`geo_from_text` of 'a',
 * SIGSEGV) ends only its worker; the call answers isError naming what happened, the worker
 * is replaced, calls in flight on the other worker are unaffected, and the next call works.
 * A call past its deadline has its worker ended the same way.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { inMemoryClient, type CallToolResult } from 'emcp'
import { meosServer, type MeosServer } from 'emcp/meos'
import { libraryPath, meosData, skipMeos } from '../../support/meos.js'

const texts = (r: CallToolResult): string => r.content.map((b) => (b.type === 'text' ? b.text : '')).join('\n')
const seq = '{t@2000-01-01, f@2000-01-03, t@2000-01-05}'

describe.skipIf(skipMeos)('crash isolation', () => {
  let meos: MeosServer
  let client: ReturnType<typeof inMemoryClient>
  beforeAll(async () => {
    meos = await meosServer({ library: libraryPath(), manifest: meosData.manifest, catalog: meosData.catalog, workers: 2, categories: ['io', 'accessor'] })
    client = inMemoryClient(meos.server)
  })
  afterAll(async () => {
    await meos?.close()
  })

  it('answers an exit(1) in MEOS with isError naming the exit code and MEOS last words, then serves the next call', async () => {
    const before = meos.pool.started()
    const r = await client.callResult('tbool_in', { str: 't@notadate' })
    expect(r.isError).toBe(true)
    expect(texts(r)).toBe('the MEOS call ended its worker: exit code 1 (invalid input syntax for type timestamp with time zone: "notadate"); the worker was restarted')
    expect((await client.callResult('temporal_num_instants', { temp: seq })).structuredContent).toEqual({ result: 3 })
    expect(meos.pool.started()).toBe(before + 1)
  })

  it('answers a SIGSEGV with isError naming the signal, then serves the next call', async () => {
    const r = await client.callResult('geo_from_text', { wkt: 'a', srid: 0 })
    expect(r.isError).toBe(true)
    expect(texts(r)).toMatch(/^the MEOS call ended its worker: SIGSEGV( \(.*\))?; the worker was restarted$/)
    expect((await client.callResult('tbool_in', { str: 't@2000-01-01' })).structuredContent).toEqual({ result: 't@2000-01-01 00:00:00+00' })
  })

  it('leaves the calls in flight on the other worker unaffected, and keeps as many workers', async () => {
    const good = Array.from({ length: 40 }, (_, i) => client.callResult('temporal_num_instants', { temp: `{t@2000-01-01, f@2000-01-0${(i % 8) + 2}}` }))
    const crashes = [client.callResult('tbool_in', { str: 't@notadate' }), client.callResult('pg_interval_in', { str: 'xyz', typmod: -1 })]
    const answers = await Promise.all(good)
    for (const a of answers) expect(a.structuredContent).toEqual({ result: 2 })
    for (const c of await Promise.all(crashes)) expect(texts(c)).toMatch(/^the MEOS call ended its worker: exit code 1 \(.+\); the worker was restarted$/)
    expect((await client.callResult('temporal_num_instants', { temp: seq })).structuredContent).toEqual({ result: 3 })
    expect(meos.pool.pids()).toHaveLength(2)
  })
})

describe.skipIf(skipMeos)('the per-call deadline', () => {
  it('ends a worker whose call runs past it, says so, and the next call works', async () => {
    // a 20 ms deadline against a call that reads two 40 000-instant sequences (a few hundred ms, more on a loaded machine)
    const meos = await meosServer({ library: libraryPath(), manifest: meosData.manifest, catalog: meosData.catalog, workers: 1, timeoutMs: 20, categories: ['io', 'transformation'] })
    try {
      const client = inMemoryClient(meos.server)
      const ts = (i: number): string => new Date(Date.UTC(2000, 0, 1) + i * 1000).toISOString().replace('T', ' ').replace('.000Z', '+00')
      const long = `[${Array.from({ length: 40_000 }, (_, i) => `Point(${i % 1000} ${i % 37})@${ts(i)}`).join(',')}]`
      const r = await client.callResult('temporal_hausdorff_distance', { temp1: long, temp2: long })
      expect(texts(r)).toBe('the MEOS call did not finish within 20 ms: its worker was ended (SIGKILL) and restarted')
      expect(meos.pool.started()).toBe(2)
      // the next call on the new worker works: a small one finishes inside the deadline (on a
      // loaded machine even its round trip may not, so it gets three tries, each a new worker)
      let next = await client.callResult('tbool_in', { str: 't@2000-01-01' })
      for (let i = 0; i < 2 && next.isError === true; i++) next = await client.callResult('tbool_in', { str: 't@2000-01-01' })
      expect(next.structuredContent).toEqual({ result: 't@2000-01-01 00:00:00+00' })
    } finally {
      await meos.close()
    }
  })
})

describe.skipIf(skipMeos)('worker recycling', () => {
  it('replaces a worker after its share of calls, and every call is answered', async () => {
    const meos = await meosServer({ library: libraryPath(), manifest: meosData.manifest, catalog: meosData.catalog, workers: 1, recycleAfter: 3, categories: ['accessor'] })
    try {
      const client = inMemoryClient(meos.server)
      for (let i = 0; i < 7; i++) expect((await client.callResult('temporal_num_instants', { temp: seq })).structuredContent).toEqual({ result: 3 })
      // the first worker served 3 calls, the second 3, the third serves the seventh
      expect(meos.pool.started()).toBe(3)
    } finally {
      await meos.close()
    }
  })
})
