/** Shared by the OAuth tests: a server behind `oauth()` on a port chosen first (its URL is the audience), and demo-client tokens. */
import type { AnyTool, Server } from '../../src/index.js'
import { serveHttp, type RunningHttp } from '../../src/transport/http.js'
import { oauth } from '../../src/auth/index.js'
import { freePort } from '../interop/children.js'

/** Serves `server` with `oauth()` for the issuer `issuer`, the endpoint's own URL as the audience. */
export const serveBehindOAuth = async <U extends AnyTool>(server: Server<U>, issuer: string, scopesSupported: ReadonlyArray<string>): Promise<RunningHttp> => {
  const port = await freePort()
  return serveHttp(server, { port, auth: oauth({ issuer, audience: `http://127.0.0.1:${port}/mcp`, scopesSupported }) })
}

/** A client-credentials token of the demo server's `demo-client` for `resource` and `scope`. */
export const demoToken = async (issuer: string, resource: string, scope: string): Promise<string> => {
  const r = await fetch(`${issuer}/token`, {
    method: 'POST',
    headers: { authorization: `Basic ${Buffer.from('demo-client:demo-secret').toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'client_credentials', scope, resource }).toString(),
  })
  const body = (await r.json()) as { access_token?: string }
  if (r.status !== 200 || body.access_token === undefined) throw new Error(`token endpoint: HTTP ${r.status} ${JSON.stringify(body)}`)
  return body.access_token
}
