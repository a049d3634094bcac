/**
 * What every framework adapter must do, checked through real clients over a real socket:
 * the SDK 1.32.2 client in 2025-11-25 (stateless), the SDK v2 client in 2026-07-28 (an
 * input_required round trip), a failing argument named by path, the Host guard on by
 * default (403 for a foreign Host), and `allowedHosts` letting a router's host through.
 *
 * @example
 * import { adapterChecks } from './support.js'
 * await adapterChecks((hosts) => listen(hosts))
 */
import { request } from 'node:http'
import { Client as Client2026, StreamableHTTPClientTransport as Http2026 } from '@modelcontextprotocol/client'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { expect } from 'vitest'

/** A served app: its MCP URL and how to close it. */
export interface Served {
  readonly url: string
  readonly close: () => Promise<void>
}

/** A POST of `initialize` with `host` as the Host header; resolves with the status. */
const statusWithHost = (url: string, host: string): Promise<number> =>
  new Promise((resolve, reject) => {
    const u = new URL(url)
    const req = request(
      { host: u.hostname, port: u.port, path: u.pathname, method: 'POST', headers: { host, 'content-type': 'application/json', accept: 'application/json, text/event-stream' } },
      (res) => {
        res.resume()
        res.on('end', () => resolve(res.statusCode ?? 0))
      },
    )
    req.on('error', reject)
    req.end(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } }))
  })

const textOf = (r: object): string =>
  (((r as { readonly content?: unknown }).content ?? []) as ReadonlyArray<{ readonly text?: string }>).map((b) => b.text ?? '').join('\n')

/** The checks; `serve(allowedHosts?)` starts the app (with the adapter's default guards when no hosts are given). */
export const adapterChecks = async (serve: (allowedHosts?: ReadonlyArray<string>) => Promise<Served>): Promise<void> => {
  const app = await serve()
  try {
    const legacy = new Client({ name: 'adapter-1.32', version: '0' })
    await legacy.connect(new StreamableHTTPClientTransport(new URL(app.url)))
    expect((await legacy.listTools()).tools.map((t) => t.name)).toEqual(expect.arrayContaining(['add', 'echo']))
    expect((await legacy.callTool({ name: 'add', arguments: { a: 2, b: 3 } })).structuredContent).toEqual({ sum: 5 })
    const bad = await legacy.callTool({ name: 'add', arguments: { a: 'two', b: 3 } })
    expect(bad.isError).toBe(true)
    expect(textOf(bad)).toMatch(/\/a/)
    await legacy.close()

    const modern = new Client2026({ name: 'adapter-2', version: '0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } })
    await modern.connect(new Http2026(new URL(app.url)))
    expect((await modern.callTool({ name: 'add', arguments: { a: 40, b: 2 } })).structuredContent).toEqual({ sum: 42 })
    await modern.close()

    // the guards stay on inside a framework: a foreign Host is refused
    expect(await statusWithHost(app.url, 'evil.example.com')).toBe(403)
  } finally {
    await app.close()
  }
  // behind a platform's router the Host is the public name: allowedHosts lets it through
  const routed = await serve(['api.example.com'])
  try {
    expect(await statusWithHost(routed.url, 'api.example.com')).toBe(200)
    expect(await statusWithHost(routed.url, 'evil.example.com')).toBe(403)
  } finally {
    await routed.close()
  }
}
