/**
 * MCP Apps in the playground, in a real browser (headless Chromium): a linked tool shows its
 * app in a sandboxed frame (opaque origin, the app's own policy) whose bridge answers
 * `ui/initialize`, proxies `tools/call` and `resources/read`, sends the tool's input and
 * result, keeps `visibility` and refuses hostile messages (logged, answered with an error)
 * while the page keeps working; a tool without an app keeps the generated form.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, FrameLocator, Page } from 'playwright-core'
import { appResource, emcp, linkApp, mcpServer, resource, resources } from 'emcp'
import { playgroundAnswer, serveHttp } from 'emcp/http'
import { appServer } from '../../examples/apps.js'
import { openPlayground, servedPlayground, screenshot, skipBrowser } from './browser.js'

/** The app: a small page that speaks the bridge by hand, as the extension's spec shows, and writes what it sees. */
const html = `<!doctype html><html><head><meta charset="utf-8"><style>body{font:14px system-ui;margin:.5em}</style></head><body>
<p>status: <b id="status">loading</b> · input: <code id="input">none</code> · result: <code id="result">none</code></p>
<p><button id="call">add 2 + 3</button> <button id="read">read the note</button> <button id="hidden">call secret</button>
<button id="probe">probe the sandbox</button> <button id="hostile">send hostile messages</button> <button id="link">open a link</button></p>
<p>sum: <output id="sum"></output> · note: <output id="note"></output> · error: <output id="error"></output> · probe: <output id="probe-out"></output></p>
<script>
  let next = 0; const waiting = new Map()
  const send = (m) => window.parent.postMessage({ jsonrpc: '2.0', ...m }, '*')
  const request = (method, params) => new Promise((resolve, reject) => { const id = ++next; waiting.set(id, { resolve, reject }); send({ id, method, params }) })
  const $ = (id) => document.getElementById(id)
  window.addEventListener('message', (e) => {
    if (e.source !== window.parent) return
    const m = e.data
    if (m.id !== undefined && waiting.has(m.id)) { const w = waiting.get(m.id); waiting.delete(m.id); m.error ? w.reject(m.error) : w.resolve(m.result) }
    else if (m.method === 'ui/notifications/tool-input') $('input').textContent = JSON.stringify(m.params.arguments)
    else if (m.method === 'ui/notifications/tool-result') $('result').textContent = String(m.params.structuredContent?.sum)
    else if (m.method === 'ui/resource-teardown') send({ id: m.id, result: {} })
  })
  const shown = (id, work) => $(id === 'sum' ? 'call' : id).addEventListener('click', () => work().catch((e) => { $('error').textContent = e.code + ' ' + e.message }))
  shown('sum', async () => { $('sum').textContent = String((await request('tools/call', { name: 'add', arguments: { a: 2, b: 3 } })).structuredContent.sum) })
  shown('read', async () => { $('note').textContent = (await request('resources/read', { uri: 'docs://note' })).contents[0].text })
  shown('hidden', async () => { await request('tools/call', { name: 'secret', arguments: {} }) })
  shown('link', async () => { await request('ui/open-link', { url: 'https://example.com/docs' }) })
  shown('probe', async () => {
    const seen = []
    try { await fetch('/mcp', { method: 'POST', body: '{}' }); seen.push('fetch allowed') } catch { seen.push('fetch blocked') }
    try { seen.push(parent.document.title === undefined ? 'parent hidden' : 'parent readable') } catch { seen.push('parent blocked') }
    $('probe-out').textContent = seen.join(', ')
  })
  shown('hostile', async () => {
    window.parent.postMessage({ hello: 'not JSON-RPC' }, '*')
    const cyclic = { jsonrpc: '2.0', method: 'notifications/message' }; cyclic.self = cyclic
    window.parent.postMessage(cyclic, '*')
    window.parent.postMessage({ jsonrpc: '2.0', method: 'notifications/message', params: { data: 'x'.repeat(2 * 1024 * 1024) } }, '*')
    await request('sampling/createMessage', { messages: [] })
  })
  request('ui/initialize', { protocolVersion: '2026-01-26', appInfo: { name: 'test-panel', version: '1.0.0' }, appCapabilities: {} }).then((r) => {
    $('status').textContent = 'initialized by ' + r.hostInfo.name + ' ' + r.protocolVersion + ' for ' + r.hostContext.toolInfo.tool.name
    send({ method: 'ui/notifications/initialized', params: {} })
    send({ method: 'notifications/message', params: { level: 'info', data: 'panel ready' } })
  })
</script></body></html>`

