/**
 * MCP Apps on the server (src/features/apps.ts): an app is served as a `ui://` resource of
 * type `text/html;profile=mcp-app` with its CSP and permissions in `_meta.ui`, a linked tool
 * lists `_meta.ui.resourceUri` and its visibility, the extension is declared, a link to an
 * undeclared app throws when the server is built, and a SEMOSS `SMSS_MCP_UI.resourceURI`
 * becomes the standard link. Read through the official SDK client as well.
 */
import { afterAll, describe, expect, it } from 'vitest'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { appResource, emcp, fromManifest, inMemoryClient, linkApp, mcpServer, prompt, prompts, resource, resources, runtimeTool } from '../../src/index.js'
import { serveHttp, type RunningHttp } from '../../src/transport/http.js'

const panel = appResource({
  uri: 'ui://calc/panel',
  name: 'panel',
  title: 'Calculator panel',
  html: '<!doctype html><p>panel</p>',
  csp: { connectDomains: ['https://api.example.com'] },
  permissions: { clipboardWrite: {} },
  prefersBorder: true,
})
const add = emcp({
  name: 'add',
  description: 'Add two numbers.',
  input: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] },
  output: { type: 'object', properties: { sum: { type: 'number' } }, required: ['sum'] },
} as const)
const linked = linkApp(add, panel, { visibility: ['app'] })
const server = () => mcpServer([linked], { name: 'calc', version: '1' }, { apps: [panel] }).implement({ add: ({ a, b }) => ({ sum: a + b }) })

