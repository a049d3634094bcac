/**
 * fromOpenApi against hostile input: documents that are small as written and huge once their
 * `$ref`s are inlined (shared references doubling at each level), chains of references
 * deeper than any stack, thousands of operations and parameters; and an API on 127.0.0.1
 * whose answers are too large, too deep, not the JSON they claim, or never finish. Each is
 * refused or answered with an error naming the bound, in time linear in what was sent.
 */
import { createServer, type Server as NodeServer, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { inMemoryClient, type CallToolResult } from '../../../src/index.js'
import { fromOpenApi } from '../../../src/sources/openapi/index.js'

const textOf = (r: CallToolResult): string => r.content.map((b) => ('text' in b ? b.text : '')).join('')
const quiet = { onWarning: () => {} }
const json = (schema: object) => ({ 200: { description: 'ok', content: { 'application/json': { schema } } } })
const docOf = (paths: object, schemas: object = {}, server = 'http://127.0.0.1:1') => ({ openapi: '3.1.0', info: { title: 'hostile', version: '1' }, servers: [{ url: server }], paths, components: { schemas } })
const ok = { get: { operationId: 'ok', responses: json({ type: 'string' }) } }

/** `levels` schemas, each using the next twice, the last an enum of `width` values: small as written, width × 2^levels inlined. */
const doubling = (levels: number, width: number) => {
  const schemas: { [name: string]: object } = {}
  for (let i = 0; i < levels; i++) schemas[`S${i}`] = { type: 'object', properties: { a: { $ref: `#/components/schemas/S${i + 1}` }, b: { $ref: `#/components/schemas/S${i + 1}` } } }
  schemas[`S${levels}`] = { type: 'string', enum: Array.from({ length: width }, (_, i) => `v${i}`) }
  return schemas
}

describe('documents that explode, nest or sprawl', () => {
  it('shared references doubling 40 levels deep: refused at once, before the parser expands them', async () => {
    const doc = docOf({ '/x': { get: { operationId: 'x', responses: json({ $ref: '#/components/schemas/S0' }) } } }, doubling(40, 100))
    await expect(fromOpenApi(doc, quiet)).rejects.toThrow(/holds more than 5000000 values once its \$refs are inlined \(shared references multiply\); raise maxExpandedValues/)
    await expect(fromOpenApi(doc, { ...quiet, maxExpandedValues: 1000 })).rejects.toThrow(/more than 1000 values/)
  })

  it('a schema under the document’s bound but past 100 000 values inlined: that operation is left out, saying why', async () => {
    const doc = docOf({ '/x': { get: { operationId: 'x', responses: json({ $ref: '#/components/schemas/S0' }) } }, '/ok': ok }, doubling(8, 2000))
    const api = await fromOpenApi(doc, quiet)
    expect(api.tools.map((t) => t.name)).toEqual(['ok'])
    expect(api.skipped).toEqual([{ operation: 'x', message: 'the schema holds more than 100000 values when its references are inlined' }])
  })

  it('a chain of 5000 references: refused as nesting too deeply, not a stack overflow', async () => {
    const schemas: { [name: string]: object } = { C5000: { type: 'string' } }
    for (let i = 0; i < 5000; i++) schemas[`C${i}`] = { $ref: `#/components/schemas/C${i + 1}` }
    const doc = docOf({ '/x': { get: { operationId: 'x', responses: json({ $ref: '#/components/schemas/C0' }) } } }, schemas)
    // the parser's bundling stops such a chain first; emcp's own walk stops at 1000 levels
    await expect(fromOpenApi(doc, quiet)).rejects.toThrow(/^emcp openapi: cannot read the document: .*(deeper than 1000 levels|Maximum dereference depth)/)
  })

  it('3000 operations each using one large shared schema, one with 4000 query parameters: all served; 6000 parameters: left out, saying why', async () => {
    const paths: { [path: string]: object } = {}
    for (let i = 0; i < 3000; i++) paths[`/p${i}`] = { get: { operationId: `op${i}`, responses: json({ $ref: '#/components/schemas/Big' }) } }
    const parameters = (n: number) => Array.from({ length: n }, (_, i) => ({ name: `q${i}`, in: 'query', schema: { type: 'string' } }))
    paths['/wide'] = { get: { operationId: 'wide', parameters: parameters(4000), responses: json({ type: 'string' }) } }
    paths['/wider'] = { get: { operationId: 'wider', parameters: parameters(6000), responses: json({ type: 'string' }) } }
    const warned: string[] = []
    const api = await fromOpenApi(docOf(paths, { Big: { type: 'string', enum: Array.from({ length: 500 }, (_, i) => `v${i}`) } }), { onWarning: (m) => void warned.push(m) })
    expect(api.tools).toHaveLength(3001)
    expect(Object.keys((api.tools.at(-1)?.inputSchema as { properties: object }).properties)).toHaveLength(4000)
    expect(warned).toEqual(['emcp openapi: operation wider is left out: emcp: tool wider: the input schema cannot be served: it has more than 5000 subschemas'])
  })

  it('an invalid document with thousands of errors: the parser’s reasons, cut to the first twenty', async () => {
    const paths: { [path: string]: object } = {}
    for (let i = 0; i < 3000; i++) paths[`/d${i}`] = { get: { operationId: 'same', responses: json({ type: 'string' }) } }
    const refused = await fromOpenApi(docOf(paths), quiet).then(
      () => '',
      (e: Error) => e.message,
    )
    expect(refused).toMatch(/^emcp openapi: the document is not valid OpenAPI:\n[^]*duplicated[^]*\n… and \d+ more lines$/)
    expect(refused.split('\n').length).toBeLessThanOrEqual(23)
  })

  it('5000 operations whose ids become one tool name: refused, the message naming ten of them, not all', async () => {
    const paths: { [path: string]: object } = {}
    // each id is distinct, and each is "x" in MCP's alphabet
    const id = (i: number) => `${'!'.repeat((i % 50) + 1)}x${'?'.repeat(Math.floor(i / 50) + 1)}`
    for (let i = 0; i < 5000; i++) paths[`/s${i}`] = { get: { operationId: id(i), responses: json({ type: 'string' }) } }
    const refused = await fromOpenApi(docOf(paths), quiet).then(
      () => '',
      (e: Error) => e.message,
    )
    expect(refused).toMatch(/5000 operations are named x as tools: GET \/s0 \(operationId !x\?\), .*, GET \/s9 \(operationId !{10}x\?\), …; exclude/)
    expect(refused.length).toBeLessThan(2000)
  })
})

// ---------------------------------------------------------------------------------------
// an API whose answers are hostile

const deepJson = (n: number): string => `${'['.repeat(n)}1${']'.repeat(n)}`
let api: NodeServer
let base: string
const open: ServerResponse[] = []

beforeAll(async () => {
  api = createServer((req, res) => {
    const send = (type: string, body: string) => void res.writeHead(200, { 'content-type': type }).end(body)
    if (req.url === '/huge') return send('application/json', JSON.stringify('x'.repeat(200_000)))
    if (req.url === '/deep') return send('application/json', deepJson(40_000))
    if (req.url === '/html') return send('application/json; charset=utf-8', '<html>not json</html>')
    if (req.url === '/trickle') {
      // headers at once, then one byte, then nothing: only the timeout ends it
      res.writeHead(200, { 'content-type': 'application/json' }).write('[')
      return void open.push(res)
    }
    if (req.url === '/fine') return send('application/json', '{"v":"fine"}')
    res.writeHead(404).end()
  })
  await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(api.address() as AddressInfo).port}`
})

afterAll(async () => {
  for (const r of open) r.destroy()
  api?.closeAllConnections()
  await new Promise((resolve) => api?.close(resolve))
})

describe('answers that do not fit', () => {
  const paths = Object.fromEntries(['huge', 'deep', 'html', 'trickle', 'fine'].map((p) => [`/${p}`, { get: { operationId: p, responses: json({}) } }]))

  it('too large, too deep, not JSON, never finished: each an isError naming why; the next call is served', async () => {
    const { server } = await fromOpenApi(docOf(paths, {}, base), { ...quiet, maxResponseBytes: 100_000, timeoutMs: 500 })
    const c = inMemoryClient(server)
    const call = async (name: string) => {
      const r = await c.callResult(name as never, {} as never)
      return { error: r.isError === true, text: textOf(r) }
    }
    expect(await call('huge')).toEqual({ error: true, text: 'GET /huge: HTTP 200: the answer is larger than 100000 bytes' })
    expect(await call('deep')).toEqual({ error: true, text: 'GET /deep: HTTP 200 answered JSON nested deeper than 512 levels' })
    expect(await call('html')).toMatchObject({ error: true, text: expect.stringMatching(/^GET \/html: HTTP 200 answered JSON that cannot be read \(.*\): <html>not json<\/html>$/) })
    expect(await call('trickle')).toEqual({ error: true, text: 'GET /trickle: HTTP 200: the answer could not be read: no whole answer within timeoutMs (500 ms)' })
    expect(await call('fine')).toEqual({ error: false, text: '{"v":"fine"}' })
  })
})