const panel = appResource({ uri: 'ui://test/panel', name: 'panel', html, csp: { connectDomains: ['https://api.example.com'] }, prefersBorder: true })
const note = resource({ uri: 'docs://note', name: 'note', read: () => 'a note for the app' })
const sumOut = { type: 'object', properties: { sum: { type: 'number' } }, required: ['sum'] } as const
const twoNumbers = { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] } as const
const add = linkApp(emcp({ name: 'add', description: 'Add two numbers, with a panel.', input: twoNumbers, output: sumOut } as const), panel)
const bump = linkApp(emcp({ name: 'bump', description: 'Only the panel calls this.', input: { type: 'object', properties: {} } } as const), panel, { visibility: ['app'] })
const secret = linkApp(emcp({ name: 'secret', description: 'Only the model calls this.', input: { type: 'object', properties: {} } } as const), panel, { visibility: ['model'] })
const echo = emcp({ name: 'echo', description: 'Echo, no app.', input: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } as const })

const server = mcpServer([add, bump, secret, echo], { name: 'apps-test', version: '1.0.0' }, { apps: [panel], features: [resources([note])] }).implement({
  add: ({ a, b }) => ({ sum: a + b }),
  bump: () => 'bumped',
  secret: () => 'secret',
  echo: ({ text }) => text,
})