describe('apps', () => {
  it('serves the app with its mime type, CSP and permissions, and lists the link', async () => {
    const c = inMemoryClient(server())
    expect(await c.request('resources/read', { uri: 'ui://calc/panel' })).toEqual({
      contents: [{
        uri: 'ui://calc/panel',
        mimeType: 'text/html;profile=mcp-app',
        text: '<!doctype html><p>panel</p>',
        _meta: { ui: { csp: { connectDomains: ['https://api.example.com'] }, permissions: { clipboardWrite: {} }, prefersBorder: true } },
      }],
    })
    const { tools } = (await c.request('tools/list')) as { tools: Array<{ _meta?: unknown }> }
    expect(tools[0]?._meta).toEqual({ ui: { resourceUri: 'ui://calc/panel', visibility: ['app'] }, 'ui/resourceUri': 'ui://calc/panel' })
    const { resources: listed } = (await c.request('resources/list')) as { resources: Array<{ uri: string; mimeType: string; _meta?: unknown }> }
    expect(listed.map((r) => [r.uri, r.mimeType])).toEqual([['ui://calc/panel', 'text/html;profile=mcp-app']])
    // the listing carries the same `_meta.ui`, for hosts that review the policy before reading
    expect(listed[0]?._meta).toEqual({ ui: { csp: { connectDomains: ['https://api.example.com'] }, permissions: { clipboardWrite: {} }, prefersBorder: true } })
  })

  it('joins the apps to a resources feature given beside them, and keeps other extensions', async () => {
    const readme = resource({ uri: 'docs://readme', name: 'readme', read: () => '# hi' })
    const s = mcpServer([linked], { name: 'calc', version: '1' }, { apps: [panel], features: [resources([readme])] }).implement({ add: ({ a, b }) => ({ sum: a + b }) })
    const { resources: listed } = (await inMemoryClient(s).request('resources/list')) as { resources: Array<{ uri: string }> }
    expect(listed.map((r) => r.uri).sort()).toEqual(['docs://readme', 'ui://calc/panel'])
  })

  it.each([
    ['prompts first', 'prompts-first'],
    ['resources first', 'resources-first'],
  ] as const)('joins the apps to the resources feature whatever the order of features (%s), and leaves prompts alone', async (_, order) => {
    const readme = resource({ uri: 'docs://readme', name: 'readme', read: () => '# hi' })
    const hello = prompt({ name: 'hello', description: 'Say hello.', get: () => 'Hello!' })
    const res = resources([readme])
    const pro = prompts([hello])
    const s = mcpServer([linked], { name: 'calc', version: '1' }, { apps: [panel], features: order === 'prompts-first' ? [pro, res] : [res, pro] })
      .implement({ add: ({ a, b }) => ({ sum: a + b }) })
    const c = inMemoryClient(s)
    const { resources: listed } = (await c.request('resources/list')) as { resources: Array<{ uri: string }> }
    expect(listed.map((r) => r.uri).sort()).toEqual(['docs://readme', 'ui://calc/panel'])
    expect(await c.request('resources/read', { uri: 'ui://calc/panel' })).toMatchObject({ contents: [{ mimeType: 'text/html;profile=mcp-app' }] })
    const { prompts: named } = (await c.request('prompts/list')) as { prompts: Array<{ name: string }> }
    expect(named.map((p) => p.name)).toEqual(['hello'])
    expect(pro.list().map((p) => p.name)).toEqual(['hello'])
  })

  it('serves the apps in a resources feature of their own beside prompts alone', async () => {
    const pro = prompts([prompt({ name: 'hello', description: 'Say hello.', get: () => 'Hello!' })])
    const s = mcpServer([linked], { name: 'calc', version: '1' }, { apps: [panel], features: [pro] }).implement({ add: ({ a, b }) => ({ sum: a + b }) })
    const c = inMemoryClient(s)
    const { resources: listed } = (await c.request('resources/list')) as { resources: Array<{ uri: string }> }
    expect(listed.map((r) => r.uri)).toEqual(['ui://calc/panel'])
    const { prompts: named } = (await c.request('prompts/list')) as { prompts: Array<{ name: string }> }
    expect(named.map((p) => p.name)).toEqual(['hello'])
  })

  it('throws at build when a tool links an app the server does not declare (URIs known at run time)', () => {
    const uri: string = 'ui://calc/missing'
    expect(() => mcpServer([linkApp(add, uri)], { name: 'c', version: '1' }, { apps: [panel] }).implement({ add: ({ a, b }) => ({ sum: a + b }) }))
      .toThrow(/^emcp: tool add links ui:\/\/calc\/missing, which no app in the apps option declares$/)
    const raw = runtimeTool({ name: 'raw', description: 'Raw.', input: { type: 'object' }, _meta: { ui: { resourceUri: 'ui://x/y' } } })
    expect(() => mcpServer([raw], { name: 'c', version: '1' }).implement({ raw: () => 'ok' })).toThrow(/tool raw links ui:\/\/x\/y/)
    expect(() => appResource({ uri: 'https://not-ui', name: 'bad', html: '' })).toThrow(/uri must be ui:\/\//)
  })

  it('maps a SEMOSS SMSS_MCP_UI.resourceURI onto the standard link, and checks it', async () => {
    const manifest = {
      tools: [
        { name: 'add', description: 'Add.', inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] }, _meta: { SMSS_MCP_UI: { resourceURI: 'ui://calc/panel' } } },
        { name: 'route', description: 'A platform route.', inputSchema: { type: 'object' }, _meta: { SMSS_MCP_UI: { resourceURI: '/#/forecast' } } },
      ],
    } as const
    const handlers = { add: ({ a, b }: { a: number; b: number }) => String(a + b), route: () => 'ok' }
    const s = fromManifest(manifest, handlers, { info: { name: 'm', version: '1' }, apps: [panel] })
    const { tools } = (await inMemoryClient(s).request('tools/list')) as { tools: Array<{ name: string; _meta?: { ui?: unknown } }> }
    expect(tools.find((t) => t.name === 'add')?._meta?.ui).toEqual({ resourceUri: 'ui://calc/panel', visibility: ['model', 'app'] })
    expect(tools.find((t) => t.name === 'route')?._meta?.ui).toBeUndefined()
    expect(() => void fromManifest(manifest, handlers, { info: { name: 'm', version: '1' } })).toThrow(/tool add: \/_meta\/ui\/resourceUri: tool add links ui:\/\/calc\/panel/)
  })

  describe('through the official SDK client', () => {
    let running: RunningHttp | undefined
    afterAll(async () => running?.close())
    it('sees the extension declared and reads the app', async () => {
      running = await serveHttp(server(), { sessions: true, port: 0, host: '127.0.0.1' })
      const client = new Client({ name: 'host', version: '1' })
      await client.connect(new StreamableHTTPClientTransport(new URL(running.url)))
      expect((client.getServerCapabilities() as { extensions?: unknown }).extensions).toEqual({ 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } })
      const read = await client.readResource({ uri: 'ui://calc/panel' })
      expect(read.contents[0]).toMatchObject({ mimeType: 'text/html;profile=mcp-app', text: '<!doctype html><p>panel</p>' })
      expect((await client.listTools()).tools[0]?._meta).toMatchObject({ ui: { resourceUri: 'ui://calc/panel' } })
      await client.close()
    })
  })
})
