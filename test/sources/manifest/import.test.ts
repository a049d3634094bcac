import { describe, expect, it } from 'vitest'
import { encode, inMemoryClient, newSession, type Server } from '../../../src/index.js'
import { geometryWkt, toWkt, type Geometry } from '../../../src/codecs/geometry.js'
import { confirmByElicitation, fromManifest, serverOfManifest, toManifest } from '../../../src/sources/manifest/index.js'
import { destructuredKeys } from '../../../src/sources/manifest/import.js'
import { wired } from '../../support/wired.js'

const manifest = {
  _meta: { 'emcp/server': { name: 'ops', version: '3.1.0' } },
  tools: [
    {
      name: 'add',
      description: 'Add two numbers.',
      inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] },
      outputSchema: { type: 'object', properties: { sum: { type: 'number' } }, required: ['sum'] },
      annotations: { readOnlyHint: true },
    },
    {
      name: 'drop_table',
      description: 'Drop a table.',
      inputSchema: { type: 'object', properties: { table: { type: 'string' } }, required: ['table'] },
      _meta: { 'emcp/policy': 'ask' },
    },
    { name: 'format_disk', description: 'Never.', inputSchema: { type: 'object' }, _meta: { 'emcp/policy': 'disabled' } },
  ],
} as const

const handlers = {
  add: ({ a, b }: { a: number; b: number }) => ({ sum: a + b }),
  drop_table: ({ table }: { table: string }) => `dropped ${table}`,
}

