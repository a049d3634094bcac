/**
 * An MCP App: the `add` tool linked to a small HTML panel (`ui://calculator/panel`) that a
 * host renders in a sandboxed iframe. The panel talks to the host over postMessage JSON-RPC
 * (`ui/initialize`, then `tools/call`), shows the tool's input and result as the host sends
 * them, can call `add` itself, logs through the host and tells it its height. Over HTTP the
 * playground is served too: open it, pick `add`, and the panel runs in its sandboxed frame. The server declares the `io.modelcontextprotocol/ui`
 * extension, serves the panel as a `text/html;profile=mcp-app` resource and lists
 * `_meta.ui.resourceUri` on `add`.
 *
 *   node dist/examples/apps.js --stdio
 *   node dist/examples/apps.js --http --port 3000 [--host 127.0.0.1]   (playground at http://127.0.0.1:3000/)
 */
import { appResource, emcp, linkApp, mcpServer } from 'emcp'
import { serveHttp } from 'emcp/http'
import { serveStdio } from 'emcp/stdio'
import { addDefinition } from './add.js'
import { portOf, runMain } from './main.js'

/** The panel's document: one file, its script inline (the host's CSP allows no other origin unless `csp` names it). */
const html = `<!doctype html>
<html><head><meta charset="utf-8"><title>Add</title></head>
<body>
  <form id="f"><input id="a" type="number" value="2"> + <input id="b" type="number" value="3"> <button>=</button> <output id="sum"></output></form>
  <script>
    let next = 0; const waiting = new Map()
    const send = (m) => window.parent.postMessage({ jsonrpc: '2.0', ...m }, '*')
    const request = (method, params) => new Promise((resolve, reject) => { const id = ++next; waiting.set(id, { resolve, reject }); send({ id, method, params }) })
    const show = (result) => { document.getElementById('sum').textContent = String(result?.structuredContent?.sum ?? '') }
    window.addEventListener('message', (e) => {
      if (e.source !== window.parent) return
      const m = e.data
      if (m && m.id !== undefined && waiting.has(m.id)) { const w = waiting.get(m.id); waiting.delete(m.id); m.error ? w.reject(m.error) : w.resolve(m.result) }
      else if (m && m.method === 'ui/notifications/tool-input') { document.getElementById('a').value = m.params.arguments.a; document.getElementById('b').value = m.params.arguments.b }
      else if (m && m.method === 'ui/notifications/tool-result') show(m.params)
      else if (m && m.method === 'ui/resource-teardown') send({ id: m.id, result: {} })
    })
    document.getElementById('f').addEventListener('submit', async (e) => {
      e.preventDefault()
      show(await request('tools/call', { name: 'add', arguments: { a: Number(document.getElementById('a').value), b: Number(document.getElementById('b').value) } }))
    })
    request('ui/initialize', { protocolVersion: '2026-01-26', appInfo: { name: 'add-panel', version: '1.0.0' }, appCapabilities: {} })
      .then(() => {
        send({ method: 'ui/notifications/initialized', params: {} })
        send({ method: 'ui/notifications/size-changed', params: { width: document.body.scrollWidth, height: document.body.scrollHeight + 16 } })
        send({ method: 'notifications/message', params: { level: 'info', data: 'add-panel ready' } })
      })
  </script>
</body></html>`

/** The app: served as a resource; hosts render it in a sandboxed iframe. */
export const panel = appResource({ uri: 'ui://calculator/panel', name: 'add-panel', title: 'Add, with a panel', html, prefersBorder: true })

/** `add`, linked to the panel, callable by the model and by the panel. */
export const add = linkApp(emcp(addDefinition), panel, { visibility: ['model', 'app'] })

/** The server: a link to an app missing from `apps` would not compile. */
export const appServer = mcpServer([add], { name: 'calculator-app', version: '1.0.0', title: 'Calculator with an app' }, { apps: [panel] }).implement({
  add: ({ a, b }) => ({ sum: a + b }),
})

export default appServer

const usage = `The calculator with an MCP App (add, linked to ui://calculator/panel).

  node dist/examples/apps.js [--stdio]                                over stdio (the default)
  node dist/examples/apps.js --http [--port 3000] [--host 127.0.0.1]  over Streamable HTTP, with the playground at /`

const options = { stdio: { type: 'boolean' }, http: { type: 'boolean' }, port: { type: 'string' }, host: { type: 'string', default: '127.0.0.1' } } as const

runMain(import.meta.url, { usage, options }, async ({ http, port, host }) => {
  if (http !== true) {
    await serveStdio(appServer)
    return
  }
  const running = await serveHttp(appServer, { port: portOf(port, 3000), host, sessions: true, playground: true })
  console.log(`calculator-app MCP server listening on ${running.url}; its app is ui://calculator/panel; playground at ${running.url.replace(/mcp$/, '')}. Press Ctrl+C to stop.`)
})
