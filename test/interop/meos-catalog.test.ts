/**
 * The acceptance cases of the MEOS catalog served for real: `emcp meos` (the built
 * executable) over stdio and over Streamable HTTP, calls made in libmeos in worker
 * processes, driven by the official SDK clients (1.x over both transports, 2.x over HTTP),
 * and in tool-search mode (`--search --pin`), where a tool is found and called through call_tool.
 * The cases are the MEOS-API runtime's own documented ones, plus a crash and an exit(1) in
 * one run, each answered with isError and followed by a working call.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Client as Client2, StreamableHTTPClientTransport as Transport2 } from '@modelcontextprotocol/client'
import { connectHttp, connectStdio, root, spawnListening, stop, type Connection, type Listening } from './children.js'
import { libraryPath, meosData, skipMeos } from '../support/meos.js'
import { spawn } from 'node:child_process'
import { join } from 'node:path'

const bin = join(root, 'bin', 'emcp.js')
const seq = '{t@2000-01-01, f@2000-01-03, t@2000-01-05}'
const seqOut = '{t@2000-01-01 00:00:00+00, f@2000-01-03 00:00:00+00, t@2000-01-05 00:00:00+00}'

type Result = { readonly content?: ReadonlyArray<{ readonly type: string; readonly text?: string }>; readonly structuredContent?: unknown; readonly isError?: boolean }
type Call = (name: string, args: Record<string, unknown>) => Promise<Result>
const text = (r: Result): string => (r.content ?? []).map((b) => b.text ?? '').join('\n')

/** The acceptance cases against one way of calling tools. */
const acceptance = (call: () => Call): void => {
  it('temporal_copy gives the sequence back, temporal_num_instants gives 3', async () => {
    expect((await call()('temporal_copy', { temp: seq })).structuredContent).toEqual({ result: seqOut })
    expect((await call()('temporal_num_instants', { temp: seq })).structuredContent).toEqual({ result: 3 })
  })

  it('"garbage" gives an isError with MEOS\'s message, and the server still answers', async () => {
    const r = await call()('temporal_num_instants', { temp: 'garbage' })
    expect(r.isError).toBe(true)
    expect(text(r)).toContain("Missing delimeter character '@': garbage")
    expect((await call()('temporal_num_instants', { temp: seq })).structuredContent).toEqual({ result: 3 })
  })

  it('floatset_value_n of {1.0, 2.5, 3.0} gives 2.5 at 2, and no value at 99', async () => {
    expect((await call()('floatset_value_n', { s: '{1.0, 2.5, 3.0}', n: 2 })).structuredContent).toEqual({ result: 2.5 })
    const none = await call()('floatset_value_n', { s: '{1.0, 2.5, 3.0}', n: 99 })
    expect(none.isError).not.toBe(true)
    expect(none.structuredContent).toEqual({})
  })

  it('geoset_value_n of {Point(1 1), Point(2 2)} gives POINT(1 1) at 1', async () => {
    expect((await call()('geoset_value_n', { s: '{Point(1 1), Point(2 2)}', n: 1 })).structuredContent).toEqual({ result: 'POINT(1 1)' })
  })

  it('temporal_merge_array merges two instants', async () => {
    const r = await call()('temporal_merge_array', { temparr: ['t@2000-01-01', 'f@2000-01-03'] })
    expect(r.structuredContent).toEqual({ result: '{t@2000-01-01 00:00:00+00, f@2000-01-03 00:00:00+00}' })
  })

  it('temporal_sequences gives a JSON array', async () => {
    const r = await call()('temporal_sequences', { temp: '{[t@2000-01-01, f@2000-01-03], [t@2000-01-05]}' })
    expect(r.isError).not.toBe(true)
    expect(JSON.parse(text(r))).toEqual(['[t@2000-01-01 00:00:00+00, f@2000-01-03 00:00:00+00]', '[t@2000-01-05 00:00:00+00]'])
  })

  it('a crash and an exit(1) each give an isError, and the next call is answered', async () => {
    const crash = await call()('geo_from_text', { wkt: 'a', srid: 0 })
    expect(crash.isError).toBe(true)
    expect(text(crash)).toMatch(/^the MEOS call ended its worker: SIGSEGV.*; the worker was restarted$/)
    expect((await call()('temporal_num_instants', { temp: seq })).structuredContent).toEqual({ result: 3 })
    const exit = await call()('tbool_in', { str: 't@notadate' })
    expect(exit.isError).toBe(true)
    expect(text(exit)).toBe('the MEOS call ended its worker: exit code 1 (invalid input syntax for type timestamp with time zone: "notadate"); the worker was restarted')
    expect((await call()('temporal_num_instants', { temp: seq })).structuredContent).toEqual({ result: 3 })
  })
}

const meosArgs = (): string[] => ['meos', '--library', libraryPath(), '--manifest', meosData.manifest, '--catalog', meosData.catalog, '--workers', '2']

