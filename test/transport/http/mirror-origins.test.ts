/**
 * `x-mcp-header` mirrors over 2026-07-28 HTTP for tools however they were made: by `emcp`, by
 * `runtimeTool`, spread from a made contract with a mirrored schema put in its place, built by
 * hand. A contract made without mirrors remembers it; a copy of one must not inherit that.
 */
import { describe, expect, it } from 'vitest'
import { emcp, mcpServer, runtimeTool, type AnyTool, type Server } from '../../../src/index.js'
import { toFetchHandler } from '../../../src/transport/http.js'

const V = '2026-07-28'
const mirrored = { type: 'object', properties: { region: { type: 'string', 'x-mcp-header': 'Region' } } } as const
const plain = emcp({ name: 'spread', description: 'Made without mirrors.', input: { type: 'object', properties: { region: { type: 'string' } } } })

const tools: ReadonlyArray<AnyTool> = [
  emcp({ name: 'made', description: 'By emcp.', input: mirrored }) as AnyTool,
  runtimeTool({ name: 'runtime', description: 'By runtimeTool.', input: mirrored }) as AnyTool,
  // a copy of a contract whose own schema had no mirror, given one: the copy's schema is what is served
  { ...plain, inputSchema: mirrored } as AnyTool,
  { name: 'hand', description: 'By hand.', inputSchema: mirrored, input: mirrored } as unknown as AnyTool,
]

const handler = toFetchHandler(
  mcpServer(tools as any, { name: 'mirrors', version: '1' }).implement(Object.fromEntries(tools.map((t) => [t.name, () => t.name])) as any) as unknown as Server,
)

let id = 1
const call = (name: string, headers: Record<string, string>) =>
  handler(
    new Request('http://127.0.0.1/mcp', {
      method: 'POST',
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: id++,
        method: 'tools/call',
        params: { name, arguments: { region: 'eu' }, _meta: { 'io.modelcontextprotocol/protocolVersion': V, 'io.modelcontextprotocol/clientCapabilities': {} } },
      }),
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': V, 'mcp-method': 'tools/call', 'mcp-name': name, ...headers },
    }),
  )

describe('2026-07-28 HTTP: x-mcp-header mirrors, however the tool was made', () => {
  for (const name of ['made', 'runtime', 'spread', 'hand']) {
    it(`${name}: a mirrored value without its header is refused, with it answered`, async () => {
      const missing = await call(name, {})
      expect(missing.status).toBe(400)
      expect(((await missing.json()) as { error: { code: number } }).error.code).toBe(-32020)
      const wrong = await call(name, { 'mcp-param-region': 'us' })
      expect(wrong.status).toBe(400)
      const ok = await call(name, { 'mcp-param-region': 'eu' })
      expect(ok.status).toBe(200)
      expect(JSON.stringify(await ok.json())).toContain(name)
    })
  }
})