describe('fromManifest', () => {
  it('serves the manifest: server info from its _meta, tools typed from its schemas', async () => {
    const server = fromManifest(manifest, handlers)
    expect(server.info).toEqual({ name: 'ops', version: '3.1.0' })
    const { sum } = await inMemoryClient(server).call('add', { a: 2, b: 3 })
    expect(sum).toBe(5)
  })

  it('round-trips: the manifest of the imported server has the same tools and fingerprints', () => {
    const exported = toManifest(fromManifest(manifest, handlers))
    const again = toManifest(fromManifest(exported as typeof manifest, handlers))
    expect(again).toEqual(exported)
    expect(exported.tools.map((t) => t.name)).toEqual(['add', 'drop_table', 'format_disk'])
  })

  it('carries namespaced extension fields from the manifest into the server and back out', () => {
    const withExtension = { tools: [{ ...manifest.tools[0], 'com.example/symbol': { header: 'ops.h', line: 12 } }] }
    const exported = toManifest(fromManifest(withExtension as never, { add: handlers.add } as never))
    expect(exported.tools[0]!['com.example/symbol']).toEqual({ header: 'ops.h', line: 12 })
  })

  it('fails at startup naming the tool and the key when a handler reads an argument the manifest does not declare', () => {
    // the hand-edited-manifest bug: the schema says "table_name", the handler reads "table"
    const edited = JSON.parse(JSON.stringify(manifest).replace('"table"', '"table_name"').replace('["table"]', '["table_name"]'))
    expect(() => fromManifest(edited, handlers as never)).toThrow(
      'tool drop_table: /inputSchema/properties: the handler reads argument "table", which the manifest does not declare (it declares table_name)',
    )
  })

  it('fails at startup for a missing handler, an extra handler, a bad policy, and says all of it at once', () => {
    const bad = { tools: [...manifest.tools.slice(0, 2), { name: 'x', inputSchema: { type: 'object' }, _meta: { 'emcp/policy': 'sometimes' } }] }
    const out = serverOfManifest(bad, { add: handlers.add, extra: () => 'x' })
    expect(out._tag).toBe('Left')
    const messages = (out as { left: ReadonlyArray<{ tool: string; path: string; message: string }> }).left
    expect(messages).toContainEqual({ tool: 'x', path: '/_meta/emcp/policy', message: 'the policy must be one of auto, ask, disabled (found "sometimes")' })
    const built = serverOfManifest({ tools: manifest.tools.slice(0, 2) }, { add: handlers.add, extra: () => 'x' })
    const problems = (built as { left: ReadonlyArray<{ tool: string; message: string }> }).left
    expect(problems.map((p) => p.tool).sort()).toEqual(['drop_table', 'extra'])
    expect(problems.find((p) => p.tool === 'drop_table')?.message).toBe('no handler is given for this tool')
    expect(problems.find((p) => p.tool === 'extra')?.message).toContain('the manifest has no tool extra')
  })

  it('rejects a manifest that is not one, naming the key', () => {
    expect(() => fromManifest({ tools: [{ name: 'a b', inputSchema: {} }] } as never, {} as never)).toThrow('tool a b: /name: "name" must be 1-128')
    expect(() => fromManifest({ tools: 'nope' } as never, {} as never)).toThrow('/tools: "tools" must be an array')
  })

  it('disabled: declared but not listed, and a call gets a clear error', async () => {
    const server = fromManifest(manifest, handlers)
    const client = inMemoryClient(server)
    expect((await client.list()).map((t) => t.name)).toEqual(['add', 'drop_table'])
    await expect(client.callResult('format_disk', {})).rejects.toThrow('Tool format_disk is disabled')
    expect(server.tools.map((t) => t.name)).toContain('format_disk')
  })

  it('disabled: enableTool serves the tool with the handler given for it, or says it has none', async () => {
    const withHandler = fromManifest(manifest, { ...handlers, format_disk: () => 'formatted' })
    withHandler.enableTool('format_disk')
    const client = inMemoryClient(withHandler)
    expect((await client.list()).map((t) => t.name)).toContain('format_disk')
    expect((await client.callResult('format_disk', {})).content).toEqual([{ type: 'text', text: 'formatted' }])
    const without = fromManifest(manifest, handlers)
    without.enableTool('format_disk')
    const answer = await inMemoryClient(without).callResult('format_disk', {})
    expect(answer.isError).toBe(true)
    expect(answer.content).toEqual([{ type: 'text', text: 'tool format_disk is disabled by its manifest and has no handler' }])
  })

  it('ask: the handler runs only after the user accepts the review of its arguments', async () => {
    const server = fromManifest(manifest, handlers)
    const { request, asked, answer } = await wired(server, { elicitation: {} })
    const question = asked()
    const call = request('tools/call', { name: 'drop_table', arguments: { table: 'users' } })
    const ask = (await question) as unknown as { id: number; method: string; params: { message: string; requestedSchema: unknown } }
    expect(ask.method).toBe('elicitation/create')
    expect(ask.params.message).toContain('drop_table')
    expect(ask.params.requestedSchema).toEqual({ type: 'object', properties: { table: { type: 'string', default: 'users' } }, required: ['table'] })
    await answer(ask.id, { action: 'accept', content: { table: 'users' } })
    expect(await call).toMatchObject({ result: { content: [{ type: 'text', text: 'dropped users' }] } })
  })

  it('ask: a declined review, or a client that cannot be asked, is an error result and the handler never runs', async () => {
    let ran = 0
    const server = fromManifest(manifest, { ...handlers, drop_table: () => String(++ran) })
    const { request, asked, answer } = await wired(server, { elicitation: {} })
    const question = asked()
    const call = request('tools/call', { name: 'drop_table', arguments: { table: 'users' } })
    await answer((await question).id, { action: 'decline' })
    expect(await call).toMatchObject({ result: { isError: true, content: [{ text: 'the user did not allow tool drop_table to run' }] } })
    const silent = await inMemoryClient(server).callResult('drop_table', { table: 'users' })
    expect(silent.isError).toBe(true)
    expect((silent.content[0] as { text: string }).text).toContain('tool drop_table runs only after the user has reviewed its arguments, and the review could not be done')
    expect(ran).toBe(0)
  })

  it('ask: the confirmation can be supplied (e.g. a policy engine); the default is the elicitation', async () => {
    expect(confirmByElicitation).toBeTypeOf('function')
    const seen: unknown[] = []
    const server = fromManifest(manifest, handlers, { confirm: async (tool, args) => (seen.push([tool.name, args]), true) })
    const r = await inMemoryClient(server).callResult('drop_table', { table: 't' })
    expect(r.content).toEqual([{ type: 'text', text: 'dropped t' }])
    expect(seen).toEqual([['drop_table', { table: 't' }]])
  })

  it('decodes arguments with the wire codecs the dispatch metadata names; a bad value is a clean isError', async () => {
    const geo = {
      tools: [
        {
          name: 'kind',
          inputSchema: { type: 'object', properties: { shape: { type: 'string' } }, required: ['shape'] },
          _meta: { 'emcp/dispatch': { arguments: { shape: 'geometry/wkt' } } },
        },
      ],
    } as const
    const server = fromManifest(geo, { kind: ({ shape }: { shape: Geometry }) => `${shape.type} ${toWkt(shape)}` }, { codecs: { 'geometry/wkt': geometryWkt } })
    // on the wire, as a client sends it
    const { request } = await wired(server)
    expect(await request('tools/call', { name: 'kind', arguments: { shape: 'POINT (1 2)' } })).toMatchObject({
      result: { content: [{ type: 'text', text: 'Point POINT (1 2)' }] },
    })
    const bad = (await request('tools/call', { name: 'kind', arguments: { shape: 'POINT (1)' } })) as { result: { isError: boolean; content: [{ text: string }] } }
    expect(bad.result.isError).toBe(true)
    expect(bad.result.content[0].text).toMatch(/^Invalid arguments for tool kind: \/shape: is not a 2D geometry in well-known text/)
    // the typed client encodes the value it is given
    const typed = await inMemoryClient(server).callResult('kind', { shape: { type: 'Point', coordinates: [3, 4] } })
    expect(typed.content).toEqual([{ type: 'text', text: 'Point POINT (3 4)' }])
    // run-time check: without the codec the manifest names, the handler record has no sound type (cast)
    expect(() => (fromManifest as (m: unknown, h: unknown) => unknown)(geo, { kind: () => 'x' })).toThrow('tool kind: /_meta/emcp/dispatch/arguments/shape: no wire codec named geometry/wkt is given')
  })
})