describe.skipIf(skipMeos)('emcp meos over stdio, official SDK 1.x client', () => {
  let c: Connection
  beforeAll(async () => {
    c = await connectStdio(bin, [...meosArgs(), '--stdio'])
  })
  afterAll(async () => {
    await c?.dispose()
  })

  it('lists the 1650 tools, with outputSchemas a no-value answer fits', async () => {
    const { tools } = await c.client.listTools()
    expect(tools).toHaveLength(1650)
    expect(tools.find((t) => t.name === 'floatset_value_n')?.outputSchema).toEqual({ type: 'object', properties: { result: { type: 'number' } } })
  })

  acceptance(() => (name, args) => c.client.callTool({ name, arguments: args }) as Promise<Result>)
})

describe.skipIf(skipMeos)('emcp meos --search over stdio, official SDK 1.x client', () => {
  let c: Connection
  beforeAll(async () => {
    c = await connectStdio(bin, [...meosArgs(), '--stdio', '--search', '--pin', 'temporal_copy'])
  })
  afterAll(async () => {
    await c?.dispose()
  })

  it('lists search_tools, call_tool and the pinned temporal_copy only', async () => {
    const { tools } = await c.client.listTools()
    expect(tools.map((t) => t.name)).toEqual(['search_tools', 'call_tool', 'temporal_copy'])
  })

  it('finds temporal_num_instants for "number of instants" and calls it through call_tool', async () => {
    const found = (await c.client.callTool({ name: 'search_tools', arguments: { query: 'number of instants' } })) as Result
    expect(found.isError).not.toBe(true)
    const names = (found.structuredContent as { tools: ReadonlyArray<{ name: string }> }).tools.map((t) => t.name)
    expect(names.slice(0, 3)).toContain('temporal_num_instants')
    const r = (await c.client.callTool({ name: 'call_tool', arguments: { name: 'temporal_num_instants', arguments: { temp: seq } } })) as Result
    expect(r.structuredContent).toEqual({ result: 3 })
    const bad = (await c.client.callTool({ name: 'call_tool', arguments: { name: 'temporal_num_instants', arguments: { temp: 'garbage' } } })) as Result
    expect(bad.isError).toBe(true)
    expect(text(bad)).toContain("Missing delimeter character '@': garbage")
  })

  it('calls the pinned temporal_copy directly', async () => {
    expect((await c.client.callTool({ name: 'temporal_copy', arguments: { temp: seq } })).structuredContent).toEqual({ result: seqOut })
  })
})

describe.skipIf(skipMeos)('emcp meos over HTTP, official SDK 1.x client', () => {
  let c: Connection
  beforeAll(async () => {
    c = await connectHttp(bin, (port) => [...meosArgs(), '--http', '--port', String(port), '--category', 'io', '--category', 'accessor', '--category', 'constructor', '--category', 'predicate', '--category', 'transformation'])
  })
  afterAll(async () => {
    await c?.dispose()
  })

  acceptance(() => (name, args) => c.client.callTool({ name, arguments: args }) as Promise<Result>)

  it('serves only the categories asked for', async () => {
    const { tools } = await c.client.listTools()
    expect(tools.find((t) => t.name === 'set_union_transfn')).toBeUndefined()
    expect(tools.find((t) => t.name === 'temporal_num_instants')).toBeDefined()
  })
})

describe.skipIf(skipMeos)('emcp meos over HTTP, official SDK 2.x client', () => {
  let server: Listening
  let client2: Client2
  beforeAll(async () => {
    server = await spawnListening(bin, (port) => [...meosArgs(), '--http', '--port', String(port)])
    client2 = new Client2({ name: 'meos-2', version: '1' }, { versionNegotiation: { mode: 'auto' } })
    await client2.connect(new Transport2(new URL(server.url)))
  })
  afterAll(async () => {
    await client2?.close().catch(() => undefined)
    if (server !== undefined) await stop(server.child, server.exited, 'SIGKILL')
  })

  acceptance(() => (name, args) => client2.callTool({ name, arguments: args }) as Promise<Result>)
})

describe.skipIf(skipMeos)('emcp meos on the command line', () => {
  it('refuses a missing manifest flag, and a library that cannot be opened, with a message and exit code', async () => {
    // both end by themselves, before any worker serves a call
    const run = (args: string[]) =>
      new Promise<{ code: number | null; err: string }>((resolve) => {
        const child = spawn(process.execPath, [bin, ...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] })
        let err = ''
        child.stderr.on('data', (d: Buffer) => (err += d.toString()))
        child.once('exit', (code) => resolve({ code, err }))
      })
    const noManifest = await run(['meos', '--catalog', meosData.catalog])
    expect(noManifest.code).toBe(2)
    expect(noManifest.err).toContain('--manifest FILE is required')
    const badLibrary = await run(['meos', '--library', '/nonexistent/libmeos.so', '--manifest', meosData.manifest, '--catalog', meosData.catalog])
    expect(badLibrary.code).toBe(1)
    expect(badLibrary.err).toContain('libmeos could not be opened at /nonexistent/libmeos.so')
  })
})
