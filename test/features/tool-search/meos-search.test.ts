/**
 * Tool search on the real MEOS catalog (1650 tools, MobilityDB 1.3): the generated manifest
 * (../shared/meos/meos-mcp.json beside the repository, read where it is) served by the
 * manifest source, searched through the official SDK clients of both eras over HTTP. It
 * prints the recall@5 of the right tool for 50 natural-language queries written from MEOS's
 * documentation (meos-queries.json), and the size of the `tools/list` result with and
 * without search mode. Without the data the test says so and skips, except under CI=true.
 */
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { Client as Client2026, StreamableHTTPClientTransport as Http2026 } from '@modelcontextprotocol/client'
import { Client as Client2025 } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport as Http2025 } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import * as E from 'fp-ts/lib/Either.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as z from 'zod/v4'
import { toolError, wireCodec, type Server } from 'emcp'
import { serveHttp, type RunningHttp } from 'emcp/http'
import { serverOfManifest } from 'emcp/manifest'
import { root } from '../../interop/children.js'

const manifestPath = join(root, '..', 'shared', 'meos', 'meos-mcp.json')
const present = existsSync(manifestPath)
if (!present && process.env.CI === 'true') throw new Error(`the MEOS manifest is missing at ${manifestPath}; CI needs it`)
if (!present) console.warn(`\n*** MEOS SEARCH TESTS SKIPPED: no MEOS manifest at ${manifestPath} ***\n`)

interface Query {
  readonly query: string
  readonly tool: string
}
const queries = (JSON.parse(readFileSync(join(root, 'test', 'features', 'tool-search', 'meos-queries.json'), 'utf8')) as { queries: ReadonlyArray<Query> }).queries

/** The manifest's entries, as far as these tests read them. */
interface Entry {
  readonly name: string
  readonly 'x-meos'?: { readonly decode?: { readonly [argument: string]: string }; readonly encode?: string }
}

/** The MEOS manifest served by the manifest source: strings pass through its codecs, and each tool says it needs libmeos. */
const meosServer = (): Server => {
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { tools: ReadonlyArray<Entry> }
  const names = new Set(manifest.tools.flatMap((t) => [...Object.values(t['x-meos']?.decode ?? {}), ...(t['x-meos']?.encode === undefined ? [] : [t['x-meos'].encode])]))
  const codecs = Object.fromEntries(
    [...names].map((name) => [name, wireCodec({ name, description: 'A serialized MEOS value.', is: (u): u is string => typeof u === 'string', decode: (s) => E.right(s), encode: (s) => s })]),
  )
  const handlers = Object.fromEntries(manifest.tools.map((t) => [t.name, () => toolError(`${t.name} runs in libmeos: serve the catalog with emcp meos`)]))
  const built = serverOfManifest(manifest, handlers, { codecs, toolSearch: true })
  if (E.isLeft(built)) throw new Error(`the MEOS manifest does not load: ${JSON.stringify(built.left.slice(0, 3))}`)
  return built.right
}

const anyList = z.looseObject({ tools: z.array(z.looseObject({ name: z.string() })) })