describe('destructuredKeys', () => {
  it('reads the keys of the first parameter pattern, in every function form', () => {
    expect(destructuredKeys(({ a, b }: { a: 1; b: 2 }) => a + b)).toEqual(['a', 'b'])
    expect(destructuredKeys(async ({ a: renamed = 1, 'b-c': x, ...rest }: any, _ctx: unknown) => [renamed, x, rest])).toEqual(['a', 'b-c'])
    expect(destructuredKeys(function named({ deep: { x } }: any) { return x })).toEqual(['deep'])
    expect(destructuredKeys((args: unknown) => args)).toEqual([])
    expect(destructuredKeys(({ a = f(1, 2), b }: any) => [a, b])).toEqual(['a', 'b'])
  })
})
const f = (x: number, y: number): number => x + y

describe('fromManifest, 2026-07-28 clients', () => {
  const V = '2026-07-28'
  const meta = (caps: object) => ({ 'io.modelcontextprotocol/protocolVersion': V, 'io.modelcontextprotocol/clientCapabilities': caps })
  let id = 100
  const call = async (server: Server, params: Record<string, unknown>, caps: object) => {
    const out = await server.dispatch({ jsonrpc: '2.0', id: id++, method: 'tools/call', params: { ...params, _meta: meta(caps) } }, newSession())()
    return JSON.parse(encode((out as { value: unknown }).value as never)) as { result?: any; error?: { code: number; message: string } }
  }

  it('ask: the review is an input_required question; the retry with the answer runs the handler', async () => {
    let ran = 0
    const server = fromManifest(manifest, { ...handlers, drop_table: ({ table }) => `dropped ${table} (${++ran})` }, { requestState: { key: 'a manifest test key of enough length' } })
    const params = { name: 'drop_table', arguments: { table: 'users' } }
    const first = await call(server, params, { elicitation: { form: {} } })
    expect(first.result.resultType).toBe('input_required')
    const question = first.result.inputRequests['input-0']
    expect(question.method).toBe('elicitation/create')
    expect(question.params.message).toContain('drop_table')
    expect(question.params.requestedSchema.properties.table.default).toBe('users')
    expect(ran).toBe(0)
    const declined = await call(server, { ...params, inputResponses: { 'input-0': { action: 'decline' } }, requestState: first.result.requestState }, { elicitation: { form: {} } })
    expect(declined.result).toMatchObject({ isError: true, content: [{ text: 'the user did not allow tool drop_table to run' }] })
    const accepted = await call(server, { ...params, inputResponses: { 'input-0': { action: 'accept', content: { table: 'users' } } }, requestState: first.result.requestState }, { elicitation: { form: {} } })
    expect(accepted.result.content).toEqual([{ type: 'text', text: 'dropped users (1)' }])
  })

  it('ask: a 2026 client without elicitation gets an isError result that says why, and the handler never runs', async () => {
    let ran = 0
    const server = fromManifest(manifest, { ...handlers, drop_table: () => String(++ran) }, { requestState: { key: 'a manifest test key of enough length' } })
    const out = await call(server, { name: 'drop_table', arguments: { table: 'users' } }, {})
    expect(out.error).toBeUndefined()
    expect(out.result.isError).toBe(true)
    expect(out.result.content[0].text).toMatch(/^tool drop_table runs only after the user has reviewed its arguments, and the review could not be done: the client did not declare the "elicitation.form" capability/)
    expect(ran).toBe(0)
  })
})
