/**
 * The sandbox document the playground loads an MCP App into: `/__emcp/sandbox/<csp>`, where
 * `<csp>` is the app resource's `_meta.ui.csp` as base64url JSON. The answer carries the
 * app's own Content-Security-Policy (built from that segment by `appPolicy`), never the
 * playground's, and a tiny loader script. The page frames it with `sandbox="allow-scripts
 * allow-forms"` (no `allow-same-origin`: the frame's origin is opaque, unlike the page's).
 * The loader sends `ui/notifications/sandbox-proxy-ready` to its parent, takes the one
 * `ui/notifications/sandbox-resource-ready` that follows, and writes the app's HTML over
 * itself; `document.open` removes the loader's listener, so from then on the frame's window
 * is the app's, and the app talks to the page directly, as the extension's View does.
 *
 * @example
 * sandboxAnswer('/__emcp/sandbox/eyJjb25uZWN0RG9tYWlucyI6W119')?.headers['content-security-policy']
 */
import { appPolicy, decodeCsp } from '../../features/app-csp.js'
import type { HttpReply } from './model.js'

/** The path prefix of the route. */
export const sandboxPrefix = '/__emcp/sandbox/'

/** The loader: waits for the HTML from its parent (only from it, only once) and writes it over itself. */
const loader = `<!doctype html><html><head><meta charset="utf-8"><title>app</title></head><body><script>
(() => {
  const ready = (e) => {
    if (e.source !== window.parent) return
    const m = e.data
    if (!m || m.jsonrpc !== '2.0' || m.method !== 'ui/notifications/sandbox-resource-ready' || !m.params || typeof m.params.html !== 'string') return
    window.removeEventListener('message', ready)
    document.open()
    document.write(m.params.html)
    document.close()
  }
  window.addEventListener('message', ready)
  window.parent.postMessage({ jsonrpc: '2.0', method: 'ui/notifications/sandbox-proxy-ready', params: {} }, '*')
})()
</script></body></html>`

/** The answer for a path under `sandboxPrefix`: the loader with the app's policy, or 400 when the policy segment is refused. */
export const sandboxAnswer = (path: string): HttpReply | undefined => {
  if (!path.startsWith(sandboxPrefix)) return undefined
  const csp = decodeCsp(path.slice(sandboxPrefix.length))
  if (typeof csp === 'string') return { status: 400, headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' }, body: `emcp: app sandbox: ${csp}` }
  return {
    status: 200,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': appPolicy(csp),
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
    },
    body: loader,
  }
}
