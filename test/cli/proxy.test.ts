/**
 * `emcp proxy` usage errors, and `emcp manifest <url>`: a snapshot of a live server (over
 * 127.0.0.1) as JSON and as a const TypeScript module, which then types `proxy()`.
 * (The proxy's fronts are driven by the official SDK client in test/interop/features.test.ts.)
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli, type CommandIO } from '../../src/cli/index.js'
import { emcp, inMemoryClient, mcpServer } from '../../src/index.js'
import { serveHttp, type RunningHttp } from '../../src/transport/http.js'
import { proxy } from '../../src/sources/proxy/index.js'
import { connectStdio, emcpBin, root, type Connection } from '../interop/children.js'

const cli = async (argv: string[]) => {
  let out = ''
  let err = ''
  const io: CommandIO = { out: (s) => void (out += s), err: (s) => void (err += s), cwd: root, interactive: false }
  return { code: await runCli(argv, io), out, err }
}

describe('emcp proxy: usage errors', () => {
  it('names what is wrong, before connecting to anything', async () => {
    expect(await cli(['proxy'])).toMatchObject({ code: 2, err: expect.stringContaining('give the upstream: a URL') })
    expect(await cli(['proxy', 'http://127.0.0.1:1/mcp', '--', 'node'])).toMatchObject({ code: 2, err: expect.stringContaining('not both') })
    expect(await cli(['proxy', 'server.js'])).toMatchObject({ code: 2, err: expect.stringContaining('a command to run goes after --') })
    expect(await cli(['proxy', 'ftp://h/mcp'])).toMatchObject({ code: 2, err: expect.stringContaining('must be http: or https:') })
    expect(await cli(['proxy', 'http://h/mcp', '--port', '1'])).toMatchObject({ code: 2, err: expect.stringContaining('--port and --host need --http') })
    expect(await cli(['proxy', 'http://h/mcp', '--stdio', '--http'])).toMatchObject({ code: 2, err: expect.stringContaining('--stdio or --http, not both') })
    expect(await cli(['proxy', 'http://h/mcp', '--header', 'no colon'])).toMatchObject({ code: 2, err: expect.stringContaining('--header needs "Name: value"') })
    expect(await cli(['proxy', 'http://h/mcp', '--bearer-env', 'EMCP_TEST_NO_SUCH_VARIABLE'])).toMatchObject({ code: 2, err: expect.stringContaining('EMCP_TEST_NO_SUCH_VARIABLE, but that environment variable is not set') })
    expect(await cli(['proxy', 'http://h/mcp', '--client-id', 'x'])).toMatchObject({ code: 2, err: expect.stringContaining('need both --client-id and --client-secret-env') })
    expect(await cli(['proxy', '--bearer-env', 'PATH', '--', 'node'])).toMatchObject({ code: 2, err: expect.stringContaining('not to a command') })
    expect(await cli(['proxy', 'http://h/mcp', '--max-depth', '0'])).toMatchObject({ code: 2, err: expect.stringContaining('--max-depth needs a whole number from 1 up, not "0"') })
    expect(await cli(['proxy', 'http://h/mcp', '--max-answer-bytes', '1e6'])).toMatchObject({ code: 2, err: expect.stringContaining('--max-answer-bytes needs a whole number') })
    expect(await cli(['proxy', 'http://h/mcp', '--call-timeout-ms', '-5'])).toMatchObject({ code: 2, err: expect.stringContaining('--call-timeout-ms needs a whole number from 1 up') })
    expect(await cli(['proxy', 'http://h/mcp', '--max-list-pages', 'many'])).toMatchObject({ code: 2, err: expect.stringContaining('--max-list-pages needs a whole number') })
    expect(await cli(['proxy', 'http://h/mcp', '--request-timeout-ms', ''])).toMatchObject({ code: 2, err: expect.stringContaining('--request-timeout-ms needs a whole number') })
  })

  it('an upstream that cannot be reached: exit 1, saying which and why', async () => {
    const r = await cli(['proxy', '--stdio', '--', process.execPath, '-e', 'process.exit(3)'])
    expect(r.code).toBe(1)
    expect(r.err).toMatch(/the upstream MCP server .* cannot be reached/)
  })
})

describe('emcp manifest <url>: a snapshot of a live server', () => {
  const add = emcp({
    name: 'add',
    description: 'Adds.',
    input: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] },
    output: { type: 'object', properties: { sum: { type: 'number' } }, required: ['sum'] },
  })
  const server = mcpServer([add], { name: 'live', version: '4.2.0' }).implement({ add: ({ a, b }) => ({ sum: a + b }) })
  let running: RunningHttp
  const dir = mkdtempSync(join(tmpdir(), 'emcp-manifest-url-'))

  beforeAll(async () => {
    running = await serveHttp(server, { port: 0, host: '127.0.0.1' })
  })
  afterAll(async () => {
    await running?.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it('writes the tools the server lists now, under its name and version', async () => {
    const live = await cli(['manifest', running.url])
    expect(live.code).toBe(0)
    const manifest = JSON.parse(live.out)
    expect(manifest._meta['emcp/server']).toEqual({ name: 'live', version: '4.2.0' })
    expect(manifest.tools.map((t: { name: string }) => t.name)).toEqual(['add'])
    expect(manifest.tools[0].inputSchema.properties).toEqual({ a: { type: 'number' }, b: { type: 'number' } })
  })

  it('as a const module (--format ts), imported, it types proxy()', async () => {
    const file = join(dir, 'live.manifest.ts')
    expect((await cli(['manifest', running.url, '--format', 'ts', '-o', file])).code).toBe(0)
    expect(readFileSync(file, 'utf8')).toMatch(/as const\n$/)
    const snapshot = (await import(file)) as { default: { tools: ReadonlyArray<{ name: string }> } }
    const typed = await proxy({ url: running.url }, { manifest: snapshot.default as never })
    try {
      expect(await inMemoryClient(typed).call('add', { a: 1, b: 2 })).toEqual({ sum: 3 })
    } finally {
      await typed.close()
    }
  })

  it('a URL where nothing listens: exit 1, naming it', async () => {
    const gone = await serveHttp(server, { port: 0, host: '127.0.0.1' })
    await gone.close()
    const r = await cli(['manifest', gone.url])
    expect(r.code).toBe(1)
    expect(r.err).toContain(`the upstream MCP server ${gone.url} cannot be reached`)
  })
})

describe('emcp proxy: the limit flags bound what the upstream sends back (a stdio front on an HTTP upstream, official SDK client)', () => {
  const text = { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } as const
  const none = { type: 'object', properties: {} } as const
  const big = emcp({ name: 'big', description: 'Answers 5000 characters.', input: none, output: text })
  const small = emcp({ name: 'small', description: 'Answers a little.', input: none, output: text })
  const stall = emcp({ name: 'stall', description: 'Answers when cancelled.', input: none, output: text })
  let cancelled!: () => void
  const stallCancelled = new Promise<void>((resolve) => (cancelled = resolve))
  const upstream = mcpServer([big, small, stall], { name: 'limited', version: '1.0.0' }).implement({
    big: () => ({ text: 'x'.repeat(5000) }),
    small: () => ({ text: 'ok' }),
    stall: (_args, ctx) =>
      new Promise((resolve) => {
        ctx.signal.addEventListener('abort', () => {
          cancelled()
          resolve({ text: 'cancelled' })
        })
      }),
  })
  let running: RunningHttp
  const open: Connection[] = []
  const through = async (...flags: string[]): Promise<Connection> => {
    const c = await connectStdio(emcpBin, ['proxy', running.url, '--stdio', ...flags])
    open.push(c)
    return c
  }
  const textOf = (r: unknown): string => ((r as { content: Array<{ text: string }> }).content[0]?.text ?? '')

  beforeAll(async () => {
    running = await serveHttp(upstream, { port: 0, host: '127.0.0.1' })
  })
  afterAll(async () => {
    await Promise.all(open.map((c) => c.dispose()))
    await running?.close()
  })

  it('--max-answer-bytes: an answer past it is an isError naming the limit, and the next call goes on', async () => {
    const { client } = await through('--max-answer-bytes', '2000')
    const refused = await client.callTool({ name: 'big', arguments: {} })
    expect(refused.isError).toBe(true)
    expect(textOf(refused)).toContain("larger than the proxy's limits.maxAnswerBytes (2000 bytes)")
    const fine = await client.callTool({ name: 'small', arguments: {} })
    expect(fine.isError).not.toBe(true)
    expect(fine.structuredContent).toEqual({ text: 'ok' })
  })

  it('--call-timeout-ms: a call past it is an isError, and it is cancelled upstream', async () => {
    const { client } = await through('--call-timeout-ms', '200')
    const timedOut = await client.callTool({ name: 'stall', arguments: {} })
    expect(timedOut.isError).toBe(true)
    await stallCancelled
  })
})