describe.skipIf(!present)('tool search on the MEOS catalog', () => {
  let server: Server
  let running: RunningHttp
  beforeAll(async () => {
    server = meosServer()
    running = await serveHttp(server, { port: 0 })
  })
  afterAll(async () => {
    await running?.close()
  })

  it('prints the tools/list size with and without search mode, and lists only the gateways in search mode', async () => {
    const client = new Client2025({ name: 'size', version: '1' })
    await client.connect(new Http2025(new URL(running.url)))
    try {
      const searching = await client.request({ method: 'tools/list', params: {} }, anyList)
      expect(searching.tools.map((t) => t.name)).toEqual(['search_tools', 'call_tool'])
      server.setToolSearch(false)
      const whole = await client.request({ method: 'tools/list', params: {} }, anyList)
      server.setToolSearch(true)
      expect(whole.tools).toHaveLength(1650)
      const with_ = Buffer.byteLength(JSON.stringify(searching))
      const without = Buffer.byteLength(JSON.stringify(whole))
      console.log(`MEOS tools/list result: ${without} bytes for 1650 tools; ${with_} bytes in search mode (${(without / with_).toFixed(0)}x smaller)`)
      expect(with_).toBeLessThan(5000)
      expect(without).toBeGreaterThan(1_000_000)
    } finally {
      await client.close()
    }
  })

  /** The recall@5 of `search` over the queries, printed with the misses. */
  const recall = async (label: string, search: (query: string) => Promise<ReadonlyArray<string>>): Promise<number> => {
    const misses: string[] = []
    for (const { query, tool } of queries) {
      const names = await search(query)
      expect(names.length).toBeLessThanOrEqual(5)
      if (!names.includes(tool)) misses.push(`  "${query}": wanted ${tool}, got ${names.join(', ')}`)
    }
    const r = (queries.length - misses.length) / queries.length
    console.log(`MEOS search recall@5 (${label}): ${r.toFixed(2)} (${queries.length - misses.length}/${queries.length})${misses.length > 0 ? `; misses:\n${misses.join('\n')}` : ''}`)
    return r
  }

  it('has 50 queries, each naming a tool of the catalog', () => {
    expect(queries).toHaveLength(50)
    const names = new Set(server.tools.map((t) => t.name))
    expect(queries.filter((q) => !names.has(q.tool))).toEqual([])
    expect(new Set(queries.map((q) => q.query)).size).toBe(50)
  })

  it('finds the right tool in the first five for at least 80% of the queries, through the 1.32.2 client (2025-11-25)', async () => {
    const client = new Client2025({ name: 'recall', version: '1' })
    await client.connect(new Http2025(new URL(running.url)))
    try {
      const r = await recall('SDK 1.32.2, 2025-11-25', async (query) => {
        const res = await client.callTool({ name: 'search_tools', arguments: { query, limit: 5 } })
        expect(res.isError).toBeFalsy()
        return (res.structuredContent as { tools: Array<{ name: string }> }).tools.map((t) => t.name)
      })
      expect(r).toBeGreaterThanOrEqual(0.8)
      const first = await client.callTool({ name: 'search_tools', arguments: { query: 'number of instants', limit: 1 } })
      expect((first.structuredContent as { tools: Array<{ name: string }> }).tools[0]?.name).toBe('temporal_num_instants')
    } finally {
      await client.close()
    }
  })

  it('answers the same ranking through the 2.4.0 client (2026-07-28), and call_tool reaches a MEOS tool with its own schema', async () => {
    const client = new Client2026({ name: 'recall', version: '1' }, { versionNegotiation: { mode: 'auto' } })
    await client.connect(new Http2026(new URL(running.url)))
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28')
      const r = await recall('SDK 2.4.0, 2026-07-28', async (query) => {
        const res = await client.callTool({ name: 'search_tools', arguments: { query, limit: 5 } })
        return (res.structuredContent as { tools: Array<{ name: string }> }).tools.map((t) => t.name)
      })
      expect(r).toBeGreaterThanOrEqual(0.8)
      const invalid = await client.callTool({ name: 'call_tool', arguments: { name: 'temporal_num_instants', arguments: { temporal: '{t@2000-01-01}' } } })
      expect(invalid.isError).toBe(true)
      expect(JSON.stringify(invalid.content)).toMatch(/Invalid arguments for tool temporal_num_instants: /)
      const reached = await client.callTool({ name: 'call_tool', arguments: { name: 'temporal_num_instants', arguments: { temp: '{t@2000-01-01}' } } })
      expect(JSON.stringify(reached.content)).toMatch(/temporal_num_instants runs in libmeos/)
      const typo = await client.callTool({ name: 'call_tool', arguments: { name: 'temporal_num_instant' } })
      expect(JSON.stringify(typo.content)).toMatch(/no tool is named temporal_num_instant; the nearest: temporal_num_instants/)
    } finally {
      await client.close()
    }
  })
})