describe.skipIf(skipBrowser)('MCP Apps in the playground (Chromium)', () => {
  const served = servedPlayground(server)

  /** Opens `add`'s app and waits until the app has been initialized through the bridge. */
  const openApp = async (era = '2025-11-25'): Promise<{ page: Page; app: FrameLocator }> => {
    const page = await served.open()
    if (era !== '2025-11-25') {
      await page.selectOption('#era', era)
      await page.waitForSelector(`#status.ok:has-text("${era}")`)
    }
    await page.click('#tools button[data-name="add"]')
    const app = page.frameLocator('[data-testid="app-frame"]:visible')
    await app.locator('#status:has-text("initialized")').waitFor()
    return { page, app }
  }

  it.each(['2025-11-25', '2026-07-28'])('renders the app in a sandboxed frame; the app calls add through the bridge and shows 5 (%s)', async (era) => {
    const { page, app } = await openApp(era)
    expect(await app.locator('#status').textContent()).toBe('initialized by emcp-playground 2026-01-26 for add')
    const frame = page.locator('[data-testid="app-frame"]')
    expect(await frame.getAttribute('sandbox')).toBe('allow-scripts allow-forms')
    expect(await frame.getAttribute('src')).toMatch(/^\/__emcp\/sandbox\//)
    await app.locator('#call').click()
    await expect.poll(() => app.locator('#sum').textContent()).toBe('5')
    // the call went through the form's code: its result is rendered by the page too
    expect(await page.locator('[data-testid="app-calls"] .json.number').textContent()).toBe('5')
    await page.locator('#log:has-text("app ui://test/panel: panel ready")').waitFor()
    expect(await page.locator('#log').textContent()).toContain('connect-src https://api.example.com')
    await page.close()
  })

  it('runs the example app (examples/apps.ts): its panel calls add and shows the sum', async () => {
    const example = await serveHttp(appServer, { port: 0, sessions: true, playground: true, handleSignals: false })
    try {
      const page = await openPlayground(served.browser, example.url.replace(/mcp$/, ''))
      await page.click('#tools button[data-name="add"]')
      const app = page.frameLocator('[data-testid="app-frame"]:visible')
      await app.locator('#a').fill('20')
      await app.locator('#b').fill('22')
      await app.locator('button').click()
      await expect.poll(() => app.locator('#sum').textContent()).toBe('42')
      await page.locator('#log:has-text("add-panel ready")').waitFor()
      await screenshot(page, 'app')
      await page.close()
    } finally {
      await example.close()
    }
  })

  it('keeps the generated form for a tool without an app, and tags the linked and app-only tools', async () => {
    const page = await served.open()
    expect(await page.locator('#tools button[data-name="add"] .tag').textContent()).toBe('app')
    expect(await page.locator('#tools button[data-name="bump"] .tag').textContent()).toBe('app only')
    expect(await page.locator('#tools button[data-name="echo"] .tag').count()).toBe(0)
    await page.click('#tools button[data-name="echo"]')
    await page.fill('input[name="text"]', 'hi')
    await page.click('[data-testid="call"]')
    await expect.poll(() => page.locator('[data-testid="result"] pre.text').textContent()).toBe('hi')
    expect(await page.locator('[data-testid="app-frame"]').count()).toBe(0)
    await page.close()
  })

  it('calls the tool as the model would: a fresh frame gets the input, then the result', async () => {
    const { page } = await openApp()
    await page.click('.model-call summary')
    await page.fill('.model-call input[name="a"]', '4')
    await page.fill('.model-call input[name="b"]', '3')
    await page.click('.model-call [data-testid="call"]')
    const fresh = page.frameLocator('[data-testid="app-frame"]:visible')
    await expect.poll(() => fresh.locator('#result').textContent()).toBe('7')
    expect(await fresh.locator('#input').textContent()).toBe('{"a":4,"b":3}')
    // the first frame was asked to end, answered, and is gone
    await expect.poll(() => page.locator('[data-testid="app-frame"]').count()).toBe(1)
    await page.close()
  })

  it('reads a resource for the app, refuses a tool hidden from apps, and offers a link', async () => {
    const { page, app } = await openApp()
    await app.locator('#read').click()
    await expect.poll(() => app.locator('#note').textContent()).toBe('a note for the app')
    await app.locator('#hidden').click()
    await expect.poll(() => app.locator('#error').textContent()).toBe('-32000 tool secret is not callable by apps (its visibility: model)')
    await app.locator('#link').click()
    expect(await page.locator('[data-testid="app-link"]').getAttribute('href')).toBe('https://example.com/docs')
    await page.close()
  })

  it('runs the app on an opaque origin under its own policy: no fetch to the endpoint, no access to the page', async () => {
    const { page, app } = await openApp()
    await app.locator('#probe').click()
    await expect.poll(() => app.locator('#probe-out').textContent()).toBe('fetch blocked, parent blocked')
    await page.close()
  })

  it('refuses hostile messages, logs them, answers the request with an error, and keeps working', async () => {
    const { page, app } = await openApp()
    await app.locator('#hostile').click()
    await expect.poll(() => app.locator('#error').textContent()).toBe('-32601 method "sampling/createMessage" is not one the playground answers for apps')
    const log = page.locator('#log')
    await log.locator(':text("refused a message: not a JSON-RPC 2.0 message")').waitFor()
    await log.locator(':text("refused a message: not JSON")').waitFor()
    await log.locator(':text("refused a message: larger than 1048576 bytes")').waitFor()
    await app.locator('#call').click()
    await expect.poll(() => app.locator('#sum').textContent()).toBe('5')
    await page.close()
  })
})

describe('the sandbox route', () => {
  const head = (path: string, remoteAddress = '127.0.0.1') => ({ method: 'GET', path, remoteAddress, header: (n: string) => (n === 'host' ? '127.0.0.1:3000' : undefined) })
  const segment = (csp: unknown): string => Buffer.from(JSON.stringify(csp)).toString('base64url')

  it('sends the app the policy built from its csp, not the playground\'s', () => {
    const reply = playgroundAnswer()(head(`/__emcp/sandbox/${segment({ connectDomains: ['https://api.example.com'], resourceDomains: ['https://*.cdn.example'] })}`))!
    expect(reply.status).toBe(200)
    const policy = reply.headers['content-security-policy']
    expect(policy).toContain("default-src 'none'")
    expect(policy).toContain('connect-src https://api.example.com;')
    expect(policy).toContain("script-src 'self' 'unsafe-inline' https://*.cdn.example;")
    expect(policy).toContain("frame-src 'none'")
    expect(reply.body).toContain('ui/notifications/sandbox-proxy-ready')
    expect(playgroundAnswer()(head(`/__emcp/sandbox/${segment({})}`))!.headers['content-security-policy']).toContain("connect-src 'none'")
  })

  it('refuses a csp that is not a list of origins, and any address but loopback', () => {
    for (const csp of [{ connectDomains: ["'unsafe-eval'"] }, { connectDomains: ['https://a.example; script-src *'] }, { resourceDomains: '*' }, { other: [] }]) {
      const reply = playgroundAnswer()(head(`/__emcp/sandbox/${segment(csp)}`))!
      expect(reply.status, JSON.stringify(csp)).toBe(400)
    }
    expect(playgroundAnswer()(head('/__emcp/sandbox/!!'))!.status).toBe(400)
    expect(playgroundAnswer()(head(`/__emcp/sandbox/${segment({})}`, '10.0.0.2'))!.status).toBe(403)
  })
})
